#!/usr/bin/env bats
# tests/run itself: how it counts a suite. A unit test whose TAP says ok but whose process exits
# non-zero (LeakSanitizer reports leaks at exit) must count as a failure, or `make asan` would pass
# with leaks.

load helper

setup() {
	scratch=$(mktemp -d)
	mkdir -p "$scratch/tests/unit"
}

teardown() {
	rm -rf "$scratch"
}

# a cmocka unit test with one passing test that leaves an allocation behind; built with AddressSanitizer unless told otherwise
build_unit() {
	cat > "$scratch/t.c" <<'C'
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>
static void *kept;
static void passes(void **state) { (void)state; kept = malloc(64); kept = NULL; assert_int_equal(1, 1); }
int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(passes)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
C
	gcc -std=c11 -g -fsanitize=address "$@" -o "$scratch/tests/unit/test_injected" "$scratch/t.c" -lcmocka
}

@test "runner: a unit test that leaks fails under AddressSanitizer although its TAP says ok" {
	build_unit
	run env UNIT_ONLY=1 BUILD="$scratch" "$TOP/tests/run"
	assert_failure 1
	assert_output --partial "ok 1 - passes"
	assert_output --partial "exited with status"
	assert_line "1 passed, 1 failed"
}

@test "runner: the same unit test without the leak passes" {
	build_unit -fno-sanitize=address
	run env UNIT_ONLY=1 BUILD="$scratch" "$TOP/tests/run"
	assert_success
	assert_line "1 passed, 0 failed"
}
