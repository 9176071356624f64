/* Unit tests for extrap/rounded_law: counts of uneven decompositions, a * ceil(N / x) and
 * a * floor(N / x), found where no linear law of law.c fits, evaluated at the target, and refused
 * when the N that fit the rungs disagree there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/law.h"
#include "extrap/rounded_law.h"

static struct grid g2(int64_t a, int64_t b) { return (struct grid){2, {a, b, 0}, 0}; }

/* 2 * ceil(50 / d1): the buffer of a code sized for the largest share of 50 cells */
static void twice_ceil_of_a_dimension(void **state)
{
	(void)state;
	struct grid grids[4] = {g2(2, 2), g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(8, 8);
	int64_t v[4] = {50, 34, 26, 20};
	struct law law;
	law_solve(v, grids, 4, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_true(rounded_law_is(&law));
	assert_int_equal(law.predicted, 14);   /* 2 * ceil(50 / 8) */
	int64_t at6;
	struct grid six = g2(6, 6);
	assert_true(law_eval(&law, &six, LAW_NO_DIM, &at6));
	assert_int_equal(at6, 18);
}

/* the last coordinate's share floor(61 / d): 30, 20, 15, 12 */
static void floor_of_a_dimension(void **state)
{
	(void)state;
	struct grid grids[4] = {g2(2, 2), g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(6, 6);
	int64_t v[4] = {30, 20, 15, 12};
	struct law law;
	law_solve(v, grids, 4, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 10);
}

/* ceil(N / d) for N = 49 or 50 fits 2, 3, 4, 5 alike, and both give 10 at d = 5 but 7 / 7 at d = 8,
 * 17 / 17 at 3; at d = 7 (49 / 7 = 7, 50 / 7 -> 8) they split: refused, with the range of N */
static void ambiguous_when_the_target_splits_them(void **state)
{
	(void)state;
	struct grid grids[4] = {g2(2, 2), g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(7, 7);
	int64_t v[4] = {25, 17, 13, 10};
	struct law law;
	law_solve(v, grids, 4, &target, &law);
	assert_int_equal(law.status, LAW_AMBIGUOUS);
	assert_non_null(strstr(law.text, "49"));
	assert_non_null(strstr(law.text, "50"));
	struct grid at8 = g2(8, 8);
	law_solve(v, grids, 4, &at8, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 7);
}

/* a linear law that fits keeps winning: 48 / d is exact, not a rounded law */
static void linear_laws_first(void **state)
{
	(void)state;
	struct grid grids[3] = {g2(2, 2), g2(3, 3), g2(4, 4)}, target = g2(6, 6);
	int64_t v[3] = {24, 16, 12};
	struct law law;
	law_solve(v, grids, 3, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_false(rounded_law_is(&law));
	assert_int_equal(law.predicted, 8);
}

/* values that grow with d are no quotient, and neither are zeros or negatives */
static void no_fit_stays_refused(void **state)
{
	(void)state;
	struct grid grids[4] = {g2(2, 2), g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(8, 8);
	int64_t up[4] = {3, 7, 8, 20}, neg[4] = {-25, -17, -13, -10};
	struct law law;
	law_solve(up, grids, 4, &target, &law);
	assert_int_not_equal(law.status, LAW_OK);
	law_solve(neg, grids, 4, &target, &law);
	assert_int_not_equal(law.status, LAW_OK);
	assert_false(rounded_law_is(&law));
}

/* a family law: the member's own dimension, ceil(50 / d_k) on grids whose dimensions differ */
static void family_over_the_member_dimension(void **state)
{
	(void)state;
	struct grid grids[6] = {g2(2, 2), g2(2, 2), g2(3, 2), g2(3, 2), g2(4, 3), g2(4, 3)}, target = g2(8, 8);
	int64_t v[6] = {25, 25, 17, 25, 13, 17};
	int32_t dims[6] = {0, 1, 0, 1, 0, 1};
	struct law_points pts = {v, grids, dims, 6};
	struct law law;
	law_solve_points(&pts, &target, 1, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_true(law.family);
	assert_int_equal(law.predicted, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(twice_ceil_of_a_dimension),
		cmocka_unit_test(floor_of_a_dimension),
		cmocka_unit_test(ambiguous_when_the_target_splits_them),
		cmocka_unit_test(linear_laws_first),
		cmocka_unit_test(no_fit_stays_refused),
		cmocka_unit_test(family_over_the_member_dimension),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
