/* Unit tests for extrap/family: the calls of one call site (or function) that concern different
 * dimensions share a count law (a strong-scaling stencil's faces on a ladder whose dimensions 1
 * and 2 never vary), a constant among varying counts without a shared law is refused, and the
 * directions a periodic dimension of 2 leaves undecided follow the pattern a decided dimension
 * shows; a count whose own rungs tie two laws takes the law its call site has in another class.
 * Classes are built by hand (extrap_fake.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/family.h"
#include "extrap/topology.h"
#include "extrap_fake.h"

#define LLL 0   /* the low corner of a 3-D grid */

/* six receives of the low corner: from the low side of each dimension (PROC_NULL, call site 1)
 * and from the high side (call site 2), counts face[k][rung] */
static void stencil_class(struct aligned_class *a, struct fake_run *runs, const int64_t face[3][3])
{
	static const struct grid g[3] = {{3, {2, 2, 2}, 0}, {3, {3, 2, 2}, 0}, {3, {4, 2, 2}, 0}};
	for (int q = 0; q < 3; q++)
		fake_init(&runs[q], g[q]);
	fake_class(a, LLL, runs, 3, 6);
	for (uint32_t m = 0; m < 6; m++) {
		uint32_t k = m % 3, hi = m / 3, sigs[3];
		for (int q = 0; q < 3; q++) {
			int64_t stride = k == 0 ? g[q].dims[1] * g[q].dims[2] : k == 1 ? g[q].dims[2] : 1;
			sigs[q] = fake_sig(&runs[q], FAKE_RECV, 1 + hi, face[k][q], hi ? stride : SV_PROC_NULL, (int64_t)m);
		}
		bool varies = face[k][0] != face[k][1] || face[k][1] != face[k][2];
		struct xval move = xstep(k == 0 ? STEP_POS : STEP_STAY, k == 1 ? STEP_POS : STEP_STAY,
					 k == 2 ? STEP_POS : STEP_STAY);
		struct xval x[4] = {varies ? xpending() : xconst(face[k][0]), hi ? move : xconst(SV_PROC_NULL),
				    hi ? move : xconst(SV_PROC_NULL), xconst(m)};
		fake_occurrence(&a->occ[m], FAKE_RECV, 1 + hi, sigs, 3, x, 4);
	}
}

static void strong_faces_share_one_law(void **state)
{
	(void)state;
	static const int64_t face[3][3] = {{36, 36, 36}, {36, 24, 18}, {36, 24, 18}};
	struct fake_run runs[3];
	struct aligned_class a;
	stencil_class(&a, runs, face);
	struct grid t = {3, {4, 3, 3}, 0};
	char why[600] = "";
	assert_true(family_decide(&a, NULL, 0, &t, why, sizeof why));
	static const int64_t want[3] = {16, 12, 12};   /* (12/d1)(12/d2), ... at 4x3x3 */
	for (uint32_t m = 0; m < 6; m++) {
		const struct xval *x = &a.occ[m].x[0];
		assert_int_equal(x->kind, XV_LAW);
		assert_string_equal(x->law->text, "144*d_k/P");
		int64_t v;
		assert_true(law_eval(x->law, &t, x->dim, &v));
		assert_int_equal(v, want[m % 3]);   /* the low side's dimension is inferred from its values */
	}
	aligned_class_free(&a);
}

static void constant_among_varying_is_refused(void **state)
{
	(void)state;
	/* dimension 0's face never changes, the others follow no law shared with it */
	static const int64_t face[3][3] = {{36, 36, 36}, {36, 25, 7}, {36, 25, 7}};
	struct fake_run runs[3];
	struct aligned_class a;
	stencil_class(&a, runs, face);
	struct grid t = {3, {4, 3, 3}, 0};
	char why[600] = "";
	assert_false(family_decide(&a, NULL, 0, &t, why, sizeof why));
	assert_non_null(strstr(why, "MPI_Irecv count (36 at p8, 36 at p12, 36 at p16) is the same at every rung"));
	assert_non_null(strstr(why, "cannot be told from a constant"));
	assert_non_null(strstr(why, "add rungs that widen it, e.g. 18, 24, 27 ranks"));   /* 3x3x2, 4x3x2, 3x3x3 */
	aligned_class_free(&a);
}

/* members of one family with moves along dims[i], candidates masks[i] */
static void moves_class(struct aligned_class *a, struct fake_run *run, const uint64_t *sites, const uint8_t *masks,
			const int *dims, uint32_t n)
{
	fake_init(run, (struct grid){3, {4, 2, 2}, 0});
	fake_class(a, LLL, run, 1, n);
	for (uint32_t m = 0; m < n; m++) {
		uint32_t sig = fake_sig(run, FAKE_SEND, sites[m], 1, 0, 0);
		struct xval x[3] = {xconst(1), xstep(dims[m] == 0 ? masks[m] : STEP_STAY, dims[m] == 1 ? masks[m] : STEP_STAY,
						      dims[m] == 2 ? masks[m] : STEP_STAY),
				    xconst(0)};
		fake_occurrence(&a->occ[m], FAKE_SEND, sites[m], &sig, 1, x, 3);
	}
}

static void directions_follow_the_decided_dimension(void **state)
{
	(void)state;
	static const uint64_t sites[6] = {7, 7, 7, 7, 7, 7};
	static const int dims[6] = {0, 0, 1, 1, 2, 2};
	static const uint8_t either = STEP_NEG | STEP_POS;
	static const uint8_t masks[6] = {STEP_NEG, STEP_POS, STEP_NEG | STEP_POS, STEP_NEG | STEP_POS, either, either};
	struct fake_run run;
	struct aligned_class a;
	moves_class(&a, &run, sites, masks, dims, 6);
	family_orient(&a, 3);
	static const int want[6] = {-1, 1, -1, 1, -1, 1};
	for (uint32_t m = 0; m < 6; m++)
		assert_int_equal(step_sign(&a.occ[m].x[1].step, (uint32_t)dims[m]), want[m]);
	aligned_class_free(&a);
	/* two decided dimensions in different orders: nothing is decided for the third */
	static const uint8_t clash[6] = {STEP_NEG, STEP_POS, STEP_POS, STEP_NEG, either, either};
	moves_class(&a, &run, sites, clash, dims, 6);
	family_orient(&a, 3);
	assert_int_equal(step_sign(&a.occ[4].x[1].step, 2), 0);
	aligned_class_free(&a);
}

static void directions_across_call_sites_of_one_function(void **state)
{
	(void)state;
	/* one line per dimension (MPI_Cart_shift in LAMMPS): the function is the family */
	static const uint64_t sites[3] = {10, 11, 12};
	static const int dims[3] = {0, 1, 2};
	static const uint8_t masks[3] = {STEP_NEG, STEP_NEG | STEP_POS, STEP_NEG | STEP_POS};
	struct fake_run run;
	struct aligned_class a;
	moves_class(&a, &run, sites, masks, dims, 3);
	family_orient(&a, 3);
	for (uint32_t m = 0; m < 3; m++)
		assert_int_equal(step_sign(&a.occ[m].x[1].step, (uint32_t)dims[m]), -1);
	aligned_class_free(&a);
}

/* a class of one reduction (call site 7) whose count is values[q] on the grids g[0..n) */
static void reduce_class(struct aligned_class *a, struct fake_run *runs, const struct grid *g, const int64_t *values,
			 size_t n)
{
	uint32_t sigs[4];
	for (size_t q = 0; q < n; q++) {
		fake_init(&runs[q], g[q]);
		sigs[q] = fake_sig(&runs[q], FAKE_REDUCE, 7, 0, values[q], 0);
	}
	fake_class(a, 0, runs, n, 1);
	struct xval x[3] = {xconst(0), xpending(), xconst(0)};
	fake_occurrence(&a->occ[0], FAKE_REDUCE, 7, sigs, n, x, 3);
}

/* 2 * ceil(25 / d): the corner, seen at 2x2 .. 5x5, has the law; an interior seen at 3x3 .. 5x5
 * only (18, 14, 10, also 30 - 4d) takes it from the corner, and is refused without it */
static void tie_decided_by_the_call_site_in_another_class(void **state)
{
	(void)state;
	static const struct grid g[4] = {{2, {2, 2}, 0}, {2, {3, 3}, 0}, {2, {4, 4}, 0}, {2, {5, 5}, 0}};
	static const int64_t corner_v[4] = {26, 18, 14, 10};
	struct fake_run cr[4], ir[3];
	struct aligned_class corner, inner;
	struct grid t = {2, {6, 6}, 0};
	char why[600] = "";
	reduce_class(&corner, cr, g, corner_v, 4);
	assert_true(family_decide(&corner, NULL, 0, &t, why, sizeof why));
	assert_string_equal(corner.occ[0].x[1].law->text, "2*ceil(25/d0)");

	reduce_class(&inner, ir, g + 1, corner_v + 1, 3);
	assert_false(family_decide(&inner, NULL, 0, &t, why, sizeof why));
	assert_non_null(strstr(why, "ambiguous: 30 - 4*d0 or 2*ceil(25/d0)"));
	assert_non_null(strstr(why, "would decide"));
	aligned_class_free(&inner);

	const struct aligned_class *others[1] = {&corner};
	reduce_class(&inner, ir, g + 1, corner_v + 1, 3);
	assert_true(family_decide(&inner, others, 1, &t, why, sizeof why));
	int64_t v;
	assert_int_equal(inner.occ[0].x[1].kind, XV_LAW);
	assert_true(law_eval(inner.occ[0].x[1].law, &t, inner.occ[0].x[1].dim, &v));
	assert_int_equal(v, 10);   /* not 30 - 4 * 6 */
	aligned_class_free(&inner);
	aligned_class_free(&corner);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tie_decided_by_the_call_site_in_another_class),
		cmocka_unit_test(strong_faces_share_one_law),
		cmocka_unit_test(constant_among_varying_is_refused),
		cmocka_unit_test(directions_follow_the_decided_dimension),
		cmocka_unit_test(directions_across_call_sites_of_one_function),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
