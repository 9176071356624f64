/* Unit tests for extrap/commands: the target's command from the rungs' when they differ only by
 * their rank count, and the first other difference named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/commands.h"

static void equal_commands_are_the_targets(void **state)
{
	(void)state;
	const char *cmds[] = {"./app --size 8", "./app  --size 8", "./app --size 8"};
	const uint32_t ranks[] = {4, 9, 16};
	char why[200] = "", *at = NULL;
	assert_true(commands_at_target(cmds, ranks, 3, 64, &at, why, sizeof why));
	assert_string_equal(at, "./app --size 8");
	free(at);
}

static void the_rank_count_is_substituted(void **state)
{
	(void)state;
	const char *cmds[] = {"mpirun -np 4 ./app --ranks 4 --size 4", "mpirun -np 9 ./app --ranks 9 --size 4"};
	const uint32_t ranks[] = {4, 9};
	char why[200] = "", *at = NULL;
	assert_true(commands_at_target(cmds, ranks, 2, 64, &at, why, sizeof why));
	assert_string_equal(at, "mpirun -np 64 ./app --ranks 64 --size 4");
	free(at);
}

static void other_differences_are_named(void **state)
{
	(void)state;
	const char *cmds[] = {"./app --iterations 20", "./app --iterations 30", "./app --iterations 40"};
	const uint32_t ranks[] = {8, 12, 18};
	char why[200] = "", *at = NULL;
	assert_false(commands_at_target(cmds, ranks, 3, 64, &at, why, sizeof why));
	assert_null(at);
	assert_string_equal(why, "p8 runs '--iterations 20' where p12 runs '--iterations 30'");
	const char *longer[] = {"./app", "./app --fast"};
	assert_false(commands_at_target(longer, ranks, 2, 64, &at, why, sizeof why));
	assert_non_null(strstr(why, "1 words where p12 runs one of 2"));
	/* a word equal to one rung's rank count only is a difference like any other */
	const char *once[] = {"./app --size 8", "./app --size 10"};
	assert_false(commands_at_target(once, ranks, 2, 64, &at, why, sizeof why));
}

static void the_list_names_every_rung(void **state)
{
	(void)state;
	const char *cmds[] = {"./app a", NULL};
	const uint32_t ranks[] = {4, 9};
	char *list = commands_list(cmds, ranks, 2);
	assert_string_equal(list, "p4: ./app a; p9: ");
	free(list);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(equal_commands_are_the_targets),
		cmocka_unit_test(the_rank_count_is_substituted),
		cmocka_unit_test(other_differences_are_named),
		cmocka_unit_test(the_list_names_every_rung),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
