/* Unit tests for extrap/partner_family: the partner laws (xor 2^k, distance 2^k on a ring, mirror,
 * transpose) on a row-major grid, with k counting up or down a loop, and the same laws stated as
 * laws of the rank, checked against them on every rank of several grids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/partner_family.h"

static void partners_on_a_grid(void **state)
{
	(void)state;
	const struct grid g = {.ndims = 2, .dims = {4, 2}};   /* 4 rows x 2 columns, rank = 2 row + col */
	struct partner_family xor_col = {PARTNER_XOR, 1, false}, xor_row_down = {PARTNER_XOR, 0, true};
	assert_int_equal(partner_of(&xor_col, &g, 0, 0, 1), 1);
	assert_int_equal(partner_of(&xor_col, &g, 5, 0, 1), 4);
	assert_int_equal(partner_of(&xor_col, &g, 5, 1, 2), -1);   /* bit 1 of a column of 2: off the grid */
	assert_int_equal(partner_of(&xor_row_down, &g, 0, 0, 2), 4);   /* k = L-1-j = 1: row 0 -> row 2 */
	assert_int_equal(partner_of(&xor_row_down, &g, 3, 1, 2), 1);   /* k = 0: row 1 -> row 0 */
	const struct grid h = {.ndims = 2, .dims = {2, 4}};
	struct partner_family ring = {PARTNER_RING_UP, 1, false}, down = {PARTNER_RING_DOWN, 1, false};
	struct partner_family mirror = {PARTNER_MIRROR, 1, false};
	assert_int_equal(partner_of(&ring, &h, 3, 1, 2), 1);   /* column 3 + 2 wraps to 1 */
	assert_int_equal(partner_of(&down, &h, 4, 0, 2), 7);   /* column 0 - 1 wraps to 3 */
	assert_int_equal(partner_of(&mirror, &h, 5, 0, 1), 6);
	const struct grid sq = {.ndims = 2, .dims = {3, 3}};
	struct partner_family tr = {PARTNER_TRANSPOSE, 0, false};
	assert_int_equal(partner_of(&tr, &sq, 1, 0, 1), 3);
	assert_int_equal(partner_of(&tr, &sq, 4, 0, 1), 4);   /* the diagonal is its own partner */
	assert_int_equal(partner_of(&tr, &g, 1, 0, 1), -1);   /* no transpose of a grid that is not square */
	char name[80];
	partner_family_name(&xor_row_down, name, sizeof name);
	assert_string_equal(name, "xor 2^k in dimension 0 (k = L-1-j)");
}

/* every family's law of the rank gives partner - rank on every rank, for every call of the loop */
static void rank_laws_are_the_partners(void **state)
{
	(void)state;
	const struct grid grids[] = {{.ndims = 2, .dims = {8, 8}}, {.ndims = 2, .dims = {8, 4}},
				     {.ndims = 3, .dims = {4, 2, 8}}, {.ndims = 1, .dims = {16}}};
	for (size_t gi = 0; gi < sizeof grids / sizeof *grids; gi++) {
		const struct grid *g = &grids[gi];
		for (uint32_t f = 0; f < partner_family_count(g->ndims); f++) {
			struct partner_family fam;
			partner_family_nth(g->ndims, f, &fam);
			uint64_t L = fam.kind == PARTNER_TRANSPOSE ? 1 : 2;
			for (uint64_t j = 0; j < L; j++) {
				struct rank_law law;
				char why[200];
				bool ok = partner_rank_law(&fam, g, j, L, &law, why, sizeof why);
				bool every = true;   /* a law exactly where every rank has a partner */
				for (int64_t r = 0; r < grid_size(g); r++)
					every = every && partner_of(&fam, g, r, j, L) >= 0;
				assert_int_equal(ok, every);
				if (!ok)
					continue;
				for (int64_t r = 0; r < grid_size(g); r++)
					assert_int_equal(rank_law_eval(&law, (uint64_t)r), partner_of(&fam, g, r, j, L) - r);
			}
		}
	}
}

static void xor_beyond_the_dimension_is_no_law(void **state)
{
	(void)state;
	const struct grid g = {.ndims = 2, .dims = {6, 4}};
	struct partner_family x = {PARTNER_XOR, 0, false};
	struct rank_law law;
	char why[200];
	assert_false(partner_rank_law(&x, &g, 1, 2, &law, why, sizeof why));   /* bit 1 of a dimension of 6 */
	assert_non_null(strstr(why, "6 wide"));
	assert_true(partner_rank_law(&x, &g, 0, 2, &law, why, sizeof why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(partners_on_a_grid),
		cmocka_unit_test(rank_laws_are_the_partners),
		cmocka_unit_test(xor_beyond_the_dimension_is_no_law),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
