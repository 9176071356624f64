#!/usr/bin/env bats
# Hostile and unlucky input: outputs that are device nodes or the inputs themselves, full disks,
# crashes, campaign directories that are not what they seem, replays that cannot be faithful,
# and damaged containers met by every reader command. Every file is generated here.

load helper

setup_file() {
	export DIR="$BATS_FILE_TMPDIR"
	cd "$DIR"
	for np in 2 3 4 5; do
		"$LADDER" --quiet trace -o "p$np.h5" -- mpirun -np "$np" "$BUILD_DIR/apps/stencil1d" --iterations 5 >/dev/null
	done
	"$LADDER" --quiet merge --copy -o camp.h5 p2.h5 p3.h5 p4.h5 p5.h5
}

teardown() {
	if [ -n "${MNT:-}" ] && mountpoint -q "$MNT"; then
		umount "$MNT"
	fi
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root (device nodes, tmpfs mounts)"
}

# a character device like /dev/null, made here so that a writer that renames over it harms nothing
make_device() {
	rm -f "$1"
	mknod "$1" c 1 3
}

# a 2 MB tmpfs at $MNT, holding copies of the given files
small_disk() {
	need_root
	export MNT="$DIR/disk.$BATS_TEST_NUMBER"
	mkdir -p "$MNT"
	mount -t tmpfs -o size=2m tmpfs "$MNT" || skip "cannot mount a tmpfs here"
	cp "$@" "$MNT/"
}

# fill $MNT, leaving about $1 bytes free
fill_disk() {
	local keep=$1 avail
	avail=$(df -B4096 --output=avail "$MNT" | tail -1)
	local pages=$(( avail - (keep + 4095) / 4096 ))
	[ "$pages" -gt 0 ] && dd if=/dev/zero of="$MNT/fill" bs=4096 count="$pages" status=none || true
}

# ---- writers never clobber -----------------------------------------------------------------------

@test "merge -o onto a device node refuses and leaves the node in place" {
	need_root
	cd "$DIR"
	make_device dev.h5
	run --separate-stderr "$LADDER" merge -o dev.h5 p2.h5 p3.h5
	assert_failure 1
	[[ $stderr == *"dev.h5: is a character device, not a regular file"* ]]
	[ -c dev.h5 ]
	[ ! -e dev.h5.part ]
}

@test "trace -o onto a device node refuses before running and leaves the node in place" {
	need_root
	cd "$DIR"
	make_device devtrace.h5
	run --separate-stderr "$LADDER" trace -o devtrace.h5 -- mpirun -np 2 "$BUILD_DIR/apps/stencil1d" --iterations 2
	assert_failure 1
	[[ $stderr == *"devtrace.h5: is a character device"* ]]
	[[ $output != *RESULT* ]]
	[ -c devtrace.h5 ]
}

@test "the tracer preloaded by hand never renames over a device node" {
	need_root
	cd "$DIR"
	make_device devraw.h5
	LD_PRELOAD="$BUILD_DIR/lib/libladder-trace.so" LADDER_BIN="$LADDER" LADDER_TRACE_FILE="$DIR/devraw.h5" \
		run --separate-stderr mpirun -np 2 "$BUILD_DIR/apps/stencil1d" --iterations 2
	assert_success
	[[ $stderr == *"devraw.h5: is a character device"*"runs untraced"* ]]
	[ -c devraw.h5 ]
}

@test "import -o onto a device node refuses" {
	need_root
	cd "$DIR"
	LADDER_TRACE_CONVERT=0 "$LADDER" --quiet trace -o conv.h5 -- mpirun -np 2 "$BUILD_DIR/apps/stencil1d" --iterations 2 >/dev/null
	[ -s conv.h5.raw ]
	make_device devimp.h5
	run --separate-stderr "$LADDER" import conv.h5.raw -o devimp.h5
	assert_failure 1
	[ -c devimp.h5 ]
	run --separate-stderr "$LADDER" import conv.h5.raw -o conv.h5.raw
	assert_failure 1
	[[ $stderr == *"conv.h5.raw: is also an input"* ]]
	[ -s conv.h5.raw ]
}

@test "model --export writes through a device node" {
	need_root
	cd "$DIR"
	make_device devexport.json
	run --separate-stderr "$LADDER" model --export extrap-json devexport.json camp.h5
	assert_success
	[ -c devexport.json ]
}

@test "output = input is refused, whatever the names (merge, model --export, replay --trace)" {
	cd "$DIR"
	cp p2.h5 same.h5
	ln -f same.h5 samelink.h5
	sum=$(md5sum < same.h5)
	run --separate-stderr "$LADDER" merge -o same.h5 same.h5
	assert_failure 1
	[[ $stderr == *"same.h5: is also an input (same.h5)"* ]]
	run --separate-stderr "$LADDER" merge -o ./samelink.h5 p3.h5 same.h5
	assert_failure 1
	[[ $stderr == *"is also an input (same.h5)"* ]]
	run --separate-stderr "$LADDER" replay --trace samelink.h5 same.h5
	assert_failure 1
	[[ $stderr == *"samelink.h5: is also an input"* ]]
	[ "$(md5sum < same.h5)" = "$sum" ]
	"$LADDER" --quiet model --export extrap-json in.json camp.h5 >/dev/null
	sum=$(md5sum < in.json)
	run --separate-stderr "$LADDER" model --input in.json --export extrap-json in.json
	assert_failure 1
	[[ $stderr == *"in.json: is also an input"* ]]
	[ "$(md5sum < in.json)" = "$sum" ]
}

@test "model on a full disk fails and leaves the campaign as it was" {
	small_disk "$DIR"/camp.h5 "$DIR"/p[2-5].h5
	before=$(md5sum < "$MNT/camp.h5")
	fill_disk 0
	run --separate-stderr "$LADDER" model "$MNT/camp.h5"
	assert_failure 1
	[[ $stderr == *"$MNT/camp.h5"* ]]
	[ "$(md5sum < "$MNT/camp.h5")" = "$before" ]
	[ -z "$(ls "$MNT" | grep -v -e '^camp.h5$' -e '^fill$' -e '^p[2-5].h5$')" ]
	# with room again the same command stores the models
	rm "$MNT/fill"
	run "$LADDER" model "$MNT/camp.h5"
	assert_success
	run "$LADDER" validate "$MNT/camp.h5"
	assert_success
	run "$LADDER" inspect "$MNT/camp.h5"
	[[ $output == *"models      present"* ]]
}

@test "model --export on a full disk fails and leaves no half-written file" {
	small_disk "$DIR/camp.h5"
	fill_disk 0
	run --separate-stderr "$LADDER" model --export extrap-json "$MNT/x.json" "$DIR/camp.h5"
	assert_failure 1
	[[ $stderr == *"No space left on device"* ]]
	[ ! -e "$MNT/x.json" ]
}
@test "merge and import on a full disk fail and leave no file behind" {
	small_disk "$DIR/p2.h5" "$DIR/p3.h5"
	fill_disk 8192
	run --separate-stderr "$LADDER" merge --copy -o "$MNT/c.h5" "$MNT/p2.h5" "$MNT/p3.h5"
	assert_failure 1
	[ ! -e "$MNT/c.h5" ] && [ ! -e "$MNT/c.h5.part" ]
	[ "$(printf '%s\n' "$stderr" | grep -c .)" -eq 1 ]
	[[ $stderr == *"$MNT/c.h5"* ]]
	LADDER_TRACE_CONVERT=0 "$LADDER" --quiet trace -o "$DIR/full.h5" -- mpirun -np 2 "$BUILD_DIR/apps/stencil1d" --iterations 2 >/dev/null
	run --separate-stderr "$LADDER" import "$DIR/full.h5.raw" -o "$MNT/i.h5"
	assert_failure 1
	[ ! -e "$MNT/i.h5" ] && [ ! -e "$MNT/i.h5.part" ]
	[[ $stderr == *"$MNT/i.h5"* ]]
}

# ---- crashes are reported as what they are ------------------------------------------------------

@test "a crash outside the HDF5 library is an internal error, not a damaged file" {
	cd "$DIR"
	# a launcher that waits: ladder has read p2.h5 and waits for it when the signal comes
	printf '#!/bin/sh\nexec sleep 30\n' > slow-launcher
	chmod +x slow-launcher
	"$LADDER" replay --launcher "$DIR/slow-launcher" p2.h5 2> crash.err &
	pid=$!
	child=
	for _ in $(seq 50); do child=$(pgrep -P "$pid") && break; sleep 0.1; done
	kill -SEGV "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ -z "$child" ] || kill "$child" 2>/dev/null || true
	[ "$rc" -eq 1 ]
	run cat crash.err
	[[ $output == *"internal error: signal 11 in ladder's own code"* ]]
	[[ $output != *"p2.h5"* && $output != *HDF5* ]]
}


# ---- campaign directories ------------------------------------------------------------------------

@test "campaign run refuses a directory that exists and is not a campaign, also with --dry-run" {
	load campaign_helper
	small_workflow "$BATS_TEST_TMPDIR/wf.yaml"
	dir="$BATS_TEST_TMPDIR/home"
	mkdir -p "$dir"
	echo precious > "$dir/notes.txt"
	for dry in --dry-run ""; do
		run --separate-stderr "$LADDER" campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" \
			--dir "$dir" $dry
		assert_failure 1
		[[ $stderr == *"$dir: exists and is not a campaign directory"* ]]
	done
	[ "$(ls -A "$dir")" = notes.txt ]
	# the default directory ./NAME as well
	mkdir -p "$BATS_TEST_TMPDIR/cwd/small" && touch "$BATS_TEST_TMPDIR/cwd/small/data"
	cd "$BATS_TEST_TMPDIR/cwd"
	run --separate-stderr "$LADDER" campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dry-run
	assert_failure 1
	[ "$(ls -A small)" = data ]
	# a directory left by a dry run is the campaign's own
	run "$LADDER" -q campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir dry --dry-run
	assert_success
	run "$LADDER" -q campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir dry --dry-run
	assert_success
	[ -d dry/jobs ]
}

@test "a campaign directory moved elsewhere resumes where it was" {
	load campaign_helper
	small_workflow "$BATS_TEST_TMPDIR/wf.yaml"
	dir="$BATS_TEST_TMPDIR/first"
	run "$LADDER" campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	before=$(stat -c %Y.%i "$dir/runs/p4/r1/trace.h5")
	mv "$dir" "$BATS_TEST_TMPDIR/moved"
	dir="$BATS_TEST_TMPDIR/moved"
	run "$LADDER" campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	[[ $output == *"moved from $BATS_TEST_TMPDIR/first"* ]]
	[[ $output != *"runs again"* ]]
	[ "$(stat -c %Y.%i "$dir/runs/p4/r1/trace.h5")" = "$before" ]
	[ "$(jq '[.jobs[] | select(.attempts != 1)] | length' "$dir/state.json")" -eq 0 ]
	# the scripts now name the new directory
	! grep -rq "$BATS_TEST_TMPDIR/first" "$dir/jobs"
	run "$LADDER" validate "$dir/campaign.h5"
	assert_success
}

@test "a finished run whose container disappeared runs again instead of counting as done" {
	load campaign_helper
	small_workflow "$BATS_TEST_TMPDIR/wf.yaml"
	dir="$BATS_TEST_TMPDIR/gone"
	run "$LADDER" -q campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	rm "$dir/runs/p4/r1/trace.h5"
	run "$LADDER" campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir"
	assert_success
	[[ $output == *"job run-p4-r1 completed but its output runs/p4/r1/trace.h5 is gone; it runs again"* ]]
	[ -s "$dir/runs/p4/r1/trace.h5" ]
	[ "$(camp_state "$dir" run-p4-r1 attempts)" -eq 2 ]
	[ "$(camp_state "$dir" merge attempts)" -eq 2 ]
	run "$LADDER" validate "$dir/campaign.h5"
	assert_success
}

@test "state.json paths outside the campaign directory are refused" {
	load campaign_helper
	small_workflow "$BATS_TEST_TMPDIR/wf.yaml"
	dir="$BATS_TEST_TMPDIR/confined"
	run "$LADDER" -q campaign run "$BATS_TEST_TMPDIR/wf.yaml" --site "$TOP/site-configs/local.yaml" --dir "$dir" --no-wait
	assert_success
	"$LADDER" -q campaign wait "$dir" >/dev/null || true
	for bad in '"/etc/passwd"' '"../../outside.h5"' '"runs/../../x"'; do
		jq ".jobs[0].output = $bad" "$dir/state.json" > "$dir/state.new" && mv "$dir/state.new" "$dir/state.json"
		run --separate-stderr "$LADDER" campaign status "$dir"
		assert_failure 1
		[[ $stderr == *"state.json: jobs[0]: 'output' is '"*"', a path outside the campaign directory"* ]]
	done
}

# ---- replay refuses what it cannot do faithfully -------------------------------------------------

@test "non-finite replay knobs are usage errors, before anything is launched" {
	cd "$DIR"
	for opt in --compute-scale --message-scale; do
		for v in inf -inf nan 1e999 0 -1; do
			run --separate-stderr "$LADDER" replay --launcher /nonexistent "$opt" "$v" p2.h5
			assert_failure 2
			[[ $stderr == *"$opt"*"'$v'"* ]]
		done
	done
	run --separate-stderr mpirun -np 2 "$BUILD_DIR/bin/ladder-replay" --compute-scale inf p2.h5
	[ "$status" -ne 0 ]
	[[ $stderr == *"--compute-scale needs a finite number > 0"* ]]
	run --separate-stderr "$LADDER" model --noise-limit inf camp.h5
	assert_failure 2
}

@test "a trace with MPI calls from several threads under MPI_THREAD_MULTIPLE is refused, not deadlocked" {
	cd "$DIR"
	"$LADDER" --quiet trace -o mt.h5 -- mpirun -np 2 "$BUILD_DIR/tests/trace/multiple" > mt.out
	grep -q '^provided=3 ' mt.out
	run "$LADDER" inspect mt.h5
	assert_line --regexp '^labels +mpi_threads=3$'
	run --separate-stderr timeout 60 "$LADDER" replay mt.h5
	assert_failure 1
	[[ $stderr == *"mt.h5: recorded under MPI_THREAD_MULTIPLE with MPI calls from 3 threads"* ]]
	run --separate-stderr timeout 60 mpirun -np 2 "$BUILD_DIR/bin/ladder-replay" mt.h5
	[ "$status" -ne 0 ] && [ "$status" -ne 124 ]
	[[ $stderr == *"cannot be replayed faithfully"* ]]
	# MPI_THREAD_MULTIPLE with MPI called from one thread only replays
	"$LADDER" --quiet trace -o mt1.h5 -- mpirun -np 1 "$BUILD_DIR/tests/trace/multiple" > /dev/null
	run "$LADDER" inspect mt1.h5
	assert_line --regexp '^labels +mpi_threads=1$'
	run timeout 60 "$LADDER" replay mt1.h5
	assert_success
}

@test "replay lists the calls it only counted (one-sided) as not replayed, in text and JSON" {
	cd "$DIR"
	"$LADDER" --quiet trace -o os.h5 -- mpirun -np 2 "$BUILD_DIR/tests/trace/onesided" > /dev/null
	run "$LADDER" replay --json os.json os.h5
	assert_success
	assert_line "not replayed (counted by the tracer, not recorded): MPI_Put x2, MPI_Win_create x2, MPI_Win_fence x4, MPI_Win_free x2"
	[ "$(jq -c '.not_replayed' os.json)" = '[{"function":"MPI_Put","calls":2},{"function":"MPI_Win_create","calls":2},{"function":"MPI_Win_fence","calls":4},{"function":"MPI_Win_free","calls":2}]' ]
	# a run with nothing only counted says nothing of it
	run "$LADDER" replay --json p2.json p2.h5
	assert_success
	refute_output --partial "not replayed"
	[ "$(jq '.not_replayed | length' p2.json)" -eq 0 ]
}

# ---- reader commands on hostile containers -------------------------------------------------------

# Run every reader command on each file given: each ends within 20 s with exit 0 or 1 and a peak
# RSS under 200 MB; on exit 1 stderr names the file and (but for validate, which lists every
# violation) is one line. Prints each breach; fails when there is one.
readers_hold() {
	local good=$1 f cmd rc rss breaches=0
	shift
	for f in "$@"; do
		for cmd in "inspect" "inspect --counts" "inspect --json" "decode" "decode --grammar" "validate" \
			"compare $good" "replay --launcher true"; do
			rc=0
			/usr/bin/time -f %M -o "$DIR/rss" timeout 20 "$LADDER" $cmd "$f" > "$DIR/out" 2> "$DIR/err" || rc=$?
			rss=$(tail -1 "$DIR/rss")
			local why=
			[ "$rc" -le 1 ] || why="exit $rc"
			if [ "$rc" -eq 1 ]; then
				grep -qF "$f" "$DIR/err" || why="the error does not name the file"
				[[ $cmd == validate ]] || [ "$(grep -c . "$DIR/err")" -eq 1 ] || why="more than one line on stderr"
			fi
			[[ $rss =~ ^[0-9]+$ ]] && [ "$rss" -lt 204800 ] || why="peak RSS ${rss} KB"
			if [ -n "$why" ]; then
				echo "ladder $cmd $f: $why: $(head -c 300 "$DIR/err")"
				breaches=$((breaches + 1))
			fi
		done
	done
	[ "$breaches" -eq 0 ]
}

@test "reader commands on files that are not containers: empty, FIFO, device, directory, loops, sparse" {
	cd "$DIR"
	rm -rf notc && mkdir notc
	: > notc/empty.h5
	mkfifo notc/fifo.h5
	ln -s /dev/zero notc/zero.h5
	ln -s loop.h5 notc/loop.h5
	mkdir notc/dir.h5
	truncate -s 1T notc/sparse.h5
	head -c 8 p2.h5 > notc/signature-only.h5
	{ head -c 4096 p2.h5; } > notc/head.h5
	readers_hold "$DIR/p2.h5" "$DIR"/notc/*.h5
	# none of them was accepted
	for f in notc/*.h5; do
		run "$LADDER" inspect "$f"
		assert_failure 1
	done
}

@test "reader commands on 60 run containers with 8 bytes flipped at spread offsets" {
	cd "$DIR"
	rm -rf mut && mkdir mut
	size=$(stat -c %s p2.h5)
	for i in $(seq 1 60); do
		cp p2.h5 "mut/m$i.h5"
		"$BUILD_DIR/tests/h5edit" flip "mut/m$i.h5" $(( (size - 16) * i / 61 )) 8
	done
	# the mutations changed the files
	[ "$(for f in mut/*.h5; do md5sum < "$f"; done | sort -u | wc -l)" -eq 60 ]
	readers_hold "$DIR/p2.h5" "$DIR"/mut/*.h5
}

@test "reader commands on truncated run and campaign containers" {
	cd "$DIR"
	rm -rf cut && mkdir cut
	for src in p2.h5 camp.h5; do
		size=$(stat -c %s "$src")
		for frac in 1 5 25 50 75 95 99; do
			head -c $((size * frac / 100)) "$src" > "cut/${src%.h5}-$frac.h5"
		done
	done
	readers_hold "$DIR/p2.h5" "$DIR"/cut/*.h5
}
