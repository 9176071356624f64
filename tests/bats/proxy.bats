#!/usr/bin/env bats
# ladder proxy: a readable C+MPI program from a run. The fixed point (tracing the generated program
# gives a run `ladder compare` finds equal to the source) for every mini-app at 4, 9 and 16 ranks,
# LAMMPS and HPCC at 8, a program making nearly every call the tracer records, and every kind of
# container the tracer and `ladder extrap` write; a program whose size follows the grammar, not
# the rank or iteration count; the program's knobs; one-line refusals naming rank, call and reason
# for what it cannot express.

load helper
load app_options

APPS_BIN="$BUILD_DIR/apps"
T=${LADDER_TEST_TIMEOUT:-300}

# every test works in its own scratch directory
setup() { cd "$BATS_TEST_TMPDIR"; }

# trace_app NAME P APP ARGS...: $BATS_FILE_TMPDIR/NAME.h5, traced once per file
trace_app() {
	local name=$1 P=$2 app=$3 f="$BATS_FILE_TMPDIR/$1.h5"
	shift 3
	if [ ! -s "$f" ]; then
		timeout "$T" "$LADDER" --quiet trace -o "$f" -- mpirun --oversubscribe -np "$P" "$APPS_BIN/$app" "$@" \
			> "$f.out" 2> "$f.err" || { cat "$f.err" >&2; return 1; }
	fi
	echo "$f"
}

# build_proxy RUN DIR: generate and build; the build must print no warning
build_proxy() {
	"$LADDER" --quiet proxy "$1" -o "$2"
	make -s -C "$2" > "$2/build.log" 2>&1 || { cat "$2/build.log" >&2; return 1; }
	if [ -s "$2/build.log" ]; then cat "$2/build.log" >&2; return 1; fi
}

# fixed_point RUN P DIR: write, build and trace the proxy of RUN into DIR; its trace compares equal
fixed_point() {
	local a=$1 P=$2 d=$3
	build_proxy "$a" "$d"
	timeout "$T" "$LADDER" --quiet trace -o "$d/trace.h5" -- mpirun --oversubscribe -np "$P" "$d/proxy" > "$d/run.out" 2>&1 ||
		{ cat "$d/run.out" >&2; return 1; }
	grep -q '^proxy time: [0-9.]* s$' "$d/run.out"
	run "$LADDER" compare --strict "$a" "$d/trace.h5"
	[ "$status" -eq 0 ] || { echo "$a: $output" >&2; return 1; }
}

# proxy_fixed_point APP P: compare(trace(app), trace(proxy(trace(app))))
proxy_fixed_point() {
	local app=$1 P=$2 a
	# shellcheck disable=SC2046
	a=$(trace_app "$app-$P" "$P" "$app" $(args_of "$app"))
	fixed_point "$a" "$P" "$BATS_FILE_TMPDIR/$app-$P-proxy"
}

# traced NAME P COMMAND...: NAME.h5 in the test's directory, COMMAND traced on P ranks
traced() {
	local name=$1 P=$2
	shift 2
	timeout "$T" "$LADDER" --quiet trace -o "$name.h5" -- mpirun --oversubscribe -np "$P" "$@" > "$name.out" 2>&1 ||
		{ cat "$name.out" >&2; return 1; }
}

@test "ladder proxy: help, usage errors, an unreadable run" {
	run "$LADDER" proxy --help
	[ "$status" -eq 0 ]
	[[ "$output" == *"usage: ladder proxy RUN.h5 -o DIR"* ]]
	run "$LADDER" proxy
	[ "$status" -eq 2 ]
	run "$LADDER" proxy x.h5
	[ "$status" -eq 2 ]
	[[ "$output" == *"-o DIR"* ]]
	echo "not hdf5" > bad.h5
	run "$LADDER" proxy bad.h5 -o out
	[ "$status" -eq 1 ]
	[[ "$output" == *"bad.h5"* ]]
	[ ! -e out ]
}

@test "fixed point: every mini-app at 4 ranks" {
	for app in stencil1d stencil2d stencil3d sweep cg ft is mw phases; do
		proxy_fixed_point "$app" 4
	done
}

@test "fixed point at 9 ranks: a 3x3 grid's edge and interior groups, row and column communicators, wildcards" {
	for app in stencil2d cg mw; do
		proxy_fixed_point "$app" 9
	done
	# cg's Comm_split colors and keys (row and column of a 3x3 grid) are laws of the rank: one table
	# for all nine ranks, each rank computing its own values
	grep -q '/\* cell 0: 0 + 1\*rank/3 \*/' "$BATS_FILE_TMPDIR/cg-9-proxy/proxy.c"
	grep -q '/\* cell 1: 0 + 1\*rank/1%3 \*/' "$BATS_FILE_TMPDIR/cg-9-proxy/proxy.c"
	[ "$(grep -c 'values_[0-9]*_0_ranks\[\] = {1, 0, 9, 1}' "$BATS_FILE_TMPDIR/cg-9-proxy/proxy.c")" -eq 2 ]
}

@test "fixed point at 9 ranks: the other mini-apps" {
	for app in stencil1d stencil3d sweep ft is phases; do
		proxy_fixed_point "$app" 9
	done
}

@test "fixed point at 16 ranks: stencils, sweep, cg" {
	for app in stencil1d stencil2d stencil3d sweep cg; do
		proxy_fixed_point "$app" 16
	done
}

@test "fixed point at 16 ranks: ft, is, mw, phases" {
	for app in ft is mw phases; do
		proxy_fixed_point "$app" 16
	done
}

@test "fixed point: LAMMPS (3-d LJ melt) at 8 ranks" {
	[ -x /usr/bin/lmp ] || skip "LAMMPS (/usr/bin/lmp) is not installed"
	traced lammps 8 /usr/bin/lmp -in "$TOP/tests/fixtures/lammps/in.lj" -var x 0.5 -var y 0.5 -var z 0.5 -var steps 100 \
		-log none -screen none
	fixed_point lammps.h5 8 p
}

@test "fixed point: HPCC at 8 ranks (HPL's struct types, RandomAccess's zero-byte sends in rank-indexed arrays)" {
	[ -x /usr/bin/hpcc ] || skip "HPCC (/usr/bin/hpcc) is not installed"
	# the tracer tests' input with a 2 x 4 grid, so that all 8 ranks take part in HPL
	sed 's/^2 \( *Qs\)/4 \1/' "$TOP/tests/fixtures/hpcc/hpccinf.txt" > hpccinf.txt
	traced hpcc 8 /usr/bin/hpcc
	# the program is large (HPCC's grammars have thousands of symbols): built without optimisation
	CFLAGS="-O0 -Wall -Wextra" fixed_point hpcc.h5 8 p
	# a Waitall over requests created out of order finds them side by side at their homes
	grep -q 'new_request_at(' p/proxy.c
}

@test "fixed point: a program making nearly every call the tracer records" {
	traced calls 4 "$BUILD_DIR/tests/proxy/calls"
	fixed_point calls.h5 4 p
	run "$LADDER" compare --counts calls.h5 p/trace.h5
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# w-collectives size their buffers from the types, Group_range_incl gets its rows
	grep -q 'MPI_Alltoallw(typed_buffer_w(SEND, ' p/proxy.c
	grep -q 'MPI_Group_range_incl(groups\[[0-9]*\], 1, (int (\*)\[3\])ranges' p/proxy.c
	grep -q 'MPI_Dist_graph_create_adjacent(.*unweighted()' p/proxy.c
}

@test "fixed point: Fortran runs (use mpi, mpif.h, use mpi_f08), threads, lossless timestamps, polls, one-sided calls" {
	traced fortran 4 "$APPS_BIN/stencil2d_f" --size 48 --iterations 5 --allreduce-every 2
	fixed_point fortran.h5 4 p-fortran
	traced f08 4 "$BUILD_DIR/tests/trace/f08"
	fixed_point f08.h5 4 p-f08
	traced funneled 2 "$BUILD_DIR/tests/trace/funneled"
	fixed_point funneled.h5 2 p-funneled
	grep -q 'MPI_Init_thread(&argc, &argv, 1, &provided);' p-funneled/proxy.c
	"$LADDER" --quiet trace --timestamps -o stamps.h5 -- mpirun --oversubscribe -np 4 "$APPS_BIN/phases" \
		--size 144 --iterations 6 --switch-at 3 > /dev/null
	fixed_point stamps.h5 4 p-stamps
	traced poll 2 "$BUILD_DIR/tests/trace/poll" 20
	fixed_point poll.h5 2 p-poll
	# the one-sided calls are only counted: the proxy makes the recorded calls around them
	traced onesided 4 "$BUILD_DIR/tests/trace/onesided"
	fixed_point onesided.h5 4 p-onesided
}

@test "the program follows the grammar: one function per rule, loops, ranklists; same size at 4 and 16 ranks, 10 and 1000 iterations" {
	local sizes=()
	for case in "4 10" "16 10" "4 1000"; do
		set -- $case
		"$LADDER" --quiet trace -o "s-$1-$2.h5" -- mpirun --oversubscribe -np "$1" "$APPS_BIN/stencil1d" --size 1440 \
			--iterations "$2" --allreduce-every 5 > /dev/null
		build_proxy "s-$1-$2.h5" "p-$1-$2"
		sizes+=("$(wc -l < "p-$1-$2/proxy.c")")
	done
	[ "${sizes[0]}" -eq "${sizes[1]}" ]
	[ "${sizes[0]}" -eq "${sizes[2]}" ]
	# 16 ranks, three groups (first, interior, last): main tests three ranklists, not sixteen ranks
	[ "$(grep -c 'in_ranklist(group[0-9]*_ranks' p-16-10/proxy.c)" -eq 3 ]
	# iterations are loop counts: 1000 iterations, an Allreduce every 5 -> a loop of 200
	grep -q 'repeat < 200;' p-4-1000/proxy.c
	# one function per grammar rule
	local rules
	rules=$("$LADDER" decode --grammar s-4-10.h5 | grep -c -- '->')
	[ "$(grep -c '^static void group[0-9_a-z]*(void)$' p-4-10/proxy.c)" -eq "$rules" ]
	# call sites in comments
	grep -q '/\* MPI_Isend at stencil1d+0x' p-4-10/proxy.c
}

@test "the program's knobs: --message-scale scales counts, --compute-scale 0, bad options and rank counts refused" {
	local a
	# shellcheck disable=SC2046
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	build_proxy "$a" p
	"$LADDER" --quiet trace -o scaled.h5 -- mpirun --oversubscribe -np 4 p/proxy --message-scale 2 --compute-scale 0 > /dev/null
	local count
	count=$("$LADDER" decode --rank 0 "$a" | grep -m1 'MPI_Irecv' | grep -o 'count=[0-9]*' | cut -d= -f2)
	"$LADDER" decode --rank 0 scaled.h5 | grep -m1 'MPI_Irecv' | grep -q "count=$((count * 2)) "
	run mpirun_n 4 p/proxy --timing sample --seed 7
	[ "$status" -eq 0 ]
	run mpirun_n 4 p/proxy --bogus
	[ "$status" -ne 0 ]
	[[ "$output" == *"proxy: unknown option or missing value"* ]]
	run mpirun_n 2 p/proxy
	[ "$status" -ne 0 ]
	[[ "$output" == *"proxy: written for 4 ranks, started on 2"* ]]
}

@test "refused: a peer outside the communicator (an intercommunicator from MPI_Comm_spawn, which is only counted)" {
	traced spawn 2 "$BUILD_DIR/tests/trace/spawn"
	run "$LADDER" proxy spawn.h5 -o p
	[ "$status" -eq 1 ]
	[[ "$output" == *"spawn.h5: cannot write a proxy: rank 0, MPI_Send at spawn+0x"*": a peer recorded as UNKNOWN (not a member of the communicator)" ]]
	[ "$(echo "$output" | wc -l)" -eq 1 ]
	[ ! -e p ]
}

@test "refused: calls from several threads of a rank (MPI_THREAD_MULTIPLE), whose order across threads the trace does not hold" {
	traced multiple 2 "$BUILD_DIR/tests/trace/multiple"
	run "$LADDER" proxy multiple.h5 -o p
	[ "$status" -eq 1 ]
	[[ "$output" == "ladder: multiple.h5: cannot write a proxy: recorded under MPI_THREAD_MULTIPLE with MPI calls from "*" threads of a rank;"* ]]
	[ "$(echo "$output" | wc -l)" -eq 1 ]
	[ ! -e p ]
}

@test "refused: a campaign container or a damaged file, in one line naming the file" {
	local r
	r=$(trace_app stencil1d-4 4 stencil1d --size 1440 --iterations 4)
	"$LADDER" --quiet merge -o campaign.h5 "$r"
	run "$LADDER" proxy campaign.h5 -o p
	[ "$status" -eq 1 ]
	[ "$output" = "ladder: campaign.h5: is a campaign container, expected a run container" ]
	head -c $(($(stat -c %s "$r") / 2)) "$r" > cut.h5
	run "$LADDER" proxy cut.h5 -o p
	[ "$status" -eq 1 ]
	[[ "$output" == "ladder: cut.h5: "*"truncated or damaged"* ]]
	[ ! -e p ]
}

@test "refusals name rank, call and reason, and write nothing" {
	"$LADDER" --quiet trace -o bottom.h5 -- mpirun --oversubscribe -np 2 "$BUILD_DIR/tests/replay/unreplayable" --bottom
	run "$LADDER" proxy bottom.h5 -o p1
	[ "$status" -eq 1 ]
	[[ "$output" == *"bottom.h5: cannot write a proxy: rank 0, MPI_Send at unreplayable+0x"*": a buffer at MPI_BOTTOM"* ]]
	[ ! -e p1 ]
	"$LADDER" --quiet trace -o hidden.h5 -- mpirun --oversubscribe -np 2 "$BUILD_DIR/tests/replay/unreplayable" --hidden
	run "$LADDER" proxy hidden.h5 -o p2
	[ "$status" -eq 1 ]
	[[ "$output" == *"rank 0, MPI_Bcast at "*": datatype #100 is used but no call of the run created it"* ]]
	[ "$(echo "$output" | wc -l)" -eq 1 ]
	"$LADDER" --quiet trace -o inter.h5 -- mpirun --oversubscribe -np 4 "$BUILD_DIR/tests/proxy/unproxyable" --intercomm
	run "$LADDER" proxy inter.h5 -o p3
	[ "$status" -eq 1 ]
	[[ "$output" == *"rank 0, MPI_Intercomm_create at "*": intercommunicators are not supported"* ]]
	[ ! -e p3 ]
}

@test "Cartesian coordinates relative to the caller (MPI_Cart_rank) reach the fixed point" {
	"$LADDER" --quiet trace -o coords.h5 -- mpirun --oversubscribe -np 3 "$BUILD_DIR/tests/proxy/unproxyable" --coords
	build_proxy coords.h5 p
	grep -q 'coordinate(2, 0, 1)' p/proxy.c
	"$LADDER" --quiet trace -o again.h5 -- mpirun --oversubscribe -np 3 p/proxy > /dev/null
	"$LADDER" compare coords.h5 again.h5
}

@test "the campaign stage proxy writes and builds the proxy of each target's extrapolated trace and runs it on the target's ranks; the report compares its time" {
	local wf="$BATS_TEST_TMPDIR/wf.yaml" dir="$BATS_TEST_TMPDIR/camp"
	printf 'name: p\napp: {command: "{prefix}/apps/stencil2d"}\nladder: [1, 4]\ntarget: 16\nstages:\n  - model\n  - proxy\n' > "$wf"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$dir" --dry-run
	[ "$status" -eq 1 ]
	[[ "$output" == *"stage 'proxy' reads what stage 'extrap' writes: list 'extrap' above it"* ]]
	cat > "$wf" <<-'EOF'
	name: px
	app: {command: "{prefix}/apps/stencil2d --scaling weak --size 8 --iterations 20 --allreduce-every 2 --compute 5"}
	ladder: [4, 9, 16]
	target: 36
	truth: 36
	stages: [extrap, replay, proxy, report]
	acceptance:
	  time: none
	  proxy: none
	EOF
	local c="$BATS_TEST_TMPDIR/c36"
	run "$LADDER" campaign run "$wf" --site "$TOP/site-configs/local.yaml" --dir "$c"
	[ "$status" -eq 0 ] || { echo "$output"; cat "$c"/logs/proxy-t36.log; return 1; }
	# one job of the target's size: written and built, then launched on 36 ranks after the extrapolation
	grep -q 'ladder proxy .*/extrap/p36/trace.h5 -o .*/proxy/p36 --build' "$c/jobs/proxy-t36.sh"
	grep -q 'mpirun --oversubscribe -np 36 .*/proxy/p36/proxy --json .*/proxy/p36/proxy.json' "$c/jobs/proxy-t36.sh"
	[ "$(jq -r '.jobs[] | select(.name == "proxy-t36") | .deps | index("extrap-t36") != null' "$c/state.json")" = true ]
	[ "$(jq '.ranks' "$c/proxy/p36/proxy.json")" -eq 36 ]
	# the report: proxy time against the application's (1 - |T_proxy - T_app| / T_app) and the replay's
	local r="$c/report/report.json" t_proxy t_app expect
	t_proxy=$(jq '.total_time' "$c/proxy/p36/proxy.json")
	[ "$(jq '.targets[0].proxy.time' "$r")" = "$t_proxy" ]
	t_app=$(jq '.targets[0].app_time' "$r")
	expect=$(awk -v p="$t_proxy" -v a="$t_app" 'BEGIN { d = p - a; if (d < 0) d = -d; printf "%.6f", 1 - d / a }')
	[ "$(printf '%.6f' "$(jq '.figures[] | select(.name == "proxy") | .value' "$r")")" = "$expect" ]
	[ "$(printf '%.6f' "$(jq '.targets[0].proxy.accuracy' "$r")")" = "$expect" ]
	[ "$(printf '%.6f' "$(jq '.targets[0].proxy.vs_replay' "$r")")" = \
		"$(awk -v p="$t_proxy" -v q="$(jq '.targets[0].replay_time' "$r")" 'BEGIN { printf "%.6f", p / q }')" ]
	grep -qE '^- proxy program \(ladder proxy of the extrapolated trace\): (.*/)?proxy/p36/proxy\.json, time ' "$c/report/report.md"
	grep -q '<h3>Proxy program</h3>' "$c/report/report.html"
	# a proxy threshold gates the exit status like the others
	run "$LADDER" report "$c/campaign.h5" --thresholds proxy=1.5 --quiet --json "$BATS_TEST_TMPDIR/r.json"
	[ "$status" -eq 1 ]
	[ "$(jq -r '.figures[] | select(.name == "proxy") | .state' "$BATS_TEST_TMPDIR/r.json")" = MISSED ]
	# a proxy run given explicitly is the one reported
	mpirun --oversubscribe -np 36 "$c/proxy/p36/proxy" --json "$BATS_TEST_TMPDIR/again.json" > /dev/null
	"$LADDER" report "$c/campaign.h5" --proxy "$BATS_TEST_TMPDIR/again.json" --thresholds time=none,proxy=none \
		--quiet --json "$BATS_TEST_TMPDIR/r.json"
	[ "$(jq '.targets[0].proxy.time' "$BATS_TEST_TMPDIR/r.json")" = "$(jq '.total_time' "$BATS_TEST_TMPDIR/again.json")" ]
	[ "$(jq -r '.targets[0].proxy.run' "$BATS_TEST_TMPDIR/r.json")" = "$BATS_TEST_TMPDIR/again.json" ]
}

@test "fixed point of an extrapolated trace: a proxy of stencil2d extrapolated to 64 ranks makes the extrapolated calls; at 1,048,576 ranks it is as long and compiles" {
	local p runs=()
	for p in 4 9 16; do
		runs+=("$(trace_app "s2w-$p" "$p" stencil2d --scaling weak --size 8 --iterations 4 --allreduce-every 2)")
	done
	"$LADDER" --quiet merge -o s2w.h5 "${runs[@]}"
	"$LADDER" --quiet extrap s2w.h5 --target 64 -o s2w-64.h5
	fixed_point s2w-64.h5 64 px64
	run "$LADDER" compare --counts s2w-64.h5 px64/trace.h5
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	# at 1,048,576 ranks: the same program up to its constants, and it compiles
	"$LADDER" --quiet extrap s2w.h5 --target 1048576 -o s2w-1m.h5 2> /dev/null
	build_proxy s2w-1m.h5 px1m
	[ "$(wc -l < px1m/proxy.c)" -eq "$(wc -l < px64/proxy.c)" ]
	grep -q 'start(argc, argv, 1048576, ' px1m/proxy.c
}

@test "fixed point of extrapolated traces at 64 ranks: ft (Alltoall transposes) and is in lossy mode" {
	local p runs=() app
	for app in "ft --scaling strong --size 576 --iterations 2" "is --size 500 --iterations 1"; do
		set -- $app
		runs=()
		for p in 4 9 16; do runs+=("$(trace_app "$1-x$p" "$p" "$@")"); done
		"$LADDER" --quiet merge -o "$1.h5" "${runs[@]}"
	done
	"$LADDER" --quiet extrap ft.h5 --target 64 -o ft-64.h5
	fixed_point ft-64.h5 64 p-ft
	"$LADDER" --quiet extrap is.h5 --target 64 --lossy -o is-64.h5 2> /dev/null
	"$LADDER" inspect is-64.h5 | grep -q 'lossy_dropped_calls=64'
	fixed_point is-64.h5 64 p-is
}

@test "mw at 4 ranks: the program places its ranks by their recorded compute; on 2 CPUs the heaviest worker shares one with the master" {
	a=$(trace_app mw-4 4 mw $(args_of mw))
	fixed_point "$a" 4 mw-proxy
	grep -q '^#define PROXY_PLACED 1' mw-proxy/proxy.c
	# each group's place() argument is the CPU time a rank of it recorded in its gaps (mw: one rank a group)
	"$LADDER" inspect "$a" | awk '$1 == "group" && $2 == "ranks" { on = 1; next } on && NF == 0 { exit }
		on { if ($2 != 1) exit 1; print $1, $5 }' > members
	[ "$(wc -l < members)" -eq 4 ]
	"$LADDER" inspect --timing "$a" | awk -F'\t' 'NR > 2 { t[$1] += $4 * $6 } END { for (g in t) printf "%s %.9g\n", g, t[g] }' |
		sort > recorded
	sed -n 's/^\t\tplace(\([0-9.e+-]*\));.*group \([0-9]*\) computed.*/\2 \1/p' mw-proxy/proxy.c | sort > placed
	join recorded placed > both
	cat both >&2
	[ "$(wc -l < both)" -eq 4 ]
	awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > 1e-5 * $2 + 1e-9) exit 1 }' both
	# the ranks by compute: the lightest, and every rank of the largest compute (workers whose
	# recorded compute is the same tie for the heaviest; any of them may share with the master)
	light=$(sort -k2,2g both | awk 'NR == 1 { print $1 }')
	light=$(awk -v g="$light" '$1 == g { print $2 }' members)
	[ "$light" -eq 0 ]   # the master waits
	heaviest=$(sort -k2,2g both | awk '{ g[NR] = $1; c[NR] = $2 } END { for (i = 1; i <= NR; i++) if (c[i] == c[NR]) print g[i] }' |
		while read -r g; do awk -v g="$g" '$1 == g { print $2 }' members; done)
	# on two CPUs: two ranks a CPU, the heaviest with the lightest
	taskset -c 0,1 timeout "$T" mpirun --oversubscribe --bind-to none -np 4 mw-proxy/proxy --json p.json > p.out 2>&1 ||
		{ cat p.out >&2; return 1; }
	jq -c .bound_cpus p.json >&2
	[ "$(jq '.bound_cpus | length' p.json)" -eq 4 ]
	[ "$(jq '[.bound_cpus[] | select(. == 0)] | length' p.json)" -eq 2 ]
	[ "$(jq '[.bound_cpus[] | select(. == 1)] | length' p.json)" -eq 2 ]
	# the rank that shares the master's CPU is a heaviest one (when every worker recorded the same
	# compute, any worker is: the check then says nothing, and says so)
	mate=$(jq --argjson m "$light" '.bound_cpus as $b | [range(0; $b | length) | select(. != $m and $b[.] == $b[$m])] | .[0]' p.json)
	grep -qx "$mate" <<< "$heaviest" || { echo "rank $mate shares with the master; the heaviest: $heaviest" >&2; return 1; }
	[ "$(grep -c . <<< "$heaviest")" -lt 3 ] || echo "# the three workers recorded the same compute: any pairing holds" >&3
	# --placement none binds nothing, nor does a node with a CPU for each rank
	taskset -c 0,1 timeout "$T" mpirun --oversubscribe --bind-to none -np 4 mw-proxy/proxy --placement none --json n.json > /dev/null
	[ "$(jq .bound_cpus n.json)" = null ]
	if [ "$(nproc)" -ge 4 ]; then
		taskset -c 0-3 timeout "$T" mpirun --oversubscribe --bind-to none -np 4 mw-proxy/proxy --json f.json > /dev/null
		[ "$(jq .bound_cpus f.json)" = null ]
	fi
	run mpirun_n 4 mw-proxy/proxy --placement spread
	[ "$status" -ne 0 ]
	[[ "$output" == *"--placement packed|none"* ]]
}

@test "runs without wildcard receives: no placement" {
	a=$(trace_app stencil2d-4 4 stencil2d $(args_of stencil2d))
	"$LADDER" --quiet proxy "$a" -o px --build
	run grep -c 'PROXY_PLACED\|place(\|--placement' px/proxy.c
	[ "$output" -eq 0 ]
	# and no option to place them: refused like any unknown option
	run mpirun_n 4 px/proxy --placement none
	[ "$status" -ne 0 ]
	[[ "$output" == *"unknown option or missing value"* ]]
	[[ "$output" != *"--placement"*"--json"* ]]
}
