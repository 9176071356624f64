/* Unit tests for run/stream, run/rank_law and the packing of value streams: head + period folds
 * that read back exactly, laws of the rank for grid colours and periodic neighbours, and packed
 * streams whose size follows neither the iterations nor the rank count while every rank reads the
 * values it recorded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mpi/signature.h"
#include "run/rank_law.h"
#include "run/run.h"
#include "run/stream.h"
#include "util/hash.h"
#include "util/xalloc.h"

static uint64_t next_random(void)
{
	static uint64_t n;
	return hash_mix64(++n);
}

/* ---- fold ------------------------------------------------------------------------------------- */

/* fold v and check that head + period read back every value, in fewer cells when it says so */
static uint64_t fold_and_read(const int64_t *v, uint64_t n)
{
	uint64_t head, period;
	stream_fold(v, n, &head, &period);
	assert_true(head + period <= n);
	struct run_stream s = {.length = n, .nhead = head, .nperiod = period, .cells = (int64_t *)v};
	if (period)
		assert_true(n >= head + period);
	else
		assert_int_equal(head, n);
	for (uint64_t i = 0; i < n; i++)
		assert_int_equal(run_stream_value(&s, 0, i), v[i]);
	return head + period;
}

static void fold_finds_head_and_period(void **state)
{
	(void)state;
	int64_t v[] = {9, 8, 1, 2, 3, 1, 2, 3, 1, 2};
	uint64_t head, period;
	stream_fold(v, 10, &head, &period);
	assert_int_equal(head, 2);
	assert_int_equal(period, 3);
	assert_int_equal(fold_and_read(v, 10), 5);
	int64_t same[50];
	for (int i = 0; i < 50; i++)
		same[i] = 7;
	assert_int_equal(fold_and_read(same, 50), 1);
	int64_t none[] = {1, 2, 3, 4, 5, 6};
	assert_int_equal(fold_and_read(none, 6), 6);
	assert_int_equal(fold_and_read(none, 1), 1);
	assert_int_equal(fold_and_read(none, 0), 0);
}

/* a loop of k values repeated any number of times after a prefix costs prefix + k cells */
static void fold_is_constant_in_repetitions(void **state)
{
	(void)state;
	for (int trial = 0; trial < 200; trial++) {
		uint64_t prefix = next_random() % 5, k = 1 + next_random() % 12, reps = 2 + next_random() % 40;
		uint64_t n = prefix + k * reps + next_random() % k;
		int64_t *v = xmalloc(n * sizeof *v), *loop = xmalloc(k * sizeof *loop);
		for (uint64_t i = 0; i < k; i++)
			loop[i] = (int64_t)(next_random() % 4);
		for (uint64_t i = 0; i < n; i++)
			v[i] = i < prefix ? 100 + (int64_t)i : loop[(i - prefix) % k];
		assert_true(fold_and_read(v, n) <= prefix + k);
		/* anything goes: random values read back exactly */
		for (uint64_t i = 0; i < n; i++)
			v[i] = (int64_t)(next_random() % 3);
		fold_and_read(v, n);
		free(v);
		free(loop);
	}
}

/* ---- laws ------------------------------------------------------------------------------------- */

static void check_law(const int64_t *v, uint64_t n, uint32_t most_terms)
{
	struct rank_law l;
	assert_true(rank_law_fit(v, n, &l));
	assert_true(l.nterms <= most_terms);
	for (uint64_t q = 0; q < n; q++)
		assert_int_equal(rank_law_eval(&l, q), v[q]);
	char why[100];
	assert_true(rank_law_check(&l, why, sizeof why));
}

static void laws_of_grid_colours_and_the_rank(void **state)
{
	(void)state;
	for (int64_t rows = 2; rows <= 8; rows++)
		for (int64_t cols = 2; cols <= 8; cols++) {
			int64_t n = rows * cols, *row = xmalloc(n * sizeof *row), *col = xmalloc(n * sizeof *col);
			for (int64_t q = 0; q < n; q++) {
				row[q] = q / cols;
				col[q] = 3 * (q % cols) + 1;
			}
			check_law(row, (uint64_t)n, 1);
			check_law(col, (uint64_t)n, 1);
			for (int64_t q = 0; q < n; q++)
				row[q] = q;
			check_law(row, (uint64_t)n, 1);
			free(row);
			free(col);
		}
}

/* the world rank of the periodic neighbour at direction dir minus the caller's, on grid d */
static int64_t neighbour(const int64_t *d, const int *dir, int64_t q)
{
	int64_t c[3] = {q / (d[1] * d[2]), q / d[2] % d[1], q % d[2]}, to = 0;
	for (int i = 0; i < 3; i++)
		to = to * d[i] + (c[i] + dir[i] + d[i]) % d[i];
	return to - q;
}

static void laws_of_periodic_neighbours(void **state)
{
	(void)state;
	int64_t grids[][3] = {{2, 2, 2}, {3, 3, 3}, {4, 4, 4}, {4, 3, 2}, {5, 2, 3}};
	for (size_t g = 0; g < sizeof grids / sizeof *grids; g++) {
		int64_t n = grids[g][0] * grids[g][1] * grids[g][2], *v = xmalloc(n * sizeof *v);
		for (int dir = 0; dir < 27; dir++) {
			int d3[3] = {dir / 9 - 1, dir / 3 % 3 - 1, dir % 3 - 1};
			for (int64_t q = 0; q < n; q++)
				v[q] = neighbour(grids[g], d3, q);
			check_law(v, (uint64_t)n, 6);
		}
		free(v);
	}
}

static void no_law_for_data(void **state)
{
	(void)state;
	int64_t v[64];
	for (int q = 0; q < 64; q++)
		v[q] = (int64_t)(next_random() % 1000);
	struct rank_law l;
	assert_false(rank_law_fit(v, 64, &l));
	for (int q = 0; q < 64; q++)
		v[q] = q % 2 ? SV_PROC_NULL : 1;
	assert_false(rank_law_fit(v, 64, &l));
	/* a single odd rank is no sum of per-dimension functions */
	for (int q = 0; q < 64; q++)
		v[q] = q == 37 ? 5 : 1;
	assert_false(rank_law_fit(v, 64, &l));
}

/* ---- packing ---------------------------------------------------------------------------------- */

/* the stream rank q reads for sig (no index: the run is not checked) */
static const struct run_stream *stream_of(const struct run *r, uint32_t sig, uint32_t q)
{
	for (uint32_t i = 0; i < r->nstreams; i++)
		if (r->streams[i].sig == sig && ranklist_contains(&r->streams[i].ranks, q))
			return &r->streams[i];
	return NULL;
}

/* every rank of an n-rank 3-D grid: per iteration, for 6 directions, (count, peer, tag) with the
 * count alternating by iteration; sig 0. Sig 1: a rank's own random data. Sig 2: the same on
 * every rank of the first half. */
static int64_t value(const int64_t *d, int64_t q, uint32_t sig, uint64_t i)
{
	static const int dirs[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
	if (sig == 1)
		return (int64_t)((uint64_t)(q + 1) * 2654435761u * (i + 7) % 1009);
	if (sig == 2)
		return (int64_t)(i % 5);
	uint64_t call = i / 3, it = call / 6;
	switch (i % 3) {
	case 0: return 16 * (int64_t)(1 + it % 2);
	case 1: return neighbour(d, dirs[call % 6], q);
	default: return (int64_t)(call % 6);
	}
}

static void build_streams(struct run *r, const int64_t *d, uint64_t iterations)
{
	run_init(r);
	r->nranks = (uint32_t)(d[0] * d[1] * d[2]);
	uint64_t n = iterations * 18;
	int64_t *v = xmalloc(n * sizeof *v);
	for (uint32_t sig = 0; sig < 3; sig++)
		for (uint32_t q = 0; q < r->nranks; q++) {
			if (sig == 2 && q >= r->nranks / 2)
				continue;
			for (uint64_t i = 0; i < n; i++)
				v[i] = value(d, q, sig, i);
			run_add_stream(r, sig, q, n, n, 0, v);
		}
	free(v);
}

/* every rank reads exactly its values, through a cursor */
static void check_values(const struct run *r, const int64_t *d, uint64_t iterations)
{
	for (uint32_t sig = 0; sig < 3; sig++)
		for (uint32_t q = 0; q < r->nranks; q++) {
			const struct run_stream *s = stream_of(r, sig, q);
			if (sig == 2 && q >= r->nranks / 2) {
				assert_null(s);
				continue;
			}
			assert_non_null(s);
			assert_int_equal(s->length, iterations * 18);
			struct stream_cursor c;
			stream_cursor_init(&c, s, q);
			int64_t x;
			for (uint64_t i = 0; i < s->length; i++) {
				assert_true(stream_cursor_next(&c, &x));
				assert_int_equal(x, value(d, q, sig, i));
			}
			assert_false(stream_cursor_next(&c, &x));
			stream_cursor_free(&c);
		}
}

static uint64_t cells_of(const struct run *r, uint32_t sig, uint32_t *nstreams, uint32_t *nlaws)
{
	uint64_t cells = 0;
	*nstreams = *nlaws = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		if (r->streams[i].sig == sig) {
			cells += run_stream_cells(&r->streams[i]);
			++*nstreams;
			*nlaws += r->streams[i].nlaws;
		}
	return cells;
}

static void packed_streams_follow_neither_iterations_nor_ranks(void **state)
{
	(void)state;
	int64_t grids[][3] = {{2, 2, 2}, {3, 3, 3}, {4, 4, 4}};
	uint64_t iterations[] = {10, 80};
	uint64_t first_cells = 0;
	uint32_t first_laws = 0;
	for (size_t g = 0; g < 3; g++)
		for (size_t k = 0; k < 2; k++) {
			struct run r;
			build_streams(&r, grids[g], iterations[k]);
			run_pack_streams(&r);
			check_values(&r, grids[g], iterations[k]);
			uint32_t nstreams, nlaws;
			uint64_t cells = cells_of(&r, 0, &nstreams, &nlaws);
			assert_int_equal(nstreams, 1);   /* one stream for every rank, the peers as laws */
			if (!first_cells) {
				first_cells = cells;
				first_laws = nlaws;
			}
			assert_int_equal(cells, first_cells);
			assert_int_equal(nlaws, first_laws);
			cells_of(&r, 1, &nstreams, &nlaws);   /* data: one literal stream per rank */
			assert_int_equal(nstreams, r.nranks);
			assert_int_equal(nlaws, 0);
			cells_of(&r, 2, &nstreams, &nlaws);   /* the same values: one stream for half the ranks */
			assert_int_equal(nstreams, 1);
			assert_int_equal(stream_of(&r, 2, 0)->nranks, r.nranks / 2);
			assert_int_equal(run_stream_cells(stream_of(&r, 2, 0)), 5);
			run_free(&r);
		}
}

/* packing twice changes nothing */
static void packing_is_stable(void **state)
{
	(void)state;
	int64_t d[3] = {3, 3, 3};
	struct run r;
	build_streams(&r, d, 10);
	run_pack_streams(&r);
	uint32_t n = r.nstreams;
	uint64_t cells = run_stored_cells(&r);
	run_pack_streams(&r);
	assert_int_equal(r.nstreams, n);
	assert_int_equal(run_stored_cells(&r), cells);
	check_values(&r, d, 10);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fold_finds_head_and_period),
		cmocka_unit_test(fold_is_constant_in_repetitions),
		cmocka_unit_test(laws_of_grid_colours_and_the_rank),
		cmocka_unit_test(laws_of_periodic_neighbours),
		cmocka_unit_test(no_law_for_data),
		cmocka_unit_test(packed_streams_follow_neither_iterations_nor_ranks),
		cmocka_unit_test(packing_is_stable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
