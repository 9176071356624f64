/* Unit tests for extrap/remainder_law: the per-coordinate counts of an uneven decomposition,
 * a * (floor(N / d_j) + (c_j < N mod d_j)), fitted over every rank of every rung, and stated on a
 * target grid as a law of the rank with a step term that gives the same value at every rank. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/remainder_law.h"

static struct grid g2(int64_t a, int64_t b) { return (struct grid){2, {a, b, 0}, 0}; }

static int64_t share(int64_t n, int64_t d, int64_t c) { return n / d + (c < n % d); }

/* every rank of 2x2 .. 5x5; value: mult * the share of n along dimension j */
static size_t points(int64_t n, uint32_t j, int64_t mult, struct grid *grids, int64_t *ranks, int64_t *values)
{
	size_t k = 0;
	for (int64_t d = 2; d <= 5; d++)
		for (int64_t r = 0; r < d * d; r++, k++) {
			grids[k] = g2(d, d), ranks[k] = r;
			values[k] = mult * share(n, d, j == 0 ? r / d : r % d);
		}
	return k;
}

/* 50 cells over the columns: coordinates 0 and 1 of a 6-wide grid hold 9, the others 8 */
static void fifty_over_the_columns(void **state)
{
	(void)state;
	struct grid grids[64];
	int64_t ranks[64], values[64];
	struct coord_points p = {grids, ranks, values, points(50, 1, 1, grids, ranks, values)};
	struct remainder_law l;
	assert_true(remainder_law_fit(&p, &l));
	assert_int_equal(l.dim, 1);
	assert_int_equal(l.a, 1);
	assert_int_equal(l.lo, 50);
	assert_int_equal(l.hi, 50);
	assert_string_equal(l.text, "floor(50/d1) + (c1 < 50 mod d1)");
	struct grid six = g2(6, 6);
	assert_int_equal(remainder_law_eval(&l, &six, 1), 9);
	assert_int_equal(remainder_law_eval(&l, &six, 2), 8);
	assert_int_equal(remainder_law_eval(&l, &six, 6), 9);   /* row 1, column 0 */
}

/* twice the rows' share: dimension 0, multiple 2 */
static void twice_over_the_rows(void **state)
{
	(void)state;
	struct grid grids[64];
	int64_t ranks[64], values[64];
	struct coord_points p = {grids, ranks, values, points(50, 0, 2, grids, ranks, values)};
	struct remainder_law l;
	assert_true(remainder_law_fit(&p, &l));
	assert_int_equal(l.dim, 0);
	assert_int_equal(l.a, 2);
	struct grid eight = g2(8, 8);
	assert_int_equal(remainder_law_eval(&l, &eight, 8), 14);    /* row 1: 2 * 7 */
	assert_int_equal(remainder_law_eval(&l, &eight, 16), 12);   /* row 2: 2 * 6 */
}

/* values that grow with the coordinate are no share */
static void no_share_no_law(void **state)
{
	(void)state;
	struct grid grids[64];
	int64_t ranks[64], values[64];
	size_t n = points(50, 1, 1, grids, ranks, values);
	for (size_t i = 0; i < n; i++)
		values[i] = 1 + ranks[i] % grids[i].dims[1];
	struct coord_points p = {grids, ranks, values, n};
	struct remainder_law l;
	assert_false(remainder_law_fit(&p, &l));
}

/* fitted on 2x2 .. 5x5, stated on 6x6, 8x8 and 6x8 as a law of the rank: one step term, its value
 * the law's at every rank (rows: the outermost dimension, no modulus) */
static void stated_on_the_target_as_a_law_of_the_rank(void **state)
{
	(void)state;
	struct grid grids[64], targets[3] = {g2(6, 6), g2(8, 8), g2(6, 8)};
	int64_t ranks[64], values[64];
	for (uint32_t j = 0; j < 2; j++) {
		struct coord_points p = {grids, ranks, values, points(50, j, 2, grids, ranks, values)};
		struct remainder_law l;
		assert_true(remainder_law_fit(&p, &l));
		for (int t = 0; t < 3; t++) {
			struct rank_law law;
			remainder_law_at(&l, &targets[t], &law);
			char why[160];
			assert_true(rank_law_check(&law, why, sizeof why));
			assert_int_equal(law.nterms, 1);
			assert_true(law.terms[0].step);
			int64_t d = targets[t].dims[j];
			assert_int_equal(law.terms[0].below, 50 % d);
			assert_int_equal(law.base, 2 * (50 / d));
			for (int64_t r = 0; r < targets[t].dims[0] * targets[t].dims[1]; r++) {
				int64_t c = j == 0 ? r / targets[t].dims[1] : r % targets[t].dims[1];
				assert_int_equal(rank_law_eval(&law, (uint64_t)r), 2 * share(50, d, c));
				assert_int_equal(rank_law_eval(&law, (uint64_t)r), remainder_law_eval(&l, &targets[t], r));
			}
		}
	}
	/* where d divides N the step is below 0: the same shape, every rank the quotient */
	struct coord_points p = {grids, ranks, values, points(50, 1, 1, grids, ranks, values)};
	struct remainder_law l;
	assert_true(remainder_law_fit(&p, &l));
	struct grid ten = g2(5, 10);
	struct rank_law law;
	remainder_law_at(&l, &ten, &law);
	assert_int_equal(law.nterms, 1);
	assert_int_equal(law.terms[0].below, 0);
	for (uint64_t r = 0; r < 50; r++)
		assert_int_equal(rank_law_eval(&law, r), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fifty_over_the_columns),
		cmocka_unit_test(twice_over_the_rows),
		cmocka_unit_test(no_share_no_law),
		cmocka_unit_test(stated_on_the_target_as_a_law_of_the_rank),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
