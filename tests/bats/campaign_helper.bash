# tests/bats/campaign_helper.bash — shared by the campaign*.bats suites.
#
#   camp_dir NAME            a fresh scratch directory for a campaign (under BATS_FILE_TMPDIR)
#   camp_state DIR JOB FIELD one field of a job in DIR/state.json (jq), e.g. state, id, attempts
#   camp_counter DIR NAME    a counter of DIR/state.json (queries, submissions, ...)
#   camp_wait_state DIR JOB STATE [SECONDS]   wait until the job reaches STATE in the state file
#   camp_wait_count DIR STATE N [SECONDS]     wait until at least N jobs are in STATE
#   small_workflow FILE [KEY=VALUE...]        write a small workflow (stencil2d, rungs 1 and 4,
#                                             1 repetition) with overrides: ladder=, reps=,
#                                             app= (the command), name=, stages=
#   STENCIL2D_JOBS           jobs of workflows/stencil2d.yaml on the local and example-production
#                            sites: 12 runs (rungs 1, 4, 9, 16 x 3 repetitions), the truth run at
#                            64, the merge, the model, extrap, replay and proxy (at 64) and report
#                            stages
#   STENCIL2D_JOBS_SLURM_LOCALHOST   the same on slurm-localhost (2 nodes of 8 ranks), which cannot
#                            host 64 ranks: no truth run, no replay and no proxy at 64
#   stencil2d_jobs SITE      the constant of the site config named SITE

CAMP_FIX="$TOP/tests/campaign"

camp_dir() {
	local d="$BATS_FILE_TMPDIR/$1"
	rm -rf "$d"
	printf '%s\n' "$d"
}

camp_state() {
	jq -r --arg j "$2" ".jobs[] | select(.name == \$j) | .$3" "$1/state.json"
}

STENCIL2D_JOBS=19
STENCIL2D_JOBS_SLURM_LOCALHOST=16

stencil2d_jobs() {
	case $1 in
	slurm-localhost) printf '%s\n' "$STENCIL2D_JOBS_SLURM_LOCALHOST" ;;
	*) printf '%s\n' "$STENCIL2D_JOBS" ;;
	esac
}

camp_counter() {
	jq -r ".counters.$2" "$1/state.json"
}

camp_wait_state() {
	local dir=$1 job=$2 want=$3 limit=${4:-60} deadline s
	deadline=$((SECONDS + limit))
	while :; do
		s=$(camp_state "$dir" "$job" state 2>/dev/null || true)
		[ "$s" = "$want" ] && return 0
		if [ $SECONDS -ge $deadline ]; then
			echo "camp_wait_state: $job is '$s' after ${limit}s, wanted $want" >&2
			return 1
		fi
		sleep 0.1
	done
}

camp_wait_count() {
	local dir=$1 want=$2 n=$3 limit=${4:-60} deadline c
	deadline=$((SECONDS + limit))
	while :; do
		c=$(jq --arg s "$want" '[.jobs[] | select(.state == $s)] | length' "$dir/state.json" 2>/dev/null || echo 0)
		[ "${c:-0}" -ge "$n" ] && return 0
		if [ $SECONDS -ge $deadline ]; then
			echo "camp_wait_count: $c jobs $want after ${limit}s, wanted $n" >&2
			return 1
		fi
		sleep 0.1
	done
}

small_workflow() {
	local file=$1 name=small ladder='[1, 4]' reps=1 stages='[]'
	local app='"{prefix}/apps/stencil2d --size 48 --iterations 5"'
	shift
	local kv
	for kv in "$@"; do
		case $kv in
		name=*) name=${kv#name=} ;;
		ladder=*) ladder=${kv#ladder=} ;;
		reps=*) reps=${kv#reps=} ;;
		app=*) app=${kv#app=} ;;
		stages=*) stages=${kv#stages=} ;;
		*) echo "small_workflow: unknown $kv" >&2; return 1 ;;
		esac
	done
	cat > "$file" <<-EOF
	name: $name
	app:
	  command: $app
	ladder: $ladder
	size: 48
	repetitions: $reps
	stages: $stages
	EOF
}
