# tests/bats/slurm_helper.bash — run a bats file against a private local Slurm cluster.
#
#   load helper
#   load slurm_helper
#   setup_file()    { slurm_up; }            # options are passed to tests/slurm/up
#   teardown_file() { slurm_down; }
#
# slurm_up starts a cluster with tests/slurm/up and exports SLURM_CONF and LADDER_SLURM_ROOT to
# every test of the file. Teardown is guaranteed three ways: teardown_file runs after failed
# tests and on Ctrl-C (bats traps INT); SIGTERM/SIGHUP are turned into an exit, which runs bats'
# EXIT trap and so teardown_file; and if the bats process dies without any of that (SIGKILL),
# the watchdog that `up --owner` starts tears the cluster down within a second.
#
# Job helpers (all take a job id; they use `scontrol show job -o`, and the jobcomp file once the
# controller has purged the job):
#   slurm_sbatch ARGS...          sbatch --parsable ARGS; prints the job id
#   slurm_job_field ID FIELD      one field of the job record, e.g. JobState, ExitCode, StartTime
#   slurm_job_state ID            JobState (COMPLETING while the nodes still clean up)
#   slurm_job_exit_code ID        the exit status of the batch script (3 for ExitCode=3:0)
#   slurm_wait_job ID [SECONDS]   wait until the job is final and settled (default 60 s);
#                                 prints the final state; status 1 on timeout
#   slurm_wait_state ID STATE [SECONDS]  wait until the job is in STATE (e.g. RUNNING)
# and slurm_listening_ports: every TCP port something listens on, one per line.

SLURM_HARNESS="$TOP/tests/slurm"

# slurm_up [up options...]: start the cluster for this file
slurm_up() {
	local out
	out=$("$SLURM_HARNESS/up" --owner "$$" "$@") || return 1
	eval "$out"
	export SLURM_CONF LADDER_SLURM_ROOT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
}

# slurm_down: stop the cluster of this file (no-op when there is none)
slurm_down() {
	[ -n "${LADDER_SLURM_ROOT:-}" ] || return 0
	"$SLURM_HARNESS/down" "$LADDER_SLURM_ROOT"
}

slurm_listening_ports() {
	bash -c '. "$1/lib.sh" && listening_ports' _ "$SLURM_HARNESS"
}

slurm_sbatch() {
	sbatch --parsable "$@" | cut -d';' -f1
}

# the job record as one line: from the controller, else from the jobcomp file
_slurm_job_record() {
	local id=$1 line
	if line=$(scontrol show job -o "$id" 2>/dev/null) && [ -n "$line" ]; then
		printf '%s\n' "$line"
		return 0
	fi
	[ -n "${LADDER_SLURM_ROOT:-}" ] && grep -m1 "^JobId=$id " "$LADDER_SLURM_ROOT/log/jobcomp.txt" 2>/dev/null
}

slurm_job_field() {
	_slurm_job_record "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n1
}

slurm_job_state() { slurm_job_field "$1" JobState; }

slurm_job_exit_code() {
	local ec
	ec=$(slurm_job_field "$1" ExitCode)
	[ -n "$ec" ] || return 1
	echo "${ec%%:*}"
}

_slurm_final() {
	case $1 in
	COMPLETED|CANCELLED|FAILED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY) return 0 ;;
	esac
	return 1
}

slurm_wait_job() {
	local id=$1 limit=${2:-60} state deadline
	deadline=$((SECONDS + limit))
	while :; do
		state=$(slurm_job_state "$id" || true)
		if _slurm_final "$state"; then
			echo "$state"
			return 0
		fi
		if [ $SECONDS -ge $deadline ]; then
			echo "slurm_wait_job: job $id not final after ${limit}s (state '${state:-unknown}')" >&2
			return 1
		fi
		sleep 0.1
	done
}

slurm_wait_state() {
	local id=$1 want=$2 limit=${3:-60} state deadline
	deadline=$((SECONDS + limit))
	while state=$(slurm_job_state "$id" || true); [ "$state" != "$want" ]; do
		if [ $SECONDS -ge $deadline ] || { _slurm_final "$state" && ! _slurm_final "$want"; }; then
			echo "slurm_wait_state: job $id is '${state:-unknown}', wanted $want" >&2
			return 1
		fi
		sleep 0.05
	done
}
