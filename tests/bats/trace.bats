#!/usr/bin/env bats
# The tracer on real MPI programs: every reference mini-app, LAMMPS and HPCC, robustness cases,
# and the size of traces as rank counts and run lengths grow.

load helper

TRACER="$BUILD_DIR/lib/libladder-trace.so"

setup() {
	cd "$BATS_TEST_TMPDIR"
}

# run APP at NP ranks traced (with the raw log) and untraced; compare decode with the raw log on
# every rank, per-rank counts and bytes with --expect, and the result line's checksum
check_app() {
	local app=$1 np=$2; shift 2
	local d="$BATS_TEST_TMPDIR/$app-$np"
	mkdir -p "$d"
	# a run that hangs (a launcher stuck at start-up) fails the test instead of holding the suite
	timeout -k 10 300 "$LADDER" --quiet trace -o "$d/t.h5" --raw "$d/raw" -- \
		mpirun -np "$np" "$BUILD_DIR/apps/$app" "$@" > "$d/traced.out" || { echo "$app $np: traced run failed ($?)"; return 1; }
	timeout -k 10 300 mpirun -np "$np" "$BUILD_DIR/apps/$app" "$@" > "$d/plain.out" || { echo "$app $np: run failed ($?)"; return 1; }
	local c1 c2
	c1=$(grep -o 'checksum=[0-9a-f]*' "$d/traced.out")
	c2=$(grep -o 'checksum=[0-9a-f]*' "$d/plain.out")
	[ -n "$c1" ] && [ "$c1" = "$c2" ] || { echo "$app $np: checksum $c1 traced, $c2 untraced"; return 1; }
	"$LADDER" validate "$d/t.h5" 2> /dev/null || { "$LADDER" validate "$d/t.h5"; return 1; }
	for ((r = 0; r < np; r++)); do
		"$LADDER" decode --rank "$r" "$d/t.h5" > "$d/dec-$r.txt"
		cmp -s "$d/dec-$r.txt" "$d/raw/rank-$r.log" || {
			echo "$app $np: rank $r decodes differently from its raw log"
			diff "$d/dec-$r.txt" "$d/raw/rank-$r.log" | head -5
			return 1
		}
	done
	"$LADDER" inspect --counts "$d/t.h5" | tail -n +2 | sort > "$d/counts"
	"$BUILD_DIR/apps/$app" --expect --ranks "$np" "$@" | grep -v '^#' | tail -n +2 | sort > "$d/expect"
	if [ "$app" = mw ]; then   # totals only: completion order is not deterministic
		awk -F'\t' '{c[$2]+=$3; s[$2]+=$4; r[$2]+=$5} END {for (f in c) printf "all\t%s\t%d\t%d\t%d\n", f, c[f], s[f], r[f]}' \
			"$d/counts" | sort > "$d/counts.total"
		mv "$d/counts.total" "$d/counts"
	fi
	diff "$d/counts" "$d/expect" || { echo "$app $np: counts differ from --expect"; return 1; }
}

@test "stencil1d, 2d, 3d: decode equals the raw log, counts equal --expect, checksums unchanged" {
	for np in 4 9 16; do
		check_app stencil1d $np --iterations 8
		check_app stencil2d $np --iterations 8
		check_app stencil3d $np --iterations 4 --periodic
	done
	check_app stencil2d 9 --iterations 8 --sendrecv --allreduce-every 3
	check_app stencil3d 16 --iterations 4 --manual-neighbours
}

@test "sweep, cg, ft: decode equals the raw log, counts equal --expect" {
	for np in 4 9 16; do
		check_app sweep $np --iterations 2
		check_app cg $np --iterations 4
		check_app ft $np --size 144 --iterations 2
	done
}

@test "is, mw, phases: data-dependent counts, wildcards, polls: decode equals the raw log" {
	for np in 4 9 16; do
		check_app is $np --iterations 12 --imbalance 50
		check_app mw $np --iterations 2 --size 200
		check_app phases $np --size 144 --iterations 6
	done
	# mw's wildcard receives record where each message came from
	grep -q 'source=ANY_SOURCE@[0-9]' "$BATS_TEST_TMPDIR/mw-4/dec-0.txt"
	# is: Alltoallv counts change every iteration; past 8 variants they are streamed, not new signatures
	[ "$("$LADDER" inspect --json "$BATS_TEST_TMPDIR/is-16/t.h5" | jq .streamed_values)" -gt 0 ]
}

@test "halo27: per-neighbour counts varying by position and iteration: decode equals the raw log, counts equal --expect" {
	for np in 1 8 12; do
		check_app halo27 $np --scaling weak --size 3 --iterations 12 --allreduce-every 5
	done
}

@test "more call sites than the call-site cache: the profile per function equals the program's own tally and the trace" {
	for np in 1 4; do
		mkdir -p "cs-$np"
		"$LADDER" --quiet trace -o "cs-$np/t.h5" -- mpirun -np "$np" "$BUILD_DIR/tests/trace/callsites" "cs-$np" 3
		# over 1,024 distinct call sites were recorded
		[ "$(h5ls "cs-$np/t.h5/trace/callsites" | grep -o "{[0-9]*" | tr -d "{")" -gt 1024 ]
		"$LADDER" inspect --counts "cs-$np/t.h5" | tail -n +2 | sort > "cs-$np/counts"
		cat "cs-$np"/expect-*.tsv | sort > "cs-$np/expect"
		diff "cs-$np/counts" "cs-$np/expect" || { echo "np=$np: profile differs from the tally"; return 1; }
		# validate compares the profile's calls per rank and function with the trace's
		"$LADDER" validate "cs-$np/t.h5"
	done
}

@test "Fortran stencil2d_f (use mpi, mpif.h): decode equals the raw log, counts equal --expect, compare calls it equal to the C stencil" {
	for np in 1 4 9; do
		check_app stencil2d_f $np --size 48 --iterations 6 --allreduce-every 2
		# the same calls and bytes as the C stencil: equal --expect tables, equal profiles
		diff <("$BUILD_DIR/apps/stencil2d_f" --expect --ranks $np --size 48 --iterations 6 --allreduce-every 2 | tail -n +2) \
			<("$BUILD_DIR/apps/stencil2d" --expect --ranks $np --size 48 --iterations 6 --allreduce-every 2 | tail -n +2)
		"$LADDER" --quiet trace -o "c-$np.h5" -- mpirun -np $np "$BUILD_DIR/apps/stencil2d" --size 48 --iterations 6 \
			--allreduce-every 2 > /dev/null
		run "$LADDER" compare --counts "c-$np.h5" "$BATS_TEST_TMPDIR/stencil2d_f-$np/t.h5"
		assert_success
		assert_output --partial "equal:"
		# and the same calls with the same parameters: MPI_DOUBLE_PRECISION is the C MPI_DOUBLE
		run "$LADDER" compare "c-$np.h5" "$BATS_TEST_TMPDIR/stencil2d_f-$np/t.h5"
		assert_success
		assert_output --partial "equal:"
		# the names differ, which --strict tells
		run "$LADDER" compare --strict "c-$np.h5" "$BATS_TEST_TMPDIR/stencil2d_f-$np/t.h5"
		assert_failure 1
		assert_output --partial "MPI_DOUBLE_PRECISION"
	done
	# the Fortran call sites are the application's, not the tracer's: one per halo call at least
	[ "$(h5ls "$BATS_TEST_TMPDIR/stencil2d_f-4/t.h5/trace/callsites" | grep -o "{[0-9]*" | tr -d "{")" -ge 12 ]
}

@test "use mpi_f08: calls are recorded with C handles" {
	"$LADDER" --quiet trace -o f08.h5 -- mpirun -np 2 "$BUILD_DIR/tests/trace/f08"
	"$LADDER" validate f08.h5
	"$LADDER" decode --rank 1 f08.h5 > dec.txt
	grep -q '^MPI_Allreduce .*count=1 datatype=MPI_INTEGER:4 op=MPI_SUM comm=WORLD' dec.txt
	grep -q '^MPI_Isend .*dest=0 tag=5 comm=WORLD' dec.txt
	grep -q '^MPI_Waitall count=2' dec.txt
	[ "$(grep -c . dec.txt)" -eq 8 ]
}

@test "ladder trace: a command that traces nothing fails with the reason; success names the file written" {
	run "$LADDER" trace -o none.h5 -- mpirun -np 2 /bin/true
	assert_failure 1
	assert_output --partial "nothing was traced: no process of 'mpirun' called MPI_Init with the tracer loaded"
	[ ! -e none.h5 ]
	run "$LADDER" trace -- /bin/true
	assert_failure 1
	# without -o the default name is reported, and only a file this run wrote
	run "$LADDER" trace -- mpirun -np 2 "$BUILD_DIR/apps/stencil2d" --iterations 2
	assert_success
	f=$(ls stencil2d-2p-*.h5)
	assert_output --partial "trace written to $f"
}

@test "ladder time: the untraced run's time from MPI_Init to MPI_Finalize, as JSON; nothing traced; failures by name" {
	# a trace file named in the environment is not written: the calls pass through untraced
	LADDER_TRACE_FILE="$BATS_TEST_TMPDIR/none.h5" run "$LADDER" time -o t.json -- \
		mpirun -np 4 "$BUILD_DIR/apps/stencil2d" --iterations 40 --compute 200
	assert_success
	[ ! -e none.h5 ]
	[ ! -e none.h5.raw ]
	[ -z "$(ls ./*.h5 2> /dev/null)" ]
	assert_output --regexp "application time [0-9.]+ s on 4 ranks \(the slowest rank from MPI_Init to MPI_Finalize, untraced\)"
	[ "$(jq .ranks t.json)" -eq 4 ]
	jq -e '.command | test("stencil2d --iterations 40")' t.json
	# the run's time holds the main loop the application timed itself, and not much more
	loop=$(grep -o ' time=[0-9.]*' <<< "$output" | cut -d= -f2)
	total=$(jq .time t.json)
	awk -v l="$loop" -v t="$total" 'BEGIN { exit !(t >= l && t < l + 1) }'
	# the printed time is the file's
	assert_output --partial "application time $(printf '%.6f' "$total") s"
	# failures: nothing timed, the command's own status, an output that cannot be written, usage
	run "$LADDER" time -- mpirun -np 2 /bin/true
	assert_failure 1
	assert_output --partial "no time: no process of 'mpirun' called MPI_Init with the library loaded"
	run "$LADDER" time -- sh -c 'exit 3'
	assert_failure 3
	assert_output --partial "no time: 'sh' exited with status 3"
	run "$LADDER" time -o "$BATS_TEST_TMPDIR/no/such/t.json" -- mpirun -np 2 "$BUILD_DIR/apps/stencil2d"
	assert_failure 1
	assert_output --partial "cannot write the time there: directory $BATS_TEST_TMPDIR/no/such"
	refute_output --partial RESULT
	run "$LADDER" time
	assert_failure 2
	run "$LADDER" time --help
	assert_success
	assert_output --partial "usage: ladder time"
}

@test "MPI_Comm_spawn: the children are not traced and leave the parent's trace alone; mpirun -x works" {
	run "$LADDER" trace -o sp.h5 -- mpirun -np 2 "$BUILD_DIR/tests/trace/spawn"
	assert_success
	assert_output --partial "spawn ok"
	assert_output --partial "the 2 processes started by MPI_Comm_spawn are not traced"
	[ "$("$LADDER" inspect --json sp.h5 | jq .ranks)" -eq 2 ]
	"$LADDER" decode --rank 0 sp.h5 | grep -q '^MPI_Send .*tag=1'
	# the command's own -x options and the tracer's variables reach the processes together
	FOO=bar run "$LADDER" trace -o x.h5 -- mpirun -np 2 -x FOO sh -c 'echo "FOO=$FOO"; exec "$0" --iterations 2' \
		"$BUILD_DIR/apps/stencil2d"
	assert_success
	[ "$(grep -c '^FOO=bar$' <<< "$output")" -eq 2 ]
	assert_output --partial "/x.h5 ("
	"$LADDER" validate x.h5
}

@test "LAMMPS runs traced with unchanged output and its trace decodes" {
	command -v lmp || skip "LAMMPS (lmp) is not installed"
	cp "$TOP/tests/fixtures/lammps/in.lj" .
	run_lmp() { mpirun -np 4 lmp -in in.lj -var x 0.5 -var y 0.5 -var z 0.5 -var steps 100 -log none -screen "$1"; }
	run_lmp plain.out > /dev/null
	"$LADDER" --quiet trace -o lmp.h5 -- bash -c "$(declare -f run_lmp); run_lmp traced.out" > /dev/null
	diff <(grep -E '^ +[0-9]+ +[-0-9.]' plain.out) <(grep -E '^ +[0-9]+ +[-0-9.]' traced.out)
	[ "$(grep -cE '^ +[0-9]+ +[-0-9.]' traced.out)" -ge 2 ]
	"$LADDER" validate lmp.h5
	[ "$("$LADDER" decode lmp.h5 | grep -vc '^#')" -eq "$("$LADDER" inspect --json lmp.h5 | jq .calls)" ]
}

@test "HPCC runs traced with all its checks passing and its trace decodes" {
	command -v hpcc || skip "HPC Challenge (hpcc) is not installed"
	cp "$TOP/tests/fixtures/hpcc/hpccinf.txt" .
	mpirun -np 4 hpcc > /dev/null
	mv hpccoutf.txt plain.txt
	"$LADDER" --quiet trace -o hpcc.h5 -- mpirun -np 4 hpcc > /dev/null
	grep -q "End of HPC Challenge tests" hpccoutf.txt
	[ "$(grep -c PASSED hpccoutf.txt)" -eq "$(grep -c PASSED plain.txt)" ]
	[ "$(grep -c FAILED hpccoutf.txt)" -eq 0 ]
	"$LADDER" validate hpcc.h5
	"$LADDER" decode --rank 3 hpcc.h5 | tail -1 | grep -q MPI_Finalize
}

@test "an application calling MPI_Abort ends with its code and a clear message, no trace" {
	run mpirun -np 2 -x LD_PRELOAD="$TRACER" -x LADDER_TRACE_FILE="$PWD/a.h5" "$BUILD_DIR/tests/trace/abort"
	assert_failure
	assert_output --partial "ladder-trace: MPI_Abort(7) on rank 1: the run ends without a trace"
	[ ! -e a.h5 ]
}

@test "an application that crashes crashes the same way traced, without a hang" {
	mpirun -np 2 "$BUILD_DIR/tests/trace/crash" > plain.out 2>&1 && false || plain=$?
	run timeout 60 mpirun -np 2 -x LD_PRELOAD="$TRACER" -x LADDER_TRACE_FILE="$PWD/c.h5" "$BUILD_DIR/tests/trace/crash"
	[ "$status" -eq "$plain" ]
	assert_output --partial "Segmentation fault"
}

@test "MPI_THREAD_FUNNELED: worker threads, main-thread MPI, same results, valid trace" {
	plain=$(mpirun -np 4 "$BUILD_DIR/tests/trace/funneled")
	traced=$("$LADDER" --quiet trace -o f.h5 -- mpirun -np 4 "$BUILD_DIR/tests/trace/funneled")
	[ "$plain" = "$traced" ]
	[[ $traced == provided=1* ]]
	"$LADDER" validate f.h5
	"$LADDER" decode --rank 0 f.h5 | head -1 | grep -q "MPI_Init_thread required=1 provided=1"
}

@test "an unwritable output directory: one clear message, the application still runs" {
	mkdir ro && chmod 555 ro
	run mpirun -np 4 -x LD_PRELOAD="$TRACER" -x LADDER_TRACE_FILE="$PWD/ro/sub/t.h5" "$BUILD_DIR/apps/stencil2d" --iterations 4
	assert_success
	assert_output --partial "RESULT app=stencil2d"
	[ "$(grep -c 'ladder-trace: cannot write the trace' <<< "$output")" -eq 1 ]
	[ ! -e ro/sub/t.h5 ]
}

@test "an application linking its own HDF5 works with the tracer preloaded" {
	plain=$(mpirun -np 4 "$BUILD_DIR/tests/trace/ownhdf5" plain)
	traced=$("$LADDER" --quiet trace -o h.h5 -- mpirun -np 4 "$BUILD_DIR/tests/trace/ownhdf5" traced)
	[ "$plain" = "$traced" ]
	[[ $traced == *" ok" ]]
	h5dump -d /data traced.2.h5 | grep -q 200
	"$LADDER" validate h.h5
	# the tracer itself does not load HDF5
	! ldd "$TRACER" | grep -q hdf5
}

@test "ladder trace: exit status of the command, labels stored, usage errors" {
	run "$LADDER" trace -o x.h5 --label rung=4 --label size=9 --label 'note=a "quoted" \value' -- \
		mpirun -np 4 "$BUILD_DIR/apps/stencil1d" --iterations 2
	assert_success
	run "$LADDER" inspect --json x.h5
	assert_success
	[ "$(jq -r .labels.rung <<< "$output")" = 4 ]
	[ "$(jq -r .labels.note <<< "$output")" = 'a "quoted" \value' ]
	run "$LADDER" inspect x.h5
	assert_output --partial "labels      note=a \"quoted\" \\value rung=4 size=9"
	run "$LADDER" trace -o y.h5 -- false
	assert_failure 1
	run "$LADDER" trace
	assert_failure 2
	run "$LADDER" trace --label oops -- true
	assert_failure 2
	# a key HDF5 cannot store is refused before the command starts
	run "$LADDER" trace --label =x -- touch started
	assert_failure 2
	[ ! -e started ]
	run "$LADDER" trace --label "a b=x" -- true
	assert_failure 2
	run "$LADDER" trace --callsite-depth 99 -- true
	assert_failure 2
}

# every gap's CPU time at most its wall time (a tolerance for the stored times' rounding)
cpu_within_wall() {
	"$LADDER" inspect --timing --json "$1" |
		jq -e '[.gaps[] | select(.cpu_mean_s > .wall_mean_s * 1.001 + 1e-9 or .cpu_mean_s < 0)] | length == 0' > /dev/null
}

@test "compute gaps: CPU time recorded beside wall time, at most the wall time, at least the app's own compute" {
	local args=(--size 96 --iterations 30 --compute 600) mode
	for mode in auto long off; do
		LADDER_TRACE_CPUTIME=$mode "$LADDER" --quiet trace -o "cpu-$mode.h5" -- \
			mpirun -np 4 "$BUILD_DIR/apps/stencil2d" "${args[@]}" > "cpu-$mode.out"
		"$LADDER" validate "cpu-$mode.h5"
		cpu_within_wall "cpu-$mode.h5"
		"$LADDER" inspect --json "cpu-$mode.h5" | jq .gaps > "gaps-$mode.json"
		# the app measures its kernels' CPU time (the slowest rank's); they run inside the gaps
		compute=$(grep -o 'compute=[0-9.]*' "cpu-$mode.out" | cut -d= -f2)
		jq -e --argjson c "$compute" '.cpu_s >= $c and .cpu_s <= .wall_s * 1.001' "gaps-$mode.json"
	done
	jq -e '.cpu_time == "every gap" or .cpu_time == "long gaps"' gaps-auto.json
	jq -e '.cpu_time == "long gaps"' gaps-long.json
	jq -e '.cpu_time == "none" and .cpu_s == .wall_s' gaps-off.json
	"$LADDER" inspect cpu-auto.h5 | grep -q '^tracer .*;cputime=\(every\|long\)$'
}

# size of the container of APP at NP ranks with ARGS; its structure (signatures, groups, grammar
# rules and symbols, streamed values) goes to structure.NP
size_of() {
	local np=$1; shift
	LADDER_TRACE_FILE="$PWD/s.h5" mpirun -np "$np" -x LD_PRELOAD="$TRACER" -x LADDER_TRACE_FILE "$@" > /dev/null
	"$LADDER" inspect --json s.h5 | jq -c '{signatures, groups: (.groups | length), rules, symbols, streamed_values}' \
		> "structure.$np"
	stat -c %s s.h5
}

# the median container size of three runs: timing statistics are part of the container, and their
# spread (hence the histograms' bins) varies from run to run on an oversubscribed machine
median_size_of() {
	local a b c
	a=$(size_of "$@") b=$(size_of "$@") c=$(size_of "$@")
	printf '%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p
}

within() {   # within PERCENT A B
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN { d = (b - a) / a * 100; printf "%d -> %d bytes: %+.2f%%\n", a, b, d; exit !(d <= p && d >= -p) }'
}

# The structure of a stencil's trace is the same whatever the rank and iteration counts: exactly.
# Its timing tables hold at most 8 histogram bins per compute gap, and how many a gap uses follows
# the spread of the measured times — wider with more ranks per group and on a loaded machine (up
# to +5% seen from 9 to 64 ranks at load 30 on 2 cores): the total size may move by a few percent
# and is bounded, while anything proportional to the counts would be 7x (ranks) or 100x (iterations).
@test "stencil2d (non-periodic, MPI_Cart_*): container structure equal and size within 10% from 9 to 64 ranks" {
	a=$(median_size_of 9 "$BUILD_DIR/apps/stencil2d" --scaling weak --size 16 --iterations 1000)
	b=$(median_size_of 64 "$BUILD_DIR/apps/stencil2d" --scaling weak --size 16 --iterations 1000)
	diff structure.9 structure.64
	within 10 "$a" "$b"
}

@test "stencil2d: container structure equal and size within 10% from 1,000 to 100,000 iterations" {
	a=$(median_size_of 9 "$BUILD_DIR/apps/stencil2d" --scaling weak --size 16 --iterations 1000)
	cp structure.9 structure.short
	b=$(median_size_of 9 "$BUILD_DIR/apps/stencil2d" --scaling weak --size 16 --iterations 100000)
	diff structure.short structure.9
	within 10 "$a" "$b"
}

@test "stencil3d (periodic): the same trace structure from 27 to 64 ranks" {
	size_of 27 "$BUILD_DIR/apps/stencil3d" --periodic --scaling weak --size 8 --iterations 1000 > /dev/null
	a=$("$LADDER" inspect --json s.h5 | jq -c '[.groups, .signatures, .rules, .symbols, .streamed_values]')
	size_of 64 "$BUILD_DIR/apps/stencil3d" --periodic --scaling weak --size 8 --iterations 1000 > /dev/null
	b=$("$LADDER" inspect --json s.h5 | jq -c '[.groups, .signatures, .rules, .symbols, .streamed_values]')
	echo "27 ranks: $a, 64 ranks: $b"
	[ "$a" = "$b" ]
}

# halo27's 26 peers and their counts change with the grid position. By default a call site keeps
# its first 9 variants in signatures, then streams them; at MPI_Finalize those first calls are
# refolded into the streaming signatures, so every position has the same grammar (rank 0, the root
# of a reduction, aside) and the trace is the one --stream-after 0 records (it streams from the
# first call): its structure and size do not follow the rank count (before the refold: 8 groups at
# 8 ranks, 27 at 27)
@test "halo27: one grammar for every grid position at 8 and 27 ranks, by default as with --stream-after 0" {
	a=$(median_size_of 8 "$BUILD_DIR/apps/halo27" --scaling weak --size 4 --iterations 100)
	cp s.h5 d8.h5
	b=$(median_size_of 27 "$BUILD_DIR/apps/halo27" --scaling weak --size 4 --iterations 100)
	diff <(jq -c 'del(.streamed_values)' structure.8) <(jq -c 'del(.streamed_values)' structure.27)
	[ "$(jq .groups structure.27)" -le 2 ]
	"$LADDER" inspect s.h5 | awk '$1 ~ /^[0-9]+$/ && $2 == 26 { found = 1 } END { exit !found }'   # 26 ranks share one
	within 10 "$a" "$b"
	export LADDER_TRACE_STREAM_AFTER=0
	z=$(median_size_of 8 -x LADDER_TRACE_STREAM_AFTER "$BUILD_DIR/apps/halo27" --scaling weak --size 4 --iterations 100)
	[ "$(jq .groups structure.8)" -le 2 ]
	within 10 "$z" "$a"
	"$LADDER" compare s.h5 d8.h5
	"$LADDER" compare --counts s.h5 d8.h5
	for r in 0 1 7; do
		cmp <("$LADDER" decode --rank $r s.h5) <("$LADDER" decode --rank $r d8.h5)
	done
}

@test "polling loops: thousands of failed tests and probes compress, the completing call kept exactly" {
	"$LADDER" --quiet trace -o p.h5 --raw praw -- mpirun -np 2 "$BUILD_DIR/tests/trace/poll" 50 > out
	polls=$(grep -o 'polls=[0-9]*' out | cut -d= -f2)
	[ "$polls" -gt 1000 ]
	"$LADDER" decode --rank 1 p.h5 | cmp - praw/rank-1.log
	[ "$(grep -c 'MPI_Test .*flag=0' praw/rank-1.log)" -gt 100 ]
	[ "$(grep -c 'MPI_Test .*flag=1' praw/rank-1.log)" -eq 50 ]
	# the number of signatures does not follow the number of polls
	[ "$("$LADDER" inspect --json p.h5 | jq .signatures)" -lt 20 ]
}

