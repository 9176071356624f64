/* Unit tests for extrap/rounded_law: counts of uneven decompositions, a * ceil(N / x) and
 * a * floor(N / x), fitted exactly, evaluated at the target, and refused when the N that fit the
 * rungs disagree there. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/law.h"
#include "extrap/rounded_law.h"

/* the law of values[i] seen on grids[i] at target; false when no rounded law fits */
static bool law_solve_rounded(const int64_t *v, const struct grid *grids, size_t n, const struct grid *target,
			      struct law *law)
{
	struct law_points pts = {.values = v, .grids = grids, .n = n};
	memset(law, 0, sizeof *law);
	return rounded_law_solve(&pts, target, LAW_NO_DIM, law);
}

static struct grid g2(int64_t a, int64_t b) { return (struct grid){2, {a, b, 0}, 0}; }

/* 2 * ceil(50 / d1): the buffer of a code sized for the largest share of 50 cells */
static void twice_ceil_of_a_dimension(void **state)
{
	(void)state;
	struct grid grids[4] = {g2(2, 2), g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(8, 8);
	int64_t v[4] = {50, 34, 26, 20};
	struct law law;
	assert_true(law_solve_rounded(v, grids, 4, &target, &law));
	assert_int_equal(law.status, LAW_OK);
	assert_true(rounded_law_is(&law));
	assert_int_equal(law.predicted, 14);   /* 2 * ceil(50 / 8) */
	assert_string_equal(law.text, "2*ceil(49/d0), N from 49 to 50");   /* both give 7 at d = 8 */
	int64_t at6;
	struct grid six = g2(6, 6);
	assert_true(rounded_law_eval(&law, &six, LAW_NO_DIM, &at6));
	assert_int_equal(at6, 18);
}

/* the last coordinate's share floor(61 / d): 30, 20, 15, 12 */
static void floor_of_a_dimension(void **state)
{
	(void)state;
	struct grid grids[4] = {g2(2, 2), g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(6, 6);
	int64_t v[4] = {30, 20, 15, 12};
	struct law law;
	assert_true(law_solve_rounded(v, grids, 4, &target, &law));
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
	assert_true(law_solve_rounded(v, grids, 4, &target, &law));
	assert_int_equal(law.status, LAW_AMBIGUOUS);
	assert_non_null(strstr(law.text, "49"));
	assert_non_null(strstr(law.text, "50"));
	struct grid at8 = g2(8, 8);
	assert_true(law_solve_rounded(v, grids, 4, &at8, &law));
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 7);
}

/* values that grow with d are no quotient, and neither are zeros or negatives */
static void no_fit_stays_refused(void **state)
{
	(void)state;
	struct grid grids[4] = {g2(2, 2), g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(8, 8);
	int64_t up[4] = {3, 7, 8, 20}, neg[4] = {-25, -17, -13, -10};
	struct law law;
	assert_false(law_solve_rounded(up, grids, 4, &target, &law));
	assert_false(law_solve_rounded(neg, grids, 4, &target, &law));
	assert_false(law_solve_rounded(up, grids, 2, &target, &law));   /* two points: nothing left to check */
}

/* a family law: the member's own dimension, ceil(50 / d_k) on grids whose dimensions differ */
static void family_over_the_member_dimension(void **state)
{
	(void)state;
	struct grid grids[6] = {g2(2, 2), g2(2, 2), g2(3, 2), g2(3, 2), g2(4, 3), g2(4, 3)}, target = g2(8, 8);
	int64_t v[6] = {25, 25, 17, 25, 13, 17};
	int32_t dims[6] = {0, 1, 0, 1, 0, 1};
	struct law_points pts = {.values = v, .grids = grids, .dims = dims, .n = 6};
	struct law law;
	assert_true(rounded_law_solve(&pts, &target, 1, &law));
	assert_int_equal(law.status, LAW_OK);
	assert_true(law.family);
	assert_int_equal(law.predicted, 7);
}

/* law_solve weighs them against the linear laws: 2 * ceil(25 / d) on 2x2 .. 5x5 fits no linear law */
static void rounded_where_no_linear_law_fits(void **state)
{
	(void)state;
	struct grid grids[4] = {g2(2, 2), g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(6, 6);
	int64_t v[4] = {26, 18, 14, 10};
	struct law law;
	law_solve(v, grids, 4, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_true(rounded_law_is(&law));
	assert_int_equal(law.predicted, 10);
	assert_string_equal(law.text, "2*ceil(25/d0)");
}

/* the same call on 3x3 .. 5x5 only (an interior class): 18, 14, 10 is also 30 - 4 d, which gives 6
 * at 6x6; a tie, refused with the rung that tells the laws apart */
static void linear_and_rounded_tie_names_the_rung(void **state)
{
	(void)state;
	struct grid grids[3] = {g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(6, 6);
	int64_t v[3] = {18, 14, 10};
	struct law law;
	law_solve(v, grids, 3, &target, &law);
	assert_int_equal(law.status, LAW_AMBIGUOUS);
	assert_non_null(strstr(law.text, "30 - 4*d0 or 2*ceil(25/d0)"));
	assert_non_null(strstr(law.text, "a rung of 18 ranks (6x3) would decide"));
}

/* a linear law of fewer unknowns is the simpler: 48 / d beside the roundings of 47 or 48 */
static void simpler_linear_law_wins(void **state)
{
	(void)state;
	struct grid grids[3] = {g2(2, 2), g2(3, 3), g2(4, 4)}, target = g2(8, 8);
	int64_t v[3] = {24, 16, 12};
	struct law law;
	law_solve(v, grids, 3, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_false(rounded_law_is(&law));
	assert_int_equal(law.predicted, 6);
}

/* a count whose only law is negative at the target is refused; another value may be negative */
static void negative_count_never_chosen(void **state)
{
	(void)state;
	struct grid grids[3] = {g2(3, 3), g2(4, 4), g2(5, 5)}, target = g2(8, 8);
	int64_t v[3] = {10, 7, 4};
	struct law_points pts = {.values = v, .grids = grids, .n = 3, .counts = true};
	struct law law;
	law_solve_points(&pts, &target, LAW_NO_DIM, &law);
	assert_int_equal(law.status, LAW_NEGATIVE);
	pts.counts = false;
	law_solve_points(&pts, &target, LAW_NO_DIM, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, -5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(twice_ceil_of_a_dimension),
		cmocka_unit_test(floor_of_a_dimension),
		cmocka_unit_test(ambiguous_when_the_target_splits_them),
		cmocka_unit_test(no_fit_stays_refused),
		cmocka_unit_test(family_over_the_member_dimension),
		cmocka_unit_test(rounded_where_no_linear_law_fits),
		cmocka_unit_test(linear_and_rounded_tie_names_the_rung),
		cmocka_unit_test(simpler_linear_law_wins),
		cmocka_unit_test(negative_count_never_chosen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
