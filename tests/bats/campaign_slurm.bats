#!/usr/bin/env bats
# ladder campaign on a real Slurm cluster (tests/slurm, 2 virtual nodes of 8 CPUs, so that at most
# 16 ranks run at once on this machine): the stencil2d campaign submitted in one go with afterok
# dependencies visible in scontrol; a failing run, its dependants cancelled, retry; the driver
# killed with SIGKILL and resumed; a lost submission adopted by its comment; the controller
# stopped and restarted mid-campaign; a requeued job followed.

load helper
load slurm_helper
load campaign_helper

setup_file() {
	# a crashed rank leaves a core in its job's directory, kept with the logs (teardown)
	ulimit -c unlimited 2> /dev/null || true
	slurm_up --cpus 8
	export SITE="$TOP/site-configs/slurm-localhost.yaml"
}

teardown_file() {
	slurm_down
}

teardown() {
	# a test that failed half-way must not leave the partition down for the next one
	scontrol update PartitionName=debug State=UP 2> /dev/null || true
	# a failed test keeps its campaigns' job logs, which go with the test's temporary directory
	# (a traced run at 9 ranks has ended with exit status 139, seldom: its log tells where)
	if [ -z "${BATS_TEST_COMPLETED:-}" ]; then
		local keep="$BUILD_DIR/test-artifacts/campaign_slurm/$BATS_TEST_NUMBER" d
		for d in "$BATS_FILE_TMPDIR"/*/logs; do
			[ -d "$d" ] || continue
			mkdir -p "$keep/$(basename "$(dirname "$d")")"
			cp -r "$d" "$keep/$(basename "$(dirname "$d")")/"
			echo "# job logs kept in $keep" >&3
		done
		keep_core_backtraces "$keep"
		# the failures seen so far (a rank's SIGSEGV, a controller silent for minutes) came while the
		# kernel reported stalls (workqueue lockups, RCU stalls): say so when it did
		dmesg -T 2> /dev/null | grep -E 'workqueue lockup|rcu.*stall' | tail -3 | sed 's/^/# kernel: /' >&3 || true
	fi
}

# every core a crashed rank left under the campaigns' directories: its backtrace (all threads)
# next to the kept logs, so that a rare crash says where it happened
keep_core_backtraces() {
	local keep=$1 core exe
	command -v gdb > /dev/null || return 0
	find "$BATS_FILE_TMPDIR" -name 'core*' -type f 2> /dev/null | while read -r core; do
		exe=$(file -b "$core" | sed -n "s/.*execfn: '\([^']*\)'.*/\1/p")
		mkdir -p "$keep"
		gdb -batch -ex 'thread apply all bt' ${exe:+"$exe"} "$core" \
			> "$keep/backtrace-$(basename "$(dirname "$core")").txt" 2>&1 || true
		echo "# backtrace of $core kept in $keep" >&3
	done
}

@test "slurm: the stencil2d campaign is submitted in one go, dependencies in scontrol, all containers valid" {
	dir=$(camp_dir stencil2d)
	n=$STENCIL2D_JOBS_SLURM_LOCALHOST
	# with the partition down nothing starts, so the dependencies are seen before any is fulfilled
	scontrol update PartitionName=debug State=DOWN
	run "$LADDER" campaign run "$TOP/workflows/stencil2d.yaml" --site "$SITE" --dir "$dir" --no-wait
	assert_success
	assert_output --partial "campaign stencil2d submitted: $n jobs: $n queued"
	[ "$(camp_counter "$dir" submissions)" -eq "$n" ]
	merge=$(camp_state "$dir" merge id)
	dep=$(slurm_job_field "$merge" Dependency)
	for id in $(jq -r '.jobs[] | select(.kind == "run") | .id' "$dir/state.json"); do
		[[ ,$dep, == *"afterok:$id(unfulfilled)"* ]] || { echo "merge $merge: $dep lacks $id"; false; }
	done
	[ "$(slurm_job_field "$merge" JobName)" = stencil2d.merge ]
	p16=$(camp_state "$dir" run-p16-r2 id)
	[[ $(slurm_job_field "$p16" NumNodes) =~ ^2(-2)?$ ]]
	[ "$(slurm_job_field "$p16" NumTasks)" = 16 ]
	[ "$(slurm_job_field "$p16" TimeLimit)" = 00:10:00 ]
	[ "$(slurm_job_field "$p16" StdOut)" = "$dir/logs/run-p16-r2.log" ]
	scontrol update PartitionName=debug State=UP
	run "$LADDER" campaign wait "$dir"
	assert_success
	assert_output --partial "campaign stencil2d completed: $n jobs: $n completed"
	run "$LADDER" validate "$dir/campaign.h5" "$dir"/runs/p*/r*/trace.h5
	assert_success
	[ "$(grep -c ': valid$' <<< "$output")" -eq 13 ]
	# Slurm agrees, and the 16-rank runs spanned both nodes
	for id in $(jq -r '.jobs[].id' "$dir/state.json"); do
		[ "$(slurm_job_state "$id")" = COMPLETED ]
	done
	[ "$(slurm_job_field "$p16" NodeList)" = "n[1-2]" ]
	[ "$(slurm_job_field "$merge" StartTime)" \> "$(slurm_job_field "$(camp_state "$dir" run-p16-r3 id)" EndTime)" ] ||
		[ "$(slurm_job_field "$merge" StartTime)" = "$(slurm_job_field "$(camp_state "$dir" run-p16-r3 id)" EndTime)" ]
	run "$LADDER" campaign status "$dir"
	assert_success
	assert_line --regexp "^merge +COMPLETED +$merge +1 "
}

@test "slurm: submission through sbatch reads the extra #SBATCH lines of the site" {
	dir=$(camp_dir sbatch)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1, 2]'
	site=$BATS_TEST_TMPDIR/site.yaml
	{ cat "$SITE"; printf 'sbatch: ["--nice=7"]\n'; } > "$site"
	run "$LADDER" campaign run "$wf" --site "$site" --dir "$dir"
	assert_success
	assert_output --partial "campaign small completed: 3 jobs: 3 completed"
	[ "$(jq -r .site.submit "$dir/state.json")" = sbatch ]
	grep -qx '#SBATCH --nice=7' "$dir/jobs/merge.sh"
	for job in run-p1-r1 run-p2-r1 merge; do
		id=$(camp_state "$dir" "$job" id)
		[ "$(slurm_job_field "$id" Nice)" = 7 ]
		[ "$(slurm_job_field "$id" Comment)" = "ladder:$(jq -r .campaign.id "$dir/state.json"):$job" ]
	done
	[[ $(slurm_job_field "$(camp_state "$dir" merge id)" JobName) == small.merge ]]
	"$LADDER" validate "$dir/campaign.h5"
}

@test "slurm: a failing run is FAILED with its log, dependants never run; retry completes" {
	dir=$(camp_dir failing)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	flag=$BATS_TEST_TMPDIR/fail-p2
	small_workflow "$wf" ladder='[1, 2]' \
		app="[\"$CAMP_FIX/flaky-app\", \"$BATS_TEST_TMPDIR/fail-p{ranks}\", \"{prefix}/apps/stencil2d\", \"--size\", \"{size}\", \"--iterations\", \"5\"]"
	touch "$flag"
	run "$LADDER" campaign run "$wf" --site "$SITE" --dir "$dir"
	assert_failure 1
	assert_output --partial "failed: run-p2-r1 (exit status 3); log $dir/logs/run-p2-r1.log"
	id=$(camp_state "$dir" run-p2-r1 id)
	[ "$(slurm_job_state "$id")" = FAILED ]
	[ "$(slurm_job_exit_code "$id")" = 3 ]
	grep -q "failing on purpose" "$dir/logs/run-p2-r1.log"
	merge=$(camp_state "$dir" merge id)
	[ "$(camp_state "$dir" merge state)" = SKIPPED ]
	[ "$(slurm_job_state "$merge")" = CANCELLED ]
	[ ! -e "$dir/logs/merge.log" ]
	p1=$(camp_state "$dir" run-p1-r1 id)
	rm "$flag"
	run "$LADDER" campaign retry "$dir"
	assert_success
	assert_output --partial "campaign small completed: 3 jobs: 3 completed"
	[ "$(camp_state "$dir" run-p1-r1 id)" = "$p1" ]
	[ "$(camp_state "$dir" run-p2-r1 id)" != "$id" ]
	[ "$(camp_state "$dir" run-p2-r1 history)" = "$id:FAILED" ]
	[ "$(slurm_job_state "$(camp_state "$dir" merge id)")" = COMPLETED ]
	"$LADDER" validate "$dir/campaign.h5"
}

@test "slurm: the driver killed with SIGKILL mid-campaign; run again completes, nothing resubmitted" {
	dir=$(camp_dir killed)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1, 2]' reps=2 \
		app="[\"$CAMP_FIX/slow-app\", \"3\", \"{prefix}/apps/stencil2d\", \"--size\", \"{size}\", \"--iterations\", \"5\"]"
	"$LADDER" campaign run "$wf" --site "$SITE" --dir "$dir" > "$BATS_TEST_TMPDIR/driver.log" 2>&1 &
	driver=$!
	camp_wait_count "$dir" RUNNING 1 60
	kill -KILL "$driver"
	wait "$driver" || true
	ids=$(jq -r '[.jobs[].id] | join(" ")' "$dir/state.json")
	[ "$(camp_counter "$dir" submissions)" -eq 5 ]
	# Slurm goes on without the driver
	slurm_wait_job "$(camp_state "$dir" merge id)" 120
	run "$LADDER" campaign run "$wf" --site "$SITE" --dir "$dir"
	assert_success
	assert_output --partial "campaign small completed: 5 jobs: 5 completed"
	[ "$(jq -r '[.jobs[].id] | join(" ")' "$dir/state.json")" = "$ids" ]
	[ "$(camp_counter "$dir" submissions)" -eq 5 ]
	[ "$(jq '[.jobs[] | select(.attempts != 1)] | length' "$dir/state.json")" -eq 0 ]
	"$LADDER" validate "$dir/campaign.h5"
}

@test "slurm: a submission the state file lost is adopted by its comment, not submitted twice" {
	dir=$(camp_dir adopt)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1]'
	scontrol update PartitionName=debug State=DOWN
	"$LADDER" -q campaign run "$wf" --site "$SITE" --dir "$dir" --no-wait
	id=$(camp_state "$dir" run-p1-r1 id)
	[ "$(slurm_job_field "$id" Comment)" = "ladder:$(jq -r .campaign.id "$dir/state.json"):run-p1-r1" ]
	# as if the driver had died between submitting the job and recording it
	jq '(.jobs[] | select(.name == "run-p1-r1")) |= (.state = "WAITING" | .id = 0 | .attempts = 0)' \
		"$dir/state.json" > "$dir/state.edit" && mv "$dir/state.edit" "$dir/state.json"
	scontrol update PartitionName=debug State=UP
	run "$LADDER" campaign wait "$dir"
	assert_success
	assert_output --partial "run-p1-r1          adopted Slurm job $id (submitted by an earlier driver)"
	[ "$(camp_state "$dir" run-p1-r1 id)" = "$id" ]
	[ "$(camp_counter "$dir" submissions)" -eq 2 ]
	# one Slurm job carries that comment: the adopted one
	[ "$(squeue -h -t all -o '%k' | grep -c "^ladder:$(jq -r .campaign.id "$dir/state.json"):run-p1-r1\$")" -eq 1 ]
}

@test "slurm: slurmctld stopped and restarted mid-campaign; the campaign completes" {
	dir=$(camp_dir restart)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1, 2]'
	# a build job that only sleeps: it runs, and the runs wait in the queue, while the controller is
	# away (an srun step could not start or end without it)
	sed -i 's/^app:$/app:\n  build: [sleep, "4"]/' "$wf"
	"$LADDER" campaign run "$wf" --site "$SITE" --dir "$dir" > "$BATS_TEST_TMPDIR/driver.log" 2>&1 &
	driver=$!
	camp_wait_state "$dir" build RUNNING 60
	"$SLURM_HARNESS/restart-ctld" --stop "$LADDER_SLURM_ROOT"
	# longer than libslurm's own connection retries (a query blocks up to about 18 s before it
	# fails), so that the driver's polls really fail and are retried
	sleep 22
	"$SLURM_HARNESS/restart-ctld" --start "$LADDER_SLURM_ROOT"
	rc=0
	wait "$driver" || rc=$?
	cat "$BATS_TEST_TMPDIR/driver.log"
	[ "$rc" -eq 0 ]
	grep -q "cannot ask the Slurm controller about the jobs: Unable to contact slurm controller" "$BATS_TEST_TMPDIR/driver.log"
	grep -q "the Slurm controller answers again" "$BATS_TEST_TMPDIR/driver.log"
	grep -q "campaign small completed: 4 jobs: 4 completed" "$BATS_TEST_TMPDIR/driver.log"
	[ "$(camp_counter "$dir" query_errors)" -ge 1 ]
	[ "$(camp_counter "$dir" submissions)" -eq 4 ]
	[ "$(jq '[.jobs[] | select(.attempts != 1)] | length' "$dir/state.json")" -eq 0 ]
	"$LADDER" validate "$dir/campaign.h5"
}

@test "slurm: a requeued job is followed to its end" {
	dir=$(camp_dir requeue)
	wf=$BATS_TEST_TMPDIR/wf.yaml
	small_workflow "$wf" ladder='[1]' \
		app="[\"$CAMP_FIX/slow-app\", \"4\", \"{prefix}/apps/stencil2d\", \"--size\", \"{size}\", \"--iterations\", \"5\"]"
	"$LADDER" campaign run "$wf" --site "$SITE" --dir "$dir" > "$BATS_TEST_TMPDIR/driver.log" 2>&1 &
	driver=$!
	camp_wait_state "$dir" run-p1-r1 RUNNING 60
	id=$(camp_state "$dir" run-p1-r1 id)
	node=$(slurm_job_field "$id" NodeList)
	scontrol requeue "$id"
	# a requeued job gets a begin time two minutes ahead, because its node refuses the job id for a
	# while ("Job credential revoked"): start it now, on the other node
	slurm_wait_state "$id" PENDING 30
	scontrol update JobId="$id" ExcNodeList="$node" StartTime=now
	rc=0
	wait "$driver" || rc=$?
	cat "$BATS_TEST_TMPDIR/driver.log" "$dir/logs/run-p1-r1.log"
	[ "$rc" -eq 0 ]
	cat "$dir/logs/run-p1-r1.log"
	grep -q "run-p1-r1          requeued by Slurm (restart 1); following it" "$BATS_TEST_TMPDIR/driver.log"
	[ "$(camp_state "$dir" run-p1-r1 restarts)" = 1 ]
	[ "$(camp_state "$dir" run-p1-r1 id)" = "$id" ]
	[ "$(slurm_job_field "$id" Restarts)" = 1 ]
	"$LADDER" validate "$dir/campaign.h5"
}
