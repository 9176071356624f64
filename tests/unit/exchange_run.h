/* exchange_run — a small run built in memory for the store and export tests: rank 0 sends rank 1
 * `n` messages of 4 doubles (tag 3) after 2 ms of compute each, rank 1 receives them; both call
 * MPI_Init first and MPI_Finalize last. Each call lasts 10 us. Labeled rung=2, app=exchange.
 * Include after cmocka.h. */
#ifndef LADDER_TEST_EXCHANGE_RUN_H
#define LADDER_TEST_EXCHANGE_RUN_H

#include "run_builder.h"
#include "util/xalloc.h"

enum { EX_COUNT = 4, EX_DOUBLE = 15, EX_TAG = 3 };
#define EX_GAP 2e-3
#define EX_DUR 1e-5

struct exchange_sigs {
	uint32_t init[2], op[2], fin[2];   /* per rank: MPI_Init, the Send or Recv, MPI_Finalize */
};

/* a gap histogram of one bin: count gaps of `each` seconds (wall and CPU) before sig after prev */
static inline void ex_gap(struct run_group *g, uint32_t prev, uint32_t sig, uint64_t count, double each)
{
	g->gaps = xrealloc(g->gaps, (g->ngaps + 1) * sizeof *g->gaps);
	struct run_bin *bin = xcalloc(1, sizeof *bin);
	double sum = each * (double)count;
	*bin = (struct run_bin){0, count, sum, each, each, {sum, each, each}};
	g->gaps[g->ngaps++] = (struct run_gap){prev, sig, count, sum, each * sum, each, each, {sum, each, each}, 1, bin};
}

/* every signature's calls in group g last EX_DUR */
static inline void ex_durs(struct run_group *g, const uint32_t *sigs, const uint64_t *counts, uint32_t n)
{
	g->durs = xcalloc(n, sizeof *g->durs);
	for (uint32_t i = 0; i < n; i++)
		g->durs[i] = (struct run_dur){sigs[i], counts[i], EX_DUR * (double)counts[i],
					      EX_DUR * EX_DUR * (double)counts[i], EX_DUR, EX_DUR};
	g->ndurs = n;
}

static inline void exchange_run(struct run *r, int n, struct exchange_sigs *s)
{
	static const uint32_t of_rank[] = {0, 1};
	struct rb b;
	rb_init(&b, 2);
	rb_groups(&b, of_rank, 2);
	const int64_t send[] = {BUF_USER, EX_COUNT, EX_DOUBLE, 8, +1, EX_TAG, COMM_ID_WORLD};
	const int64_t recv[] = {BUF_USER, EX_COUNT, EX_DOUBLE, 8, -1, -1, EX_TAG, COMM_ID_WORLD};
	for (uint32_t q = 0; q < 2; q++) {
		rb_switch(&b, q);
		s->init[q] = rb_call(&b, "MPI_Init", NULL, 0, 1);
		s->op[q] = q == 0 ? rb_call(&b, "MPI_Send", send, 7, n) : rb_call(&b, "MPI_Recv", recv, 8, n);
		s->fin[q] = rb_call(&b, "MPI_Finalize", NULL, 0, 1);
	}
	rb_groups_done(&b);
	for (uint32_t q = 0; q < 2; q++) {
		struct run_group *g = &b.r.groups[q];
		if (q == 0) {   /* the sender computes before each send */
			ex_gap(g, s->init[0], s->op[0], 1, EX_GAP);
			if (n > 1)
				ex_gap(g, s->op[0], s->op[0], (uint64_t)n - 1, EX_GAP);
		}
		ex_durs(g, (const uint32_t[]){s->init[q], s->op[q], s->fin[q]}, (const uint64_t[]){1, (uint64_t)n, 1}, 3);
	}
	b.r.command = xstrdup("./exchange");
	b.r.host = xstrdup("host");
	b.r.slurm_job_id = xstrdup("");
	b.r.tool_version = xstrdup("test");
	b.r.created = xstrdup("2026-01-01T00:00:00Z");
	b.r.options = xstrdup("");
	run_set_label(&b.r, "rung", "2");
	run_set_label(&b.r, "app", "exchange");
	rb_check(&b);
	*r = b.r;
}

#endif
