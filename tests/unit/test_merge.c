/* Unit tests for run/merge, by simulation at a scale this machine cannot run: the tracer's
 * binomial-tree merge of a 128 x 128 stencil (16,384 ranks, 9 kinds of ranks) done in-process.
 * The simulated tree takes log2(16,384) = 14 rounds. Checked: 9 groups with exactly the right ranks
 * and merged timing; messages whose size does not grow with the rank count beyond the ranks' own
 * numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/histogram.h"
#include "run/merge.h"
#include "grammar/sequitur.h"
#include "util/xalloc.h"

#define SIDE 128
#define P (SIDE * SIDE)

static int class_of(int r)
{
	int x = r % SIDE, y = r / SIDE;
	int cx = x == 0 ? 0 : x == SIDE - 1 ? 2 : 1, cy = y == 0 ? 0 : y == SIDE - 1 ? 2 : 1;
	return cy * 3 + cx;
}

/* rank r's group as the tracer builds it: the grammar of its class, itself, timing */
static void local_group(int r, struct run_group *g)
{
	memset(g, 0, sizeof *g);
	int c = class_of(r);
	struct sequitur *q = sequitur_new();
	sequitur_append(q, 0);
	for (int it = 0; it < 100; it++) {
		for (uint32_t k = 0; k < 4; k++)
			sequitur_append(q, k == (uint32_t)(c % 4) ? 10 + (uint32_t)c : 1 + k);
		sequitur_append(q, 5);
	}
	sequitur_append(q, 6);
	sequitur_export(q, &g->g);
	sequitur_free(q);
	g->nranks = 1;
	ranklist_from_range(&g->ranks, (uint32_t)r, 1);
	g->ndurs = 1;
	g->durs = xcalloc(1, sizeof *g->durs);
	g->durs[0] = (struct run_dur){5, 100, 0.1, 0.0002, 5e-4, 2e-3};
	g->ngaps = 1;
	g->gaps = xcalloc(1, sizeof *g->gaps);
	g->gaps[0] = (struct run_gap){5, 1, 100, 0.2, 0.0005, 1e-3, 3e-3 + r * 1e-9, {0.15, 5e-4, 2e-3}, 1, NULL};
	g->gaps[0].bins = xcalloc(1, sizeof *g->gaps[0].bins);
	g->gaps[0].bins[0] = (struct run_bin){hist_quarter_octave(2e-3), 100, 0.2, 1e-3, 3e-3 + r * 1e-9,
					      {0.15, 5e-4, 2e-3}};
}

static void vocab_of(int r, struct vocab *v)
{
	memset(v, 0, sizeof *v);
	int c = class_of(r);
	for (int k = 0; k < 4; k++) {
		int64_t vals[2] = {k == c % 4 ? -(c + 1) : k + 1, 8};   /* peers differ by class */
		vocab_add_sig(v, 0, 0, 0x100 + (uint64_t)k, vals, 2);
	}
	vocab_add_string("main", v);
	uint32_t root = vocab_add_node(v, -1, 0, "main");
	vocab_add_node(v, (int32_t)root, 1, "MPI_Isend");
}

static void tree_merges_16k_ranks(void **state)
{
	struct groups *acc = xcalloc(P, sizeof *acc);
	struct vocab *voc = xcalloc(P, sizeof *voc);
	for (int r = 0; r < P; r++) {
		struct run_group g;
		local_group(r, &g);
		acc[r].maxbins = 8;
		groups_add(&acc[r], &g);
		vocab_of(r, &voc[r]);
	}
	struct buf b;
	buf_init(&b);
	int rounds = 0;
	size_t max_group_msg = 0, max_vocab_msg = 0, max_ranks_in_msg = 0;
	for (int step = 1; step < P; step <<= 1, rounds++)
		for (int r = 0; r + step < P; r += 2 * step) {
			groups_serialize(&acc[r + step], &b);
			size_t ranks = 0;
			for (uint32_t i = 0; i < acc[r + step].n; i++)
				ranks += acc[r + step].g[i].nranks;
			/* the message minus one byte or two per rank number it lists */
			size_t fixed = b.len > 2 * ranks ? b.len - 2 * ranks : 0;
			if (fixed > max_group_msg)
				max_group_msg = fixed;
			if (ranks > max_ranks_in_msg)
				max_ranks_in_msg = ranks;
			struct reader rd;
			reader_init(&rd, b.data, b.len);
			groups_merge(&acc[r], &rd);
			assert_false(rd.bad);
			groups_free(&acc[r + step]);
			vocab_serialize(&voc[r + step], &b);
			if (b.len > max_vocab_msg)
				max_vocab_msg = b.len;
			reader_init(&rd, b.data, b.len);
			vocab_merge(&voc[r], &rd);
			vocab_free(&voc[r + step]);
		}
	/* 9 groups; every rank exactly once, in the group of its class */
	assert_int_equal(acc[0].n, 9);
	uint32_t total = 0;
	for (uint32_t i = 0; i < acc[0].n; i++) {
		const struct run_group *g = &acc[0].g[i];
		total += g->nranks;
		uint32_t rank, k = 0, prev = 0;
		RANKLIST_FOR(rank, &g->ranks) {
			assert_int_equal(class_of((int)rank), class_of((int)ranklist_first(&g->ranks)));
			if (k++)
				assert_true(rank > prev);
			prev = rank;
		}
		assert_int_equal(k, g->nranks);
		/* timing merged over the group's ranks */
		assert_int_equal(g->durs[0].count, 100ULL * g->nranks);
		assert_int_equal(g->gaps[0].count, 100ULL * g->nranks);
		assert_true(g->gaps[0].nbins >= 1 && g->gaps[0].nbins <= 8);
	}
	assert_int_equal(total, P);
	/* the interior: 126 x 126 ranks */
	uint32_t interior = 0;
	for (uint32_t i = 0; i < acc[0].n; i++)
		if (class_of((int)ranklist_first(&acc[0].g[i].ranks)) == 4)
			interior = acc[0].g[i].nranks;
	assert_int_equal(interior, (SIDE - 2) * (SIDE - 2));
	/* vocabulary: 4 signatures per class, shared ones once */
	assert_true(voc[0].nsigs <= 4 * 9);
	assert_int_equal(voc[0].nnodes, 2);
	/* message sizes: the vocabulary is O(1); groups are O(groups) besides their rank numbers */
	print_message("# %d rounds; largest vocabulary message %zu bytes; largest group message %zu bytes "
		      "besides %zu rank numbers\n", rounds, max_vocab_msg, max_group_msg, max_ranks_in_msg);
	assert_true(max_vocab_msg < 2048);
	assert_true(max_group_msg < 9 * 512);
	for (uint32_t i = 0; i < 1; i++)
		groups_free(&acc[i]);
	vocab_free(&voc[0]);
	free(acc);
	free(voc);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tree_merges_16k_ranks),
	};
	return cmocka_run_group_tests_name("merge", tests, NULL, NULL);
}
