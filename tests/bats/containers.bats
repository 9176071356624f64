#!/usr/bin/env bats
# Containers: run and campaign containers from real traced runs, the schema, inspect / decode /
# validate / merge / import, and every kind of bad input each command can meet (containers built to
# be hostile, and every reader command on them: hostile.bats).

load helper

setup_file() {
	export DIR="$BATS_FILE_TMPDIR"
	cd "$DIR"
	# a real traced run (4 ranks) and a small ladder of the same app
	"$LADDER" --quiet trace -o run.h5 --raw raw -- mpirun -np 4 "$BUILD_DIR/apps/stencil2d" --iterations 20
	for np in 2 4; do
		for rep in 1 2; do
			"$LADDER" --quiet trace -o "p$np-r$rep.h5" --label "rung=$np" --label "repetition=$rep" -- \
				mpirun -np "$np" "$BUILD_DIR/apps/stencil1d" --iterations 10
		done
	done
	"$LADDER" --quiet trace -o other.h5 -- mpirun -np 2 "$BUILD_DIR/apps/ft" --size 64 --iterations 2
	"$LADDER" --quiet trace -o mislabelled.h5 --label rung=3 -- mpirun -np 2 "$BUILD_DIR/apps/stencil1d" --iterations 10
}

# bad input: exit 1, exactly one line on stderr naming the file, no HDF5 error stack
one_line_error() {
	local cmd=$1 file=$2 expect=$3
	shift 3
	run --separate-stderr "$LADDER" $cmd "$@" "$file"
	assert_failure 1
	[ "$(printf '%s\n' "$stderr" | grep -c .)" -eq 1 ] || { echo "stderr: $stderr"; return 1; }
	[[ $stderr == *"$file"* ]] || { echo "stderr does not name $file: $stderr"; return 1; }
	[[ $stderr == *"$expect"* ]] || { echo "stderr lacks '$expect': $stderr"; return 1; }
	[[ $stderr != *HDF5-DIAG* && $output != *HDF5-DIAG* ]]
}

damaged_files() {
	cd "$DIR"
	rm -rf bad && mkdir bad
	: > bad/empty.h5
	mkdir bad/dir.h5
	echo "not a container" > bad/text.h5
	"$BUILD_DIR/tests/h5edit" foreign bad/foreign.h5
	head -c $(($(stat -c %s run.h5) / 2)) run.h5 > bad/truncated.h5
	cp run.h5 bad/missing.h5 && "$BUILD_DIR/tests/h5edit" delete bad/missing.h5 /trace/signatures
	cp run.h5 bad/newer.h5 && "$BUILD_DIR/tests/h5edit" attr bad/newer.h5 schema_version 9.0
	cp run.h5 bad/absurd.h5 && "$BUILD_DIR/tests/h5edit" attr bad/absurd.h5 schema_version 1.99999999999999999999
	cp run.h5 bad/trailing.h5 && "$BUILD_DIR/tests/h5edit" attr bad/trailing.h5 schema_version 1.0-beta
	cp run.h5 bad/flipped.h5
	read -r off size < <("$BUILD_DIR/tests/h5edit" offset run.h5 /trace/rule_symbols)
	"$BUILD_DIR/tests/h5edit" flip bad/flipped.h5 $((off + size / 2)) 8
	cmp -s run.h5 bad/flipped.h5 && { echo "flipping changed nothing"; return 1; }
	return 0
}

@test "a traced run is a valid run container with self-explanatory names" {
	cd "$DIR"
	run "$LADDER" validate run.h5
	assert_success
	run h5dump -H run.h5
	for name in signatures signature_values rules rule_symbols groups ranklists streams histograms histogram_bins \
		group_histograms cpu_time callpaths counts time_stats schema_version command; do
		assert_output --partial "\"$name\""
	done
}

@test "inspect summarizes a run: ranks, calls per function, groups" {
	cd "$DIR"
	run "$LADDER" inspect run.h5
	assert_success
	assert_line --regexp '^ranks +4$'
	assert_output --partial "MPI_Irecv"
	assert_output --partial "group  ranks"
	run "$LADDER" inspect --json run.h5
	assert_success
	[ "$(echo "$output" | jq .ranks)" -eq 4 ]
	# calls reported = lines decoded
	calls=$(echo "$output" | jq .calls)
	[ "$calls" -eq "$("$LADDER" decode run.h5 | grep -vc '^#')" ]
}

@test "decode gives back the raw log of every rank, in text and in JSON" {
	cd "$DIR"
	for r in 0 1 2 3; do
		"$LADDER" decode --rank "$r" run.h5 > "dec-$r.txt"
		cmp "dec-$r.txt" "raw/rank-$r.log"
	done
	"$LADDER" decode --format json run.h5 > all.json
	jq -e . all.json > /dev/null
	[ "$(jq '[.ranks[].events | length] | add' all.json)" -eq "$(cat raw/rank-*.log | wc -l)" ]
	[ "$(jq -r '.ranks[1].events[0].fn' all.json)" = "$(head -1 raw/rank-1.log | cut -d' ' -f1)" ]
	run "$LADDER" decode --rank 9 run.h5
	assert_failure 1
	assert_output --partial "rank 9 does not exist"
}

@test "decode --grammar prints the groups' rules" {
	cd "$DIR"
	run "$LADDER" decode --grammar run.h5
	assert_success
	assert_output --partial "# group 0"
	assert_output --regexp 'R0 ->'
}

@test "every command refuses every kind of bad file with one line and exit 1" {
	damaged_files
	cd "$DIR"
	for cmd in inspect decode validate; do
		one_line_error $cmd bad/nothere.h5 "No such file or directory"
		one_line_error $cmd bad/dir.h5 "is a directory"
		one_line_error $cmd bad/empty.h5 "is empty"
		one_line_error $cmd bad/text.h5 "is not an HDF5 file"
		one_line_error $cmd bad/foreign.h5 "not a ladder container"
		one_line_error $cmd bad/truncated.h5 "truncated or damaged"
		one_line_error $cmd bad/newer.h5 "schema version 9.0"
		one_line_error $cmd bad/absurd.h5 "no valid schema_version (found '1.99999999999999999999'"
		one_line_error $cmd bad/trailing.h5 "no valid schema_version (found '1.0-beta'"
	done
	one_line_error inspect bad/missing.h5 "missing dataset trace/signatures"
	one_line_error decode bad/missing.h5 "missing dataset trace/signatures"
	one_line_error decode bad/flipped.h5 "damaged"
	one_line_error inspect bad/flipped.h5 "damaged"
	run --separate-stderr "$LADDER" merge -o bad/c.h5 bad/foreign.h5
	assert_failure 1
	[[ $stderr == *"bad/foreign.h5"*"not a ladder container"* ]]
	one_line_error model bad/text.h5 "is not an HDF5 file"
}

@test "many labels are read in one pass (not once per label)" {
	cd "$DIR"
	mkdir -p hostile
	cp run.h5 hostile/labels20k.h5
	"$BUILD_DIR/tests/h5edit" labels hostile/labels20k.h5 20000
	# the quadratic reader took minutes for 5,000 labels; the timeout only catches that
	run timeout 120 "$LADDER" inspect --json hostile/labels20k.h5
	assert_success
	[ "$(printf '%s' "$output" | grep -o '"label[0-9]*":' | wc -l)" -eq 20000 ]
	[[ $output == *'"label000000":"label000000"'*'"label019999":"label019999"'* ]]
}

@test "--debug shows the HDF5 error stack" {
	damaged_files
	cd "$DIR"
	run --separate-stderr "$LADDER" --debug decode bad/truncated.h5
	assert_failure 1
	[[ $stderr == *HDF5* ]]
}

@test "validate lists every violation and fails only for the bad files" {
	damaged_files
	cd "$DIR"
	"$BUILD_DIR/tests/h5edit" delete bad/missing.h5 /timing/group_histograms
	run --separate-stderr "$LADDER" validate run.h5 bad/missing.h5
	assert_failure 1
	[[ $stderr == *"bad/missing.h5: /trace/signatures is missing"* ]]
	[[ $stderr == *"bad/missing.h5: /timing/group_histograms is missing"* ]]
	# the good file is reported valid, with no violation
	printf '%s\n' "$stderr" | grep -qx "run.h5: valid"
	[ "$(printf '%s\n' "$stderr" | grep -c '^run.h5: /')" -eq 0 ]
	run "$LADDER" validate bad/flipped.h5
	assert_failure 1
	assert_output --partial "damaged"
}

@test "CPU times above the wall time or negative: validate and every reader refuse them, naming the row" {
	cd "$DIR"
	mkdir -p bad
	local h="$BUILD_DIR/tests/h5edit"
	cp run.h5 bad/cpu-above.h5 && "$h" set bad/cpu-above.h5 /timing/histograms 0 cpu_sum 1.0
	cp run.h5 bad/cpu-negative.h5 && "$h" set bad/cpu-negative.h5 /timing/histogram_bins 0 cpu_min -1e-3
	cp run.h5 bad/cpu-nan.h5 && "$h" set bad/cpu-nan.h5 /timing/histograms 1 cpu_max nan
	for cmd in validate inspect decode; do
		one_line_error $cmd bad/cpu-above.h5 "/timing/histograms: row 0: cpu_sum 1 exceeds sum"
		one_line_error $cmd bad/cpu-negative.h5 "/timing/histogram_bins: row 0: cpu_min is -0.001 (must be finite, non-negative seconds)"
		one_line_error $cmd bad/cpu-nan.h5 "/timing/histograms: row 1: cpu_max is nan"
	done
}

@test "a container of schema 1.0 (timing without CPU times) still reads, validates and says it has no CPU times" {
	cd "$DIR"
	"$BUILD_DIR/tests/runv1" run.h5 old.h5
	h5ls old.h5/timing/gaps > /dev/null && ! h5ls old.h5/timing/histograms > /dev/null 2>&1
	run "$LADDER" validate old.h5
	assert_success
	run "$LADDER" inspect old.h5
	assert_success
	assert_output --partial "ladder-run 1.0"
	assert_output --partial "(CPU times: none)"
	# the same gaps and wall times as the 2.0 file, CPU times equal to them
	"$LADDER" inspect --timing --json run.h5 | jq -c '[.gaps[] | [.group, .previous, .call, .count, .wall_mean_s]]' > new.rows
	"$LADDER" inspect --timing --json old.h5 | jq -c '[.gaps[] | [.group, .previous, .call, .count, .wall_mean_s]]' > old.rows
	cmp new.rows old.rows
	[ "$("$LADDER" inspect --timing --json old.h5 | jq '[.gaps[] | select(.cpu_mean_s != .wall_mean_s)] | length')" -eq 0 ]
	"$LADDER" decode old.h5 | cmp - <("$LADDER" decode run.h5)
}

@test "a run container refuses to be a campaign and vice versa" {
	cd "$DIR"
	"$LADDER" --quiet merge -o c.h5 p2-r1.h5 p4-r1.h5
	one_line_error decode c.h5 "is a campaign container, expected a run container"
	one_line_error model run.h5 "is a run container, expected a campaign container"
}

@test "merge builds a valid campaign of links with rungs and repetitions" {
	cd "$DIR"
	run "$LADDER" merge -o ladder.h5 p4-r2.h5 p2-r1.h5 p4-r1.h5 p2-r2.h5
	assert_success
	run "$LADDER" validate ladder.h5
	assert_success
	run "$LADDER" inspect --json ladder.h5
	assert_success
	[ "$(echo "$output" | jq -c '[.runs[] | [.ranks, .repetition]]')" = '[[2,1],[2,2],[4,1],[4,2]]' ]
	run h5ls ladder.h5/runs/p4
	assert_output --partial "External Link"
	# --copy: one self-contained file
	"$LADDER" --quiet merge --copy -o copy.h5 p2-r1.h5 p4-r1.h5
	run h5ls copy.h5/runs/p2
	refute_output --partial "External Link"
}

@test "merge refuses mixed applications, contradicting labels and duplicates" {
	cd "$DIR"
	run --separate-stderr "$LADDER" merge -o x.h5 p2-r1.h5 other.h5
	assert_failure 1
	[[ $stderr == *"other.h5: traced application 'ft'"*"'stencil1d'"* ]]
	run --separate-stderr "$LADDER" merge -o x.h5 p2-r1.h5 mislabelled.h5
	assert_failure 1
	[[ $stderr == *"mislabelled.h5: is labelled rung 3 but recorded 2 ranks"* ]]
	run --separate-stderr "$LADDER" merge -o x.h5 p2-r1.h5 p2-r1.h5
	assert_failure 1
	[[ $stderr == *"is repetition 1 of the 2-rank rung"* ]]
	[ ! -e x.h5 ]
}

@test "import converts a raw trace and refuses a damaged one" {
	cd "$DIR"
	LADDER_TRACE_CONVERT=0 LADDER_TRACE_FILE="$DIR/kept.h5" mpirun_n 2 -x LD_PRELOAD="$BUILD_DIR/lib/libladder-trace.so" \
		-x LADDER_TRACE_CONVERT -x LADDER_TRACE_FILE "$BUILD_DIR/apps/stencil1d" --iterations 5 > /dev/null
	[ -s kept.h5.raw ]
	[ ! -e kept.h5 ]
	run "$LADDER" import kept.h5.raw -o kept.h5
	assert_success
	"$LADDER" validate kept.h5
	head -c 300 kept.h5.raw > cut.raw
	run --separate-stderr "$LADDER" import cut.raw -o cut.h5
	assert_failure 1
	[[ $stderr == *"cut.raw: truncated"* ]]
	[ ! -e cut.h5 ]
	# an endless input is refused before it is read (memory capped at 1 GB: reading it all would
	# exhaust it)
	run --separate-stderr bash -c "ulimit -v 1000000; timeout 20 \"\$0\" import /dev/zero -o zero.h5" "$LADDER"
	assert_failure 1
	[[ $stderr == *"/dev/zero: is a character device, not a regular file"* ]]
	[ ! -e zero.h5 ]
}

@test "the schema is printed for people from the same YAML the validator reads" {
	run "$LADDER" schema run
	assert_success
	for path in $(awk '/^  - path:/ {print $3}' "$TOP/hdf5-schema/run.yaml"); do
		assert_output --partial "### \`$path\`"
	done
	run "$LADDER" schema --yaml campaign
	assert_success
	diff <(echo "$output") "$TOP/hdf5-schema/campaign.yaml"
	run "$LADDER" schema nosuch
	assert_failure 2
}

@test "containers of run schema 1.0 (one literal value stream per rank) still decode, inspect, validate and replay" {
	cd "$DIR"
	# value streams of every form: split colours and keys as laws of the rank (cg), wildcard
	# sources and data-dependent counts per rank (mw)
	"$LADDER" --quiet trace -o cg.h5 -- mpirun -np 4 "$BUILD_DIR/apps/cg" --size 48 --iterations 4
	"$LADDER" --quiet trace -o mw.h5 -- mpirun -np 4 "$BUILD_DIR/apps/mw" --size 60 --iterations 2 --compute 20
	for app in cg mw; do
		"$BUILD_DIR/tests/runv1" $app.h5 $app-1.0.h5
		h5dump -a /schema_version $app-1.0.h5 | grep -q '"1.0"'
		h5dump -H -d /trace/streams $app-1.0.h5 | grep -q '"rank"'
		run "$LADDER" inspect $app-1.0.h5
		assert_success
		assert_output --partial "(ladder-run 1.0)"
		[ "$("$LADDER" inspect --json $app-1.0.h5 | jq .streamed_values)" = "$("$LADDER" inspect --json $app.h5 | jq .streamed_values)" ]
		run "$LADDER" validate $app-1.0.h5
		assert_success
		cmp <("$LADDER" decode $app-1.0.h5) <("$LADDER" decode $app.h5)
		"$LADDER" compare --strict $app-1.0.h5 $app.h5
		"$LADDER" --quiet replay --quiet --trace $app-replay.h5 $app-1.0.h5 > /dev/null
		"$LADDER" compare --strict $app-replay.h5 $app.h5
	done
	# the 1.0 layout's streams are one per rank, the current layout's shared: cg's colours and keys
	# are one stream of laws for all four ranks
	[ "$(h5ls cg-1.0.h5/trace/streams | grep -o '{[0-9]*' | tr -d '{')" -gt "$(h5ls cg.h5/trace/streams | grep -o '{[0-9]*' | tr -d '{')" ]
	h5ls cg.h5/trace/stream_laws > /dev/null
	# a file that says 1.0 but holds the current layout is refused, naming what is wrong
	cp cg.h5 liar.h5 && "$BUILD_DIR/tests/h5edit" attr liar.h5 schema_version 1.0
	one_line_error decode liar.h5 "trace/streams lacks field 'rank'"
	# versions beyond are refused with what this ladder reads
	cp cg.h5 future.h5 && "$BUILD_DIR/tests/h5edit" attr future.h5 schema_version 3.0
	one_line_error decode future.h5 "reads versions 1.x to 2.x (upgrade ladder)"
}
