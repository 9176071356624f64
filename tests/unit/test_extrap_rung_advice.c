/* Unit tests for extrap/rung_advice: the rank counts to add so that a class shows, under the rule
 * of grids the rungs show (x fastest, largest factor last), under every rule still in play when
 * several fit, under MPI_Dims_create's alone when the code asked for it, and none up to the bound
 * when no count has the class. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/rung_advice.h"
#include "extrap/topology.h"

/* the class that is interior along dimension k and low along the others */
static uint32_t interior_along(uint32_t ndims, uint32_t k)
{
	return topology_class_with(0, ndims, k, POS_INTERIOR);
}

static void x_fastest_needs_dimension_0_three_wide(void **state)
{
	(void)state;
	/* 8, 12, 18, 27 laid largest last: 2x2x2, 2x2x3, 2x3x3, 3x3x3 */
	const struct grid g[] = {{3, {2, 2, 2}, 0}, {3, {2, 2, 3}, 0}, {3, {2, 3, 3}, 0}, {3, {3, 3, 3}, 0}};
	struct rung_advice a;
	rung_advice_find(interior_along(3, 0), g, 4, false, &a);
	assert_int_equal(a.nrules, 1);
	assert_int_equal(a.rules[0].n, 3);
	assert_int_equal(a.rules[0].nranks[0], 36);   /* not 16, 20, 24: their dimension 0 is 2 wide */
	assert_int_equal(a.rules[0].nranks[1], 45);
	assert_int_equal(a.rules[0].nranks[2], 48);
	char text[800];
	rung_advice_text(&a, text, sizeof text);
	assert_string_equal(text, "add rungs whose grid has it: 36 ranks (3x3x4), 45 (3x3x5) or 48 (3x4x4) under "
				  "balanced factors, largest last (the rank index fastest along the largest factor)");
	/* the same ladder in MPI_Dims_create's order shows the interior of dimension 2 at 36 as 4x3x3 */
	const struct grid d[] = {{3, {2, 2, 2}, 0}, {3, {3, 2, 2}, 0}, {3, {3, 3, 2}, 0}, {3, {3, 3, 3}, 0}};
	rung_advice_find(interior_along(3, 2), d, 4, true, &a);
	rung_advice_text(&a, text, sizeof text);
	assert_string_equal(text, "add rungs whose grid has it: 36 ranks (4x3x3), 45 (5x3x3) or 48 (4x4x3) under "
				  "MPI_Dims_create's order (balanced factors, largest first)");
}

static void every_rule_in_play(void **state)
{
	(void)state;
	/* 2x2 and 3x3 fit both orders of two factors; they differ where the class shows */
	const struct grid g[] = {{2, {2, 2}, 0}, {2, {3, 3}, 0}};
	struct rung_advice a;
	char text[800];
	rung_advice_find(interior_along(2, 1), g, 2, false, &a);
	assert_int_equal(a.nrules, 2);
	rung_advice_text(&a, text, sizeof text);
	assert_string_equal(text, "add rungs whose grid has it: 12 ranks (4x3), 15 (5x3) or 16 (4x4) under MPI_Dims_create's "
				  "order (balanced factors, largest first); 6 ranks (2x3), 8 (2x4) or 10 (2x5) under balanced "
				  "factors, largest last (the rank index fastest along the largest factor)");
	/* a code that asked MPI_Dims_create for its factors has its order */
	rung_advice_find(interior_along(2, 1), g, 2, true, &a);
	assert_int_equal(a.nrules, 1);
	rung_advice_text(&a, text, sizeof text);
	assert_string_equal(text, "add rungs whose grid has it: 12 ranks (4x3), 15 (5x3) or 16 (4x4) under "
				  "MPI_Dims_create's order (balanced factors, largest first)");
	/* along dimension 0 the other way round: 6 is 3x2 largest first, 2x3 largest last */
	rung_advice_find(interior_along(2, 0), g, 2, false, &a);
	assert_int_equal(a.nrules, 2);
	assert_int_equal(a.rules[0].nranks[0], 6);
	assert_int_equal(a.rules[1].nranks[0], 12);
	assert_int_equal(a.rules[1].grids[0].dims[0], 3);
	assert_int_equal(a.rules[1].grids[0].dims[1], 4);
}

static void none_up_to_the_bound(void **state)
{
	(void)state;
	/* 6x2 and 8x2 fit no order of balanced factors: dimension 0 grows, dimension 1 stays 2 wide */
	const struct grid g[] = {{2, {6, 2}, 0}, {2, {8, 2}, 0}};
	struct rung_advice a;
	char text[800];
	rung_advice_find(interior_along(2, 1), g, 2, false, &a);
	assert_int_equal(a.nrules, 1);
	assert_int_equal(a.rules[0].n, 0);
	assert_int_equal(a.bound, 4 * 16 + 64);
	rung_advice_text(&a, text, sizeof text);
	assert_string_equal(text, "no rank count up to 128 gives a grid that has it under dimension 0 growing, the others "
				  "as at every rung");
	rung_advice_find(interior_along(2, 0), g, 2, false, &a);   /* an interior along 0: 6 is already 3 wide */
	rung_advice_text(&a, text, sizeof text);
	assert_string_equal(text, "add rungs whose grid has it: 6 ranks (3x2), 8 (4x2) or 10 (5x2) under dimension 0 "
				  "growing, the others as at every rung");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(x_fastest_needs_dimension_0_three_wide),
		cmocka_unit_test(every_rule_in_play),
		cmocka_unit_test(none_up_to_the_bound),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
