#!/usr/bin/env bats
# The documentation people read: a README of about 150 lines that points to the design next to each
# stage's code, and prose in sentences a reader can hold (tests/tools/long-sentences).

load helper

LONG="$TOP/tests/tools/long-sentences"
MAX_WORDS=40

@test "README.md is at most 180 lines" {
	n=$(wc -l < "$TOP/README.md")
	[ "$n" -le 180 ] || { echo "README.md is $n lines"; return 1; }
}

@test "no sentence of README.md, lib/README.md or lib/*/README.md is longer than $MAX_WORDS words" {
	cd "$TOP"
	run "$LONG" "$MAX_WORDS" README.md lib/README.md lib/*/README.md
	assert_success
	assert_output ""
}

@test "every README the top README points to exists" {
	cd "$TOP"
	named=$(grep -o '[A-Za-z0-9_/.-]*README\.md' README.md | sort -u)
	[ -n "$named" ]
	for f in $named; do [ -f "$f" ] || { echo "README.md names $f, which does not exist"; return 1; }; done
}

@test "long-sentences finds a long sentence, names its file and line, and leaves code, tables and headings out" {
	f="$BATS_TEST_TMPDIR/x.md"
	{
		echo "# A heading of many words that is no sentence at all but goes on and on and on"
		echo
		echo "A short sentence. Another one!"
		echo '```'
		for i in $(seq 60); do printf 'code '; done; echo
		echo '```'
		echo "| a | $(for i in $(seq 60); do printf 'cell '; done)|"
		echo
		printf 'This one'; for i in $(seq 45); do printf ' goes'; done; echo
		echo "on a second line and ends here."
	} > "$f"
	run "$LONG" 40 "$f"
	assert_failure 1
	assert_line --regexp "^$f:9: 5[0-9] words: This one goes"
	[ "${#lines[@]}" -eq 1 ]
	run "$LONG" 60 "$f"
	assert_success
}
