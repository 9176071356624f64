/* Unit tests for extrap/law: exact integer laws in the grid's dimension sizes, and the refusals
 * (too few rungs, no fit, ambiguous, not integral at the target). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/law.h"

static struct grid g2(int64_t a, int64_t b) { return (struct grid){2, {a, b, 0}}; }
static struct grid g1(int64_t a) { return (struct grid){1, {a, 0, 0}}; }

static void constant_needs_two_rungs(void **state)
{
	(void)state;
	struct grid grids[2] = {g2(2, 2), g2(3, 3)}, target = g2(8, 8);
	int64_t v[2] = {0, 0};
	struct law law;
	law_solve(v, grids, 2, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 0);
	law_solve(v, grids, 1, &target, &law);
	assert_int_equal(law.status, LAW_TOO_FEW);
}

static void linear_in_one_dimension(void **state)
{
	(void)state;
	/* a periodic wrap-around peer: -(d1 - 1) */
	struct grid grids[3] = {g2(2, 2), g2(3, 3), g2(4, 4)}, target = g2(8, 8);
	int64_t v[3] = {-1, -2, -3};
	struct law law;
	law_solve(v, grids, 3, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, -7);
}

static void strong_scaling_count(void **state)
{
	(void)state;
	/* halo count of a 48-wide grid split d1 ways */
	struct grid grids[3] = {g2(2, 2), g2(3, 3), g2(4, 4)}, target = g2(6, 6);
	int64_t v[3] = {24, 16, 12};
	struct law law;
	law_solve(v, grids, 3, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 8);
	assert_non_null(strstr(law.text, "48/d"));
	struct grid odd = g2(5, 5);   /* 48/5 is no integer: refused, not rounded */
	law_solve(v, grids, 3, &odd, &law);
	assert_int_equal(law.status, LAW_NOT_INTEGRAL);
}

static void product_of_dimensions(void **state)
{
	(void)state;
	struct grid grids[3] = {g2(2, 1), g2(3, 2), g2(4, 3)}, target = g2(8, 4);
	int64_t v[3] = {2, 6, 12};   /* the communicator size */
	struct law law;
	law_solve(v, grids, 3, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 32);
}

static void two_terms_need_three_rungs(void **state)
{
	(void)state;
	/* d - 2 (an interior box's length) seen at two rungs: as many unknowns as rungs */
	struct grid grids[3] = {g1(3), g1(4), g1(6)}, target = g1(10);
	int64_t v[3] = {1, 2, 4};
	struct law law;
	law_solve(v, grids, 2, &target, &law);
	assert_int_equal(law.status, LAW_TOO_FEW);
	law_solve(v, grids, 3, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 8);
}

static void ambiguous_on_square_ladders(void **state)
{
	(void)state;
	/* square grids cannot tell d0 from d1: fine for a square target, ambiguous for another */
	struct grid grids[3] = {g2(2, 2), g2(3, 3), g2(4, 4)}, square = g2(6, 6), wide = g2(8, 4);
	int64_t v[3] = {2, 3, 4};
	struct law law;
	law_solve(v, grids, 3, &square, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 6);
	law_solve(v, grids, 3, &wide, &law);
	assert_int_equal(law.status, LAW_AMBIGUOUS);
}

static void inconsistent_values_fit_no_law(void **state)
{
	(void)state;
	struct grid grids[4] = {g1(2), g1(3), g1(4), g1(5)}, target = g1(64);
	int64_t v[4] = {7, 1, 9, 3};
	struct law law;
	law_solve(v, grids, 4, &target, &law);
	assert_int_equal(law.status, LAW_NO_FIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(constant_needs_two_rungs),  cmocka_unit_test(linear_in_one_dimension),
		cmocka_unit_test(strong_scaling_count),      cmocka_unit_test(product_of_dimensions),
		cmocka_unit_test(two_terms_need_three_rungs), cmocka_unit_test(ambiguous_on_square_ladders),
		cmocka_unit_test(inconsistent_values_fit_no_law),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
