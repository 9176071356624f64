/* Unit tests for extrap/coord_law: values that change from rank to rank as laws of the rank's grid
 * coordinates and the grid's sizes, fitted over every rank of several rungs — the transpose
 * partner of q x q grids (off the diagonal), a row's tag, values without such a law, too few
 * points, laws that disagree at the target — and the law of the rank they become on a grid; and
 * extrap/topology's parts of a grid (the diagonal and the anti-diagonal as classes of their own). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/coord_law.h"
#include "extrap/topology.h"

static struct grid g2(int64_t a, int64_t b) { return (struct grid){2, {a, b, 0}, 0}; }

struct pts {
	struct grid grids[256];
	int64_t ranks[256], values[256];
	size_t n;
};

/* the relative transpose partner (col * q + row) - rank of every off-diagonal rank of q x q */
static void transpose(struct pts *p, int64_t q)
{
	for (int64_t rank = 0; rank < q * q; rank++) {
		int64_t row = rank / q, col = rank % q;
		if (row == col)
			continue;
		p->grids[p->n] = g2(q, q), p->ranks[p->n] = rank, p->values[p->n++] = col * q + row - rank;
	}
}

static void transpose_partner(void **state)
{
	(void)state;
	struct pts p = {.n = 0};
	transpose(&p, 2);
	transpose(&p, 3);
	transpose(&p, 4);
	struct grid target = g2(6, 6);
	struct coord_law law;
	struct coord_points pts = {p.grids, p.ranks, p.values, p.n};
	assert_true(coord_law_fit(&pts, &target, &law));
	assert_int_equal(law.nterms, 4);
	for (int64_t rank = 0; rank < 36; rank++)   /* (q - 1)(col - row) at 6x6, the diagonal's 0 too */
		assert_int_equal(coord_law_eval(&law, &target, rank), 5 * (rank % 6 - rank / 6));
	struct rank_law r;
	coord_law_at(&law, &target, &r);
	assert_int_equal(r.nterms, 2);
	assert_int_equal(r.base, 0);
	assert_int_equal(r.terms[0].coef, -5);   /* the row: rank / 6 mod 6 */
	assert_int_equal(r.terms[0].divisor, 6);
	assert_int_equal(r.terms[0].modulus, 6);
	assert_int_equal(r.terms[1].coef, 5);    /* the column: rank mod 6 */
	assert_int_equal(r.terms[1].divisor, 1);
	for (uint64_t rank = 0; rank < 36; rank++)
		assert_int_equal(rank_law_eval(&r, rank), coord_law_eval(&law, &target, (int64_t)rank));
}

static void row_tag_and_constant(void **state)
{
	(void)state;
	struct pts p = {.n = 0};
	for (int64_t q = 2; q <= 4; q++)   /* a tag 100 + row * d1 */
		for (int64_t rank = 0; rank < q * q; rank++)
			p.grids[p.n] = g2(q, q), p.ranks[p.n] = rank, p.values[p.n++] = 100 + rank / q * q;
	struct grid target = g2(8, 8);
	struct coord_law law;
	struct coord_points pts = {p.grids, p.ranks, p.values, p.n};
	assert_true(coord_law_fit(&pts, &target, &law));
	assert_int_equal(law.nterms, 2);
	assert_int_equal(coord_law_eval(&law, &target, 63), 100 + 7 * 8);
	for (size_t i = 0; i < p.n; i++)
		p.values[i] = 0;
	assert_true(coord_law_fit(&pts, &target, &law));
	assert_int_equal(law.nterms, 0);
	assert_int_equal(coord_law_eval(&law, &target, 5), 0);
}

static void refused(void **state)
{
	(void)state;
	struct pts p = {.n = 0};
	for (int64_t q = 2; q <= 4; q++)   /* the square of the rank: no law of coordinates */
		for (int64_t rank = 0; rank < q * q; rank++)
			p.grids[p.n] = g2(q, q), p.ranks[p.n] = rank, p.values[p.n++] = rank * rank;
	struct grid target = g2(8, 8);
	struct coord_law law;
	struct coord_points pts = {p.grids, p.ranks, p.values, p.n};
	assert_false(coord_law_fit(&pts, &target, &law));
	assert_non_null(strstr(law.text, "no law of up to 4 terms"));
	/* two points cannot confirm a law of two terms */
	struct pts two = {.n = 2};
	two.grids[0] = two.grids[1] = g2(2, 2);
	two.ranks[0] = 1, two.ranks[1] = 2, two.values[0] = 1, two.values[1] = -1;
	pts = (struct coord_points){two.grids, two.ranks, two.values, two.n};
	assert_false(coord_law_fit(&pts, &target, &law));
	/* on square rungs d0 * c1 and d1 * c1 agree; on a target of 8 x 4 they do not */
	struct pts sq = {.n = 0};
	for (int64_t q = 2; q <= 4; q++)
		for (int64_t rank = 0; rank < q * q; rank++)
			sq.grids[sq.n] = g2(q, q), sq.ranks[sq.n] = rank, sq.values[sq.n++] = q * (rank % q);
	pts = (struct coord_points){sq.grids, sq.ranks, sq.values, sq.n};
	struct grid wide = g2(8, 4);
	assert_false(coord_law_fit(&pts, &wide, &law));
	assert_non_null(strstr(law.text, "ambiguous"));
	assert_true(coord_law_fit(&pts, &target, &law));
}

static void parts_of_a_grid(void **state)
{
	(void)state;
	struct grid g = g2(5, 5);
	g.part = 1;   /* c0 == c1 */
	char name[32];
	topology_part_name(1, name, sizeof name);
	assert_string_equal(name, "c0 == c1");
	assert_int_equal(topology_nclasses(&g), 32);
	uint32_t on = 0;
	for (int64_t rank = 0; rank < 25; rank++) {
		bool diag = rank / 5 == rank % 5;
		on += topology_on_part(&g, rank);
		assert_int_equal(topology_on_part(&g, rank), diag);
		assert_int_equal(topology_class(&g, rank) >= TOPOLOGY_POS_CLASSES, diag);
	}
	assert_int_equal(on, 5);
	int64_t lo[LAW_MAX_DIMS], hi[LAW_MAX_DIMS];
	uint32_t low_high = POS_LOW * POS_KINDS + POS_HIGH, inner = POS_INTERIOR * POS_KINDS + POS_INTERIOR;
	assert_false(topology_class_box(&g, low_high + TOPOLOGY_POS_CLASSES, lo, hi));   /* (0, 4): off */
	assert_true(topology_class_box(&g, low_high, lo, hi));
	assert_true(topology_class_box(&g, inner + TOPOLOGY_POS_CLASSES, lo, hi));
	assert_true(topology_class_box(&g, inner, lo, hi));
	assert_false(topology_class_box(&g, POS_LOW * POS_KINDS + POS_INTERIOR + TOPOLOGY_POS_CLASSES, lo, hi));
	g.part = 4;   /* c0 + c1 == d1 - 1: the anti-diagonal */
	topology_part_name(4, name, sizeof name);
	assert_string_equal(name, "c0 + c1 == d1 - 1");
	assert_true(topology_on_part(&g, 4) && topology_on_part(&g, 20) && !topology_on_part(&g, 0));
	assert_true(topology_class_box(&g, low_high + TOPOLOGY_POS_CLASSES, lo, hi));
	assert_false(topology_class_box(&g, low_high, lo, hi));
	struct grid plain = g2(5, 5);
	assert_false(topology_class_box(&plain, inner + TOPOLOGY_POS_CLASSES, lo, hi));
	assert_int_equal(topology_class_id(&g, 16), TOPOLOGY_POS_CLASSES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(transpose_partner),
		cmocka_unit_test(row_tag_and_constant),
		cmocka_unit_test(refused),
		cmocka_unit_test(parts_of_a_grid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
