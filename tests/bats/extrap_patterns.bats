#!/usr/bin/env bats
# Extrapolation of codes that decompose by hand (ladder extrap on ownhalo): grids in the code's own
# axis order and factorisation found from the peers of every rung, the target's grid from the
# code's rule (said in the output and the label grid_rule), non-periodic 27-point halos on
# cube-only rank counts, communicators that are world or no grid dimension. Each ladder's largest
# rung is at most 27; the extrapolated runs are compared event by event (ladder compare) and by
# calls and bytes per rank and function (compare --counts) with real traced runs.

load helper

APPS_BIN="$BUILD_DIR/apps"
T=${LADDER_TEST_TIMEOUT:-300}

# trace NAME P ARGS...: $BATS_FILE_TMPDIR/NAME-P.h5 of ownhalo ARGS, traced once
trace() {
	local name=$1 P=$2 f="$BATS_FILE_TMPDIR/$1-$2.h5"
	shift 2
	if [ ! -s "$f" ]; then
		timeout "$T" "$LADDER" --quiet trace -o "$f" -- mpirun --oversubscribe -np "$P" "$APPS_BIN/ownhalo" "$@" \
			> "$f.out" 2> "$f.err" || { cat "$f.err" >&2; return 1; }
	fi
	echo "$f"
}

# ladder NAME "P..." ARGS...: the campaign $BATS_FILE_TMPDIR/NAME.h5 of those rungs
ladder() {
	local name=$1 rungs=$2 c="$BATS_FILE_TMPDIR/$1.h5" runs=() P
	shift 2
	for P in $rungs; do runs+=("$(trace "$name" "$P" "$@")"); done
	[ -s "$c" ] || "$LADDER" merge -o "$c" "${runs[@]}" > /dev/null 2>&1
	echo "$c"
}

# matches NAME TARGET ARGS...: extrapolate NAME's campaign to TARGET, compare with the real run;
# the extrap output is left in $BATS_FILE_TMPDIR/NAME-e$TARGET.out
matches() {
	local name=$1 target=$2 c="$BATS_FILE_TMPDIR/$1.h5" e="$BATS_FILE_TMPDIR/$1-e$2.h5" real
	shift 2
	real=$(trace "$name" "$target" "$@")
	run "$LADDER" extrap "$c" --target "$target" -o "$e"
	echo "$output" > "$BATS_FILE_TMPDIR/$name-e$target.out"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"extrapolated"* && "$output" != *"note:"* && "$output" != *"not replayable"* ]] ||
		{ echo "$output"; return 1; }
	run "$LADDER" compare "$e" "$real"
	[ "$status" -eq 0 ] && [[ "$output" == *"equal:"* ]] || { echo "$name at $target ranks:"; echo "$output"; return 1; }
	run "$LADDER" compare --counts "$e" "$real"
	[ "$status" -eq 0 ] && [[ "$output" == *"equal:"* ]] ||
		{ echo "$name at $target ranks (counts):"; echo "$output"; return 1; }
}

X2="--dims 2 --order x-fastest --scaling weak --size 4 --iterations 2 --allreduce-every 2"

@test "2-D grid laid 2 rows x 4 columns at 8 ranks (x fastest, largest last): 4, 8, 12, 16 to 48 and 64" {
	# shellcheck disable=SC2086
	ladder x2 "4 8 12 16" $X2 > /dev/null
	# shellcheck disable=SC2086
	matches x2 48 $X2
	# shellcheck disable=SC2086
	matches x2 64 $X2
	grep -q "grid 6x8: balanced factors, largest last" "$BATS_FILE_TMPDIR/x2-e48.out"
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/x2-e48.h5"
	[[ "$output" == *"grid=6x8"* && "$output" == *"grid_rule=balanced factors, largest last"* ]]
}
