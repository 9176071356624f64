/* Unit tests for extrap/grid_rule: the orders of the balanced factors a code may lay its ranks in,
 * the rule read from the rungs' grids and the target's grid it gives, and ties the rungs cannot
 * break. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/grid_rule.h"

static void rules_are_orders_of_the_balanced_factors(void **state)
{
	(void)state;
	struct grid_rule r;
	struct grid g;
	assert_int_equal(grid_rule_count(3), 6);
	grid_rule_nth(3, 0, &r);   /* MPI_Dims_create's first */
	grid_rule_apply(&r, 24, &g);
	assert_int_equal(g.dims[0], 4), assert_int_equal(g.dims[1], 3), assert_int_equal(g.dims[2], 2);
	grid_rule_nth(3, 1, &r);   /* the largest last second */
	grid_rule_apply(&r, 24, &g);
	assert_int_equal(g.dims[0], 2), assert_int_equal(g.dims[1], 3), assert_int_equal(g.dims[2], 4);
	char name[160];
	grid_rule_name(&r, name, sizeof name);
	assert_non_null(strstr(name, "largest last"));
	for (uint32_t i = 0; i < 6; i++) {   /* every order once */
		struct grid_rule a, b;
		grid_rule_nth(3, i, &a);
		for (uint32_t j = i + 1; j < 6; j++) {
			grid_rule_nth(3, j, &b);
			assert_memory_not_equal(a.order, b.order, 3);
		}
	}
}

static void target_from_the_rule_the_rungs_show(void **state)
{
	(void)state;
	struct grid g;
	char rule[200], why[600];
	/* 2 rows x 4 columns at 8: the largest last, 6x8 at 48 */
	const struct grid rows[] = {{.ndims = 2, .dims = {2, 2}}, {.ndims = 2, .dims = {2, 4}},
				    {.ndims = 2, .dims = {3, 4}}};
	assert_true(grid_rule_target(rows, 3, 48, false, &g, rule, sizeof rule, why, sizeof why));
	assert_int_equal(g.dims[0], 6), assert_int_equal(g.dims[1], 8);
	assert_non_null(strstr(rule, "largest last"));
	/* squares fit both orders, which differ at 48: a tie, refused with a rank count that decides */
	const struct grid squares[] = {{.ndims = 2, .dims = {2, 2}}, {.ndims = 2, .dims = {3, 3}},
				       {.ndims = 2, .dims = {4, 4}}};
	assert_false(grid_rule_target(squares, 3, 48, false, &g, rule, sizeof rule, why, sizeof why));
	assert_non_null(strstr(why, "8x6"));
	assert_non_null(strstr(why, "6x8"));
	assert_non_null(strstr(why, "a rung of 2 ranks would decide"));
	/* ... unless the code asked MPI_Dims_create; and at 64 they agree */
	assert_true(grid_rule_target(squares, 3, 48, true, &g, rule, sizeof rule, why, sizeof why));
	assert_int_equal(g.dims[0], 8), assert_int_equal(g.dims[1], 6);
	assert_true(grid_rule_target(squares, 3, 64, false, &g, rule, sizeof rule, why, sizeof why));
	assert_int_equal(g.dims[0], 8), assert_int_equal(g.dims[1], 8);
	/* 3-D with a 2x2x1 rung, x fastest: 1x2x2, 2x2x2, 2x2x3 -> 3x4x4 at 48 */
	const struct grid cube[] = {{.ndims = 3, .dims = {1, 2, 2}}, {.ndims = 3, .dims = {2, 2, 2}},
				    {.ndims = 3, .dims = {2, 2, 3}}};
	assert_true(grid_rule_target(cube, 3, 48, false, &g, rule, sizeof rule, why, sizeof why));
	assert_int_equal(g.dims[0], 3), assert_int_equal(g.dims[1], 4), assert_int_equal(g.dims[2], 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rules_are_orders_of_the_balanced_factors),
		cmocka_unit_test(target_from_the_rule_the_rungs_show),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
