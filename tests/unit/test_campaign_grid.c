/* Unit tests for the process grids of the {dims} placeholders (campaign/grid.h): the balanced
 * factorisation, largest first, and a declared axis order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "campaign/grid.h"

static void check(long p, int nd, const long *want)
{
	long d[GRID_MAX_DIMS] = {0};
	assert_true(grid_balanced(p, nd, d));
	long prod = 1;
	for (int k = 0; k < nd; k++) {
		assert_int_equal(d[k], want[k]);
		prod *= d[k];
	}
	assert_int_equal(prod, p);
}

static void balanced_largest_first(void **state)
{
	(void)state;
	check(1, 3, (long[]){1, 1, 1});
	check(7, 1, (long[]){7});
	check(12, 2, (long[]){4, 3});
	check(32, 3, (long[]){4, 4, 2});
	check(64, 3, (long[]){4, 4, 4});
	check(20, 4, (long[]){5, 2, 2, 1});
	check(360, 3, (long[]){9, 8, 5});
	check(2 * 3 * 5 * 7 * 11 * 13, 8, (long[]){13, 11, 7, 5, 3, 2, 1, 1});
	/* where Open MPI 4.1's greedy assignment gives 12 x 6 */
	check(72, 2, (long[]){9, 8});
	/* a large prime: itself and ones */
	check(1000003, 3, (long[]){1000003, 1, 1});
	check(1L << 30, 3, (long[]){1024, 1024, 1024});
}

static void out_of_range(void **state)
{
	(void)state;
	long d[GRID_MAX_DIMS + 1];
	assert_false(grid_balanced(0, 2, d));
	assert_false(grid_balanced(4, 0, d));
	assert_false(grid_balanced(4, GRID_MAX_DIMS + 1, d));
}

static void declared_order(void **state)
{
	(void)state;
	long d[3];
	assert_true(grid_on_axes(12, 3, (int[]){2, 1, 0}, d));
	assert_int_equal(d[0], 2);
	assert_int_equal(d[1], 2);
	assert_int_equal(d[2], 3);
	assert_true(grid_on_axes(32, 3, NULL, d));
	assert_int_equal(d[0], 4);
	assert_int_equal(d[2], 2);
	assert_string_equal(grid_axis_letter(2), "z");
	assert_null(grid_axis_letter(3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(balanced_largest_first),
		cmocka_unit_test(out_of_range),
		cmocka_unit_test(declared_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
