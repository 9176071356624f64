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

@test "model --export refuses a device node and leaves it in place" {
	need_root
	cd "$DIR"
	make_device devexport.json
	run --separate-stderr "$LADDER" model --export extra-p-json devexport.json camp.h5
	assert_failure 1
	[[ $stderr == *"devexport.json: is a character device, not a regular file"* ]]
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
	"$LADDER" --quiet model --export extra-p-json in.json camp.h5 >/dev/null
	sum=$(md5sum < in.json)
	run --separate-stderr "$LADDER" model --input in.json --export extra-p-json in.json
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
	run --separate-stderr "$LADDER" model --export extra-p-json "$MNT/x.json" "$DIR/camp.h5"
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

@test "extrap, export and report refuse outputs that are their inputs, and never rename over a device node" {
	cd "$DIR"
	need_root
	local sum
	# extrap: the campaign, one of its runs, a device node — refused before any work
	cp camp.h5 ex-camp.h5
	sum=$(md5sum < ex-camp.h5)
	run --separate-stderr "$LADDER" extrap ex-camp.h5 --target 8 -o ex-camp.h5
	assert_failure 1
	[[ $stderr == *"ex-camp.h5: is also an input (ex-camp.h5)"* ]]
	run --separate-stderr "$LADDER" extrap ex-camp.h5 --target 8 -o ./p3.h5
	assert_failure 1
	[[ $stderr == *"is also an input"* ]]
	[ "$(md5sum < ex-camp.h5)" = "$sum" ]
	make_device devex.h5
	run --separate-stderr "$LADDER" extrap ex-camp.h5 --target 8 -o devex.h5
	assert_failure 1
	[[ $stderr == *"devex.h5: is a character device, not a regular file"* ]]
	[ -c devex.h5 ] && [ ! -e devex.h5.part ]
	# export: its input container, and an OTF2 archive onto a device (one line, no library noise)
	cp p2.h5 ex-run.h5
	sum=$(md5sum < ex-run.h5)
	for fmt in chrome otf2; do
		run --separate-stderr "$LADDER" -q export -f "$fmt" -o ex-run.h5 ex-run.h5
		assert_failure 1
		[ "$(printf '%s\n' "$stderr" | grep -c .)" -eq 1 ]
	done
	[ "$(md5sum < ex-run.h5)" = "$sum" ]
	make_device devotf2
	run --separate-stderr "$LADDER" -q export -f otf2 -o devotf2 p2.h5
	assert_failure 1
	[ "$stderr" = "ladder: p2.h5: devotf2: exists and is not a directory; the OTF2 archive needs a directory" ]
	[ -c devotf2 ]
	# report: none of its outputs over the campaign or a run it was given; a device is refused
	sum=$(md5sum < ex-camp.h5)
	for opt in --json --markdown --html; do
		run --separate-stderr "$LADDER" -q report ex-camp.h5 "$opt" ex-camp.h5
		assert_failure 1
		[[ $stderr == *"ex-camp.h5: is also an input"* ]]
		run --separate-stderr "$LADDER" -q report ex-camp.h5 --truth p5.h5 "$opt" ./p5.h5
		assert_failure 1
	done
	[ "$(md5sum < ex-camp.h5)" = "$sum" ]
	make_device devreport.json
	run "$LADDER" -q report ex-camp.h5 --json devreport.json
	assert_failure 1
	[ -c devreport.json ]
}

@test "extrap and report on a full disk fail, leave no part behind and keep what was there" {
	small_disk "$DIR/camp.h5"
	echo '{"earlier": true}' > "$MNT/r.json"
	fill_disk 0
	run --separate-stderr "$LADDER" extrap "$DIR/camp.h5" --target 8 -o "$MNT/e8.h5"
	assert_failure 1
	[[ $stderr == *"$MNT/e8.h5"* ]]
	[ ! -e "$MNT/e8.h5" ] && [ ! -e "$MNT/e8.h5.part" ]
	run --separate-stderr "$LADDER" -q report "$DIR/camp.h5" --json "$MNT/r.json"
	assert_failure 1
	[[ $stderr == *"$MNT/r.json"*"No space left on device"* ]]
	[ "$(cat "$MNT/r.json")" = '{"earlier": true}' ]
	[ -z "$(ls "$MNT" | grep -v -e '^camp.h5$' -e '^fill$' -e '^r.json$')" ]
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
	run grep -rlF "$BATS_TEST_TMPDIR/first" "$dir/jobs"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
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
	assert_line --regexp '^labels +mpi_threads=3 tracer_time=[0-9.]+$'
	run --separate-stderr timeout 60 "$LADDER" replay mt.h5
	assert_failure 1
	[[ $stderr == *"mt.h5: recorded under MPI_THREAD_MULTIPLE with MPI calls from 3 threads"* ]]
	run --separate-stderr timeout 60 mpirun -np 2 "$BUILD_DIR/bin/ladder-replay" mt.h5
	[ "$status" -ne 0 ] && [ "$status" -ne 124 ]
	[[ $stderr == *"cannot be replayed faithfully"* ]]
	# MPI_THREAD_MULTIPLE with MPI called from one thread only replays
	"$LADDER" --quiet trace -o mt1.h5 -- mpirun -np 1 "$BUILD_DIR/tests/trace/multiple" > /dev/null
	run "$LADDER" inspect mt1.h5
	assert_line --regexp '^labels +mpi_threads=1 tracer_time=[0-9.]+$'
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

# The commands that read run containers, in three kinds: those that walk every call of a rank,
# those that read the container without walking it, and merge (a writer of its own output).
WALKERS=("decode" "validate" "compare GOOD" "replay --launcher true" "export -f chrome -o OUT.json" "proxy -o OUT.proxy")
READERS=("inspect" "inspect --counts" "inspect --json" "decode --grammar")

# reader CMD FILE [GOOD]: run `ladder -q CMD FILE` (GOOD and OUT in CMD replaced), leaving its
# exit status in rc, its stderr in $DIR/err and the command as run in ran. Prints why and returns 1
# when it broke what every reader keeps on any input: it ends within 5 s of CPU time (killed after
# 60 s: the machine may be loaded, a hang is caught all the same) with exit 0 or 1 and a peak RSS
# under 200 MB; on exit 1 stderr names the file in one line (validate: on every line), unless
# compare answered that the runs differ; nothing of a file outside the container (the SECRET
# marker of hostile/secret.txt) is printed.
reader() {
	local cmd=${1//GOOD/${3:-$DIR/p2.h5}} f=$2 why=
	cmd=${cmd//OUT/$DIR/out}
	ran="ladder $cmd $f"
	rm -rf "$DIR"/out.*
	rc=0
	# shellcheck disable=SC2086
	/usr/bin/time -f '%U %S %M' -o "$DIR/usage" timeout 60 "$LADDER" -q $cmd "$f" > "$DIR/out" 2> "$DIR/err" || rc=$?
	local user sys kb
	read -r user sys kb < <(tail -1 "$DIR/usage")
	[ "$rc" -le 1 ] || why="exit $rc"
	if [ "$rc" -eq 1 ] && [[ $cmd == compare* ]] && [ ! -s "$DIR/err" ] && grep -q '^differ: ' "$DIR/out"; then
		:   # the runs differ: an answer, not an error
	elif [ "$rc" -eq 1 ]; then
		grep -qF "$f" "$DIR/err" || why="the error does not name the file"
		if [[ $cmd == validate ]]; then
			[ "$(grep -vcF "$f" "$DIR/err")" -eq 0 ] || why="a line of the error does not name the file"
		else
			[ "$(grep -c . "$DIR/err")" -eq 1 ] || why="more than one line on stderr"
		fi
	fi
	awk -v u="$user" -v s="$sys" 'BEGIN { exit !(u + s <= 5) }' || why="took $user s + $sys s of CPU"
	[[ $kb =~ ^[0-9]+$ ]] && [ "$kb" -lt 204800 ] || why="peak RSS $kb KB"
	! cat "$DIR/out" "$DIR/err" "$DIR"/out.* 2>/dev/null | grep -q SECRET-MARKER || why="printed a byte of another file"
	[ -z "$why" ] && return 0
	echo "$ran: $why: $(head -c 300 "$DIR/err")"
	return 1
}

# readers_hold GOOD FILE...: every reader and walker on each file keeps the rules of reader().
# Fails when one did not.
readers_hold() {
	local good=$1 f cmd breaches=0
	shift
	for f in "$@"; do
		for cmd in "${READERS[@]}" "${WALKERS[@]:0:4}"; do
			reader "$cmd" "$f" "$good" || breaches=$((breaches + 1))
		done
	done
	[ "$breaches" -eq 0 ]
}

# refused_by EXPECT GOOD FILE CMD...: each command refuses FILE (exit 1) with one line that names
# the file and says EXPECT, keeping the rules of reader().
refused_by() {
	local expect=$1 good=$2 f=$3 cmd breaches=0
	shift 3
	for cmd in "$@"; do
		if ! reader "$cmd" "$f" "$good"; then
			breaches=$((breaches + 1))
		elif [ "$rc" -ne 1 ] || ! grep -qF "$expect" "$DIR/err"; then
			echo "$ran: exit $rc, not refused with '$expect': $(head -c 300 "$DIR/err")"
			breaches=$((breaches + 1))
		fi
	done
	[ "$breaches" -eq 0 ]
}

# accepted_by GOOD FILE CMD...: each command reads FILE (exit 0), keeping the rules of reader()
accepted_by() {
	local good=$1 f=$2 cmd breaches=0
	shift 2
	for cmd in "$@"; do
		if ! reader "$cmd" "$f" "$good"; then
			breaches=$((breaches + 1))
		elif [ "$rc" -ne 0 ]; then
			echo "$ran: exit $rc: $(head -c 300 "$DIR/err")"
			breaches=$((breaches + 1))
		fi
	done
	[ "$breaches" -eq 0 ]
}

# the index of the visits of function FN for rank Q in /profile/counts of FILE
visits_index() {
	local file=$1 fn=$2 q=$3 node nodes
	node=$("$BUILD_DIR/tests/h5edit" find "$file" /profile/callpaths name "$fn")
	nodes=$("$BUILD_DIR/tests/h5edit" dims "$file" /profile/callpaths)
	echo $(( (q * nodes + node) * 5 ))
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

# ---- repeat counts and the walk bound ------------------------------------------------------------

@test "a huge repeat count, or repeat counts whose product overflows, is refused by every reader at once" {
	cd "$DIR"
	local h="$BUILD_DIR/tests/h5edit" row
	rm -rf rep && mkdir rep
	# the loop of the trace (a rule repeated) 2^62 times: the profile counts 37 calls per rank
	cp p2.h5 rep/loop.h5
	row=$("$h" find rep/loop.h5 /trace/rule_symbols repeat 2)
	"$h" set rep/loop.h5 /trace/rule_symbols "$row" repeat 4611686018427387904
	refused_by "its grammar's repeat counts multiply to 2^64 calls or more" p2.h5 "$DIR/rep/loop.h5" \
		"${READERS[@]}" "${WALKERS[@]}"
	# every symbol repeated 2^33 times: nested rules multiply past 2^64
	cp p2.h5 rep/nested.h5
	for ((row = 0; row < $("$h" dims rep/nested.h5 /trace/rule_symbols); row++)); do
		"$h" set rep/nested.h5 /trace/rule_symbols "$row" repeat 8589934592
	done
	refused_by "multiply to 2^64 calls or more" p2.h5 "$DIR/rep/nested.h5" "${READERS[@]}" "${WALKERS[@]}"
	# 2^40 repetitions and a profile short of them
	cp p2.h5 rep/short.h5
	"$h" set rep/short.h5 /trace/rule_symbols "$("$h" find rep/short.h5 /trace/rule_symbols repeat 2)" repeat 1099511627776
	refused_by "calls, but rank 0 made 37" p2.h5 "$DIR/rep/short.h5" "${READERS[@]}" "${WALKERS[@]}"
}

@test "a trace whose repeat counts and profile agree on 2^42 calls is refused by the walk bound, not walked for ever" {
	cd "$DIR"
	local h="$BUILD_DIR/tests/h5edit" q
	rm -rf bound && mkdir bound
	cp p2.h5 bound/agreed.h5
	"$h" set bound/agreed.h5 /trace/rule_symbols "$("$h" find bound/agreed.h5 /trace/rule_symbols repeat 2)" repeat 1099511627776
	for q in 0 1; do
		"$h" set bound/agreed.h5 /profile/counts "$(visits_index bound/agreed.h5 MPI_Irecv "$q")" - 1125899906842624
	done
	# every walker refuses before it walks or prints a call; the readers that do not walk read it
	refused_by "more than the 1000000000 a walk may make" p2.h5 "$DIR/bound/agreed.h5" "${WALKERS[@]}"
	accepted_by p2.h5 "$DIR/bound/agreed.h5" "${READERS[@]}"
	run "$LADDER" decode bound/agreed.h5
	[ -z "$output" ] || [[ $output != *MPI_* ]]
	# the bound does not come from the file: set lower, it refuses the real trace too
	run --separate-stderr "$LADDER" decode --max-calls 20 p2.h5
	assert_failure 1
	[ -z "$output" ]
	[[ $stderr == *"p2.h5: rank 0: its trace expands to 37 calls, more than the 20 a walk may make"* ]]
	run --separate-stderr env LADDER_MAX_CALLS=20 "$LADDER" validate p2.h5
	assert_failure 1
	[[ $stderr == *"more than the 20 a walk may make"* ]]
	run --separate-stderr env LADDER_MAX_CALLS=20 "$LADDER" replay --launcher /nonexistent p2.h5
	assert_failure 1
	[[ $stderr == *"more than the 20 a walk may make"* ]]
	run "$LADDER" decode --max-calls 37 p2.h5
	assert_success
	for bad in 0 -1 1e9 x; do
		run --separate-stderr "$LADDER" compare --max-calls "$bad" p2.h5 p2.h5
		assert_failure 2
		run --separate-stderr env LADDER_MAX_CALLS="$bad" "$LADDER" decode p2.h5
		assert_failure 2
	done
	# export --max-events stops its walk there: no bound needed
	run "$LADDER" export -f chrome -o bound/first.json --max-events 50 bound/agreed.h5
	assert_success
	[ "$(jq '[.traceEvents[] | select(.ph == "X" and .tid == 0)] | length' bound/first.json)" -eq 50 ]
}

@test "failed-poll run lengths beyond the profile, or beyond the bound, end the walk at that call" {
	cd "$DIR"
	local h="$BUILD_DIR/tests/h5edit" row
	rm -rf polls && mkdir polls
	"$LADDER" --quiet trace -o polls/poll.h5 -- mpirun -np 2 "$BUILD_DIR/tests/trace/poll" 20 > /dev/null
	# the first value of a poll stream is a run length of polls that found nothing (thousands)
	row=$("$h" find polls/poll.h5 /trace/stream_values - 100)
	cp polls/poll.h5 polls/long.h5
	"$h" set polls/long.h5 /trace/stream_values "$row" - 4611686018427387904
	refused_by "rank 1: the trace has more calls than the" polls/poll.h5 "$DIR/polls/long.h5" \
		decode validate "compare GOOD" "export -f chrome -o OUT.json"
	grep -q "its profile counts" "$DIR/err"
	# and with a profile that agrees, the bound
	cp polls/long.h5 polls/agreed.h5
	"$h" set polls/agreed.h5 /profile/counts "$(visits_index polls/agreed.h5 MPI_Test 1)" - 4611686018427387904
	refused_by "more calls than the 1000000000 a walk may make" polls/poll.h5 "$DIR/polls/agreed.h5" \
		decode validate "compare GOOD" "export -f chrome -o OUT.json"
}

@test "every rank of a group is held to its own profile, and validate lists a grammar that makes fewer calls" {
	cd "$DIR"
	local h="$BUILD_DIR/tests/h5edit" row
	rm -rf prof && mkdir prof
	# p5: ranks 1, 2 and 3 share a grammar; rank 3's profile counts no MPI_Irecv
	cp p5.h5 prof/rank3.h5
	row=$(visits_index prof/rank3.h5 MPI_Irecv 3)
	"$h" set prof/rank3.h5 /profile/counts "$row" - 0
	refused_by "calls, but rank 3 made" p5.h5 "$DIR/prof/rank3.h5" "${READERS[@]}" "${WALKERS[@]}"
	# a loop repeated once less than the profile says: readable, but not valid
	cp p5.h5 prof/fewer.h5
	row=$("$h" find prof/fewer.h5 /trace/rule_symbols repeat 2)
	"$h" set prof/fewer.h5 /trace/rule_symbols "$row" repeat 4
	run --separate-stderr "$LADDER" validate prof/fewer.h5
	assert_failure 1
	[[ $stderr == *"prof/fewer.h5: rank 0: the profile counts 10 calls of MPI_Irecv, the trace has 8"* ]]
	[[ $stderr == *"prof/fewer.h5: rank 0: the profile counts 10 calls of MPI_Isend, the trace has 8"* ]]
	run "$LADDER" decode prof/fewer.h5
	assert_success
}

@test "validate refuses function tables that are not ladder's: unknown names, other parameters, kinds, duplicates" {
	cd "$DIR"
	local h="$BUILD_DIR/tests/h5edit" isend barrier
	rm -rf fns && mkdir fns
	isend=$("$h" find p2.h5 /trace/functions name MPI_Isend)
	barrier=$("$h" find p2.h5 /trace/functions name MPI_Barrier)
	cp p2.h5 fns/unknown.h5 && "$h" set fns/unknown.h5 /trace/functions "$isend" name MPI_Bogus
	cp p2.h5 fns/kind.h5 && "$h" set fns/kind.h5 /trace/functions "$barrier" parameters comm:peer
	cp p2.h5 fns/renamed.h5 && "$h" set fns/renamed.h5 /trace/functions "$barrier" name MPI_Send
	cp p2.h5 fns/twice.h5 && "$h" set fns/twice.h5 /trace/functions "$isend" name MPI_Irecv
	cp p2.h5 fns/flags.h5 && "$h" set fns/flags.h5 /trace/functions "$barrier" flags 2
	for f in unknown kind renamed twice flags; do
		run --separate-stderr timeout 20 "$LADDER" validate "fns/$f.h5"
		assert_failure 1
		echo "$stderr"
		printf '%s\n' "$stderr" | grep -q "^fns/$f.h5: /trace/functions: "
	done
	run --separate-stderr "$LADDER" validate fns/unknown.h5
	[[ $stderr == *"function $isend is 'MPI_Bogus', not an MPI function ladder traces"* ]]
	run --separate-stderr "$LADDER" validate fns/kind.h5
	[[ $stderr == *"MPI_Barrier has parameters 'comm:peer', ladder's table says 'comm:comm'"* ]]
	run --separate-stderr "$LADDER" validate fns/twice.h5
	[[ $stderr == *"are both MPI_Irecv"* ]]
	run --separate-stderr "$LADDER" validate fns/flags.h5
	[[ $stderr == *"MPI_Barrier has flags 2, ladder's table says 64"* ]]
	# the readers that do not judge the table still read it, within bounds
	readers_hold "$DIR/p2.h5" "$DIR"/fns/*.h5
}

# ---- readers trust nothing: every item, every reader ---------------------------------------------

# bounded EXPECT ARGS...: `ladder -q ARGS` keeps the bounds of reader() (5 s of CPU, killed after
# 60 s, peak RSS under 200 MB) and, for EXPECT "ok", succeeds, else fails with exit 1 and one line
# on stderr holding EXPECT
bounded() {
	local expect=$1 user sys kb
	shift
	rc=0
	/usr/bin/time -f '%U %S %M' -o "$DIR/usage" timeout 60 "$LADDER" -q "$@" > "$DIR/out" 2> "$DIR/err" || rc=$?
	read -r user sys kb < <(tail -1 "$DIR/usage")
	echo "ladder $*: exit $rc, $user s + $sys s of CPU, $kb KB: $(head -c 300 "$DIR/err")"
	awk -v u="$user" -v s="$sys" 'BEGIN { exit !(u + s <= 5) }'
	[[ $kb =~ ^[0-9]+$ ]] && [ "$kb" -lt 204800 ]
	if [ "$expect" = ok ]; then
		[ "$rc" -eq 0 ]
	else
		[ "$rc" -eq 1 ] && [ "$(grep -c . "$DIR/err")" -eq 1 ] && grep -qF "$expect" "$DIR/err"
	fi
}

@test "containers that keep data elsewhere or declare what they do not hold are refused by every reader before any data is read" {
	cd "$DIR"
	local h="$BUILD_DIR/tests/h5edit" d cmd all=("${READERS[@]}")
	for cmd in "${WALKERS[@]}"; do
		[ "$cmd" = validate ] || all+=("$cmd")
	done
	rm -rf hostile && mkdir hostile
	printf 'SECRET-MARKER-%04d\n' $(seq 1 200) > hostile/secret.txt
	mkfifo hostile/fifo
	cp p2.h5 hostile/external.h5 && "$h" external hostile/external.h5 /trace/signature_values "$DIR/hostile/secret.txt"
	cp p2.h5 hostile/fifo.h5 && "$h" external hostile/fifo.h5 /trace/signature_values "$DIR/hostile/fifo"
	cp p2.h5 hostile/soft.h5 && "$h" softlink hostile/soft.h5 /trace/signature_values /trace/stream_values
	cp p2.h5 hostile/extlink.h5 && "$h" extlink hostile/extlink.h5 /trace/signature_values "$DIR/p3.h5" /trace/signature_values
	cp p2.h5 hostile/labels.h5 && "$h" extlink hostile/labels.h5 /labels "$DIR/p3.h5" /labels
	refused_by "keeps its data outside the container" p2.h5 "$DIR/hostile/external.h5" "${all[@]}"
	refused_by "keeps its data outside the container" p2.h5 "$DIR/hostile/fifo.h5" "${all[@]}"
	refused_by "is a soft or external link" p2.h5 "$DIR/hostile/soft.h5" "${all[@]}"
	refused_by "is a soft or external link" p2.h5 "$DIR/hostile/extlink.h5" "${all[@]}"
	refused_by "labels is a soft or external link" p2.h5 "$DIR/hostile/labels.h5" "${all[@]}"
	# 2^40 elements declared in chunks never written (8 TiB of 8-byte values): in every 1-D table
	for d in /trace/signatures /trace/signature_values /trace/rules /trace/rule_symbols /trace/ranklists \
		/trace/stream_values /trace/callsites /timing/histograms /timing/histogram_bins /timing/group_histograms \
		/profile/callpaths; do
		cp p2.h5 hostile/sparse.h5
		"$h" sparse hostile/sparse.h5 "$d" 1099511627776
		[ "$(stat -c %s hostile/sparse.h5)" -lt 1048576 ]
		refused_by "declares far more data than it stores" p2.h5 "$DIR/hostile/sparse.h5" "${all[@]}"
	done
	# validate names what the schema says first (external storage is not chunked), and reads nothing
	for f in external fifo soft extlink labels sparse; do
		reader validate "$DIR/hostile/$f.h5"
		[ "$rc" -eq 1 ]
	done
	# merge reads the labels too
	run --separate-stderr "$LADDER" merge -o hostile/c.h5 hostile/labels.h5
	assert_failure 1
	[[ $stderr == *"labels is a soft or external link"* ]]
	[ ! -e hostile/c.h5 ]
}

@test "NaN, infinite and negative timings are refused by every reader" {
	cd "$DIR"
	local h="$BUILD_DIR/tests/h5edit" spec i=0 good
	rm -rf timing && mkdir timing
	# the pooled histograms of schema 2.0, and the per-group tables of 1.x (p2-1.0.h5)
	"$BUILD_DIR/tests/runv1" p2.h5 timing/p2-1.0.h5
	for spec in "p2 /timing/histograms 0 sum nan|/timing/histograms: row 0: sum is nan" \
		"p2 /timing/histograms 0 max inf|/timing/histograms: row 0: max is inf" \
		"p2 /timing/histograms 0 min -1|/timing/histograms: row 0: min is -1" \
		"p2 /timing/histogram_bins 0 sum nan|/timing/histogram_bins: row 0: sum is nan" \
		"p2 /timing/histograms 0 cpu_sum nan|/timing/histograms: row 0: cpu_sum is nan" \
		"timing/p2-1.0 /timing/durations 0 sum nan|the durations of signature" \
		"timing/p2-1.0 /timing/durations 0 max inf|the durations of signature" \
		"timing/p2-1.0 /timing/gaps 0 min -1|gap histogram 0 holds times" \
		"timing/p2-1.0 /timing/gap_bins 0 sum nan|holds times that are not finite" \
		"p2 /profile/time_stats 1 - inf|/profile/time_stats: 'sum' of callpaths 0 is inf" \
		"p2 /profile/time_stats 4 - -0.5|/profile/time_stats: 'mean' of callpaths 0 is -0.5"; do
		i=$((i + 1))
		good=${spec%% *}.h5
		cp "$good" "timing/t$i.h5"
		spec=${spec#* }
		# shellcheck disable=SC2086
		"$h" set "timing/t$i.h5" ${spec%%|*}
		refused_by "${spec#*|}" "$good" "$DIR/timing/t$i.h5" "${READERS[@]}" "${WALKERS[@]}"
	done
}

@test "absurd schema versions and kinds are refused by every reader" {
	cd "$DIR"
	local v i=0
	rm -rf versions && mkdir versions
	for v in "9.0|schema version 9.0" "1.99999999999999999999|no valid schema_version" "1.0-beta|no valid schema_version" \
		"|no valid schema_version" "18446744073709551617.0|no valid schema_version" "-1.0|no valid schema_version"; do
		i=$((i + 1))
		cp p2.h5 "versions/v$i.h5"
		"$BUILD_DIR/tests/h5edit" attr "versions/v$i.h5" schema_version "${v%%|*}"
		refused_by "${v#*|}" p2.h5 "$DIR/versions/v$i.h5" "${READERS[@]}" "${WALKERS[@]}"
	done
	# a run that says it is a history: read as one by validate, refused by the others
	cp p2.h5 versions/kind.h5
	"$BUILD_DIR/tests/h5edit" attr versions/kind.h5 schema ladder-history
	refused_by "is a history container, expected a run container" p2.h5 "$DIR/versions/kind.h5" "${READERS[@]}" \
		"${WALKERS[@]:0:1}" "${WALKERS[@]:2}"
	reader validate "$DIR/versions/kind.h5"
	[ "$rc" -eq 1 ]
}

@test "ranklists whose reach would overflow 64 bits are refused by every reader" {
	cd "$DIR"
	local h="$BUILD_DIR/tests/h5edit" box
	rm -rf ranks && mkdir ranks
	# p5's group of ranks 1, 2 and 3 is the box [1 dimension, start 1, length 3, stride 1]
	box=$("$h" find p5.h5 /trace/ranklists - 3)
	cp p5.h5 ranks/stride.h5 && "$h" set ranks/stride.h5 /trace/ranklists $((box + 1)) - 4611686018427387904
	cp p5.h5 ranks/length.h5 && "$h" set ranks/length.h5 /trace/ranklists "$box" - 9223372036854775807
	cp p5.h5 ranks/dims.h5 && "$h" set ranks/dims.h5 /trace/ranklists $((box - 2)) - 4611686018427387904
	for f in stride length dims; do
		refused_by "the ranklist of group 1 is malformed: box 0" p5.h5 "$DIR/ranks/$f.h5" "${READERS[@]}" "${WALKERS[@]}"
	done
}

@test "20,000 labels, and 65,536 ranks, are read by every reader in time linear in them" {
	cd "$DIR"
	mkdir -p wide
	cp p2.h5 wide/labels.h5
	"$BUILD_DIR/tests/h5edit" labels wide/labels.h5 20000
	accepted_by p2.h5 "$DIR/wide/labels.h5" "${READERS[@]}" "${WALKERS[@]}"
	# a synthetic run of 65,536 ranks with its per-rank profile: inspect --counts is one line per
	# rank and function (it was quadratic in ranks), decode and compare walk one rank or all
	"$LADDER" -q extrap camp.h5 --target 65536 --profile-limit 65536 -o wide/p65536.h5
	[ "$(stat -c %s wide/p65536.h5)" -lt 1048576 ]
	accepted_by "$DIR/wide/p65536.h5" "$DIR/wide/p65536.h5" "${READERS[@]}" "decode --rank 65535" "compare GOOD"
	"$LADDER" inspect --counts wide/p65536.h5 > wide/counts
	[ "$(cut -f1 wide/counts | sort -u | grep -c '^[0-9]')" -eq 65536 ]
}

@test "a start rule of 200,000 rules (a container under 100 KB) is read by every reader in time linear in it" {
	cd "$DIR"
	mkdir -p wide
	LADDER_TRACE_CONVERT=0 "$LADDER" -q trace -o wide/one.h5 -- mpirun -np 1 "$BUILD_DIR/apps/stencil1d" --iterations 3 > /dev/null
	"$BUILD_DIR/tests/grammar/mkwide" wide/one.h5.raw 200000 > wide/wide.raw
	"$LADDER" -q import wide/wide.raw -o wide/wide.h5
	[ "$(stat -c %s wide/wide.h5)" -lt 102400 ]
	# the expanded length was computed in a pass quadratic in the start rule's width: 12 s of CPU
	accepted_by "$DIR/wide/wide.h5" "$DIR/wide/wide.h5" "${READERS[@]}" "${WALKERS[@]}"
	[ "$("$LADDER" decode wide/wide.h5 | grep -c .)" -gt 800000 ]
}

@test "raw traces, Extra-P and workflow inputs that never end or are mostly holes are refused within bounds" {
	cd "$DIR"
	rm -rf endless && mkdir endless
	LADDER_TRACE_CONVERT=0 "$LADDER" --quiet trace -o endless/run.h5 -- mpirun -np 2 "$BUILD_DIR/apps/stencil1d" --iterations 2 >/dev/null
	# a raw trace's valid beginning, then a terabyte of holes; the same fed endlessly through a FIFO
	head -c 12 endless/run.h5.raw > endless/sparse.raw
	truncate -s 1T endless/sparse.raw
	mkfifo endless/fifo.raw
	{ head -c 12 endless/run.h5.raw; cat /dev/zero; } > endless/fifo.raw 2>/dev/null &
	local feeder=$!
	bounded "is a sparse file" import endless/sparse.raw -o endless/s.h5
	bounded "is a FIFO, not a regular file" import endless/fifo.raw -o endless/f.h5
	kill "$feeder" 2>/dev/null || true
	bounded "is a character device, not a regular file" import /dev/zero -o endless/z.h5
	ln -s /dev/zero endless/zero.txt
	bounded "zero.txt:1: a line longer than" model --input endless/zero.txt --export extra-p-json endless/x.json
	ln -s /dev/zero endless/zero.json
	bounded "zero.json:1: a line longer than" model --input endless/zero.json --export extra-p-json endless/x.json
	ln -s /dev/zero endless/zero.yaml
	bounded "zero.yaml:1: YAML syntax error" campaign run endless/zero.yaml --site "$TOP/site-configs/local.yaml" --dry-run
	[ ! -e endless/s.h5 ] && [ ! -e endless/f.h5 ] && [ ! -e endless/z.h5 ] && [ ! -e endless/x.json ]
}

@test "a workflow with 100,000 vars is read and planned in time linear in them" {
	cd "$BATS_TEST_TMPDIR"
	load campaign_helper
	small_workflow wf.yaml
	{ cat wf.yaml; echo "vars:"; seq 1 100000 | awk '{ printf "  v%d: \"%d\"\n", $1, $1 }'; } > many.yaml
	# planning with every name known in a hash, not searched name by name (took 46 s)
	bounded ok campaign run many.yaml --site "$TOP/site-configs/local.yaml" --dir many --dry-run
	[ -d many/jobs ]
	{ cat many.yaml; echo '  v7: "again"'; } > twice.yaml
	bounded "field 'vars.v7': given twice (first on line" campaign run twice.yaml --site "$TOP/site-configs/local.yaml" --dry-run
}
