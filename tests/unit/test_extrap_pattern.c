/* Unit tests for extrap/topology's detection of the grid from the point-to-point pattern of codes
 * that compute neighbours by hand: unique, ambiguous and inconsistent patterns, diagonal neighbours. The runs are built
 * by hand: a Dims_create call saying the dimensionality and sends to relative peers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/topology.h"
#include "util/xalloc.h"

static const struct param_desc send_params[] = {{"dest", PK_PEER}};
static const struct param_desc dims_params[] = {{"nnodes", PK_INT}, {"ndims", PK_INT}, {"dims", PK_INTS}};
static const struct fn_desc fns[] = {{"MPI_Send", FNF_P2P, 1, send_params}, {"MPI_Dims_create", 0, 3, dims_params}};

struct fake {
	struct run r;
	struct run_signature sigs[8];
	int64_t vals[32];
	struct run_group groups[8];
	uint32_t ranks[8][16];
};

/* a run of nranks whose group i holds ranks members[i] and sends to offsets[i] (0 ends a list) */
static void build(struct fake *f, uint32_t nranks, uint32_t ndims, uint32_t ngroups, const uint32_t members[][16],
		  const int64_t *offsets)
{
	memset(f, 0, sizeof *f);
	f->r.nranks = nranks;
	f->r.fns = (struct fn_desc *)fns;
	f->r.nfns = 2;
	f->r.sigs = f->sigs;
	f->r.sigvals = f->vals;
	f->r.groups = f->groups;
	f->r.ngroups = ngroups;
	int64_t dims[] = {nranks, ndims, 2, 0, 0};
	memcpy(f->vals, dims, sizeof dims);
	f->sigs[0] = (struct run_signature){1, 0, 0, 5, 0};
	f->r.nsigs = 1;
	for (uint32_t g = 0; g < ngroups; g++) {
		f->vals[5 + g] = offsets[g];
		f->sigs[f->r.nsigs] = (struct run_signature){0, 0, 0, 1, 5 + g};
		struct run_group *gr = &f->groups[g];
		grammar_init(&gr->g);
		grammar_begin_rule(&gr->g);
		grammar_add_symbol(&gr->g, 0, 1);
		grammar_add_symbol(&gr->g, f->r.nsigs++, 1);
		grammar_end(&gr->g);
		while (gr->nranks < 16 && (gr->nranks == 0 || members[g][gr->nranks]))
			f->ranks[g][gr->nranks] = members[g][gr->nranks], gr->nranks++;
		ranklist_init(&gr->ranks);
		ranklist_from_ranks(&gr->ranks, f->ranks[g], gr->nranks);
	}
}

static void release(struct fake *f)
{
	for (uint32_t g = 0; g < f->r.ngroups; g++)
		grammar_free(&f->groups[g].g), ranklist_free(&f->groups[g].ranks);
}

static void unique_grid(void **state)
{
	(void)state;
	/* 2x2: the top row sends down (+2), the bottom row up (-2) */
	static const uint32_t members[][16] = {{0, 1}, {2, 3}};
	static const int64_t offsets[] = {2, -2};
	struct fake f;
	build(&f, 4, 2, 2, members, offsets);
	struct grid g;
	char why[200];
	assert_true(topology_from_pattern(&f.r, &g, why, sizeof why));
	assert_int_equal(g.ndims, 2);
	assert_int_equal(g.dims[0], 2);
	assert_int_equal(g.dims[1], 2);
	release(&f);
}

static void ambiguous_chain(void **state)
{
	(void)state;
	/* a chain 0 -> 1 -> 2 -> 3 asked to be 2-D: 4x1 and 1x4 both fit, the balanced 2x2 does not */
	static const uint32_t members[][16] = {{0, 1, 2}, {3}};
	static const int64_t offsets[] = {1, -1};
	struct fake f;
	build(&f, 4, 2, 2, members, offsets);
	struct grid g;
	char why[200];
	assert_false(topology_from_pattern(&f.r, &g, why, sizeof why));
	assert_non_null(strstr(why, "2 2-D grids of 4 ranks explain"));
	release(&f);
}

static void inconsistent_pattern(void **state)
{
	(void)state;
	/* on 16 ranks, 0 -> 10 is two steps away on 4x4, 2x8 and 8x2, and no neighbour on a line */
	static const uint32_t members[][16] = {{0}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}};
	static const int64_t offsets[] = {10, 0};
	struct fake f;
	build(&f, 16, 2, 2, members, offsets);
	struct grid g;
	char why[1024];
	assert_false(topology_from_pattern(&f.r, &g, why, sizeof why));
	assert_non_null(strstr(why, "no 2-D grid (the dimensions MPI_Dims_create was asked for) of 16 ranks"));
	assert_non_null(strstr(why, "on 4x4, rank 0 talks to rank 10, which is no neighbour of it"));
	release(&f);
}

static void diagonal_neighbours(void **state)
{
	(void)state;
	/* on 9 ranks, 0 -> 4 is no neighbour one dimension apart on any 2-D grid, but on 3x3 it is the
	 * diagonal one of the 27-point (here 9-point) neighbourhood */
	static const uint32_t members[][16] = {{0}, {1, 2, 3, 4, 5, 6, 7, 8}};
	static const int64_t offsets[] = {4, 0};
	struct fake f;
	build(&f, 9, 2, 2, members, offsets);
	struct grid g;
	char why[300];
	assert_true(topology_from_pattern(&f.r, &g, why, sizeof why));
	assert_int_equal(g.dims[0], 3);
	assert_int_equal(g.dims[1], 3);
	release(&f);
}

static void periodic_wrap_is_a_neighbour(void **state)
{
	(void)state;
	/* a 1-D ring of 5: everyone sends +1, the last wraps to the first (-4) */
	static const uint32_t members[][16] = {{0, 1, 2, 3}, {4}};
	static const int64_t offsets[] = {1, -4};
	struct fake f;
	build(&f, 5, 1, 2, members, offsets);
	struct grid g;
	char why[200];
	assert_true(topology_from_pattern(&f.r, &g, why, sizeof why));
	assert_int_equal(g.dims[0], 5);
	/* a hand-made grid is periodic when a peer wraps around */
	assert_true(topology_wraps(&f.r, &g));
	release(&f);
	/* a line whose ends send inwards does not wrap; on 2 ranks a step is never a wrap */
	static const uint32_t line[][16] = {{0, 1, 2, 3}, {4}};
	static const int64_t inwards[] = {1, -1};
	build(&f, 5, 1, 2, line, inwards);
	assert_true(topology_from_pattern(&f.r, &g, why, sizeof why));
	assert_false(topology_wraps(&f.r, &g));
	release(&f);
	static const uint32_t pair[][16] = {{0}, {1}};
	static const int64_t across[] = {1, -1};
	build(&f, 2, 1, 2, pair, across);
	assert_true(topology_from_pattern(&f.r, &g, why, sizeof why));
	assert_false(topology_wraps(&f.r, &g));
	release(&f);
}

static void master_worker_has_no_grid(void **state)
{
	(void)state;
	/* on a line of 6 ranks, worker 2 sends to rank 0 and rank 0 answers: two steps, no neighbours */
	static const uint32_t members[][16] = {{2}, {0}};
	static const int64_t offsets[] = {-2, 2};
	struct fake f;
	build(&f, 6, 1, 2, members, offsets);
	struct grid g;
	char why[1024];
	assert_false(topology_from_pattern(&f.r, &g, why, sizeof why));
	assert_non_null(strstr(why, "no 1-D grid (the dimensions MPI_Dims_create was asked for) of 6 ranks"));
	assert_non_null(strstr(why, "which is no neighbour of it"));
	/* one worker is no master: no rank talks to every other, so the refusal does not blame the
	 * code's data alone, nor claim that more rungs would not help */
	assert_non_null(strstr(why, "a law ladder does not know yet"));
	assert_null(strstr(why, "more rungs would not help"));
	release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unique_grid),
		cmocka_unit_test(ambiguous_chain),
		cmocka_unit_test(diagonal_neighbours),
		cmocka_unit_test(inconsistent_pattern),
		cmocka_unit_test(periodic_wrap_is_a_neighbour),
		cmocka_unit_test(master_worker_has_no_grid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
