#!/usr/bin/env bats
# The ladder command line: help, version, and how bad usage is reported.

load helper

@test "ladder --help lists every command of commands.def and exits 0" {
	run "$LADDER" --help
	assert_success
	assert_line --index 0 --partial "usage: ladder"
	listed=$(awk '/^Commands:/{f=1;next} /^$/{f=0} f{print $1}' <<< "$output" | sort)
	defined=$(sed -n 's/^COMMAND(\(.*\))$/\1/p' "$TOP/bin/ladder/commands.def" | sort)
	[ -n "$defined" ]
	[ "$listed" = "$defined" ]
}

@test "ladder --version prints the version" {
	run "$LADDER" --version
	assert_success
	assert_output --regexp '^ladder [0-9]+\.[0-9]+\.[0-9]+'
}

@test "ladder help CMD prints that command's help" {
	run "$LADDER" help version
	assert_success
	assert_output --partial "usage: ladder version"
}

@test "ladder CMD --help equals ladder help CMD" {
	defined=$(sed -n 's/^COMMAND(\(.*\))$/\1/p' "$TOP/bin/ladder/commands.def")
	[ -n "$defined" ]
	for c in $defined; do
		run --separate-stderr "$LADDER" "$c" --help
		assert_success
		[ -z "$stderr" ] || { echo "ladder $c --help wrote to stderr: $stderr"; return 1; }
		assert_line --index 0 --partial "usage: ladder $c"
		b=$output
		run --separate-stderr "$LADDER" help "$c"
		assert_success
		[ "$output" = "$b" ] || { echo "ladder $c --help differs from ladder help $c"; return 1; }
	done
}

@test "an unknown subcommand is one line on stderr and exit 2" {
	run --separate-stderr "$LADDER" frobnicate
	assert_failure 2
	[ -z "$output" ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == *"'frobnicate' is not a ladder command"* ]]
}

@test "an unknown global option is one line on stderr and exit 2" {
	run --separate-stderr "$LADDER" --frobnicate
	assert_failure 2
	[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ]
	[[ $stderr == *"unknown option '--frobnicate'"* ]]
}

@test "every listed command has help that starts with its usage" {
	for c in $("$LADDER" --help | awk '/^Commands:/{f=1;next} /^$/{f=0} f{print $1}'); do
		run "$LADDER" help "$c"
		assert_success
		assert_line --index 0 --partial "usage: ladder $c"
	done
}

@test "every command and help topic fits a screen: at most 60 lines" {
	listed=$("$LADDER" --help | awk '/^(Commands|Help topics)/{f=1;next} /^$/{f=0} f{print $1}')
	topics=$(sed -n 's/^TOPIC(\(.*\))$/\1/p' "$TOP/bin/ladder/commands.def" | tr _ -)
	[ -n "$topics" ]
	for t in $topics; do grep -qx -- "$t" <<< "$listed" || { echo "topic $t is not listed by ladder --help"; return 1; }; done
	for t in $listed; do
		run --separate-stderr "$LADDER" help "$t"
		assert_success
		n=$(printf '%s\n' "$output" | wc -l)
		[ "$n" -le 60 ] || { echo "ladder help $t is $n lines, more than a screen (60)"; return 1; }
	done
}

@test "no command at all prints the overview and exits 2" {
	run "$LADDER"
	assert_failure 2
	assert_output --partial "usage: ladder"
}
