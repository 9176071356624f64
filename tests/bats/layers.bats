#!/usr/bin/env bats
# The layering of lib/: tests/tools/check-layers on the tree, and on temporary copies of it with an
# include injected that goes up against lib/README.md's order (the tree itself is never changed).

load helper

CHECK="$TOP/tests/tools/check-layers"

setup() {
	copy="$BATS_TEST_TMPDIR/tree"
	mkdir -p "$copy/tests"
	cp -r "$TOP/lib" "$TOP/bin" "$copy/"
	cp -r "$TOP/tests/tools" "$copy/tests/"
}

# FILE TEXT: put the line TEXT after the first #include of the copy's FILE; sets $at to its line
inject() {
	local first
	first=$(grep -n -m1 '^#include' "$copy/$1" | cut -d: -f1)
	[ -n "$first" ]
	sed -i "${first}a $2" "$copy/$1"
	at=$((first + 1))
}

@test "check-layers passes on the tree and prints the used-by column" {
	run "$CHECK" "$TOP"
	assert_success
	assert_output --partial "used by (the column lib/README.md should show):"
	assert_line --regexp '^  util/ +everything$'
	assert_line --regexp '^  campaign/ +`CLI`$'
	refute_output --partial "note: lib/README.md says"
}

@test "check-layers fails on an include from a folder to one below it, naming file:line and both folders" {
	inject lib/util/log.c '#include "campaign/spec.h"'
	run "$CHECK" "$copy"
	assert_failure 1
	assert_line "lib/util/log.c:$at: util includes campaign (\"campaign/spec.h\"), a folder below it in lib/README.md"
	# and the used-by column shows the new arrow
	assert_line --regexp '^  campaign/ +`util`, `CLI`$'
}

@test "check-layers follows a relative include (../folder/header.h)" {
	inject lib/trace/ladder-trace.h '#include "../report/report.h"'
	run "$CHECK" "$copy"
	assert_failure 1
	assert_line "lib/trace/ladder-trace.h:$at: trace includes report (\"../report/report.h\"), a folder below it in lib/README.md"
}

@test "check-layers fails on an include of a folder missing from lib/README.md's table" {
	mkdir "$copy/lib/newroom"
	printf '/* x */\n' > "$copy/lib/newroom/x.h"
	inject lib/run/run.c '#include "newroom/x.h"'
	run "$CHECK" "$copy"
	assert_failure 1
	assert_line --partial "lib/run/run.c:$at: run includes newroom (\"newroom/x.h\"), a folder missing from"
}

@test "an arrow up named in layers.allow passes; the same include in another file fails" {
	inject lib/extrap/law.c '#include "export/otf2.h"'
	run "$CHECK" "$copy"
	assert_failure 1
	assert_line "lib/extrap/law.c:$at: extrap includes export (\"export/otf2.h\"), a folder below it in lib/README.md"
	echo 'lib/extrap/law.c export/otf2.h' >> "$copy/tests/tools/layers.allow"
	run "$CHECK" "$copy"
	assert_success
	assert_line --partial "allowed: lib/extrap/law.c:$at: extrap includes export"
	inject lib/extrap/value.c '#include "export/otf2.h"'
	run "$CHECK" "$copy"
	assert_failure 1
	assert_line "lib/extrap/value.c:$at: extrap includes export (\"export/otf2.h\"), a folder below it in lib/README.md"
}

@test "the order is the table's: moving a row changes the verdict" {
	# util moved below campaign: every folder's includes of util go up
	awk '/^\| `util\/` \|/ { held = $0; next } { print } /^\| `campaign\/` \|/ { print held }' \
		"$TOP/lib/README.md" > "$copy/lib/README.md"
	run "$CHECK" "$copy"
	assert_failure 1
	assert_line --regexp '^lib/campaign/[a-z_]+\.c:[0-9]+: campaign includes util '
}
