#!/usr/bin/env bats
# The reference mini-apps (workflows/apps). Every app runs at 1 (where valid), 4, 9 and 16 ranks:
# the MPI calls and bytes in the tracer's profile (ladder trace, then ladder inspect --counts) must
# equal the app's --expect table; strong-scaling checksums must agree across rank counts and with
# the tracer loaded; bad options and impossible rank counts must exit 2 with one message.
# Runs are cached per file in $BATS_FILE_TMPDIR, so later tests reuse earlier runs.

load helper

APPS_BIN="$BUILD_DIR/apps"
ALL_APPS="stencil1d stencil2d stencil3d sweep cg ft is mw phases"

load app_options

ranks_of() {
	if [ "$1" = mw ]; then echo "2 4 9 16"; else echo "1 4 9 16"; fi
}

# run MODE P APP ARGS...: the RESULT line of one run (MODE: plain or traced); with `traced` the
# profile's counts are in "$(run_file traced P APP ARGS...).counts". Fails unless stdout is exactly
# one RESULT line.
run_file() {
	printf '%s/' "$BATS_FILE_TMPDIR" && printf '%s_' "$@" | tr -c 'A-Za-z0-9_.-' '_'
}
result() {
	local mode=$1 P=$2 app=$3 f
	f=$(run_file "$@")
	shift 3
	if [ ! -s "$f.result" ]; then
		local pre=()
		[ "$mode" = traced ] && pre=("$LADDER" --quiet trace -o "$f.h5" --)
		if ! "${pre[@]}" mpirun --oversubscribe --allow-run-as-root -np "$P" "$APPS_BIN/$app" "$@" \
			> "$f.out" 2> "$f.err"; then
			echo "$app at $P ranks ($mode) failed:" >&2
			cat "$f.err" >&2
			return 1
		fi
		if [ "$(wc -l < "$f.out")" -ne 1 ] ||
			! grep -Eq "^RESULT app=$app ranks=$P scaling=(strong|weak) size=[0-9]+ iterations=[0-9]+ time=[0-9.]+ compute=[0-9.]+ checksum=[0-9a-f]{16}\$" "$f.out"; then
			echo "$app at $P ranks: stdout is not one RESULT line:" >&2
			cat "$f.out" >&2
			return 1
		fi
		if [ "$mode" = traced ] && ! "$LADDER" inspect --counts "$f.h5" > "$f.counts"; then
			echo "$app at $P ranks: cannot read the profile of $f.h5" >&2
			return 1
		fi
		mv "$f.out" "$f.result"
	fi
	cat "$f.result"
}

checksum() { sed -n 's/.* checksum=\([0-9a-f]*\)$/\1/p'; }
data_rows() { grep -E $'^([0-9]+|all)\t' "$1" | LC_ALL=C sort; }
# per-function totals over ranks, as --expect prints them for mw
totals() {
	awk -F'\t' '{c[$2] += $3; s[$2] += $4; r[$2] += $5}
		END {for (f in c) printf "all\t%s\t%.0f\t%.0f\t%.0f\n", f, c[f], s[f], r[f]}' | LC_ALL=C sort
}

# counts_match P APP ARGS...: a traced run's profile counts equal --expect's (totals for mw)
counts_match() {
	local P=$1 app=$2 f
	shift 2
	result traced "$P" "$app" "$@" > /dev/null || return 1
	f=$(run_file traced "$P" "$app" "$@")
	"$APPS_BIN/$app" --expect --ranks "$P" "$@" > "$f.expect" || return 1
	[ "$(data_rows "$f.expect" | wc -l)" -gt 0 ] || { echo "$app: empty --expect table" >&2; return 1; }
	[ "$(data_rows "$f.counts" | wc -l)" -gt 0 ] || { echo "$app: no counts in the profile" >&2; return 1; }
	if [ "$app" = mw ]; then
		diff <(data_rows "$f.counts" | totals) <(data_rows "$f.expect") >&2
	else
		diff <(data_rows "$f.counts") <(data_rows "$f.expect") >&2
	fi || { echo "$app at $P ranks ($*): traced (<) and expected (>) differ" >&2; return 1; }
}

check_ladder() {
	local app=$1 P
	for P in $(ranks_of "$app"); do
		# shellcheck disable=SC2046
		counts_match "$P" "$app" $(args_of "$app")
	done
}

check_strong_checksums() {
	local app=$1 P first="" c
	for P in $(ranks_of "$app"); do
		# shellcheck disable=SC2046
		c=$(result plain "$P" "$app" $(args_of "$app") | checksum)
		[ -n "$c" ]
		[ -z "$first" ] && first=$c
		[ "$c" = "$first" ] || { echo "$app: checksum $c at $P ranks, $first at $(ranks_of "$app" | cut -d' ' -f1)" >&2; return 1; }
	done
}

@test "stencil1d: calls and bytes per rank equal --expect at 1, 4, 9, 16 ranks" { check_ladder stencil1d; }
@test "stencil1d: strong-scaling checksum is the same at 1, 4, 9, 16 ranks" { check_strong_checksums stencil1d; }
@test "stencil2d: calls and bytes per rank equal --expect at 1, 4, 9, 16 ranks" { check_ladder stencil2d; }
@test "stencil2d: strong-scaling checksum is the same at 1, 4, 9, 16 ranks" { check_strong_checksums stencil2d; }
@test "stencil3d: calls and bytes per rank equal --expect at 1, 4, 9, 16 ranks" { check_ladder stencil3d; }
@test "stencil3d: strong-scaling checksum is the same at 1, 4, 9, 16 ranks" { check_strong_checksums stencil3d; }
@test "sweep: calls and bytes per rank equal --expect at 1, 4, 9, 16 ranks" { check_ladder sweep; }
@test "sweep: strong-scaling checksum is the same at 1, 4, 9, 16 ranks" { check_strong_checksums sweep; }
@test "cg: calls and bytes per rank equal --expect at 1, 4, 9, 16 ranks" { check_ladder cg; }
@test "cg: strong-scaling checksum is the same at 1, 4, 9, 16 ranks" { check_strong_checksums cg; }
@test "ft: calls and bytes per rank equal --expect at 1, 4, 9, 16 ranks" { check_ladder ft; }
@test "ft: strong-scaling checksum is the same at 1, 4, 9, 16 ranks" { check_strong_checksums ft; }
@test "is: calls and bytes per rank equal --expect at 1, 4, 9, 16 ranks" { check_ladder is; }
@test "is: strong-scaling checksum is the same at 1, 4, 9, 16 ranks" { check_strong_checksums is; }
@test "mw: total calls and bytes equal --expect at 2, 4, 9, 16 ranks" { check_ladder mw; }
@test "mw: strong-scaling checksum is the same at 2, 4, 9, 16 ranks" { check_strong_checksums mw; }
@test "phases: calls and bytes per rank equal --expect at 1, 4, 9, 16 ranks" { check_ladder phases; }
@test "phases: strong-scaling checksum is the same at 1, 4, 9, 16 ranks" { check_strong_checksums phases; }

@test "the tracer does not change any app's result checksum" {
	for app in $ALL_APPS; do
		for P in $(ranks_of "$app"); do
			# shellcheck disable=SC2046
			a=$(result plain "$P" "$app" $(args_of "$app") | checksum)
			# shellcheck disable=SC2046
			b=$(result traced "$P" "$app" $(args_of "$app") | checksum)
			[ -n "$a" ] && [ "$a" = "$b" ] || { echo "$app at $P ranks: $a plain, $b traced" >&2; return 1; }
		done
	done
}

@test "stencil variants (periodic, Sendrecv, manual neighbours) match --expect; the data only depends on the boundary" {
	for app in stencil1d stencil2d stencil3d; do
		base=$(args_of "$app")
		# shellcheck disable=SC2086
		plain=$(result traced 9 "$app" $base | checksum)
		declare -A sum=()
		for v in --periodic --sendrecv --manual-neighbours "--manual-neighbours --periodic --sendrecv"; do
			# shellcheck disable=SC2086
			counts_match 9 "$app" $base $v
			# shellcheck disable=SC2086
			sum[$v]=$(result traced 9 "$app" $base $v | checksum)
		done
		[ "${sum[--sendrecv]}" = "$plain" ]
		[ "${sum[--manual-neighbours]}" = "$plain" ]
		[ "${sum[--manual-neighbours --periodic --sendrecv]}" = "${sum[--periodic]}" ]
		[ "${sum[--periodic]}" != "$plain" ]
	done
}

@test "butterfly, mgcoarse, uneven, cannon: calls and bytes per rank equal --expect at 4, 8 or 9, 16 ranks" {
	for nb in "" --manual-neighbours; do
		for P in 4 8 16; do counts_match "$P" butterfly --scaling weak --size 64 --iterations 2 $nb; done
		counts_match 16 butterfly --scaling strong --size 1024 --iterations 2 $nb
		for P in 4 9 16; do
			counts_match "$P" mgcoarse --scaling weak --size 16 --iterations 2 $nb
			counts_match "$P" uneven --size 50 --iterations 2 $nb
			counts_match "$P" cannon --size 48 --iterations 2 $nb
		done
	done
}

@test "mpart (floor(sqrt P) cells) and mpart --array-dims 4 (floor(cbrt P)): calls and bytes equal --expect at 4, 8, 9" {
	for P in 4 8 9; do
		counts_match "$P" mpart --scaling weak --size 16 --iterations 2
		counts_match "$P" mpart --scaling weak --size 16 --iterations 2 --array-dims 4
	done
	usage_error mpart "--array-dims expects 3 or 4" --expect --ranks 4 --array-dims 5
}

@test "weak scaling: every app's calls and bytes equal --expect at 4 ranks" {
	for app in $ALL_APPS; do
		# shellcheck disable=SC2046
		counts_match 4 "$app" $(args_of "$app" | sed 's/--size [0-9]*/--size 12/') --scaling weak
	done
}

@test "sweep with an explicit --grid, and stencils without Allreduce, match --expect" {
	counts_match 4 sweep --size 8 --iterations 2 --kblock 3 --grid 4x1
	counts_match 4 stencil2d --size 16 --iterations 3 --allreduce-every 0
}

@test "the comparison can fail: counts differ from --expect for other options, checksums for other data" {
	f=$(run_file traced 4 stencil2d $(args_of stencil2d))
	counts_match 4 stencil2d $(args_of stencil2d)
	# one iteration more: call counts differ
	"$APPS_BIN/stencil2d" --expect --ranks 4 $(args_of stencil2d) --iterations 6 > "$f.other"
	run diff <(data_rows "$f.counts") <(data_rows "$f.other")
	assert_failure 1
	# periodic boundaries: the same calls, only bytes differ
	"$APPS_BIN/stencil2d" --expect --ranks 4 $(args_of stencil2d) --periodic > "$f.other"
	diff <(data_rows "$f.counts" | cut -f1-3) <(data_rows "$f.other" | cut -f1-3)
	run diff <(data_rows "$f.counts") <(data_rows "$f.other")
	assert_failure 1
	# the checksum follows the data
	a=$(result plain 1 stencil2d $(args_of stencil2d) | checksum)
	b=$(result plain 1 stencil2d $(args_of stencil2d) --iterations 4 | checksum)
	[ "$a" != "$b" ]
}

@test "--expect's process grids equal MPI_Dims_create up to 4096 ranks" {
	run mpirun_n 1 "$BUILD_DIR/tests/apps-dims-check" 4096
	assert_success
	assert_output --regexp '^ok [0-9]+$'
}

@test "every app: --help exits 0 on stdout and lists the common options" {
	for app in $ALL_APPS; do
		run --separate-stderr "$APPS_BIN/$app" --help
		assert_success
		[ -z "$stderr" ]
		for o in --scaling --size --iterations --compute --expect --ranks; do
			assert_output --partial -- "$o"
		done
	done
}

# usage_error APP MESSAGE ARGS...: exit 2, nothing on stdout, one stderr line naming the app and MESSAGE
usage_error() {
	local app=$1 msg=$2
	shift 2
	run --separate-stderr "$APPS_BIN/$app" "$@"
	[ "$status" -eq 2 ] || { echo "$app $*: exit $status, expected 2" >&2; return 1; }
	[ -z "$output" ] || { echo "$app $*: stdout: $output" >&2; return 1; }
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] && [[ $stderr == "$app: "*"$msg"* ]] ||
		{ echo "$app $*: stderr '$stderr', expected '$app: ...$msg...'" >&2; return 1; }
}

@test "every app rejects bad options with exit 2 and one message (in --expect mode)" {
	for app in $ALL_APPS; do
		usage_error "$app" "unknown option '--frobnicate'" --expect --ranks 4 --frobnicate
		usage_error "$app" "'--size' needs a value" --expect --ranks 4 --size
		usage_error "$app" "--size expects an integer" --expect --ranks 4 --size 12x
		usage_error "$app" "--iterations expects an integer" --expect --ranks 4 --iterations -3
		usage_error "$app" "--compute expects an integer" --expect --ranks 4 --compute lots
		usage_error "$app" "--scaling expects strong or weak, got 'linear'" --expect --ranks 4 --scaling linear
		usage_error "$app" "unexpected argument 'extra'" --expect --ranks 4 extra
		usage_error "$app" "--expect needs --ranks P" --expect
		usage_error "$app" "--ranks is only used with --expect" --ranks 4
	done
	usage_error stencil2d "--allreduce-every expects an integer" --expect --ranks 4 --allreduce-every x
	usage_error sweep "--grid expects PXxPY" --expect --ranks 4 --grid 4by1
	usage_error is "--imbalance expects a number in [0, 100], got '-1'" --expect --ranks 4 --imbalance -1
	usage_error phases "--switch-at expects an integer" --expect --ranks 4 --switch-at soon
	usage_error cg "unknown option '--periodic'" --expect --ranks 4 --periodic
}

@test "every app rejects impossible rank counts with exit 2 and one message (in --expect mode)" {
	usage_error stencil1d "--size 10 is not divisible by the 4 process grid" --expect --ranks 4 --size 10
	usage_error stencil2d "--size 10 is not divisible by the 3x3 process grid" --expect --ranks 9 --size 10
	usage_error stencil3d "--size 10 is not divisible by the 4x2x2 process grid" --expect --ranks 16 --size 10
	usage_error sweep "--grid 3x2 needs 6 ranks, not 4" --expect --ranks 4 --grid 3x2
	usage_error sweep "--size 10 is not divisible by the 3x3 process grid" --expect --ranks 9 --size 10
	usage_error cg "needs a square number of ranks" --expect --ranks 8
	usage_error cg "--size 10 is not divisible by q = 3" --expect --ranks 9 --size 10
	usage_error ft "--size 10 is not divisible by the 4 ranks" --expect --ranks 4 --size 10
	usage_error is "needs at most 1048576 ranks" --expect --ranks 2000000
	usage_error mw "needs at least 2 ranks" --expect --ranks 1
	usage_error phases "--size 10 is not divisible by the 4 ranks" --expect --ranks 4 --size 10
	usage_error phases "--switch-at 9 is beyond --iterations 4" --expect --ranks 4 --iterations 4 --switch-at 9
	# weak scaling lifts the stencils' divisibility rule
	run "$APPS_BIN/stencil2d" --expect --ranks 9 --size 10 --scaling weak
	assert_success
}

# mpirun_usage_error P APP MESSAGE ARGS...: under mpirun, exit 2 and the app's message exactly once
mpirun_usage_error() {
	local P=$1 app=$2 msg=$3
	shift 3
	run --separate-stderr mpirun_n "$P" "$APPS_BIN/$app" "$@"
	[ "$status" -eq 2 ] || { echo "$app $* at $P ranks: exit $status, expected 2; $stderr" >&2; return 1; }
	[ -z "$output" ] || { echo "$app at $P ranks: stdout: $output" >&2; return 1; }
	[ "$(grep -c "^$app: " <<< "$stderr")" -eq 1 ] && grep -qF -- "$msg" <<< "$stderr" ||
		{ echo "$app $* at $P ranks: expected '$msg' once from rank 0; stderr: $stderr" >&2; return 1; }
}

@test "under mpirun, impossible rank counts and bad options exit 2 with one message from rank 0" {
	mpirun_usage_error 4 stencil1d "--size 10 is not divisible by the 4 process grid" --size 10
	mpirun_usage_error 9 stencil2d "--size 10 is not divisible by the 3x3 process grid" --size 10
	mpirun_usage_error 9 stencil3d "--size 10 is not divisible by the 3x3x1 process grid" --size 10
	mpirun_usage_error 4 sweep "--grid 3x2 needs 6 ranks, not 4" --grid 3x2
	mpirun_usage_error 2 cg "needs a square number of ranks (a q x q process grid), got 2"
	mpirun_usage_error 4 ft "--size 10 is not divisible by the 4 ranks" --size 10
	mpirun_usage_error 1 mw "needs at least 2 ranks (a master and a worker), got 1"
	mpirun_usage_error 4 phases "--size 10 is not divisible by the 4 ranks" --size 10
	mpirun_usage_error 4 is "unknown option '--frobnicate'" --frobnicate
	mpirun_usage_error 4 stencil2d "option '--iterations' needs a value" --iterations
}
