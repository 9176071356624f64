/* Unit tests for extrap/geometry: relative peers read as moves on the grid, the candidates a
 * periodic dimension of 2 (or 1) leaves, narrowing them down across rungs, and the neighbour's
 * relative rank re-evaluated on a target grid for each position class. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/geometry.h"
#include "extrap/topology.h"

static const bool open3[3] = {false, false, false}, ring3[3] = {true, true, true};

static uint32_t cls3(uint32_t a, uint32_t b, uint32_t c) { return (a * POS_KINDS + b) * POS_KINDS + c; }

static void moves_on_an_open_grid(void **state)
{
	(void)state;
	struct grid g = {3, {3, 2, 2}, 0};
	struct step s;
	/* the corner's neighbour along dimension 1 is 2 ranks away (d2 = 2) */
	assert_true(step_of_offset(&g, open3, cls3(POS_LOW, POS_LOW, POS_LOW), 2, &s));
	assert_int_equal(s.mask[0], STEP_STAY);
	assert_int_equal(s.mask[1], STEP_POS);
	assert_int_equal(s.mask[2], STEP_STAY);
	assert_int_equal(step_dim(&s, 3), 1);
	assert_int_equal(step_sign(&s, 1), 1);
	/* the interior of dimension 0 looks back 4 ranks */
	assert_true(step_of_offset(&g, open3, cls3(POS_INTERIOR, POS_LOW, POS_LOW), -4, &s));
	assert_int_equal(step_dim(&s, 3), 0);
	assert_int_equal(step_sign(&s, 0), -1);
	/* two steps away is no neighbour; neither is a rank off the grid */
	assert_false(step_of_offset(&g, open3, cls3(POS_LOW, POS_LOW, POS_LOW), 8, &s));
	assert_false(step_of_offset(&g, open3, cls3(POS_LOW, POS_LOW, POS_LOW), -1, &s));
	/* a diagonal neighbour moves along two dimensions: no single one */
	assert_true(step_of_offset(&g, open3, cls3(POS_LOW, POS_LOW, POS_LOW), 3, &s));
	assert_int_equal(step_dim(&s, 3), -1);
}

static void periodic_small_dimensions_leave_candidates(void **state)
{
	(void)state;
	struct grid two = {3, {2, 2, 2}, 0}, wide = {3, {4, 2, 2}, 0};
	struct step a, b;
	/* on a periodic 2-wide dimension +1 and -1 are one rank */
	assert_true(step_of_offset(&two, ring3, cls3(POS_LOW, POS_LOW, POS_LOW), 4, &a));
	assert_int_equal(a.mask[0], STEP_NEG | STEP_POS);
	assert_int_equal(step_dim(&a, 3), 0);
	assert_int_equal(step_sign(&a, 0), 0);
	/* a 4-wide rung tells them apart: the low corner's wrap-around neighbour is at -1 */
	assert_true(step_of_offset(&wide, ring3, cls3(POS_LOW, POS_LOW, POS_LOW), 12, &b));
	assert_int_equal(b.mask[0], STEP_NEG);
	assert_true(step_meet(&a, &b, 3));
	assert_int_equal(a.mask[0], STEP_NEG);
	/* moves that disagree across rungs meet in nothing */
	struct step c;
	assert_true(step_of_offset(&wide, ring3, cls3(POS_LOW, POS_LOW, POS_LOW), 4, &c));
	assert_int_equal(c.mask[0], STEP_POS);
	assert_false(step_meet(&c, &b, 3));
	/* a 1-wide periodic dimension: every move stays */
	struct grid flat = {2, {4, 1, 0}, 0};
	bool ring2[3] = {true, true, true};
	assert_true(step_of_offset(&flat, ring2, POS_INTERIOR * POS_KINDS + POS_SINGLE, 0, &c));
	assert_int_equal(c.mask[1], STEP_ANY);
}

static void offsets_at_the_target(void **state)
{
	(void)state;
	struct grid t = {3, {4, 3, 3}, 0};
	struct step up = {{STEP_STAY, STEP_POS, STEP_STAY}}, back = {{STEP_NEG, STEP_STAY, STEP_STAY}};
	int64_t off;
	uint32_t undecided = 99;
	/* +1 along dimension 1 is d2 = 3 ranks on, wherever it starts */
	assert_true(step_offset(&up, &t, cls3(POS_LOW, POS_INTERIOR, POS_HIGH), &off, &undecided));
	assert_int_equal(off, 3);
	/* -1 along dimension 0 from the low side wraps to the high side: 3 * 9 ranks on */
	assert_true(step_offset(&back, &t, cls3(POS_LOW, POS_LOW, POS_LOW), &off, &undecided));
	assert_int_equal(off, 27);
	assert_true(step_offset(&back, &t, cls3(POS_INTERIOR, POS_LOW, POS_LOW), &off, &undecided));
	assert_int_equal(off, -9);
	/* an undecided direction matters once the dimension is wider than 2 */
	struct step either = {{STEP_STAY, STEP_STAY, STEP_NEG | STEP_POS}};
	assert_false(step_offset(&either, &t, cls3(POS_LOW, POS_LOW, POS_INTERIOR), &off, &undecided));
	assert_int_equal(undecided, 2);
	struct grid narrow = {3, {4, 3, 2}, 0};
	assert_true(step_offset(&either, &narrow, cls3(POS_LOW, POS_LOW, POS_LOW), &off, &undecided));
	assert_int_equal(off, 1);
	char text[64];
	step_format(&either, 3, text, sizeof text);
	assert_string_equal(text, "(0,0,+-1)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(moves_on_an_open_grid),
		cmocka_unit_test(periodic_small_dimensions_leave_candidates),
		cmocka_unit_test(offsets_at_the_target),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
