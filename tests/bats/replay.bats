#!/usr/bin/env bats
# Replay and semantic comparison (ladder replay, ladder-replay, ladder compare).
# The fixed point: for every mini-app at 4, 9 and 16 ranks, tracing a replay of a trace gives a
# trace equal to it (and, for some, once more: the replay of the replay); LAMMPS and HPCC at 8
# ranks. Compare must find planted differences and print them; bad rank counts, unreadable files
# and calls the replayer cannot issue must give one clear message. Traces are cached per file in
# $BATS_FILE_TMPDIR, so later tests reuse earlier ones.

load helper

APPS_BIN="$BUILD_DIR/apps"
ALL_APPS="stencil1d stencil2d stencil3d sweep cg ft is mw phases"
T=${LADDER_TEST_TIMEOUT:-300}

load app_options

# trace_app NAME P APP ARGS...: $BATS_FILE_TMPDIR/NAME.h5, traced once
trace_app() {
	local name=$1 P=$2 app=$3 f="$BATS_FILE_TMPDIR/$1.h5"
	shift 3
	if [ ! -s "$f" ]; then
		timeout "$T" "$LADDER" --quiet trace -o "$f" -- mpirun --oversubscribe -np "$P" "$APPS_BIN/$app" "$@" \
			> "$f.out" 2> "$f.err" || { cat "$f.err" >&2; return 1; }
	fi
	echo "$f"
}

# replay_traced IN OUT [options]: trace a replay of IN into OUT
replay_traced() {
	local in=$1 out=$2
	shift 2
	[ -s "$out" ] && return 0
	timeout "$T" "$LADDER" --quiet replay --quiet --trace "$out" "$@" "$in" > "$out.log" 2>&1 ||
		{ cat "$out.log" >&2; return 1; }
}

# fixed_point APP P: compare(trace(app), trace(replay(trace(app))))
fixed_point() {
	local app=$1 P=$2 a
	# shellcheck disable=SC2046
	a=$(trace_app "$app-$P" "$P" "$app" $(args_of "$app"))
	replay_traced "$a" "${a%.h5}-r1.h5"
	# a replay makes the same calls with the same datatypes, by name
	run "$LADDER" compare --strict "$a" "${a%.h5}-r1.h5"
	[ "$status" -eq 0 ] || { echo "$app at $P ranks:"; echo "$output"; return 1; }
	[[ "$output" == *"equal:"* ]]
}

@test "fixed point: stencil1d at 4, 9 and 16 ranks" { for P in 4 9 16; do fixed_point stencil1d $P; done; }
@test "fixed point: stencil2d at 4, 9 and 16 ranks" { for P in 4 9 16; do fixed_point stencil2d $P; done; }
@test "fixed point: stencil3d at 4, 9 and 16 ranks" { for P in 4 9 16; do fixed_point stencil3d $P; done; }
@test "fixed point: sweep at 4, 9 and 16 ranks" { for P in 4 9 16; do fixed_point sweep $P; done; }
@test "fixed point: cg at 4, 9 and 16 ranks" { for P in 4 9 16; do fixed_point cg $P; done; }
@test "fixed point: ft at 4, 9 and 16 ranks" { for P in 4 9 16; do fixed_point ft $P; done; }
@test "fixed point: is at 4, 9 and 16 ranks" { for P in 4 9 16; do fixed_point is $P; done; }
@test "fixed point: mw (wildcard receives) at 4, 9 and 16 ranks" { for P in 4 9 16; do fixed_point mw $P; done; }
@test "fixed point: phases (Waitany, Iprobe, derived types, user op) at 4, 9 and 16 ranks" {
	for P in 4 9 16; do fixed_point phases $P; done
}

@test "fixed point: stencil2d_f (Fortran: use mpi, mpif.h) at 4 and 9 ranks" {
	for P in 4 9; do fixed_point stencil2d_f $P; done
}

@test "fixed point one step further: the replay of the replay (stencil2d, mw, phases at 9 ranks)" {
	for app in stencil2d mw phases; do
		fixed_point "$app" 9
		local r1="$BATS_FILE_TMPDIR/$app-9-r1.h5" r2="$BATS_FILE_TMPDIR/$app-9-r2.h5"
		replay_traced "$r1" "$r2"
		run "$LADDER" compare "$r1" "$r2"
		[ "$status" -eq 0 ] || { echo "$app: $output"; return 1; }
	done
}

@test "compare prints a planted difference (other options) with rank, call numbers and both calls" {
	local a b
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	b=$(trace_app stencil2d-4-periodic 4 stencil2d $(args_of stencil2d) --periodic)
	run "$LADDER" compare "$a" "$b"
	[ "$status" -eq 1 ]
	[[ "$output" == *"rank 0: "*" differs"* ]]
	local ra='  A call [0-9]+ +MPI_' rb='  B call [0-9]+ +MPI_'
	[[ "$output" =~ $ra ]]
	[[ "$output" =~ $rb ]]
	[[ "$output" == *"differ: "* ]]
}

@test "compare finds a run that stops early, and a different rank count" {
	local a b c
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	b=$(trace_app stencil2d-4-short 4 stencil2d --size 48 --iterations 4 --allreduce-every 2)
	run "$LADDER" compare "$a" "$b"
	[ "$status" -eq 1 ]
	[[ "$output" == *"rank "*": "* ]]
	c=$(trace_app stencil2d-9 9 stencil2d $(args_of stencil2d))
	run "$LADDER" compare "$a" "$c"
	[ "$status" -eq 1 ]
	[[ "$output" == *"A has 4 ranks, B has 9"* ]]
}

@test "compare --counts: equal for a replay, different for other iterations" {
	local a b
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	replay_traced "$a" "${a%.h5}-r1.h5"
	run "$LADDER" compare --counts "$a" "${a%.h5}-r1.h5"
	[ "$status" -eq 0 ]
	b=$(trace_app stencil2d-4-short 4 stencil2d --size 48 --iterations 4 --allreduce-every 2)
	run "$LADDER" compare --counts "$a" "$b"
	[ "$status" -eq 1 ]
	[[ "$output" == *"MPI_"*"calls or volumes differ"* ]]
}

@test "compare: a usage error exits 2, an unreadable file exits 1 with its name" {
	run "$LADDER" compare only-one.h5
	[ "$status" -eq 2 ]
	echo "not hdf5" > "$BATS_TEST_TMPDIR/bad.h5"
	local a
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	run "$LADDER" compare "$a" "$BATS_TEST_TMPDIR/bad.h5"
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad.h5"* ]]
}

@test "the report's calls and bytes equal the application's profile" {
	local a
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	run timeout "$T" "$LADDER" replay --json "$BATS_TEST_TMPDIR/r.json" "$a"
	[ "$status" -eq 0 ]
	[[ "$output" == *"time "* ]]
	"$LADDER" inspect --json "$a" | jq -S '[.functions[] | {function: .name, calls, bytes_sent, bytes_recv}] | sort_by(.function)' > "$BATS_TEST_TMPDIR/app.json"
	jq -S '[.functions[] | {function, calls, bytes_sent, bytes_recv}] | sort_by(.function)' "$BATS_TEST_TMPDIR/r.json" > "$BATS_TEST_TMPDIR/rep.json"
	diff "$BATS_TEST_TMPDIR/app.json" "$BATS_TEST_TMPDIR/rep.json"
}

@test "what-if: --message-scale doubles the bytes, --no-compute drops the gaps, sampling is seeded" {
	local a j=$BATS_TEST_TMPDIR
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	timeout "$T" "$LADDER" replay --quiet --json "$j/x1.json" "$a"
	timeout "$T" "$LADDER" replay --quiet --message-scale 2 --no-compute --json "$j/x2.json" "$a"
	[ "$(jq '[.functions[] | select(.function == "MPI_Isend") | .bytes_sent] | add' "$j/x2.json")" -eq \
	  "$(( 2 * $(jq '[.functions[] | select(.function == "MPI_Isend") | .bytes_sent] | add' "$j/x1.json") ))" ]
	[ "$(jq .compute "$j/x2.json")" = 0 ]
	timeout "$T" "$LADDER" replay --quiet --timing sample --seed 7 --json "$j/s1.json" "$a"
	timeout "$T" "$LADDER" replay --quiet --timing sample --seed 7 --json "$j/s2.json" "$a"
	timeout "$T" "$LADDER" replay --quiet --timing sample --seed 8 --compute-scale 2 --json "$j/s3.json" "$a"
	[ "$(jq .compute "$j/s1.json")" = "$(jq .compute "$j/s2.json")" ]
	[ "$(jq .compute "$j/s1.json")" != "$(jq .compute "$j/s3.json")" ]
}

@test "--clock cpu: the ranks use at least the recorded CPU time of their gaps, itself at least the app's compute" {
	local a j=$BATS_TEST_TMPDIR compute
	a=$(trace_app stencil2d-cpu 2 stencil2d --size 96 --iterations 20 --compute 600)
	compute=$(grep -o 'compute=[0-9.]*' "$a.out" | cut -d= -f2)
	timeout "$T" "$LADDER" replay --quiet --clock cpu --json "$j/c.json" "$a"
	jq -e '.options.clock == "cpu"' "$j/c.json"
	# .compute: the gaps' recorded CPU time (the slowest rank's); .cpu_time: what the ranks used
	jq -e --argjson c "$compute" '.compute >= $c * 0.95 and .cpu_time >= .compute * 0.99' "$j/c.json" ||
		{ echo "app compute $compute"; cat "$j/c.json"; return 1; }
	timeout "$T" "$LADDER" replay --quiet --clock wall --json "$j/w.json" "$a"
	jq -e '.options.clock == "wall"' "$j/w.json"
	# the recorded wall time of the gaps holds their CPU time
	jq -e --slurpfile c "$j/c.json" '.compute >= $c[0].compute * 0.999' "$j/w.json"
}

@test "a run without CPU times (schema 1.0, or traced with LADDER_TRACE_CPUTIME=off) replays in wall time, said once" {
	local a j=$BATS_TEST_TMPDIR
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	"$BUILD_DIR/tests/runv1" "$a" "$j/old.h5"
	run --separate-stderr timeout "$T" "$LADDER" replay --quiet --json "$j/o.json" "$j/old.h5"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'has no CPU times of its gaps' <<< "$stderr")" -eq 1 ]
	jq -e '.options.clock == "wall"' "$j/o.json"
	# what it replays is the recorded wall time, as before
	timeout "$T" "$LADDER" replay --quiet --clock wall --json "$j/n.json" "$a"
	jq -e --slurpfile n "$j/n.json" '(.compute - $n[0].compute) | fabs < 1e-3 * $n[0].compute' "$j/o.json"
	LADDER_TRACE_CPUTIME=off "$LADDER" --quiet trace -o "$j/off.h5" -- mpirun --oversubscribe -np 2 \
		"$APPS_BIN/stencil1d" --iterations 5 > /dev/null
	run --separate-stderr timeout "$T" "$LADDER" replay --quiet "$j/off.h5"
	[ "$status" -eq 0 ]
	[[ $stderr == *"off.h5 has no CPU times of its gaps"* ]]
	# asked for explicitly, wall time says nothing
	run --separate-stderr timeout "$T" "$LADDER" replay --quiet --clock wall "$j/off.h5"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "the timed window: --from/--to marks, and one that does not exist" {
	local a
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	run timeout "$T" "$LADDER" replay --from MPI_Barrier:1 --to Reduce:-2 "$a"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(MPI_Barrier:1 .. MPI_Reduce:-2, max over ranks)"* ]]
	run timeout "$T" "$LADDER" replay --from MPI_Barrier:5 "$a"
	[ "$status" -eq 1 ]
	[[ "$output" == *"calls MPI_Barrier 1 times; there is no call 5"* ]]
	run timeout "$T" "$LADDER" replay --from MPI_NoSuchThing "$a"
	[ "$status" -eq 2 ]
}

@test "the wrong -np names the right one, exits 2 and does not hang" {
	local a
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	run timeout 120 mpirun --oversubscribe -np 3 "$BUILD_DIR/bin/ladder-replay" "$a"
	[ "$status" -eq 2 ]
	[[ "$output" == *"was recorded on 4 ranks; run it with -np 4 (this run has 3)"* ]]
}

@test "an unreadable file or a usage error: one clear message" {
	run timeout 120 mpirun --oversubscribe -np 2 "$BUILD_DIR/bin/ladder-replay" "$BATS_TEST_TMPDIR/missing.h5"
	[ "$status" -eq 1 ]
	[[ "$output" == *"ladder-replay: "*"missing.h5"* ]]
	[ "$(grep -c '^ladder-replay:' <<< "$output")" -eq 1 ]
	run "$LADDER" replay "$BATS_TEST_TMPDIR/missing.h5"
	[ "$status" -eq 1 ]
	run "$BUILD_DIR/bin/ladder-replay" --timing median x.h5
	[ "$status" -eq 2 ]
	[[ "$output" == *"--timing is mean or sample"* ]]
	run "$BUILD_DIR/bin/ladder-replay" --clock monotonic x.h5
	[ "$status" -eq 2 ]
	[[ "$output" == *"--clock is cpu or wall"* ]]
	run "$BUILD_DIR/bin/ladder-replay" --sleep --clock cpu x.h5
	[ "$status" -eq 2 ]
	[[ "$output" == *"--sleep waits on the wall clock"* ]]
	run "$LADDER" replay
	[ "$status" -eq 2 ]
}

@test "a call the replayer cannot issue (a buffer at MPI_BOTTOM): function and rank named, exit 1" {
	local f="$BATS_FILE_TMPDIR/bottom.h5"
	"$LADDER" --quiet trace -o "$f" -- mpirun --oversubscribe -np 2 "$BUILD_DIR/tests/replay/unreplayable" --bottom
	run timeout 120 "$LADDER" replay "$f"
	[ "$status" -eq 1 ]
	[[ "$output" == *"cannot replay rank 0, call "*"(MPI_Send buf=BOTTOM"*"MPI_BOTTOM"* ]]
}

@test "a run without the calls that created its objects (like an incomplete synthetic run)" {
	local f="$BATS_FILE_TMPDIR/hidden.h5"
	"$LADDER" --quiet trace -o "$f" -- mpirun --oversubscribe -np 2 "$BUILD_DIR/tests/replay/unreplayable" --hidden
	run timeout 120 "$LADDER" replay "$f"
	[ "$status" -eq 1 ]
	[[ "$output" == *"(MPI_Bcast "*"datatype #100 is used but no earlier call created it"* ]]
}

@test "ladder replay --launcher with a {n} template" {
	local a
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	# the launcher records the command it is given, then runs it
	local launcher="$BATS_TEST_TMPDIR/launcher" log="$BATS_TEST_TMPDIR/launched"
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" > "%s"\nexec "$@"\n' "$log" > "$launcher"
	chmod +x "$launcher"
	run timeout "$T" "$LADDER" replay --quiet --json "$BATS_TEST_TMPDIR/r.json" \
		--launcher "$launcher mpirun --oversubscribe -np {n}" "$a"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# {n} became the run's rank count, once, and nothing else was appended
	[[ $(cat "$log") =~ ^mpirun\ --oversubscribe\ -np\ 4\ [^\ ]*ladder-replay\  ]] || { cat "$log"; return 1; }
	[[ $(cat "$log") != *"{n}"* && $(cat "$log") != *" -n 4"* ]]
	# and the replay ran: the run's calls at its 4 ranks
	jq -e '.ranks == 4 and .not_replayed == []' "$BATS_TEST_TMPDIR/r.json"
	[ "$(jq '[.functions[].calls] | add' "$BATS_TEST_TMPDIR/r.json")" -eq "$("$LADDER" inspect --json "$a" | jq '[.functions[].calls] | add')" ]
}

@test "LAMMPS (3-d LJ melt) at 8 ranks: the fixed point" {
	[ -x /usr/bin/lmp ] || skip "LAMMPS (/usr/bin/lmp) is not installed"
	local a="$BATS_FILE_TMPDIR/lammps.h5"
	(cd "$BATS_FILE_TMPDIR" && timeout "$T" "$LADDER" --quiet trace -o "$a" -- mpirun --oversubscribe -np 8 /usr/bin/lmp \
		-in "$TOP/tests/fixtures/lammps/in.lj" -var x 0.5 -var y 0.5 -var z 0.5 -var steps 100 -log none -screen none)
	replay_traced "$a" "${a%.h5}-r1.h5"
	run "$LADDER" compare "$a" "${a%.h5}-r1.h5"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "HPCC at 8 ranks: the fixed point" {
	[ -x /usr/bin/hpcc ] || skip "HPCC (/usr/bin/hpcc) is not installed"
	local d="$BATS_FILE_TMPDIR/hpcc" a="$BATS_FILE_TMPDIR/hpcc/hpcc.h5"
	mkdir -p "$d"
	# the tracer tests' input with a 2 x 4 grid, so that all 8 ranks take part in HPL
	sed 's/^2 \( *Qs\)/4 \1/' "$TOP/tests/fixtures/hpcc/hpccinf.txt" > "$d/hpccinf.txt"
	grep -q '^4  *Qs' "$d/hpccinf.txt"
	(cd "$d" && timeout "$T" "$LADDER" --quiet trace -o "$a" -- mpirun --oversubscribe -np 8 /usr/bin/hpcc)
	replay_traced "$a" "${a%.h5}-r1.h5"
	run "$LADDER" compare "$a" "${a%.h5}-r1.h5"
	echo "$output"
	[ "$status" -eq 0 ]
}
