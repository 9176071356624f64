/* Unit tests for extrap/compose: a class no rung has, composed as the union of its low and high
 * sides along a dimension (MPI_PROC_NULL beside a move along it gives the move; alike stays
 * alike), a rooted call as on the side without the root, sides that disagree refused, and the
 * check of the rule where the ladder shows an interior. Classes are built by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/compose.h"
#include "extrap/topology.h"
#include "extrap_fake.h"

static uint32_t cls3(uint32_t a, uint32_t b, uint32_t c) { return (a * POS_KINDS + b) * POS_KINDS + c; }

static const struct grid grids[3] = {{3, {2, 2, 2}, 0}, {3, {3, 2, 2}, 0}, {3, {4, 2, 2}, 0}};

struct side {
	struct xval lo1, hi1, tag2;   /* the receives from dimension 1's low and high neighbours, a tag */
	int64_t recvbuf;              /* the reduction's root-only buffer */
};

/* a class with three receives and a reduction to rank 0 */
static void side_class(struct aligned_class *a, uint32_t cls, struct fake_run *runs, const struct side *s)
{
	fake_class(a, cls, runs, 3, 4);
	struct xval along0 = xstep(STEP_POS, STEP_STAY, STEP_STAY);
	const struct xval *src[3] = {&s->lo1, &s->hi1, &along0};
	for (uint32_t m = 0; m < 3; m++) {
		uint32_t sigs[3];
		for (int q = 0; q < 3; q++)
			sigs[q] = fake_sig(&runs[q], FAKE_RECV, 1, 8, 0, m);
		struct xval x[4] = {xconst(8), *src[m], *src[m], m == 2 ? s->tag2 : xconst(m)};
		fake_occurrence(&a->occ[m], FAKE_RECV, 1, sigs, 3, x, 4);
	}
	uint32_t sigs[3];
	for (int q = 0; q < 3; q++)
		sigs[q] = fake_sig(&runs[q], FAKE_REDUCE, 2, s->recvbuf, 1, 0);
	struct xval x[3] = {xconst(s->recvbuf), xconst(1), xconst(0)};
	fake_occurrence(&a->occ[3], FAKE_REDUCE, 2, sigs, 3, x, 3);
}

static void init_runs(struct fake_run *runs)
{
	for (int q = 0; q < 3; q++)
		fake_init(&runs[q], grids[q]);
}

static const struct side low_side = {{.kind = XV_CONST, .v = SV_PROC_NULL}, {.kind = XV_STEP, .step = {{STEP_STAY, STEP_POS, STEP_STAY}}},
				     {.kind = XV_CONST, .v = 2}, BUF_USER};
static const struct side high_side = {{.kind = XV_STEP, .step = {{STEP_STAY, STEP_NEG, STEP_STAY}}}, {.kind = XV_CONST, .v = SV_PROC_NULL},
				      {.kind = XV_CONST, .v = 2}, SV_IGNORE};

static void interior_is_the_union_of_its_sides(void **state)
{
	(void)state;
	struct fake_run runs[3];
	struct aligned_class lo, hi, mid;
	init_runs(runs);
	side_class(&lo, cls3(POS_LOW, POS_LOW, POS_LOW), runs, &low_side);
	side_class(&hi, cls3(POS_LOW, POS_HIGH, POS_LOW), runs, &high_side);
	struct grid t = {3, {4, 3, 3}, 0};
	char why[600] = "";
	assert_true(compose_union(&lo, &hi, 1, cls3(POS_LOW, POS_INTERIOR, POS_LOW), &t, &mid, why, sizeof why));
	/* both neighbours along dimension 1 */
	assert_int_equal(mid.occ[0].x[1].kind, XV_STEP);
	assert_int_equal(step_sign(&mid.occ[0].x[1].step, 1), -1);
	assert_int_equal(mid.occ[1].x[1].kind, XV_STEP);
	assert_int_equal(step_sign(&mid.occ[1].x[1].step, 1), 1);
	/* rank 0 is the low side's: the composed class reduces as the high side does */
	assert_int_equal(mid.occ[3].x[0].v, SV_IGNORE);
	assert_non_null(strstr(mid.origin, "union of its low and high sides along dimension 1"));
	aligned_class_free(&mid);
	aligned_class_free(&lo);
	aligned_class_free(&hi);
}

static void sides_that_disagree_are_refused(void **state)
{
	(void)state;
	struct fake_run runs[3];
	struct aligned_class lo, hi, mid;
	init_runs(runs);
	struct side other = high_side;
	other.tag2 = xconst(5);
	side_class(&lo, cls3(POS_LOW, POS_LOW, POS_LOW), runs, &low_side);
	side_class(&hi, cls3(POS_LOW, POS_HIGH, POS_LOW), runs, &other);
	struct grid t = {3, {4, 3, 3}, 0};
	char why[600] = "";
	assert_false(compose_union(&lo, &hi, 1, cls3(POS_LOW, POS_INTERIOR, POS_LOW), &t, &mid, why, sizeof why));
	assert_non_null(strstr(why, "class low/interior/low, which no rung has, cannot be composed"));
	assert_non_null(strstr(why, "call 2 (MPI_Irecv) value 3 is 2 on the low side and 5 on the high side"));
	aligned_class_free(&mid);
	aligned_class_free(&hi);
	/* PROC_NULL beside a move along another dimension is no union along this one */
	side_class(&hi, cls3(POS_LOW, POS_HIGH, POS_LOW), runs, &high_side);
	assert_false(compose_union(&lo, &hi, 2, cls3(POS_LOW, POS_LOW, POS_INTERIOR), &t, &mid, why, sizeof why));
	aligned_class_free(&mid);
	aligned_class_free(&lo);
	aligned_class_free(&hi);
}

static void the_rule_is_checked_where_an_interior_exists(void **state)
{
	(void)state;
	struct fake_run runs[3];
	struct aligned_class lo, mid, hi;
	init_runs(runs);
	struct side inside = high_side;
	inside.hi1 = low_side.hi1;   /* both neighbours, no root */
	side_class(&lo, cls3(POS_LOW, POS_LOW, POS_LOW), runs, &low_side);
	side_class(&mid, cls3(POS_LOW, POS_INTERIOR, POS_LOW), runs, &inside);
	side_class(&hi, cls3(POS_LOW, POS_HIGH, POS_LOW), runs, &high_side);
	struct grid t = {3, {4, 3, 3}, 0};
	char why[600] = "";
	assert_true(compose_check(&lo, &mid, &hi, 1, &t, why, sizeof why));
	/* an interior that talks to one neighbour only is not the union */
	aligned_class_free(&mid);
	side_class(&mid, cls3(POS_LOW, POS_INTERIOR, POS_LOW), runs, &high_side);
	assert_false(compose_check(&lo, &mid, &hi, 1, &t, why, sizeof why));
	assert_non_null(strstr(why, "is not the union of its low and high sides"));
	aligned_class_free(&lo);
	aligned_class_free(&mid);
	aligned_class_free(&hi);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interior_is_the_union_of_its_sides),
		cmocka_unit_test(sides_that_disagree_are_refused),
		cmocka_unit_test(the_rule_is_checked_where_an_interior_exists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
