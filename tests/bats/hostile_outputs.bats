#!/usr/bin/env bats
# What ladder writes from a hostile container, which a compiler, a shell, cron or a terminal later
# trusts: proxy sources, their build, crontabs, text outputs, terminal text; and the bounds that
# keep a small valid file from costing hours. Every file is generated here.

load helper

setup_file() {
	export DIR="$BATS_FILE_TMPDIR"
	cd "$DIR"
	for np in 2 3 4 5; do
		"$LADDER" --quiet trace -o "p$np.h5" -- mpirun -np "$np" "$BUILD_DIR/apps/stencil1d" --iterations 5 >/dev/null
	done
	"$LADDER" --quiet merge --copy -o camp.h5 p2.h5 p3.h5 p4.h5 p5.h5
}

H5EDIT() { "$BUILD_DIR/tests/h5edit" "$@"; }

# ---- proxy sources -------------------------------------------------------------------------------

# a command line that closes the header comment, includes stdlib.h and defines a constructor calling
# system(), with a trigraph that closes a literal and a backslash-newline, and terminal escapes
PAYLOAD=$'app */\n#include <stdlib.h>\n__attribute__((constructor)) static void own(void) { system("touch OWNED"); }\n/* ??/" \\\n\e]0;title\a'

@test "a command line and an input path that close comments and literals stay comment text; the proxy holds only ladder's symbols" {
	cd "$DIR"
	rm -rf evil* OWNED && mkdir -p "evil/x */ int x; ??"
	local in="evil/x */ int x; ??/.h5"   # the path closes the header comment too
	cp p2.h5 "$in"
	H5EDIT attr "$in" command "$PAYLOAD"
	CFLAGS="-std=c11 -trigraphs -Wall -Wextra -Werror" run --separate-stderr "$LADDER" -q proxy --build "$in" -o evil/px
	assert_success
	[ -x evil/px/proxy ]
	# nothing of the payload was compiled: no call of system, no constructor of its own
	! nm evil/px/proxy | grep -qw system
	! nm evil/px/proxy | grep -qw own
	# the header holds the command as one comment line, escaped
	grep -qF 'app \x2a/\x0a#include <stdlib.h>' evil/px/proxy.c
	! grep -q $'\e' evil/px/proxy.c
	mpirun -np 2 evil/px/proxy >/dev/null
	[ ! -e OWNED ]
}

@test "a function table whose parameter names hold C is refused by proxy and every reader, not only validate" {
	cd "$DIR"
	local barrier
	barrier=$(H5EDIT find p2.h5 /trace/functions name MPI_Barrier)
	cp p2.h5 fnc.h5
	H5EDIT set fnc.h5 /trace/functions "$barrier" parameters $'comm;\n#define MPI_Barrier system:comm'
	rm -rf fnc
	run --separate-stderr "$LADDER" -q proxy fnc.h5 -o fnc
	assert_failure 1
	[[ $stderr == *"fnc.h5: /trace/functions: MPI_Barrier has parameters 'comm;\x0a#define"* ]]
	[ ! -e fnc/proxy.c ]
	for cmd in inspect decode "export -f chrome -o fnc.json"; do
		run --separate-stderr "$LADDER" -q $cmd fnc.h5
		assert_failure
		[[ $stderr == *"a function table other than ladder's is not read"* ]]
	done
}

# import_refuses N EXPECT RAWFN_ARGS...: a raw trace edited by rawfn (rawfn/tN.raw) is refused by
# import with one line naming the file, the field and EXPECT, no control character in it
import_refuses() {
	local t=$1 expect=$2
	shift 2
	"$BUILD_DIR/tests/rawfn" rawfn/base.h5.raw "$@" > "rawfn/t$t.raw"
	run --separate-stderr "$LADDER" -q import "rawfn/t$t.raw" -o "rawfn/t$t.h5"
	echo "$stderr"
	assert_failure 1
	[[ $stderr == "ladder: rawfn/t$t.raw: /trace/functions: "*"$expect"* ]]
	[[ $stderr == *"(a function table other than ladder's is not read)" ]]
	[[ $stderr != *$'\e'* ]]
	[ "$(printf '%s\n' "$stderr" | grep -c .)" -eq 1 ]
}

@test "import refuses a raw trace whose function table holds C, naming the file and the field; nothing is written" {
	cd "$DIR"
	rm -rf rawfn && mkdir rawfn
	LADDER_TRACE_CONVERT=0 "$LADDER" -q trace -o rawfn/base.h5 -- mpirun -np 2 "$BUILD_DIR/apps/stencil1d" --iterations 2 >/dev/null
	import_refuses 1 "MPI_Barrier has parameters 'comm;\x0a#define MPI_Barrier system:comm'" \
		MPI_Barrier 0 $'comm;\n#define MPI_Barrier system'
	import_refuses 2 "is 'MPI_Barrier\x0a#define x system', not an MPI function ladder traces" \
		MPI_Barrier $'MPI_Barrier\n#define x system'
	import_refuses 3 "MPI_Send has parameters 'buf:buf,count */ system(\"id\"); /* \x1b[2J:" \
		MPI_Send 1 $'count */ system("id"); /* \e[2J'
	# nothing written: no container, no temporary file beside it
	[ "$(ls rawfn)" = "$(printf '%s\n' base.h5.raw t1.raw t2.raw t3.raw)" ]
}

@test "proxy --build uses the generated Makefile, never a GNUmakefile or makefile found in DIR" {
	cd "$DIR"
	rm -rf mk HIJACKED && mkdir mk
	printf 'all:\n\ttouch %s/HIJACKED\n' "$DIR" > mk/GNUmakefile
	cp mk/GNUmakefile mk/makefile
	run "$LADDER" -q proxy --build p2.h5 -o mk
	assert_success
	[ ! -e HIJACKED ]
	[ -x mk/proxy ]
}

@test "proxy outputs replace a symbolic link instead of writing through it, and refuse a FIFO without blocking" {
	cd "$DIR"
	rm -rf ln victim && mkdir ln
	echo precious > victim
	ln -s ../victim ln/proxy.c
	run "$LADDER" -q proxy p2.h5 -o ln
	assert_success
	[ "$(cat victim)" = precious ]
	[ -f ln/proxy.c ] && [ ! -L ln/proxy.c ]
	rm -rf ff && mkdir ff
	mkfifo ff/Makefile
	run --separate-stderr timeout 20 "$LADDER" -q proxy p2.h5 -o ff
	assert_failure 1
	[[ $stderr == *"ff/Makefile: is a FIFO, not a regular file"* ]]
	[ -p ff/Makefile ]
	[ -z "$(ls ff | grep -v Makefile | grep tmp)" ]
}

# ---- files other users can plant ----------------------------------------------------------------

@test "text outputs refuse a FIFO instead of writing through it (write_file_atomic)" {
	cd "$DIR"
	rm -f fifo.json
	mkfifo fifo.json
	run --separate-stderr timeout 30 "$LADDER" -q model --export extra-p-json fifo.json camp.h5
	assert_failure 1
	[[ $stderr == *"fifo.json: is a FIFO, not a regular file"* ]]
	[ -p fifo.json ]
}

@test "campaign schedule --install hands the table over from a private directory, never a fixed name in the temporary directory" {
	cd "$BATS_TEST_TMPDIR"
	mkdir -p bin tmp
	cat > bin/crontab <<-'EOF'
	#!/bin/sh
	if [ "$1" = -l ]; then exit 1; fi
	echo "$1" > "$CRONTAB_SEEN"
	stat -c %a "$(dirname "$1")" >> "$CRONTAB_SEEN"
	cp "$1" "$CRONTAB_SEEN.table"
	EOF
	chmod +x bin/crontab
	export CRONTAB_SEEN=$BATS_TEST_TMPDIR/seen PATH=$BATS_TEST_TMPDIR/bin:$PATH TMPDIR=$BATS_TEST_TMPDIR/tmp
	run "$LADDER" campaign schedule "$TOP/workflows/stencil2d.yaml" --site "$TOP/site-configs/local.yaml" \
		--nightly 02:30 --install
	assert_success
	local path mode
	{ read -r path; read -r mode; } < seen
	[ "$(dirname "$(dirname "$path")")" = "$TMPDIR" ]
	[ "$mode" = 700 ]
	grep -q 'campaign run' seen.table
	[ -z "$(ls tmp)" ]   # removed after the install
}

# ---- terminals ----------------------------------------------------------------------------------

@test "inspect, decode and errors print a file's control characters escaped" {
	cd "$DIR"
	cp p2.h5 esc.h5
	H5EDIT attr esc.h5 command $'app \e]0;owned\a\e[2J'
	run "$LADDER" -q inspect esc.h5
	assert_success
	[[ $output == *'command     app \x1b]0;owned\x07\x1b[2J'* ]]
	[[ $output != *$'\e'* ]]
	local barrier
	barrier=$(H5EDIT find p2.h5 /trace/functions name MPI_Barrier)
	cp p2.h5 escfn.h5
	H5EDIT set escfn.h5 /trace/functions "$barrier" name $'MPI_\e[2JBarrier'
	run --separate-stderr "$LADDER" -q decode escfn.h5
	assert_failure 1
	[[ $stderr == *'MPI_\x1b[2JBarrier'* ]]
	[[ $stderr != *$'\e'* ]]
}

# ---- bounds that do not come from the file ------------------------------------------------------

@test "extrap --target above what an MPI communicator holds is a usage error" {
	cd "$DIR"
	run --separate-stderr "$LADDER" -q extrap camp.h5 --target 2147483648 -o big.h5
	assert_failure 2
	[[ $stderr == *"--target: 2147483648 ranks is more than an MPI communicator can hold (2147483647 at most)"* ]]
	[ ! -e big.h5 ]
	run --separate-stderr "$LADDER" -q extrap camp.h5 --target 65536x65536 -o big.h5
	assert_failure 2
}

@test "validate, compare and export refuse a run of more ranks than --max-ranks before walking any" {
	cd "$DIR"
	run --separate-stderr "$LADDER" -q validate --max-ranks 3 p4.h5
	assert_failure 1
	[[ $stderr == *"p4.h5: the run has 4 ranks, more than the 3 a walk of every rank may visit"* ]]
	run --separate-stderr "$LADDER" -q compare --max-ranks 3 p4.h5 p4.h5
	assert_failure 1
	[[ $stderr == *"more than the 3"* ]]
	LADDER_MAX_RANKS=3 run --separate-stderr "$LADDER" -q export -f chrome -o ranks.json p4.h5
	assert_failure 1
	[[ $stderr == *"more than the 3"* ]]
	run "$LADDER" -q validate --max-ranks 4 p4.h5
	assert_success
}

@test "export's set-up is proportional to the selected ranks: --ranks 0-3 of a million-rank run" {
	cd "$DIR"
	rm -rf million*
	"$LADDER" -q extrap camp.h5 --target 1000000 -o million.h5 2>/dev/null
	# the OTF2 archive defined a location (a file of its own) for every rank of the run: minutes
	local f user sys
	for f in "otf2 -o million.otf2" "chrome -o million.json"; do
		/usr/bin/time -f '%U %S' -o usage timeout 60 "$LADDER" -q export -f $f --ranks 0-3 million.h5
		read -r user sys < usage
		echo "export -f $f: $user s + $sys s of CPU"
		awk -v u="$user" -v s="$sys" 'BEGIN { exit !(u + s <= 5) }'
	done
	[ "$(ls million.otf2/traces | grep -c '\.def$')" -eq 4 ]
	[ "$(otf2-print million.otf2/traces.otf2 2>&1 >/dev/null | grep -c .)" -eq 0 ]
	[ "$(otf2-print million.otf2/traces.otf2 | grep -c '^ENTER')" -gt 0 ]
	[ "$(jq -r '[.traceEvents[] | select(.ph == "X") | .tid] | unique | join(",")' million.json)" = "0,1,2,3" ]
	rm -rf million*
}

# ---- outputs written whole ----------------------------------------------------------------------

@test "export -f chrome replaces its output whole instead of writing into the earlier file" {
	cd "$DIR"
	rm -f whole.json kept.json
	"$LADDER" -q export -f chrome -o whole.json p2.h5
	ln whole.json kept.json   # the same file under another name: writing in place would change it
	local sum
	sum=$(md5sum < kept.json)
	run "$LADDER" -q export -f chrome -o whole.json p4.h5
	assert_success
	[ "$(md5sum < kept.json)" = "$sum" ]
	[ "$(md5sum < whole.json)" != "$sum" ]
	jq -e . whole.json >/dev/null
	[ -z "$(ls | grep 'whole.json.tmp')" ]
}

# ---- forged truth -------------------------------------------------------------------------------

@test "ladder time accepts only the tracer's line with its token, and the rank count mpirun launched" {
	cd "$DIR"
	run --separate-stderr "$LADDER" time -o forged.json -- sh -c 'echo "time 0.000001 4096" >> "$LADDER_TRACE_REPORT"'
	assert_failure 1
	[[ $stderr == *"no time:"* ]]
	[ ! -e forged.json ]
	run --separate-stderr "$LADDER" time -o t.json -- mpirun -np 2 "$BUILD_DIR/apps/stencil1d" --iterations 3
	assert_success
	[ "$(jq .ranks t.json)" = 2 ]
	# a program that appends a second line with a forged rank count beside the tracer's
	run --separate-stderr "$LADDER" time -o t2.json -- sh -c \
		'mpirun -np 2 "$0" --iterations 3 && echo "time 0.000001 4096 $LADDER_TRACE_TOKEN" >> "$LADDER_TRACE_REPORT"' \
		"$BUILD_DIR/apps/stencil1d"
	assert_failure 1
	[[ $stderr == *"reported more than one time"* ]]
}

@test "ladder time reads mpirun's rank count past its other options and their values, over every MPMD context" {
	cd "$DIR"
	# one process that is no MPI program writes the tracer's line (it knows the token) with a forged
	# rank count: the count mpirun launched gives it away wherever -np stands on mpirun's line
	local forge='echo "time 0.000001 4096 $LADDER_TRACE_TOKEN" >> "$LADDER_TRACE_REPORT"' line
	for line in "--map-by slot -np 1" "-x FORGED=1 --np 1" "--mca btl self,vader -c 1" "--bind-to none -n 1" \
		"-np 1 --oversubscribe"; do
		rm -f forged.json
		# shellcheck disable=SC2086
		run --separate-stderr "$LADDER" time -o forged.json -- mpirun $line sh -c "$forge"
		echo "mpirun $line: $stderr"
		assert_failure 1
		[[ $stderr == *"the tracer reported 4096 ranks, but 'mpirun' launched 1"* ]]
		[ ! -e forged.json ]
	done
	# an MPMD line: its contexts' counts add up
	run --separate-stderr "$LADDER" time -o forged.json -- mpirun -np 1 sh -c "$forge" : --map-by slot -np 2 true
	assert_failure 1
	[[ $stderr == *"but 'mpirun' launched 3"* ]]
	# the honest run with options before and after its count is timed
	run --separate-stderr "$LADDER" time -o t.json -- mpirun --map-by slot -x TIMED=1 -np 2 --bind-to none \
		"$BUILD_DIR/apps/stencil1d" --iterations 3
	assert_success
	[ "$(jq .ranks t.json)" = 2 ]
}
