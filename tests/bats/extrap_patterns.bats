#!/usr/bin/env bats
# Extrapolation of codes that decompose by hand (ladder extrap on ownhalo): grids in the code's own
# axis order and factorisation found from the peers of every rung, the target's grid from the
# code's rule (said in the output and the label grid_rule), non-periodic 27-point halos on
# cube-only rank counts, communicators that are world or no grid dimension, uneven decompositions
# (counts that are a quotient rounded up or down). Each ladder's largest
# rung is at most 27; the extrapolated runs are compared event by event (ladder compare) and by
# calls and bytes per rank and function (compare --counts) with real traced runs.

load helper
load extrap_helper

X2="--dims 2 --order x-fastest --scaling weak --size 4 --iterations 2 --allreduce-every 2"

@test "2-D grid laid 2 rows x 4 columns at 8 ranks (x fastest, largest last): 4, 8, 12, 16 to 48 and 64" {
	# shellcheck disable=SC2086
	ladder x2 "4 8 12 16" ownhalo $X2 > /dev/null
	# shellcheck disable=SC2086
	matches x2 48 ownhalo $X2
	# shellcheck disable=SC2086
	matches x2 64 ownhalo $X2
	grep -q "grid 6x8: balanced factors, largest last" "$BATS_FILE_TMPDIR/x2-e48.out"
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/x2-e48.h5"
	[[ "$output" == *"grid=6x8"* && "$output" == *"grid_rule=balanced factors, largest last"* ]]
}

X3="--dims 3 --order x-fastest --scaling weak --size 3 --iterations 2 --allreduce-every 2"

@test "3-D x fastest, smallest rung 2x2x1: 4, 8, 12, 16, 24, 27 to 36 and 64 (interiors only 24 or 27 has: the union of their sides)" {
	# shellcheck disable=SC2086
	ladder x3 "4 8 12 16 24 27" ownhalo $X3 > /dev/null
	# shellcheck disable=SC2086
	matches x3 36 ownhalo $X3
	grep -q "grid 3x3x4: balanced factors, largest last" "$BATS_FILE_TMPDIR/x3-e36.out"
	# shellcheck disable=SC2086
	matches x3 64 ownhalo $X3
}

@test "3-D x fastest from 8, 12, 16, 27: two rules fit the rungs and differ at 48: refused naming 4; --target 3x4x4 decides" {
	# shellcheck disable=SC2086
	c=$(TRACES=x3 ladder x3tie "8 12 16 27" ownhalo $X3)
	run "$LADDER" extrap "$c" --target 48 -o "$BATS_FILE_TMPDIR/never.h5"
	[ "$status" -eq 1 ]
	[[ "$output" == *"fit two rules of the code's decomposition that differ at 48 ranks"* ]]
	[[ "$output" == *"largest last"*"(3x4x4)"*"(4x3x4)"*"a rung of 4 ranks would decide (1x2x2 against 2x1x2)"* ]]
	[ ! -e "$BATS_FILE_TMPDIR/never.h5" ]
	# shellcheck disable=SC2086
	real=$(trace x3 48 ownhalo $X3)
	run "$LADDER" extrap "$c" --target 3x4x4 -o "$BATS_FILE_TMPDIR/x3tie-e48.h5"
	[ "$status" -eq 0 ] && [[ "$output" == *"grid 3x4x4: named by --target"* ]] || { echo "$output"; return 1; }
	run "$LADDER" compare "$BATS_FILE_TMPDIR/x3tie-e48.h5" "$real"
	[[ "$output" == *"equal:"* ]]
}

H27="--dims 3 --points 27 --scaling weak --size 3 --iterations 2 --allreduce-every 2"

@test "27-point non-periodic halo on cubes only: 1, 8, 27 to 64 (a corner talks to 7: no torus; 3x3x3 tells)" {
	export TRACE_OPTIONS="--stream-after 32"
	# shellcheck disable=SC2086
	ladder h27 "1 8 27" ownhalo $H27 > /dev/null
	# shellcheck disable=SC2086
	matches h27 64 ownhalo $H27
	grep -q "grid 4x4x4" "$BATS_FILE_TMPDIR/h27-e64.out"
}

S2D="--dims 2 --scaling weak --size 4 --iterations 2 --allreduce-every 2 --splits --comm dup"

@test "communicators: halo on a dup of world, splits with one colour and with colour = rank are no grid dimension" {
	# shellcheck disable=SC2086
	ladder dup "4 8 12 16" ownhalo $S2D > /dev/null
	# shellcheck disable=SC2086
	matches dup 48 ownhalo $S2D
}

@test "communicators: a bucket sort over a dup of world has its Alltoallv count arrays by rule, as over world" {
	c=$(ladder isdup "4 9 16" is --scaling weak --size 256 --iterations 2 --comm dup)
	run "$LADDER" extrap "$c" --target 36 --lossy -o "$BATS_FILE_TMPDIR/isdup-e36.h5"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"stated the count arrays of 72 of 540 calls"*"by rule"* && "$output" != *"dropped"* ]] ||
		{ echo "$output"; return 1; }
}

@test "refused: master-worker peers; the refusal names each decomposition tested, the rung and who talks to whom" {
	c=$(ladder mw "4 9" mw --size 24 --iterations 1)
	run "$LADDER" extrap "$c" --target 16 -o "$BATS_FILE_TMPDIR/never.h5"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no rule of a decomposition by hand explains the peers of every rung: 1-D 4 at p4: rank 0 talks to rank 2"* ]]
	[[ "$output" == *"2-D MPI_Dims_create's order (balanced factors, largest first): every rank is a neighbour of every other at every rung"* ]]
	[ ! -e "$BATS_FILE_TMPDIR/never.h5" ]
}

@test "a class only one rung has, composed from its sides and checked there: stencil2d weak from 4, 9 to 36" {
	# shellcheck disable=SC2086
	ladder s2w49 "4 9" stencil2d --scaling weak --size 8 --iterations 3 --allreduce-every 2 > /dev/null
	matches s2w49 36 stencil2d --scaling weak --size 8 --iterations 3 --allreduce-every 2
}

U25="--scaling strong --size 25 --iterations 2"

@test "uneven decomposition, 25 cells over d: ceil(25/d) and floor(25/d) counts from 4, 9, 16, 25 to 36 and 64" {
	# shellcheck disable=SC2086
	ladder u25 "4 9 16 25" uneven $U25 > /dev/null
	# shellcheck disable=SC2086
	matches u25 36 uneven $U25
	# shellcheck disable=SC2086
	matches u25 64 uneven $U25
}

@test "uneven decomposition from 9, 16, 25: a linear law and a rounded one tie; refused naming the rung that decides" {
	# shellcheck disable=SC2086
	c=$(TRACES=u25 ladder u25tie "9 16 25" uneven $U25)
	run "$LADDER" extrap "$c" --target 36 -o "$BATS_FILE_TMPDIR/never.h5"
	[ "$status" -eq 1 ]
	[[ "$output" == *"(9 at p9, 7 at p16, 5 at p25): ambiguous: 15 - 2*d0 or ceil(25/d0)"*"a rung of 18 ranks (6x3) would decide"* ]] ||
		{ echo "$output"; return 1; }
	[ ! -e "$BATS_FILE_TMPDIR/never.h5" ]
}

# Rungs traced with default options (issue 30, patterns 2 and 6): no --stream-after. A 27-point
# halo posts 26 requests per loop, more variants of its call site than the tracer keeps literal, so
# its peers are streamed at every rung and extrap reads each streamed peer as a move on the grid
# (lib/extrap/stream_peer.c), as it reads a peer kept in a signature.
D27="--dims 3 --points 27 --scaling weak --size 3 --iterations 2 --allreduce-every 2"

@test "default options: a 27-point halo's streamed peers as moves on the grid: 4, 8, 12, 16, 18, 24 to 32" {
	# shellcheck disable=SC2086
	ladder d27 "4 8 12 16 18 24" ownhalo $D27 > /dev/null
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/d27-24.h5"
	[[ "$output" == *"stream_after=8;"* ]]
	# shellcheck disable=SC2086
	matches d27 32 ownhalo $D27
}

# A 27-point halo that skips the neighbours beyond a non-periodic edge: a corner posts 7 requests
# per loop (the tracer keeps them literal), an edge 11 and the centre 26 (streamed). At 8 ranks
# every rank is a corner and the trace has no stream; from 12 ranks some ranks stream and the
# corners do not, and the tracer refolds neither. extrap refolds every rung offline
# (lib/run/refold_ladder.c) so the rungs have one form (label refolded).
S27="--dims 3 --points 27 --skip-edges --order z-fastest --scaling weak --size 3 --iterations 2 --allreduce-every 2"

@test "default options, rungs of different structure (literal at 8, streamed from 12): refolded offline, 8, 12, 18, 24, 27 to 32" {
	# shellcheck disable=SC2086
	ladder s27 "8 12 18 24 27" ownhalo $S27 > /dev/null
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/s27-8.h5"
	[[ "$output" == *"streams     0 streamed values"* ]] || { echo "$output"; return 1; }
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/s27-12.h5"
	[[ "$output" != *"streams     0 streamed values"* ]] || { echo "$output"; return 1; }
	# shellcheck disable=SC2086
	matches s27 32 ownhalo $S27
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/s27-e32.h5"
	[[ "$output" == *"refolded=p8: "*", p12: "* ]] || { echo "$output"; return 1; }
}

# ---- partners that follow a law of the rank (issue 30, pattern 3): partner families searched on
# every rung (lib/extrap/partners.c, partner_family.c), loops of log2 of a grid width

@test "butterfly weak on MPI_Cart_create: XOR 2^k partners in loops of log2(d) calls, 4 to 32 ranks to 64" {
	BF="--scaling weak --size 1024 --iterations 2"
	# shellcheck disable=SC2086
	ladder bfw "4 8 16 32" butterfly $BF > /dev/null
	# shellcheck disable=SC2086
	matches bfw 64 butterfly $BF
	out=$(cat "$BATS_FILE_TMPDIR/bfw-e64.out")
	[[ "$out" == *"partner families: MPI_Sendrecv: loops of log2(d1) calls, partners xor 2^k in dimension 1 (k = j)"* ]]
	[[ "$out" == *"loops of log2(d0) calls, partners xor 2^k in dimension 0 (k = L-1-j)"* ]]
	run "$LADDER" inspect --json "$BATS_FILE_TMPDIR/bfw-e64.h5"
	[[ "$output" == *'"partner_families":"MPI_Sendrecv: loops of log2(d1) calls'* ]]
	# a million ranks: 20 loop calls per iteration instead of 6, in a container of about the same size
	run "$LADDER" extrap "$BATS_FILE_TMPDIR/bfw.h5" --target 1048576 --profile-limit 0 -o "$BATS_FILE_TMPDIR/bfw-1m.h5"
	[ "$status" -eq 0 ] && [[ "$output" == *"grid 1024x1024"* ]]
	small=$(stat -c %s "$BATS_FILE_TMPDIR/bfw-e64.h5") large=$(stat -c %s "$BATS_FILE_TMPDIR/bfw-1m.h5")
	[ "$large" -lt $((small * 3 / 2)) ]
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/bfw-1m.h5"
	[[ "$output" == *"2 groups"* ]]
}

@test "butterfly strong by hand: recursive halving, counts halved k times, grid from the rule: 4 to 32 ranks to 64" {
	BF="--scaling strong --size 4096 --iterations 2 --manual-neighbours"
	# shellcheck disable=SC2086
	ladder bfs "4 8 16 32" butterfly $BF > /dev/null
	# shellcheck disable=SC2086
	matches bfs 64 butterfly $BF
	grep -q "grid 8x8: MPI_Dims_create's order" "$BATS_FILE_TMPDIR/bfs-e64.out"
	# --lossy takes the exact run of the partner families over one that drops calls
	run "$LADDER" extrap "$BATS_FILE_TMPDIR/bfs.h5" --target 64 --lossy -o "$BATS_FILE_TMPDIR/bfs-l.h5"
	[ "$status" -eq 0 ] && [[ "$output" == *"partner families:"* && "$output" != *"lossy"* ]]
	run "$LADDER" compare "$BATS_FILE_TMPDIR/bfs-l.h5" "$BATS_FILE_TMPDIR/bfs-64.h5"
	[ "$status" -eq 0 ] && [[ "$output" == *"equal:"* ]]
}

# Uneven decompositions with the remainder over the first coordinates (issue 30, pattern 4): 50
# cells over d, floor(50/d) each and one more to the first 50 mod d coordinates, so ranks of one
# position class hold different counts (at 36: coordinates 0 and 1 hold 9, 2 to 5 hold 8). The
# count is streamed as a law of the rank with a step term, 8 + (c < 2) at 36.
U50="--scaling strong --size 50 --iterations 2"

@test "uneven decomposition, 50 cells over d (remainder to the first coordinates): exact from 4, 9, 16, 25 to 36 and 64" {
	# shellcheck disable=SC2086
	ladder u50 "4 9 16 25" uneven $U50 > /dev/null
	# shellcheck disable=SC2086
	matches u50 36 uneven $U50
	# shellcheck disable=SC2086
	matches u50 64 uneven $U50
	# rank 7 (row 1, column 1) receives 9 doubles from each side, rank 14 (row 2, column 2) 8
	run "$LADDER" decode --rank 7 "$BATS_FILE_TMPDIR/u50-e36.h5"
	[[ "$output" == *"MPI_Irecv buf=user count=9 "* && "$output" != *"MPI_Irecv buf=user count=8 "* ]] || { echo "$output"; return 1; }
	run "$LADDER" decode --rank 14 "$BATS_FILE_TMPDIR/u50-e36.h5"
	[[ "$output" == *"MPI_Irecv buf=user count=8 "* && "$output" != *"MPI_Irecv buf=user count=9 "* ]] || { echo "$output"; return 1; }
}

@test "uneven decomposition by hand, 50 cells: exact to 36 and 64; replay and proxy of the run at 36 trace equal to it" {
	# shellcheck disable=SC2086
	ladder u50m "4 9 16 25" uneven $U50 --manual-neighbours > /dev/null
	# shellcheck disable=SC2086
	matches u50m 36 uneven $U50 --manual-neighbours
	# shellcheck disable=SC2086
	matches u50m 64 uneven $U50 --manual-neighbours
	e="$BATS_FILE_TMPDIR/u50m-e36.h5"
	run timeout "$T" "$LADDER" replay --trace "$BATS_FILE_TMPDIR/u50m-replay36.h5" "$e"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run "$LADDER" compare "$e" "$BATS_FILE_TMPDIR/u50m-replay36.h5"
	[ "$status" -eq 0 ] && [[ "$output" == *"equal:"* ]] || { echo "$output"; return 1; }
	run "$LADDER" proxy "$e" -o "$BATS_FILE_TMPDIR/u50m-proxy" --build
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# the share is a law in the program (base 8, one step term below 2), not a table of 36 ranks
	grep -q -- '8 + 1\*(rank/1%6 < 2) \*/ 0, 8LL, 1, 1LL, 1ULL, 0ULL, 6ULL, 2LL' "$BATS_FILE_TMPDIR/u50m-proxy/proxy.c"
	run timeout "$T" "$LADDER" --quiet trace -o "$BATS_FILE_TMPDIR/u50m-proxy36.h5" -- \
		mpirun --oversubscribe -np 36 "$BATS_FILE_TMPDIR/u50m-proxy/proxy"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run "$LADDER" compare "$e" "$BATS_FILE_TMPDIR/u50m-proxy36.h5"
	[ "$status" -eq 0 ] && [[ "$output" == *"equal:"* ]]
}

# ---- partners at a distance that is the rank's own coordinate (issue 30, pattern 3): Cannon's
# matrix product, whose row 0 and column 0 skip the skew (classes by coordinates 0), whose q steps
# alternate two call sites (a loop body of two calls)

@test "cannon by hand, strong: skew by -c0 and -c1 skipped on row and column 0, q steps of two calls: 4, 9, 16, 25 to 36" {
	CN="--scaling strong --size 240 --iterations 1 --manual-neighbours"
	# shellcheck disable=SC2086
	ladder cnm "4 9 16 25" cannon $CN > /dev/null
	# shellcheck disable=SC2086
	matches cnm 36 cannon $CN
	out=$(cat "$BATS_FILE_TMPDIR/cnm-e36.out")
	[[ "$out" == *"partners shift by -c0 on the ring of dimension 1"* ]] || { echo "$out"; return 1; }
	[[ "$out" == *"partners shift by -c1 on the ring of dimension 0"* ]] || { echo "$out"; return 1; }
	[[ "$out" == *"loops of d0 calls, partners -1 on the ring of dimension 1"* ]] || { echo "$out"; return 1; }
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/cnm-e36.h5"
	[[ "$output" == *"4 groups"* ]] || { echo "$output"; return 1; }   # rank 0, row 0, column 0, the rest
}

@test "cannon weak on MPI_Cart_create: 64x64 from rungs up to 25; a q-step loop longer than the partner families carry is refused naming it" {
	CN="--scaling weak --size 16 --iterations 2"
	# shellcheck disable=SC2086
	ladder cnw "4 9 16 25" cannon $CN > /dev/null
	run "$LADDER" extrap "$BATS_FILE_TMPDIR/cnw.h5" --target 4096 --profile-limit 0 -o "$BATS_FILE_TMPDIR/cnw-4k.h5"
	[ "$status" -eq 0 ] && [[ "$output" == *"grid 64x64"* && "$output" == *"loops of d0 calls"* ]] || { echo "$output"; return 1; }
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/cnw-4k.h5"
	[[ "$output" == *"4 groups"* ]] || { echo "$output"; return 1; }
	# 4097 x 4097: 4097 steps of two calls; each loop is stated call by call, so it is refused
	run "$LADDER" extrap "$BATS_FILE_TMPDIR/cnw.h5" --target $((4097 * 4097)) --profile-limit 0 -o "$BATS_FILE_TMPDIR/cnw-x.h5"
	[ "$status" -ne 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"a loop runs d0 = 4097 times at the target; partner families carry loops of at most 4096 calls"* ]] ||
		{ echo "$output"; return 1; }
}

# The 27-point open halo on cubes traced with default options: every rank streams its peers, and
# at 27 ranks the centre is in one group with the corners (the same calls) while its streams hold
# neighbours where theirs hold MPI_PROC_NULL. The interiors only 27 has are the union of their
# sides, streams too (lib/extrap/compose.c), never a corner's streams borrowed.
@test "default options: 27-point open halo on cubes 1, 8, 27 to 64, interiors' streams the union of their sides" {
	# shellcheck disable=SC2086
	ladder c27d "1 8 27" ownhalo $H27 > /dev/null
	run "$LADDER" inspect "$BATS_FILE_TMPDIR/c27d-27.h5"
	[[ "$output" == *"stream_after=8;"* && "$output" != *"streams     0 streamed values"* ]] || { echo "$output"; return 1; }
	# shellcheck disable=SC2086
	matches c27d 64 ownhalo $H27
	grep -q "grid 4x4x4" "$BATS_FILE_TMPDIR/c27d-e64.out"
}

# The same halo in x-fastest order (ranks 0, 1, 2, ... along x, the largest factor last): at 12
# ranks MPI_Dims_create's order 3x2x2 explains every peer only with dimensions 0 and 1 wrapping,
# yet at 27 (3x3x3) no rank talks across their edges. A dimension that wraps at one rung and, 3
# ranks wide or more, is crossed by no peer at another is no torus: the rule is refuted and the
# grids are 2x2x3, 2x3x3 and 3x3x3, never periodic.
X27="--dims 3 --points 27 --skip-edges --order x-fastest --scaling weak --size 3 --iterations 2 --allreduce-every 2"

@test "default options, skip-edges in x-fastest order: a dimension no peer crosses at 27 is no torus at 12; 8, 12, 18, 27 to 32" {
	# shellcheck disable=SC2086
	ladder x27 "8 12 18 27" ownhalo $X27 > /dev/null
	# shellcheck disable=SC2086
	matches x27 32 ownhalo $X27
	grep -q "grid 2x4x4: balanced factors, largest last" "$BATS_FILE_TMPDIR/x27-e32.out"
}

# The same ladder to 48: the interior along x (dimension 0) exists only at 27. The code lays the
# largest factor last, so 16, 20 and 24 (2x2x4, 2x2x5, 2x3x4) keep x 2 wide; the advice names the
# counts whose grid under that rule has the class, and adding the first of them shows it.
@test "too few rungs in x-fastest order: the advised rungs follow the code's rule, and 36 added gives 48 exactly" {
	# shellcheck disable=SC2086
	c=$(ladder x27 "8 12 18 27" ownhalo $X27)
	run "$LADDER" extrap "$c" --target 48 -o "$BATS_FILE_TMPDIR/x27-few.h5"
	[ "$status" -eq 1 ] || { echo "$output"; return 1; }
	[[ "$output" == *"class interior/low/low exists at 1 rung of the ladder"* ]] || { echo "$output"; return 1; }
	[[ "$output" == *"add rungs whose grid has it: 36 ranks (3x3x4), 45 (3x3x5) or 48 (3x4x4) under balanced factors, largest last"* ]] ||
		{ echo "$output"; return 1; }
	[ ! -e "$BATS_FILE_TMPDIR/x27-few.h5" ]
	# shellcheck disable=SC2086
	TRACES=x27 ladder x27a "8 12 18 27 36" ownhalo $X27 > /dev/null
	# shellcheck disable=SC2086
	matches x27a 48 ownhalo $X27
	grep -q "grid 3x4x4: balanced factors, largest last" "$BATS_FILE_TMPDIR/x27a-e48.out"
}
