/* Unit tests for extrap/partner_family: the partner laws (xor 2^k, distance 2^k or 1 on a ring,
 * mirror, transpose, skew by another coordinate) on a row-major grid, with k counting up or down a
 * loop, and the same laws stated as laws of the rank (or, for skews, as pieces of the grid with one
 * relative partner each), checked against them on every rank of several grids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/partner_family.h"

static void partners_on_a_grid(void **state)
{
	(void)state;
	const struct grid g = {.ndims = 2, .dims = {4, 2}};   /* 4 rows x 2 columns, rank = 2 row + col */
	struct partner_family xor_col = {PARTNER_XOR, 1, false, 0}, xor_row_down = {PARTNER_XOR, 0, true, 0};
	assert_int_equal(partner_of(&xor_col, &g, 0, 0, 1), 1);
	assert_int_equal(partner_of(&xor_col, &g, 5, 0, 1), 4);
	assert_int_equal(partner_of(&xor_col, &g, 5, 1, 2), -1);   /* bit 1 of a column of 2: off the grid */
	assert_int_equal(partner_of(&xor_row_down, &g, 0, 0, 2), 4);   /* k = L-1-j = 1: row 0 -> row 2 */
	assert_int_equal(partner_of(&xor_row_down, &g, 3, 1, 2), 1);   /* k = 0: row 1 -> row 0 */
	const struct grid h = {.ndims = 2, .dims = {2, 4}};
	struct partner_family ring = {PARTNER_RING_UP, 1, false, 0}, down = {PARTNER_RING_DOWN, 1, false, 0};
	struct partner_family mirror = {PARTNER_MIRROR, 1, false, 0};
	assert_int_equal(partner_of(&ring, &h, 3, 1, 2), 1);   /* column 3 + 2 wraps to 1 */
	assert_int_equal(partner_of(&down, &h, 4, 0, 2), 7);   /* column 0 - 1 wraps to 3 */
	assert_int_equal(partner_of(&mirror, &h, 5, 0, 1), 6);
	const struct grid sq = {.ndims = 2, .dims = {3, 3}};
	struct partner_family tr = {PARTNER_TRANSPOSE, 0, false, 0};
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
				if (partner_is_piecewise(&fam)) {   /* a skew is a partner per piece, no law */
					assert_false(ok);
					continue;
				}
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
	struct partner_family x = {PARTNER_XOR, 0, false, 0};
	struct rank_law law;
	char why[200];
	assert_false(partner_rank_law(&x, &g, 1, 2, &law, why, sizeof why));   /* bit 1 of a dimension of 6 */
	assert_non_null(strstr(why, "6 wide"));
	assert_true(partner_rank_law(&x, &g, 0, 2, &law, why, sizeof why));
}

static void skews_and_neighbours(void **state)
{
	(void)state;
	const struct grid g = {.ndims = 2, .dims = {4, 4}};   /* Cannon's skew on a 4 x 4 grid */
	struct partner_family left = {PARTNER_SKEW_DOWN, 1, false, 0}, up = {PARTNER_SKEW_DOWN, 0, false, 1};
	struct partner_family right = {PARTNER_SKEW_UP, 1, false, 0};
	assert_int_equal(partner_of(&left, &g, 6, 0, 1), 4 + 1);    /* (1, 2) -> (1, 1) */
	assert_int_equal(partner_of(&left, &g, 9, 0, 1), 8 + 3);    /* (2, 1) -> (2, 3): wraps */
	assert_int_equal(partner_of(&right, &g, 15, 0, 1), 12 + 2); /* (3, 3) -> (3, 2) */
	assert_int_equal(partner_of(&up, &g, 7, 0, 1), 2 * 4 + 3);  /* (1, 3) -> (2, 3) */
	assert_true(partner_is_piecewise(&left));
	struct partner_family next = {PARTNER_NEXT, 1, false, 0}, prev = {PARTNER_PREV, 0, true, 0};
	assert_int_equal(partner_of(&next, &g, 3, 5, 6), 0);   /* every call of the loop: +1, wrapping */
	assert_int_equal(partner_of(&prev, &g, 2, 0, 6), 14);
	assert_false(partner_is_piecewise(&next));
	char name[80];
	partner_family_name(&up, name, sizeof name);
	assert_string_equal(name, "shift by -c1 on the ring of dimension 0");
}

static int64_t coord(const struct grid *g, int64_t rank, uint32_t d)
{
	int64_t stride = 1;
	for (uint32_t x = d + 1; x < g->ndims; x++)
		stride *= g->dims[x];
	return rank / stride % g->dims[d];
}

/* the pieces of a box cover it once, each with one relative partner per skew, at most 3 per line */
static void skew_pieces_cover_the_box(void **state)
{
	(void)state;
	const struct grid grids[] = {{.ndims = 2, .dims = {5, 5}}, {.ndims = 2, .dims = {4, 6}},
				     {.ndims = 3, .dims = {3, 4, 4}}};
	for (size_t gi = 0; gi < sizeof grids / sizeof *grids; gi++) {
		const struct grid *g = &grids[gi];
		for (uint32_t f = 0; f < partner_family_count(g->ndims); f++) {
			struct partner_family fam[2];
			partner_family_nth(g->ndims, f, &fam[0]);
			if (!partner_is_piecewise(&fam[0]))
				continue;
			fam[1] = fam[0];   /* the send and the receive side of one call */
			fam[1].kind = fam[0].kind == PARTNER_SKEW_UP ? PARTNER_SKEW_DOWN : PARTNER_SKEW_UP;
			int64_t lo[PARTNER_MAX_DIMS], hi[PARTNER_MAX_DIMS], P = grid_size(g);
			for (uint32_t d = 0; d < g->ndims; d++)
				lo[d] = 1, hi[d] = g->dims[d] - 1;   /* no coordinate 0 */
			struct partner_piece *p;
			char why[200];
			size_t n = partner_pieces(fam, 2, g, lo, hi, &p, why, sizeof why);
			assert_true(n > 0);
			assert_true(n <= 3 * (size_t)(hi[fam[0].by] - lo[fam[0].by] + 1));
			int *seen = calloc((size_t)P, sizeof *seen);
			for (size_t k = 0; k < n; k++) {
				int64_t off[2] = {INT64_MIN, INT64_MIN};
				for (int64_t r = 0; r < P; r++) {
					bool in = true;
					for (uint32_t d = 0; d < g->ndims; d++) {
						int64_t c = coord(g, r, d);
						in = in && c >= p[k].lo[d] && c <= p[k].hi[d];
					}
					if (!in)
						continue;
					seen[r]++;
					for (int x = 0; x < 2; x++) {
						int64_t o = partner_of(&fam[x], g, r, 0, 1) - r;
						if (off[x] == INT64_MIN)
							off[x] = o;
						assert_int_equal(o, off[x]);
					}
				}
			}
			for (int64_t r = 0; r < P; r++) {
				bool inside = true;
				for (uint32_t d = 0; d < g->ndims; d++)
					inside = inside && coord(g, r, d) >= 1;
				assert_int_equal(seen[r], inside ? 1 : 0);
			}
			free(seen);
			free(p);
		}
	}
	struct partner_family mixed[2] = {{PARTNER_SKEW_UP, 1, false, 0}, {PARTNER_SKEW_UP, 0, false, 1}};
	const struct grid g = {.ndims = 2, .dims = {3, 3}};
	int64_t lo[2] = {0, 0}, hi[2] = {2, 2};
	struct partner_piece *p;
	char why[200];
	assert_int_equal(partner_pieces(mixed, 2, &g, lo, hi, &p, why, sizeof why), 0);
	assert_non_null(strstr(why, "different dimensions"));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(partners_on_a_grid),
		cmocka_unit_test(rank_laws_are_the_partners),
		cmocka_unit_test(xor_beyond_the_dimension_is_no_law),
		cmocka_unit_test(skews_and_neighbours),
		cmocka_unit_test(skew_pieces_cover_the_box),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
