/*
 * pool — pooling the groups' timing into a dictionary, and a group's timing back from it. See
 * pool.h.
 */
#include "run/pool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/histogram.h"
#include "util/hash.h"
#include "util/xalloc.h"

struct member {            /* one group's gap or duration, where it pools */
	uint64_t key;          /* its call sites */
	double mean, cpu;      /* per sample */
	double slack;          /* how far its means may move (seconds per sample), pool.h */
	uint64_t at;           /* its use: gaps first, group by group, then durations */
	uint32_t index;        /* in its group's gaps or durations */
};

/* the call site a signature stands for: function, call site and flags */
static uint64_t site_of(const struct run *r, uint32_t sig)
{
	if (sig == RUN_NO_PREV || sig >= r->nsigs)
		return 0x6e6f2070726576ULL;
	const struct run_signature *s = &r->sigs[sig];
	return hash_combine(hash_combine(hash_mix64(s->fn + 1), s->callsite), s->flags);
}

static double per_sample(double sum, uint64_t count) { return count ? sum / (double)count : 0; }

static int by_pool_order(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->mean != y->mean)
		return x->mean < y->mean ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* a group's share of the error budget per histogram: POOL_BUDGET of the time its ranks spent in
 * gaps and calls, over its histograms (seconds) */
static double group_share(const struct run_group *g)
{
	double total = 0;
	for (uint32_t k = 0; k < g->ngaps; k++)
		total += g->gaps[k].sum;
	for (uint32_t k = 0; k < g->ndurs; k++)
		total += g->durs[k].sum;
	return g->ngaps + g->ndurs ? POOL_BUDGET * total / (double)(g->ngaps + g->ndurs) : 0;
}

/* the slack of a histogram of count samples with this mean, given its group's share */
static double slack_of(double share, uint64_t count, double mean)
{
	double own = count ? share / (double)count : 0, relative = mean * (POOL_SPREAD - 1);
	return own > relative ? own : relative;
}

/* the members of every group: uses in order, with their keys, means and slack */
static struct member *members_of(const struct run *r, struct timing_pool *p)
{
	for (uint32_t g = 0; g < r->ngroups; g++) {
		p->ngaps += r->groups[g].ngaps;
		p->ndurs += r->groups[g].ndurs;
	}
	struct member *m = xcalloc(p->ngaps + p->ndurs + 1, sizeof *m);
	p->gaps = xcalloc(p->ngaps + 1, sizeof *p->gaps);
	p->durs = xcalloc(p->ndurs + 1, sizeof *p->durs);
	uint64_t gi = 0, di = 0;
	for (uint32_t g = 0; g < r->ngroups; g++) {
		const struct run_group *grp = &r->groups[g];
		double share = group_share(grp);
		for (uint32_t k = 0; k < grp->ngaps; k++, gi++) {
			const struct run_gap *x = &grp->gaps[k];
			double mean = per_sample(x->sum, x->count);
			m[gi] = (struct member){hash_combine(site_of(r, x->prev), site_of(r, x->sig)), mean,
						per_sample(x->cpu.sum, x->count), slack_of(share, x->count, mean), gi, k};
			p->gaps[gi] = (struct pool_use){g, x->prev, x->sig, x->count, 0};
		}
		for (uint32_t k = 0; k < grp->ndurs; k++, di++) {
			const struct run_dur *d = &grp->durs[k];
			uint64_t at = p->ngaps + di;
			double mean = per_sample(d->sum, d->count);
			m[at] = (struct member){hash_mix64(site_of(r, d->sig)), mean, 0, slack_of(share, d->count, mean), at, k};
			p->durs[di] = (struct pool_use){g, RUN_NO_PREV, d->sig, d->count, 0};
		}
	}
	return m;
}

/* fold a member into its entry */
static void fold_member(const struct run *r, const struct timing_pool *p, const struct member *m,
			struct pool_entry *e)
{
	bool gap = m->at < p->ngaps;
	const struct pool_use *u = gap ? &p->gaps[m->at] : &p->durs[m->at - p->ngaps];
	const struct run_group *g = &r->groups[u->group];
	struct run_gap x;
	if (gap) {
		x = g->gaps[m->index];
	} else {
		const struct run_dur *d = &g->durs[m->index];
		x = (struct run_gap){.count = d->count, .sum = d->sum, .sumsq = d->sumsq, .min = d->min, .max = d->max};
	}
	run_gap_fold(&e->h, &x, x.nbins > HIST_DEFAULT_BINS ? x.nbins : HIST_DEFAULT_BINS);
	e->ranks += g->nranks;
}

/* cluster members (in pool order): a run of one key whose means, wall and CPU, spread no wider
 * than the least slack of its members, each member's mean then moving by less than its slack */
static uint32_t *cluster(const struct member *m, size_t n, uint32_t *nclusters)
{
	uint32_t *of = xmalloc((n + 1) * sizeof *of);   /* by use */
	uint32_t c = 0;
	for (size_t i = 0; i < n; c++) {
		double slack = m[i].slack, cpu_lo = m[i].cpu, cpu_hi = m[i].cpu;
		size_t j = i;
		of[m[j++].at] = c;
		for (; j < n && m[j].key == m[i].key; j++) {
			double lo = m[j].cpu < cpu_lo ? m[j].cpu : cpu_lo, hi = m[j].cpu > cpu_hi ? m[j].cpu : cpu_hi;
			double least = m[j].slack < slack ? m[j].slack : slack;
			if (m[j].mean - m[i].mean > least || hi - lo > least)
				break;
			slack = least, cpu_lo = lo, cpu_hi = hi;
			of[m[j].at] = c;
		}
		i = j;
	}
	*nclusters = c;
	return of;
}

void timing_pool_build(const struct run *r, struct timing_pool *p)
{
	memset(p, 0, sizeof *p);
	struct member *m = members_of(r, p);
	size_t n = p->ngaps + p->ndurs;
	qsort(m, n, sizeof *m, by_pool_order);
	uint32_t nclusters;
	uint32_t *cluster_of = cluster(m, n, &nclusters);
	/* entries numbered by first use, so that groups with alike gaps name alike sequences */
	uint32_t *entry_of = xmalloc((nclusters + 1) * sizeof *entry_of);
	memset(entry_of, 0xff, (nclusters + 1) * sizeof *entry_of);
	for (uint64_t at = 0; at < n; at++) {
		uint32_t *e = &entry_of[cluster_of[at]];
		if (*e == UINT32_MAX)
			*e = p->nentries++;
		struct pool_use *u = at < p->ngaps ? &p->gaps[at] : &p->durs[at - p->ngaps];
		u->entry = *e;
	}
	p->entries = xcalloc(p->nentries + 1, sizeof *p->entries);
	for (size_t k = 0; k < n; k++)
		fold_member(r, p, &m[k], &p->entries[entry_of[cluster_of[m[k].at]]]);
	for (uint32_t i = 0; i < p->nentries; i++)
		p->entries[i].h.prev = p->entries[i].h.sig = RUN_NO_PREV;
	free(entry_of);
	free(cluster_of);
	free(m);
}

void timing_pool_free(struct timing_pool *p)
{
	for (uint32_t i = 0; i < p->nentries; i++)
		free(p->entries[i].h.bins);
	free(p->entries);
	free(p->gaps);
	free(p->durs);
	memset(p, 0, sizeof *p);
}

/* counts in proportion to the bins' (largest remainders), summing to count; empty bins dropped */
static void scale_bins(const struct run_gap *e, uint64_t count, struct run_gap *out)
{
	out->bins = xcalloc(e->nbins + 1, sizeof *out->bins);
	double *rest = xcalloc(e->nbins + 1, sizeof *rest);
	uint64_t given = 0;
	for (uint32_t b = 0; b < e->nbins; b++) {
		double share = (double)e->bins[b].count * (double)count / (double)e->count;
		out->bins[b] = e->bins[b];
		out->bins[b].count = (uint64_t)floor(share);
		rest[b] = share - floor(share);
		given += out->bins[b].count;
	}
	while (given < count && e->nbins) {
		uint32_t best = 0;
		for (uint32_t b = 1; b < e->nbins; b++)
			if (rest[b] > rest[best])
				best = b;
		out->bins[best].count++;
		rest[best] = -1;
		given++;
	}
	out->nbins = 0;
	for (uint32_t b = 0; b < e->nbins; b++) {
		struct run_bin x = out->bins[b], *from = &e->bins[b];
		if (!x.count)
			continue;
		x.sum = per_sample(from->sum, from->count) * (double)x.count;
		x.cpu.sum = per_sample(from->cpu.sum, from->count) * (double)x.count;
		out->bins[out->nbins++] = x;
	}
	free(rest);
}

void pool_expand(const struct run_gap *e, uint64_t count, struct run_gap *out)
{
	double f = e->count ? (double)count / (double)e->count : 0;
	*out = (struct run_gap){e->prev, e->sig, count, e->sum * f, e->sumsq * f, e->min, e->max,
				{e->cpu.sum * f, e->cpu.min, e->cpu.max}, 0, NULL};
	if (e->count && e->nbins)
		scale_bins(e, count, out);
	if (!out->nbins && count) {   /* no bins stored: the histogram is its only bin */
		free(out->bins);
		out->bins = xmalloc(sizeof *out->bins);
		out->bins[0] = (struct run_bin){hist_quarter_octave(out->min), count, out->sum, out->min, out->max,
						 out->cpu};
		out->nbins = 1;
	}
}

void pool_expand_dur(const struct run_gap *e, uint64_t count, struct run_dur *out)
{
	double f = e->count ? (double)count / (double)e->count : 0;
	*out = (struct run_dur){e->sig, count, e->sum * f, e->sumsq * f, e->min, e->max};
}
