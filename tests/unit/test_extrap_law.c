/* Unit tests for extrap/law: exact integer laws in the grid's dimension sizes, family laws shared
 * by the dimensions of one call site, and the refusals (too few rungs, no fit, ambiguous, not
 * integral at the target), on square 2-D ladders and on 3-D ladders whose dimensions 1 and 2
 * never vary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/law.h"

static struct grid g2(int64_t a, int64_t b) { return (struct grid){2, {a, b, 0}, 0}; }
static struct grid g1(int64_t a) { return (struct grid){1, {a, 0, 0}, 0}; }
static struct grid g3(int64_t a, int64_t b, int64_t c) { return (struct grid){3, {a, b, c}, 0}; }

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
	struct grid odd = g2(5, 5);   /* 48/5 is no integer, and its roundings up and down tie: refused */
	law_solve(v, grids, 3, &odd, &law);
	assert_int_equal(law.status, LAW_AMBIGUOUS);
	assert_non_null(strstr(law.text, "would decide"));
}

/* a trip count of floor(sqrt(P)) cells per rank on a 1-D ring (a multipartitioning): no law of
 * the ring's size fits 6, 9, 12 at 4, 9, 16 ranks; the width of a square grid of the ranks does,
 * also where P is no square (floor(sqrt(48)) = 6) */
static void width_of_a_square_grid(void **state)
{
	(void)state;
	struct grid grids[3] = {g1(4), g1(9), g1(16)}, target = g1(64), not_square = g1(48);
	int64_t v[3] = {6, 9, 12};
	struct law law;
	law_solve(v, grids, 3, &target, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 24);
	assert_string_equal(law.text, "3*floor(sqrt(P))");
	law_solve(v, grids, 3, &not_square, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 18);
	/* two rungs cannot confirm it */
	law_solve(v, grids, 2, &target, &law);
	assert_int_equal(law.status, LAW_TOO_FEW);
	/* a law of the dimensions that fits comes first: on 2x2x2, 3x2x2, 4x2x2, d0 and floor(sqrt(P))
	 * are both 2, 3, 4, and the count is d0 (4 at 4x3x3, where the width would say 6) */
	struct grid r3[3] = {g3(2, 2, 2), g3(3, 2, 2), g3(4, 2, 2)}, t3 = g3(4, 3, 3);
	int64_t w[3] = {2, 3, 4};
	law_solve(w, r3, 3, &t3, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 4);
	assert_null(strstr(law.text, "sqrt"));
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

static void family_law_of_strong_faces(void **state)
{
	(void)state;
	/* a 12^3 stencil on 2x2x2, 3x2x2, 4x2x2: the face normal to dimension 0 is 36 at every rung,
	 * those normal to dimensions 1 and 2 are 72/d0; one law C d_k / P explains all three */
	struct grid r[3] = {g3(2, 2, 2), g3(3, 2, 2), g3(4, 2, 2)}, t = g3(4, 3, 3);
	struct grid gs[9];
	int64_t v[9] = {36, 36, 36, 36, 24, 18, 36, 24, 18};
	int32_t k[9];
	for (int i = 0; i < 9; i++)
		gs[i] = r[i % 3], k[i] = i / 3;
	struct law_points pts = {.values = v, .grids = gs, .dims = k, .n = 9};
	struct law law;
	law_solve_points(&pts, &t, 0, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_string_equal(law.text, "144*d_k/P");
	int64_t x;
	assert_true(law_eval(&law, &t, 0, &x));
	assert_int_equal(x, 16);   /* the face normal to dimension 0: (12/3) * (12/3) cells */
	assert_true(law_eval(&law, &t, 1, &x));
	assert_int_equal(x, 12);   /* normal to dimension 1: (12/4) * (12/3) */
	/* dimension 0's constant alone says nothing: it is just a constant */
	struct law_points zero = {.values = v, .grids = gs, .dims = k, .n = 3};
	law_solve_points(&zero, &t, 0, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.nterms, 0);
}

static void family_law_ambiguous_on_square_rungs(void **state)
{
	(void)state;
	/* 48/d_other and 48/d_k agree on square rungs and at a square target only */
	struct grid r[3] = {g2(2, 2), g2(3, 3), g2(4, 4)}, square = g2(6, 6), wide = g2(12, 3);
	struct grid gs[6];
	int64_t v[6] = {24, 16, 12, 24, 16, 12};
	int32_t k[6];
	for (int i = 0; i < 6; i++)
		gs[i] = r[i % 3], k[i] = i / 3;
	struct law_points pts = {.values = v, .grids = gs, .dims = k, .n = 6};
	struct law law;
	law_solve_points(&pts, &square, 0, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 8);
	law_solve_points(&pts, &wide, 0, &law);
	assert_int_equal(law.status, LAW_AMBIGUOUS);
}

static void degenerate_ladder_is_ambiguous_not_guessed(void **state)
{
	(void)state;
	/* d1 = d2 = 2 at every rung: P and 4*d0 fit alike and part at 4x3x3; so do 2*d0 and d0*d1 */
	struct grid r[3] = {g3(2, 2, 2), g3(3, 2, 2), g3(4, 2, 2)}, t = g3(4, 3, 3);
	int64_t size[3] = {8, 12, 16}, twice[3] = {4, 6, 8}, same[3] = {4, 4, 4};
	struct law law;
	law_solve(size, r, 3, &t, &law);
	assert_int_equal(law.status, LAW_AMBIGUOUS);
	law_solve(twice, r, 3, &t, &law);
	assert_int_equal(law.status, LAW_AMBIGUOUS);
	assert_non_null(strstr(law.text, "P/d"));
	/* a constant is taken as one */
	law_solve(same, r, 3, &t, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 4);
	/* a ladder that varies every dimension tells P from 4*d0 and 2*d0*d1 */
	struct grid varied[4] = {g3(2, 2, 2), g3(3, 2, 2), g3(3, 3, 2), g3(3, 3, 3)};
	int64_t p[4] = {8, 12, 18, 27};
	law_solve(p, varied, 4, &t, &law);
	assert_int_equal(law.status, LAW_OK);
	assert_int_equal(law.predicted, 36);
}

static void laws_compared_at_the_target(void **state)
{
	(void)state;
	struct grid r[3] = {g2(2, 2), g2(3, 3), g2(4, 4)}, t = g2(6, 6);
	int64_t a[3] = {24, 16, 12}, b[3] = {2, 3, 4};
	struct law la, lb, la2;
	law_solve(a, r, 3, &t, &la);
	law_solve(b, r, 3, &t, &lb);
	law_solve(a, r, 3, &t, &la2);
	assert_true(law_same_at(&la, &la2, &t));
	assert_false(law_same_at(&la, &lb, &t));
	int64_t x;
	struct grid odd = g2(5, 5);
	assert_false(law_eval(&la, &odd, LAW_NO_DIM, &x));   /* 48/5 */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(constant_needs_two_rungs),  cmocka_unit_test(linear_in_one_dimension),
		cmocka_unit_test(strong_scaling_count),      cmocka_unit_test(product_of_dimensions),
		cmocka_unit_test(two_terms_need_three_rungs), cmocka_unit_test(ambiguous_on_square_ladders),
		cmocka_unit_test(inconsistent_values_fit_no_law),
		cmocka_unit_test(family_law_of_strong_faces),
		cmocka_unit_test(family_law_ambiguous_on_square_rungs),
		cmocka_unit_test(degenerate_ladder_is_ambiguous_not_guessed),
		cmocka_unit_test(laws_compared_at_the_target),
		cmocka_unit_test(width_of_a_square_grid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
