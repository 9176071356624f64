/*
 * summary — calls and bytes per function, grammar sizes. See summary.h.
 */
#include "run/summary.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static int cmp_count(const void *a, const void *b)
{
	return strcmp(((const struct fn_count *)a)->name, ((const struct fn_count *)b)->name);
}

uint32_t run_function_counts(const struct run *r, int64_t rank, struct fn_count **out)
{
	struct fn_count *c = xcalloc(r->nnodes + 1, sizeof *c);
	uint32_t n = 0;
	/* the ranks summed: one or all (a per-rank table over every rank stays linear in ranks) */
	uint32_t first = 0, end = r->nranks;
	if (rank >= 0) {
		first = rank < r->nranks ? (uint32_t)rank : r->nranks;
		end = first < r->nranks ? first + 1 : first;
	}
	for (uint32_t i = 0; i < r->nnodes; i++) {
		if (r->nodes[i].kind == PNODE_REGION)
			continue;
		uint32_t k = 0;
		while (k < n && strcmp(c[k].name, r->nodes[i].name))
			k++;
		if (k == n)
			c[n++].name = r->nodes[i].name;
		for (uint32_t q = first; q < end; q++) {
			const uint64_t *m = r->counts + ((size_t)q * r->nnodes + i) * RUN_PC_COUNT;
			c[k].calls += (double)m[RUN_PC_VISITS];
			c[k].bytes_sent += (double)m[RUN_PC_BYTES_SENT];
			c[k].bytes_recv += (double)m[RUN_PC_BYTES_RECV];
		}
	}
	/* drop functions this rank never called */
	uint32_t m = 0;
	for (uint32_t k = 0; k < n; k++)
		if (c[k].calls > 0)
			c[m++] = c[k];
	qsort(c, m, sizeof *c, cmp_count);
	*out = c;
	return m;
}

double run_total_calls(const struct run *r)
{
	double total = 0;
	for (uint32_t i = 0; i < r->nnodes; i++)
		if (r->nodes[i].kind == PNODE_FUNCTION)
			for (uint32_t q = 0; q < r->nranks; q++)
				total += (double)r->counts[((size_t)q * r->nnodes + i) * RUN_PC_COUNT + RUN_PC_VISITS];
	return total;
}

uint64_t run_rank_calls(const struct run *r, uint32_t rank)
{
	uint64_t calls = 0;
	for (uint32_t i = 0; i < r->nnodes; i++) {
		uint64_t v = r->nodes[i].kind == PNODE_FUNCTION
				     ? r->counts[((size_t)rank * r->nnodes + i) * RUN_PC_COUNT + RUN_PC_VISITS]
				     : 0;
		calls = calls + v < calls ? UINT64_MAX : calls + v;
	}
	return calls;
}

void run_grammar_size(const struct run *r, uint64_t *rules, uint64_t *symbols)
{
	*rules = *symbols = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		*rules += r->groups[i].g.nrules;
		*symbols += r->groups[i].g.nsyms;
	}
}

void run_group_gap_totals(const struct run_group *g, uint64_t *gaps, double *wall, double *cpu)
{
	*gaps = 0;
	*wall = *cpu = 0;
	for (uint32_t k = 0; k < g->ngaps; k++) {
		*gaps += g->gaps[k].count;
		*wall += g->gaps[k].sum;
		*cpu += g->gaps[k].cpu.sum;
	}
}

void run_gap_totals(const struct run *r, uint64_t *gaps, double *wall, double *cpu)
{
	*gaps = 0;
	*wall = *cpu = 0;
	for (uint32_t g = 0; g < r->ngroups; g++) {
		uint64_t n;
		double w, c;
		run_group_gap_totals(&r->groups[g], &n, &w, &c);
		*gaps += n, *wall += w, *cpu += c;
	}
}
