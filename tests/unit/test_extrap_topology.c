/* Unit tests for extrap/topology: MPI_Dims_create's balanced grids, grid parsing, position
 * classes and their boxes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/topology.h"

static void dims_create_is_balanced(void **state)
{
	(void)state;
	static const struct { int64_t p; uint32_t nd; int64_t d[3]; } cases[] = {
		{36, 2, {6, 6, 0}}, {64, 2, {8, 8, 0}}, {8, 2, {4, 2, 0}}, {12, 2, {4, 3, 0}}, {7, 2, {7, 1, 0}},
		{64, 3, {4, 4, 4}}, {36, 3, {4, 3, 3}}, {16, 3, {4, 2, 2}}, {1048576, 2, {1024, 1024, 0}},
		{17, 1, {17, 0, 0}},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct grid g;
		topology_dims_create(cases[i].p, cases[i].nd, &g);
		assert_int_equal(g.ndims, cases[i].nd);
		for (uint32_t k = 0; k < g.ndims; k++)
			assert_int_equal(g.dims[k], cases[i].d[k]);
	}
}

static void parse_grid(void **state)
{
	(void)state;
	struct grid g;
	assert_true(topology_parse_grid("32x16", &g));
	assert_int_equal(g.ndims, 2);
	assert_int_equal(grid_size(&g), 512);
	assert_false(topology_parse_grid("32x", &g));
	assert_false(topology_parse_grid("0x4", &g));
	assert_false(topology_parse_grid("2x2x2x2", &g));
	assert_false(topology_parse_grid("4y4", &g));
}

static void classes_of_a_grid(void **state)
{
	(void)state;
	struct grid g = {2, {4, 5, 0}};
	uint32_t count[TOPOLOGY_MAX_CLASSES] = {0};
	for (int64_t r = 0; r < 20; r++)
		count[topology_class(&g, r)]++;
	/* corners 1 rank, edges 2 or 3 ranks, interior 2x3 */
	assert_int_equal(count[POS_LOW * POS_KINDS + POS_LOW], 1);
	assert_int_equal(count[POS_LOW * POS_KINDS + POS_INTERIOR], 3);
	assert_int_equal(count[POS_INTERIOR * POS_KINDS + POS_LOW], 2);
	assert_int_equal(count[POS_INTERIOR * POS_KINDS + POS_INTERIOR], 6);
	int64_t lo[3], hi[3];
	assert_true(topology_class_box(&g, POS_INTERIOR * POS_KINDS + POS_HIGH, lo, hi));
	assert_int_equal(lo[0], 1);
	assert_int_equal(hi[0], 2);
	assert_int_equal(lo[1], 4);
	assert_int_equal(hi[1], 4);
	/* a 2-wide dimension has no interior; a 1-wide one only the single position */
	struct grid thin = {2, {2, 1, 0}};
	assert_false(topology_class_box(&thin, POS_INTERIOR * POS_KINDS + POS_SINGLE, lo, hi));
	assert_false(topology_class_box(&thin, POS_LOW * POS_KINDS + POS_LOW, lo, hi));
	assert_true(topology_class_box(&thin, POS_LOW * POS_KINDS + POS_SINGLE, lo, hi));
	assert_int_equal(topology_class(&thin, 1), POS_HIGH * POS_KINDS + POS_SINGLE);
	/* a class's position per dimension, and the class with one of them replaced */
	uint32_t c = (POS_LOW * POS_KINDS + POS_INTERIOR) * POS_KINDS + POS_HIGH;
	assert_int_equal(topology_class_pos(c, 3, 0), POS_LOW);
	assert_int_equal(topology_class_pos(c, 3, 1), POS_INTERIOR);
	assert_int_equal(topology_class_pos(c, 3, 2), POS_HIGH);
	assert_int_equal(topology_class_with(c, 3, 1, POS_HIGH), (POS_LOW * POS_KINDS + POS_HIGH) * POS_KINDS + POS_HIGH);
	assert_int_equal(topology_class_with(c, 3, 2, POS_LOW), (POS_LOW * POS_KINDS + POS_INTERIOR) * POS_KINDS + POS_LOW);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dims_create_is_balanced),
		cmocka_unit_test(parse_grid),
		cmocka_unit_test(classes_of_a_grid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
