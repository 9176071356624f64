/* Unit tests for grammar/ranklist: exact round trips, and the compact shapes of grid groups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/ranklist.h"
#include "util/xalloc.h"

struct collect {
	uint32_t *r;
	size_t n;
};

static bool collect_rank(uint64_t rank, void *arg)
{
	struct collect *c = arg;
	c->r[c->n++] = (uint32_t)rank;
	return true;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* encode, check, expand, compare; returns the number of boxes */
static size_t round_trip(const uint32_t *ranks, size_t n, uint64_t nranks)
{
	struct ranklist rl;
	ranklist_init(&rl);
	ranklist_from_ranks(&rl, ranks, n);
	char why[200];
	if (!ranklist_check(rl.v, rl.len, nranks, why, sizeof why))
		fail_msg("ranklist_check: %s", why);
	assert_int_equal(ranklist_count(rl.v, rl.len), n);
	struct collect c = {xmalloc((n + 1) * sizeof(uint32_t)), 0};
	ranklist_each(rl.v, rl.len, collect_rank, &c);
	assert_int_equal(c.n, n);
	qsort(c.r, c.n, sizeof *c.r, cmp_u32);
	assert_memory_equal(c.r, ranks, n * sizeof *ranks);
	free(c.r);
	size_t boxes = ranklist_boxes(rl.v, rl.len);
	ranklist_free(&rl);
	return boxes;
}

static void random_sets_round_trip(void **state)
{
	srand(7);
	for (int t = 0; t < 2000; t++) {
		uint32_t P = 1 + rand() % 300;
		uint32_t *r = xmalloc(P * sizeof *r);
		size_t n = 0;
		int density = 1 + rand() % 4;
		for (uint32_t i = 0; i < P; i++)
			if (rand() % density == 0)
				r[n++] = i;
		round_trip(r, n, P);
		free(r);
	}
}

/* ranks of a px*py row-major grid in one of the 9 classes (corner/edge/interior) */
static size_t grid_class(uint32_t px, uint32_t py, int cx, int cy, uint32_t *out)
{
	size_t n = 0;
	for (uint32_t y = 0; y < py; y++)
		for (uint32_t x = 0; x < px; x++) {
			int kx = x == 0 ? 0 : x == px - 1 ? 2 : 1;
			int ky = y == 0 ? 0 : y == py - 1 ? 2 : 1;
			if (kx == cx && ky == cy)
				out[n++] = y * px + x;
		}
	return n;
}

static void grid_groups_are_single_boxes(void **state)
{
	for (uint32_t side = 3; side <= 64; side++) {
		uint32_t *r = xmalloc(side * side * sizeof *r);
		for (int cy = 0; cy < 3; cy++)
			for (int cx = 0; cx < 3; cx++) {
				size_t n = grid_class(side, side, cx, cy, r);
				assert_int_equal(round_trip(r, n, side * side), 1);
			}
		free(r);
	}
}

static void strided_and_blocky_sets(void **state)
{
	uint32_t r[100];
	for (int i = 0; i < 10; i++)
		r[i] = 3 + 7 * i;
	assert_int_equal(round_trip(r, 10, 80), 1);
	/* 3D interior of 6x6x6: 4x4x4 ranks, one 3D box */
	size_t n = 0;
	for (int z = 1; z < 5; z++)
		for (int y = 1; y < 5; y++)
			for (int x = 1; x < 5; x++)
				r[n++] = (uint32_t)(z * 36 + y * 6 + x);
	assert_int_equal(round_trip(r, n, 216), 1);
	/* empty set */
	assert_int_equal(round_trip(r, 0, 1), 0);
}

/* a random set split among up to three lists: their union is encoded as the whole set is, and
 * every rank's position in it is its place in sorted order */
static void unions_encode_as_the_whole_set(void **state)
{
	(void)state;
	srand(11);
	for (int t = 0; t < 1000; t++) {
		uint32_t P = 1 + rand() % 400, nparts = 1 + rand() % 3;
		uint32_t *all = xmalloc(P * sizeof *all), *part[3];
		size_t n = 0, np[3] = {0};
		for (uint32_t k = 0; k < nparts; k++)
			part[k] = xmalloc(P * sizeof *part[k]);
		int density = 1 + rand() % 3, blocks = 1 + rand() % 8;
		for (uint32_t i = 0; i < P; i++) {
			if (rand() % density)
				continue;
			all[n++] = i;
			uint32_t k = (i / blocks) % nparts;
			part[k][np[k]++] = i;
		}
		struct ranklist whole, lists[3], u;
		const struct ranklist *ptr[3];
		ranklist_init(&whole), ranklist_init(&u);
		ranklist_from_ranks(&whole, all, n);
		for (uint32_t k = 0; k < nparts; k++) {
			ranklist_init(&lists[k]);
			ranklist_from_ranks(&lists[k], part[k], np[k]);
			ptr[k] = &lists[k];
		}
		uint64_t count = 0;
		struct ranklist_clash clash;
		assert_true(ranklist_union(&u, ptr, nparts, &count, &clash));
		assert_int_equal(count, n);
		assert_int_equal(u.len, whole.len);
		if (n)
			assert_memory_equal(u.v, whole.v, whole.len * sizeof *whole.v);
		size_t at = 0;
		for (uint32_t i = 0; i < P; i++) {
			bool in = at < n && all[at] == i;
			assert_int_equal(ranklist_index(&whole, i), in ? (int64_t)at : -1);
			at += in;
		}
		uint32_t rank;
		at = 0;
		RANKLIST_FOR(rank, &whole)
			assert_int_equal(rank, all[at++]);
		assert_int_equal(at, n);
		if (nparts > 1 && np[0] && np[1]) {   /* a rank of list 1 in list 0 too */
			part[0][np[0]++] = part[1][0];
			qsort(part[0], np[0], sizeof *part[0], cmp_u32);
			ranklist_from_ranks(&lists[0], part[0], np[0]);
			assert_false(ranklist_union(NULL, ptr, nparts, NULL, &clash));
			assert_int_equal(clash.rank, part[1][0]);
		}
		for (uint32_t k = 0; k < nparts; k++)
			ranklist_free(&lists[k]), free(part[k]);
		ranklist_free(&whole), ranklist_free(&u), free(all);
	}
}

/* boxes that name ranks out of order or twice are a clash of the list with itself */
static void disordered_lists_clash(void **state)
{
	(void)state;
	int64_t backwards[] = {1, 5, 2, 1, 1, 0, 2, 1};    /* 5-6, then 0-1 */
	int64_t overlapping[] = {2, 0, 2, 2, 3, 1};       /* rows 0-2 and 2-4 */
	const int64_t *cases[] = {backwards, overlapping};
	size_t lens[] = {8, 6};
	for (int c = 0; c < 2; c++) {
		struct ranklist rl = {(int64_t *)cases[c], lens[c], lens[c]};
		const struct ranklist *p = &rl;
		struct ranklist_clash clash;
		assert_false(ranklist_union(NULL, &p, 1, NULL, &clash));
		assert_int_equal(clash.a, 0);
		assert_int_equal(clash.b, 0);
	}
}

/* what the container's encoding allows and no writer here makes: boxes out of order, a box whose
 * strides do not nest, a dimension of length 1; normalized to the encoding of their ranks */
static void foreign_encodings_normalize(void **state)
{
	(void)state;
	struct ranklist rl, want;
	struct ranklist_clash clash;
	ranklist_init(&rl), ranklist_init(&want);
	int64_t reversed[] = {1, 8, 2, 1, 1, 0, 4, 1};              /* 8-9, then 0-3 */
	int64_t unnested[] = {2, 0, 2, 1, 2, 2};                    /* 0, 2, 1, 3 */
	int64_t flat_dim[] = {2, 4, 1, 7, 3, 1};                    /* 4-6, outer length 1 */
	assert_true(ranklist_normalize(&rl, reversed, 8, &clash));
	ranklist_from_ranks(&want, (const uint32_t[]){0, 1, 2, 3, 8, 9}, 6);
	assert_int_equal(rl.len, want.len);
	assert_memory_equal(rl.v, want.v, want.len * sizeof *want.v);
	assert_true(ranklist_normalize(&rl, unnested, 6, &clash));
	ranklist_from_range(&want, 0, 4);
	assert_int_equal(rl.len, want.len);
	assert_memory_equal(rl.v, want.v, want.len * sizeof *want.v);
	const struct ranklist flat = {flat_dim, 6, 6};
	assert_int_equal(ranklist_index(&flat, 5), 1);
	assert_int_equal(ranklist_index(&flat, 7), -1);
	int64_t twice[] = {2, 0, 2, 1, 3, 1};                       /* 0-2 and 1-3 */
	assert_false(ranklist_normalize(&rl, twice, 6, &clash));
	assert_int_equal(clash.rank, 1);
	ranklist_free(&rl), ranklist_free(&want);
}

static void malformed_encodings_are_refused(void **state)
{
	char why[200];
	int64_t bad_dims[] = {0, 5};
	assert_false(ranklist_check(bad_dims, 2, 10, why, sizeof why));
	int64_t truncated[] = {2, 0, 3, 1};
	assert_false(ranklist_check(truncated, 4, 10, why, sizeof why));
	int64_t out_of_range[] = {1, 8, 3, 1};
	assert_false(ranklist_check(out_of_range, 4, 10, why, sizeof why));
	assert_non_null(strstr(why, "rank 10"));
	int64_t zero_stride[] = {1, 0, 3, 0};
	assert_false(ranklist_check(zero_stride, 4, 10, why, sizeof why));
	int64_t good[] = {1, 7, 3, 1};
	assert_true(ranklist_check(good, 4, 10, why, sizeof why));
}

/* Four dimensions of (2^31 + 1) ranks at stride 2^31 reach 4 * 2^62 = 2^64 past the start: in
 * 64-bit arithmetic that wraps to the start itself, which must not make the box look valid; and
 * the box's rank count (2^31 + 1)^4 does not fit in 64 bits either. */
static void huge_boxes_do_not_wrap_around(void **state)
{
	(void)state;
	char why[200];
	const int64_t len = (INT64_C(1) << 31) + 1, stride = INT64_C(1) << 31;
	int64_t wraps[] = {4, 0, len, stride, len, stride, len, stride, len, stride};
	assert_false(ranklist_check(wraps, 10, UINT32_MAX, why, sizeof why));
	assert_non_null(strstr(why, "beyond"));
	assert_int_equal(ranklist_count(wraps, 10), UINT64_MAX);
	int64_t two_boxes[] = {4, 0, len, stride, len, stride, len, stride, len, stride, 1, 0, 1, 1};
	assert_int_equal(ranklist_count(two_boxes, 14), UINT64_MAX);
	/* the largest box that fits is still accepted */
	int64_t fits[] = {2, 0, 2, INT64_C(1) << 31, INT64_C(1) << 31, 1};
	assert_true(ranklist_check(fits, 6, UINT64_C(1) << 32, why, sizeof why));
	assert_int_equal(ranklist_count(fits, 6), UINT64_C(1) << 32);
}

/* A 128-rank run whose one box claims 2^31 ranks (seven dimensions of 16 ranks and one of 8, each
 * stride 1, inside ranks 0-112): refused by the boxes' arithmetic, before any rank is walked; and
 * boxes that together name more ranks than the run has. */
static void boxes_claiming_more_ranks_than_they_span(void **state)
{
	(void)state;
	char why[200];
	int64_t claims[] = {8, 0, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 16, 1, 8, 1};
	assert_int_equal(ranklist_count(claims, 18), UINT64_C(1) << 31);
	assert_false(ranklist_check(claims, 18, 128, why, sizeof why));
	assert_non_null(strstr(why, "names 2147483648 ranks among the 113 from 0 to 112: some twice"));
	int64_t overlap[] = {1, 0, 3, 1, 1, 1, 3, 1};   /* ranks 0-2 and 1-3: 6 of a 4-rank run */
	assert_false(ranklist_check(overlap, 8, 4, why, sizeof why));
	assert_non_null(strstr(why, "more than the run's 4 ranks"));
	int64_t apart[] = {1, 0, 2, 1, 1, 2, 2, 1};      /* 0-1 and 2-3: fine */
	assert_true(ranklist_check(apart, 8, 4, why, sizeof why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_sets_round_trip),
		cmocka_unit_test(grid_groups_are_single_boxes),
		cmocka_unit_test(strided_and_blocky_sets),
		cmocka_unit_test(unions_encode_as_the_whole_set),
		cmocka_unit_test(disordered_lists_clash),
		cmocka_unit_test(foreign_encodings_normalize),
		cmocka_unit_test(malformed_encodings_are_refused),
		cmocka_unit_test(huge_boxes_do_not_wrap_around),
		cmocka_unit_test(boxes_claiming_more_ranks_than_they_span),
	};
	return cmocka_run_group_tests_name("ranklist", tests, NULL, NULL);
}
