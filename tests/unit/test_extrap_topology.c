/* Unit tests for extrap/topology: MPI_Dims_create's balanced grids, the target's grid from the
 * rungs', grid parsing, position classes and their boxes, grids read from MPI_Comm_split laws. */
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

static void target_grid_follows_the_rungs(void **state)
{
	(void)state;
	struct grid g;
	/* MPI_Dims_create's at every rung (stencil3d from 8, 12, 16): its grid at the target */
	const struct grid cube[] = {{.ndims = 3, .dims = {2, 2, 2}}, {.ndims = 3, .dims = {3, 2, 2}},
				    {.ndims = 3, .dims = {4, 2, 2}}};
	topology_target_grid(cube, 3, 64, &g);
	assert_int_equal(g.dims[0], 4), assert_int_equal(g.dims[1], 4), assert_int_equal(g.dims[2], 4);
	/* a decomposition along x (LAMMPS on a box long in x): 4x1x1, 8x1x1, 16x1x1 -> 64x1x1, not 4x4x4 */
	const struct grid line[] = {{.ndims = 3, .dims = {4, 1, 1}}, {.ndims = 3, .dims = {8, 1, 1}},
				    {.ndims = 3, .dims = {16, 1, 1}}};
	topology_target_grid(line, 3, 64, &g);
	assert_int_equal(g.ndims, 3);
	assert_int_equal(g.dims[0], 64), assert_int_equal(g.dims[1], 1), assert_int_equal(g.dims[2], 1);
	/* one dimension grows, the other stays 2: 2x2, 8x2 -> 32x2 */
	const struct grid strip[] = {{.ndims = 2, .dims = {2, 2}}, {.ndims = 2, .dims = {8, 2}}};
	topology_target_grid(strip, 2, 64, &g);
	assert_int_equal(g.dims[0], 32), assert_int_equal(g.dims[1], 2);
	/* two dimensions change, not as MPI_Dims_create: its grid (--target AxB names another) */
	const struct grid odd[] = {{.ndims = 2, .dims = {2, 1}}, {.ndims = 2, .dims = {1, 8}}};
	topology_target_grid(odd, 2, 36, &g);
	assert_int_equal(g.dims[0], 6), assert_int_equal(g.dims[1], 6);
	/* the rest does not divide the target: MPI_Dims_create's */
	const struct grid three[] = {{.ndims = 2, .dims = {2, 3}}, {.ndims = 2, .dims = {4, 3}}};
	topology_target_grid(three, 2, 64, &g);
	assert_int_equal(g.dims[0], 8), assert_int_equal(g.dims[1], 8);
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
	struct grid g = {2, {4, 5, 0}, 0};
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
	struct grid thin = {2, {2, 1, 0}, 0};
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

static const struct fn_desc split_fn[] = {{"MPI_Comm_split", FNF_COLLECTIVE, 0, NULL}};

/* a run of n ranks whose one MPI_Comm_split stream reads the laws given (colour, key) */
static void split_run(struct run *r, struct run_signature *sig, struct run_stream *st, struct stream_law *laws,
		      uint32_t n, uint32_t nlaws)
{
	memset(r, 0, sizeof *r);
	*sig = (struct run_signature){0, 1, 0, 0, 0};
	*st = (struct run_stream){.sig = 0, .length = nlaws, .nhead = nlaws, .nlaws = nlaws, .laws = laws};
	r->nranks = n, r->fns = (struct fn_desc *)split_fn, r->nfns = 1;
	r->sigs = sig, r->nsigs = 1, r->streams = st, r->nstreams = 1;
}

static void grid_of_splits(void **state)
{
	(void)state;
	struct run r;
	struct run_signature sig;
	struct run_stream st;
	struct grid g;
	char why[200];
	/* a row's colour rank / 4 and key rank mod 4 on 12 ranks: a 3x4 grid */
	struct stream_law rowcol[2] = {{0, {0, 1, {{1, 4, 0, 0, 0, 0}}}}, {1, {0, 1, {{1, 1, 0, 4, 0, 0}}}}};
	split_run(&r, &sig, &st, rowcol, 12, 2);
	assert_true(topology_from_splits(&r, &g, why, sizeof why));
	assert_int_equal(g.ndims, 2);
	assert_int_equal(g.dims[0], 3);
	assert_int_equal(g.dims[1], 4);
	/* a plane's colour rank / 6 and a column's rank mod 3 on 24 ranks: 4x2x3 */
	struct stream_law planes[2] = {{0, {0, 1, {{1, 6, 0, 0, 0, 0}}}}, {1, {0, 1, {{1, 1, 0, 3, 0, 0}}}}};
	split_run(&r, &sig, &st, planes, 24, 2);
	assert_true(topology_from_splits(&r, &g, why, sizeof why));
	assert_int_equal(g.ndims, 3);
	assert_int_equal(g.dims[0], 4);
	assert_int_equal(g.dims[1], 2);
	assert_int_equal(g.dims[2], 3);
	/* strides 3 and 4 of 12 ranks are no grid */
	struct stream_law bad[2] = {{0, {0, 1, {{1, 3, 0, 0, 0, 0}}}}, {1, {0, 1, {{1, 1, 0, 4, 0, 0}}}}};
	split_run(&r, &sig, &st, bad, 12, 2);
	assert_false(topology_from_splits(&r, &g, why, sizeof why));
	assert_non_null(strstr(why, "not those of a grid"));
	/* the rank itself as colour names no grid */
	struct stream_law rank[1] = {{0, {0, 1, {{1, 1, 0, 0, 0, 0}}}}};
	split_run(&r, &sig, &st, rank, 12, 1);
	assert_false(topology_from_splits(&r, &g, why, sizeof why));
	/* nor when the law writes the rank with a grid's strides (colour = rank at 8, as the tracer
	 * fits it on 2x2x2): no dimension, not a 3-D grid */
	struct stream_law mixed[1] = {{0, {0, 3, {{1, 1, 0, 2, 0, 0}, {2, 2, 0, 2, 0, 0}, {4, 4, 0, 0, 0, 0}}}}};
	split_run(&r, &sig, &st, mixed, 8, 1);
	assert_false(topology_from_splits(&r, &g, why, sizeof why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dims_create_is_balanced),
		cmocka_unit_test(target_grid_follows_the_rungs),
		cmocka_unit_test(parse_grid),
		cmocka_unit_test(classes_of_a_grid),
		cmocka_unit_test(grid_of_splits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
