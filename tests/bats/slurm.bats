#!/usr/bin/env bats
# The local Slurm test cluster (tests/slurm/up, down, restart-ctld): real munged, slurmctld and
# two virtual slurmd nodes; MPI across nodes with srun --mpi=pmix; libslurm submission with an
# afterok dependency; failed jobs; two clusters at once; teardown leaves nothing behind.

load helper
load slurm_helper

setup_file() {
	slurm_up
}

teardown_file() {
	slurm_down
}

# a second cluster started inside a test is torn down here if the test fails
teardown() {
	if [ -n "${OTHER_ROOT:-}" ]; then "$SLURM_HARNESS/down" "$OTHER_ROOT" || true; fi
}

@test "up: both nodes idle, controller and nodes on the cluster's own ports" {
	run sinfo -h -N -o '%N %T %c'
	assert_success
	assert_line "n1 idle 32"
	assert_line "n2 idle 32"
	[ "${#lines[@]}" -eq 2 ]
	[ "$SLURM_CONF" = "$LADDER_SLURM_ROOT/etc/slurm.conf" ]
	read -r base last < "$LADDER_SLURM_ROOT/ports"
	[ "$last" -eq $((base + 2)) ]
	listening=$(slurm_listening_ports)
	for p in $(seq "$base" "$last"); do
		grep -qx "$p" <<< "$listening"
	done
	grep -qx "SlurmctldPort=$base" "$SLURM_CONF"
}

@test "a 2-node srun --mpi=pmix job of an MPI program exits 0 with a line from every rank" {
	dir=$LADDER_SLURM_ROOT/hello
	mkdir -p "$dir"
	cat > "$dir/job.sh" <<-EOF
	#!/bin/bash
	# shared memory between virtual nodes on one host crashes; set here, not via --export
	export OMPI_MCA_btl=self,tcp
	srun --mpi=pmix "$BUILD_DIR/tests/mpi_hello"
	EOF
	id=$(slurm_sbatch -N 2 --ntasks-per-node=4 -o "$dir/out" "$dir/job.sh")
	run slurm_wait_job "$id" 60
	assert_output COMPLETED
	[ "$(slurm_job_field "$id" ExitCode)" = "0:0" ]
	[ "$(slurm_job_field "$id" NodeList)" = "n[1-2]" ]
	run grep -c '^hello rank ' "$dir/out"
	assert_output 8
	for r in 0 1 2 3 4 5 6 7; do
		grep -qx "hello rank $r of 8 on n[12]" "$dir/out"
	done
	# both nodes ran ranks: 4 each
	[ "$(grep -c ' on n1$' "$dir/out")" -eq 4 ]
	[ "$(grep -c ' on n2$' "$dir/out")" -eq 4 ]
	grep -qx 'sum 0+..+7 = 28' "$dir/out"
}

@test "a 64-task job fits on the two nodes; a 65-task job is refused at submit" {
	id=$(slurm_sbatch -N 2 -n 64 -o "$LADDER_SLURM_ROOT/fit.out" \
		--wrap 'echo nodes=$SLURM_JOB_NUM_NODES tasks=$SLURM_NTASKS')
	run slurm_wait_job "$id" 30
	assert_output COMPLETED
	grep -qx 'nodes=2 tasks=64' "$LADDER_SLURM_ROOT/fit.out"
	run sbatch -N 2 -n 65 --wrap true
	assert_failure
	assert_output --partial "More processors requested than permitted"
}

@test "libslurm: job B with afterok:A starts only after A has ended" {
	dir=$LADDER_SLURM_ROOT/afterok
	mkdir -p "$dir"
	run "$BUILD_DIR/tests/submit_afterok" --sleep 2 --dir "$dir"
	assert_success
	assert_line "B pending on dependency while A running: yes"
	assert_line "B started while A unfinished: no"
	a=$(awk '$1 == "A" && $3 ~ /^state=/ {print $2}' <<< "$output")
	b=$(awk '$1 == "B" && $3 ~ /^state=/ {print $2}' <<< "$output")
	assert_line --regexp "^A $a state=COMPLETED exit=0 start=[0-9]+ end=[0-9]+$"
	assert_line --regexp "^B $b state=COMPLETED exit=0 start=[0-9]+ end=[0-9]+ dependency=afterok:$a$"
	a_start=$(sed -n "s/^A .* start=\([0-9]*\) end=\([0-9]*\).*/\1/p" <<< "$output")
	a_end=$(sed -n "s/^A .* end=\([0-9]*\).*/\1/p" <<< "$output")
	b_start=$(sed -n "s/^B .* start=\([0-9]*\) .*/\1/p" <<< "$output")
	# A slept 2 s, so B starting with A (ignoring the dependency) would fail this
	[ "$a_end" -ge $((a_start + 2)) ]
	[ "$b_start" -ge "$a_end" ]
	# the same from the controller's records, independently of the program
	[ "$(slurm_job_state "$a")" = COMPLETED ]
	[ "$(slurm_job_state "$b")" = COMPLETED ]
	a_end_iso=$(slurm_job_field "$a" EndTime)
	b_start_iso=$(slurm_job_field "$b" StartTime)
	[ "$(date -d "$b_start_iso" +%s)" -ge "$(date -d "$a_end_iso" +%s)" ]
	[ "$(date -d "$a_end_iso" +%s)" -eq "$a_end" ]
}

@test "afterok on a failed job is never satisfied" {
	a=$(slurm_sbatch -o /dev/null --wrap 'exit 1')
	b=$(slurm_sbatch -o /dev/null --dependency="afterok:$a" --wrap true)
	run slurm_wait_job "$a" 30
	assert_output FAILED
	# the controller marks B once it re-evaluates dependencies
	deadline=$((SECONDS + 10))
	until [ "$(slurm_job_field "$b" Reason)" = DependencyNeverSatisfied ]; do
		[ $SECONDS -lt $deadline ] || { scontrol show job -o "$b"; false; }
		sleep 0.1
	done
	[ "$(slurm_job_state "$b")" = PENDING ]
	scancel "$b"
}

@test "a job that exits 3 is FAILED with exit code 3, also in the jobcomp record" {
	id=$(slurm_sbatch -o /dev/null --wrap 'exit 3')
	run slurm_wait_job "$id" 30
	assert_output FAILED
	[ "$(slurm_job_exit_code "$id")" = 3 ]
	[ "$(slurm_job_field "$id" ExitCode)" = "3:0" ]
	run grep "^JobId=$id " "$LADDER_SLURM_ROOT/log/jobcomp.txt"
	assert_success
	assert_output --partial "JobState=FAILED"
	assert_output --partial " ExitCode=3:0"
}

@test "restart-ctld: a running job survives a controller restart and completes" {
	id=$(slurm_sbatch -o /dev/null --wrap 'sleep 2')
	slurm_wait_state "$id" RUNNING 30
	"$SLURM_HARNESS/restart-ctld" --stop "$LADDER_SLURM_ROOT"
	run scontrol ping
	assert_output --partial "DOWN"
	"$SLURM_HARNESS/restart-ctld" --start "$LADDER_SLURM_ROOT"
	run slurm_wait_job "$id" 30
	assert_output COMPLETED
	run sinfo -h -N -o '%N %T'
	assert_line "n1 idle"
	assert_line "n2 idle"
}

@test "a second cluster runs beside the first; a purged job resolves from jobcomp; down leaves nothing" {
	read -r base1 last1 < "$LADDER_SLURM_ROOT/ports"
	# ask for the first cluster's ports: up must notice they are taken and pick others
	out=$(LADDER_SLURM_PORT_BASE=$base1 "$SLURM_HARNESS/up" --nodes 2 --min-job-age 2 --owner $$)
	OTHER_ROOT=$(sed -n 's/^export LADDER_SLURM_ROOT=//p' <<< "$out")
	[ -d "$OTHER_ROOT" ]
	[ "$OTHER_ROOT" != "$LADDER_SLURM_ROOT" ]
	read -r base2 last2 < "$OTHER_ROOT/ports"
	[ "$last2" -lt "$base1" ] || [ "$base2" -gt "$last1" ]

	other() { SLURM_CONF=$OTHER_ROOT/etc/slurm.conf LADDER_SLURM_ROOT=$OTHER_ROOT "$@"; }
	run other sinfo -h -N -o '%N %T'
	assert_line "n1 idle"
	assert_line "n2 idle"
	id=$(other slurm_sbatch -o /dev/null --wrap true)
	run other slurm_wait_job "$id" 30
	assert_output COMPLETED
	grep -q "^JobId=$id .*JobState=COMPLETED" "$OTHER_ROOT/log/jobcomp.txt"
	# MinJobAge=2, but the controller purges at most every 10 s
	deadline=$((SECONDS + 25))
	while other scontrol show job -o "$id" > /dev/null 2>&1; do
		[ $SECONDS -lt $deadline ] || { echo "job $id not purged" >&2; false; }
		sleep 0.2
	done
	run other slurm_job_state "$id"
	assert_output COMPLETED
	run other slurm_job_exit_code "$id"
	assert_output 0

	pids=$(cat "$OTHER_ROOT"/run/*.pid)
	[ "$(wc -w <<< "$pids")" -eq 5 ]         # munged, slurmctld, 2 slurmd, watchdog
	"$SLURM_HARNESS/down" "$OTHER_ROOT"
	[ ! -e "$OTHER_ROOT" ]
	[ ! -e "/tmp/ladder-slurm-ports/$base2" ]
	for p in $pids; do
		# gone, or a zombie waiting for init to reap it
		if [ -e "/proc/$p/stat" ]; then
			[ "$(awk '{print $3}' "/proc/$p/stat")" = Z ]
		fi
	done
	listening=$(slurm_listening_ports)
	for p in $(seq "$base2" "$last2"); do
		if grep -qx "$p" <<< "$listening"; then echo "port $p still listens" >&2; false; fi
	done
	# idempotent
	"$SLURM_HARNESS/down" "$OTHER_ROOT"
	OTHER_ROOT=
	# the first cluster is untouched
	run sinfo -h -N -o '%N %T'
	assert_line "n1 idle"
	assert_line "n2 idle"
}

@test "down cleans up a cluster whose controller died while a job ran" {
	out=$("$SLURM_HARNESS/up" --nodes 1 --cpus 4 --owner $$)
	OTHER_ROOT=$(sed -n 's/^export LADDER_SLURM_ROOT=//p' <<< "$out")
	other() { SLURM_CONF=$OTHER_ROOT/etc/slurm.conf LADDER_SLURM_ROOT=$OTHER_ROOT "$@"; }
	id=$(other slurm_sbatch -o /dev/null --wrap 'srun sleep 300')
	other slurm_wait_state "$id" RUNNING 30
	# wait for the step (srun -> slurmstepd -> sleep)
	deadline=$((SECONDS + 10))
	until other scontrol show step -o "$id.0" 2>/dev/null | grep -q 'State=RUNNING'; do
		[ $SECONDS -lt $deadline ] || false
		sleep 0.1
	done
	ctld=$(cat "$OTHER_ROOT/run/slurmctld.pid")
	kill -KILL "$ctld"
	# the job's processes: the batch shell, srun and the sleep task, all of this cluster
	tasks=$(grep -lzx "SLURM_CONF=$OTHER_ROOT/etc/slurm.conf" /proc/[0-9]*/environ 2>/dev/null \
		| xargs -r grep -lzx "SLURM_JOB_ID=$id" 2>/dev/null | cut -d/ -f3 || true)
	[ "$(wc -w <<< "$tasks")" -ge 3 ]
	"$SLURM_HARNESS/down" "$OTHER_ROOT"
	[ ! -e "$OTHER_ROOT" ]
	for p in $tasks; do
		if [ -e "/proc/$p/stat" ]; then [ "$(awk '{print $3}' "/proc/$p/stat")" = Z ]; fi
	done
	OTHER_ROOT=
}

@test "up refuses bad options and a root that holds a cluster" {
	run "$SLURM_HARNESS/up" --nodes x
	assert_failure
	assert_output --partial "--nodes wants a number"
	run "$SLURM_HARNESS/up" --bogus
	assert_failure 2
	run "$SLURM_HARNESS/up" --root "$LADDER_SLURM_ROOT"
	assert_failure
	assert_output --partial "already holds a cluster"
	run "$SLURM_HARNESS/down" /tmp
	assert_failure
	assert_output --partial "does not look like a cluster root"
	[ -d /tmp ]
}
