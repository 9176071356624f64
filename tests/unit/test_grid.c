/* Unit tests for the process grid (run/grid.h): strides and coordinates row-major with the last
 * dimension fastest, the rank of coordinates their inverse, agreeing with the division loop that
 * peels dimensions off from the fastest; exact past 2^31 ranks; size and "4x3x5" name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "run/grid.h"

static void strides_are_the_products_of_the_faster_dimensions(void **state)
{
	(void)state;
	struct grid g = {3, {4, 3, 5}, 0};
	assert_int_equal(grid_stride(&g, 0), 15);
	assert_int_equal(grid_stride(&g, 1), 5);
	assert_int_equal(grid_stride(&g, 2), 1);
	assert_int_equal(grid_size(&g), 60);
	struct grid line = {1, {7, 0, 0}, 0};
	assert_int_equal(grid_stride(&line, 0), 1);
	assert_int_equal(grid_coord(&line, 6, 0), 6);
}

/* the coordinates a division loop finds, fastest dimension first */
static void peeled(const struct grid *g, int64_t rank, int64_t *c)
{
	for (int k = (int)g->ndims - 1; k >= 0; k--) {
		c[k] = rank % g->dims[k];
		rank /= g->dims[k];
	}
}

static void coordinates_and_ranks_are_inverse(void **state)
{
	(void)state;
	const struct grid grids[] = {{3, {4, 3, 5}, 0}, {2, {2, 6, 0}, 0}, {3, {2, 2, 2}, 0}, {1, {12, 0, 0}, 0}};
	for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
		const struct grid *g = &grids[i];
		for (int64_t rank = 0; rank < grid_size(g); rank++) {
			int64_t c[GRID_MAX_NDIMS], want[GRID_MAX_NDIMS];
			peeled(g, rank, want);
			for (uint32_t k = 0; k < g->ndims; k++) {
				c[k] = grid_coord(g, rank, k);
				assert_int_equal(c[k], want[k]);
			}
			assert_int_equal(grid_rank_of(g, c), rank);
		}
	}
	struct grid g = {3, {4, 3, 5}, 0};
	assert_int_equal(grid_rank_of(&g, (const int64_t[]){1, 2, 3}), 15 + 10 + 3);
}

static void exact_past_two_to_the_31_ranks(void **state)
{
	(void)state;
	struct grid g = {3, {4096, 1024, 1024}, 0};   /* 2^32 ranks */
	int64_t last = grid_size(&g) - 1;
	assert_int_equal(grid_size(&g), INT64_C(1) << 32);
	assert_int_equal(grid_stride(&g, 0), INT64_C(1) << 20);
	assert_int_equal(grid_coord(&g, last, 0), 4095);
	assert_int_equal(grid_coord(&g, last, 1), 1023);
	assert_int_equal(grid_coord(&g, last, 2), 1023);
	int64_t c[] = {2048, 0, 1};
	assert_int_equal(grid_rank_of(&g, c), (INT64_C(1) << 31) + 1);
	assert_int_equal(grid_coord(&g, (INT64_C(1) << 31) + 1, 0), 2048);
}

static void the_name_reads_outermost_first(void **state)
{
	(void)state;
	char text[64];
	struct grid g = {3, {4, 3, 5}, 0};
	grid_format(&g, text, sizeof text);
	assert_string_equal(text, "4x3x5");
	struct grid m = {2, {1024, 1024, 0}, 0};
	grid_format(&m, text, sizeof text);
	assert_string_equal(text, "1024x1024");
	char small[4];
	grid_format(&g, small, sizeof small);
	assert_string_equal(small, "4x3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strides_are_the_products_of_the_faster_dimensions),
		cmocka_unit_test(coordinates_and_ranks_are_inverse),
		cmocka_unit_test(exact_past_two_to_the_31_ranks),
		cmocka_unit_test(the_name_reads_outermost_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
