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

# the long options of a help text's Options section (generated from the command's option table),
# one "HEADING --name" a line: the section starts at its first heading ("Options:", "Input:",
# "run:"), an option line is "  -x, --name ..." or "  --name ...", HEADING the heading above it
help_options() {
	awk '/^([A-Z][a-z]+|[a-z]+):$/ { h = substr($0, 1, length($0) - 1); next }
	     h != "" && match($0, /^  (-[A-Za-z], )?--[a-z0-9-]+/) {
		s = substr($0, RSTART, RLENGTH); sub(/^  (-[A-Za-z], )?/, "", s); print h, s }'
}

# the long options of the option tables of bin/ladder/cmd_*.c, counted in their source: the entries
# OPT_FLAG/STRING/LONG/DOUBLE/CALLBACK with a long name, and the uses of the macros that stand for one
# (CMD_MAX_CALLS_OPT, a campaign's TIMEOUT_OPT(...) ...)
tables_long_options() {
	local n=0 f
	for f in "$TOP"/bin/ladder/cmd_*.c; do
		# (a macro's definition, its lines ending in '\', is not an entry)
		n=$((n + $(grep -vE '\\$' "$f" | grep -cE '^\s*OPT_(FLAG|STRING|LONG|DOUBLE|CALLBACK)\([^,]+, "|^\s*[A-Z_]+_OPT(\([^)]*\))?,$')))
	done
	echo "$n"
}

# "ladder CMD --name": the parser's verdict on an option, given without its value (so that no
# command runs: a value that is missing, or an operand that is)
try_option() {
	run --separate-stderr "$@"
	[[ $stderr != *"unknown option"* ]] || { echo "$* is refused: $stderr"; return 1; }
}

@test "no help text has a hand-written Options section: each is generated from the option table" {
	! grep -n '"Options:\\n"' "$TOP"/bin/ladder/cmd_*.c "$TOP/bin/ladder-replay/main.c"
	! grep -n 'getopt_long\|struct option ' "$TOP"/bin/ladder/*.c "$TOP"/bin/ladder/*.h "$TOP"/bin/ladder-replay/*.c
}

@test "every option a command's help lists is one its parser accepts, and no other" {
	cd "$BATS_TEST_TMPDIR"
	defined=$(sed -n 's/^COMMAND(\(.*\))$/\1/p' "$TOP/bin/ladder/commands.def")
	total=0
	for c in $defined; do
		listed=$("$LADDER" help "$c" | help_options)
		while read -r heading opt; do
			[ -n "$opt" ] || continue
			# campaign's headings are its subcommands; the others' are groups of options
			if [ "$c" = campaign ]; then try_option "$LADDER" campaign "$heading" "$opt"
			else try_option "$LADDER" "$c" "$opt"; fi
			total=$((total + 1))
		done <<< "$listed"
		# an option no table has is refused, in the one-line form
		if [ "$c" = help ] || [ "$c" = version ]; then continue; fi
		if [ "$c" = campaign ]; then run --separate-stderr "$LADDER" campaign run --no-such-option
		else run --separate-stderr "$LADDER" "$c" --no-such-option; fi
		assert_failure 2
		[ "$stderr" = "ladder $c: unknown option '--no-such-option' (see 'ladder help $c')" ] ||
			{ echo "ladder $c: $stderr"; return 1; }
	done
	# every option of every table
	[ "$total" -eq "$(tables_long_options)" ] || { echo "$total options in the helps, $(tables_long_options) in the tables"; return 1; }
	listed=$("$BUILD_DIR/bin/ladder-replay" --help | help_options)
	n=0
	while read -r heading opt; do
		try_option "$BUILD_DIR/bin/ladder-replay" "$opt"
		n=$((n + 1))
	done <<< "$listed"
	[ "$n" -eq 12 ]
	run --separate-stderr "$BUILD_DIR/bin/ladder-replay" --no-such-option x.h5
	assert_failure 2
	[[ $stderr == *"unknown option '--no-such-option'"* ]]
}

@test "a help's Options are aligned: the help of every option in one column" {
	for c in $(sed -n 's/^COMMAND(\(.*\))$/\1/p' "$TOP/bin/ladder/commands.def"); do
		cols=$("$LADDER" help "$c" | awk '/^([A-Z][a-z]+|[a-z]+):$/ { h = 1; next }
			h && /^  -/ && match($0, /^  -[^ ]*( [^ -][^ ]*)?(, --[^ ]+( [^ ]+)?)?   +/) { print RLENGTH }' | sort -u)
		[ "$(wc -l <<< "$cols")" -le 1 ] || { echo "ladder help $c: help starts at columns $cols"; return 1; }
	done
}

@test "option values are checked by the table: integers in range, numbers finite, one-line errors" {
	run --separate-stderr "$LADDER" extrap --profile-limit -1 c.h5
	assert_failure 2
	[ "$stderr" = "ladder extrap: --profile-limit expects an integer in [0, 2147483648], got '-1' (see 'ladder help extrap')" ]
	run --separate-stderr "$LADDER" export --from soon -f chrome -o - x.h5
	assert_failure 2
	[ "$stderr" = "ladder export: --from expects a finite number, got 'soon' (see 'ladder help export')" ]
	run --separate-stderr "$LADDER" merge -o
	assert_failure 2
	[ "$stderr" = "ladder merge: option '-o' needs a value (see 'ladder help merge')" ]
	run --separate-stderr "$LADDER" merge --copy=yes x.h5
	assert_failure 2
	[ "$stderr" = "ladder merge: option '--copy' takes no value (see 'ladder help merge')" ]
	run --separate-stderr "$LADDER" campaign wait --job x
	assert_failure 2
	[ "$stderr" = "ladder campaign: unknown option '--job' (see 'ladder help campaign')" ]
	# --export's old format name stays an alias
	run --separate-stderr "$LADDER" model --export extrap-json
	assert_failure 2
	[ "$stderr" = "ladder model: --export extrap-json needs a FILE (see 'ladder help model')" ]
}

@test "trace and time: their options end at the command's first word, without '--'" {
	cd "$BATS_TEST_TMPDIR"
	# -np is mpirun's: before, getopt_long permuted and took it for ladder's ("unknown option '-n'")
	run --separate-stderr "$LADDER" time -o t.json mpirun -np 2 /bin/true
	[[ $stderr != *"unknown option"* ]] || { echo "$stderr"; return 1; }
	[[ $stderr == *"no time: no process of 'mpirun' called MPI_Init"* ]] || { echo "$stderr"; return 1; }
}
