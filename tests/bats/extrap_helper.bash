# Helpers of the extrapolation suites (extrap.bats, extrap_patterns.bats): real traced ladders in
# $BATS_FILE_TMPDIR, each trace made once per file, and the check that an extrapolated run equals
# the real run at its target.

APPS_BIN="$BUILD_DIR/apps"
T=${LADDER_TEST_TIMEOUT:-300}

# trace NAME P APP ARGS...: $BATS_FILE_TMPDIR/NAME-P.h5 of APP ARGS at P ranks, traced once
# ($TRACE_OPTIONS: options of ladder trace)
trace() {
	local name=$1 P=$2 app=$3 f="$BATS_FILE_TMPDIR/$1-$2.h5"
	shift 3
	if [ ! -s "$f" ]; then
		# shellcheck disable=SC2086
		timeout "$T" "$LADDER" --quiet trace ${TRACE_OPTIONS:-} -o "$f" -- mpirun --oversubscribe -np "$P" \
			"$APPS_BIN/$app" "$@" > "$f.out" 2> "$f.err" || { cat "$f.err" >&2; return 1; }
	fi
	echo "$f"
}

# ladder NAME "P..." APP ARGS...: the campaign $BATS_FILE_TMPDIR/NAME.h5 of those rungs (the
# traces of campaign $TRACES when set)
ladder() {
	local name=$1 rungs=$2 c="$BATS_FILE_TMPDIR/$1.h5" runs=() P
	shift 2
	for P in $rungs; do runs+=("$(trace "${TRACES:-$name}" "$P" "$@")"); done
	[ -s "$c" ] || "$LADDER" merge -o "$c" "${runs[@]}" > /dev/null 2>&1
	echo "$c"
}

# matches NAME TARGET APP ARGS...: extrapolate NAME's campaign to TARGET and compare it with the
# real run, event by event and by counts; the extrap output is left in
# $BATS_FILE_TMPDIR/NAME-eTARGET.out
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
