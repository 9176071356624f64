/*
 * check — run_check: every count and cross-reference of a run validated, one function per
 * section, so that tools can trust a run that passed. Who is in a group and who reads a stream
 * are checked on their ranklists' runs, never rank by rank. See run.h.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/layout.h"
#include "run/run.h"
#include "run/share.h"
#include "run/summary.h"
#include "util/range.h"
#include "util/xalloc.h"

#define FAIL(...)                                      \
	do {                                           \
		snprintf(why, whylen, __VA_ARGS__);    \
		return false;                          \
	} while (0)

static bool check_functions(struct run *r, char *why, size_t whylen)
{
	if (r->nranks == 0)
		FAIL("rank count is 0");
	for (uint32_t i = 0; i < r->nfns; i++)
		if (!r->fns[i].name || !r->fns[i].name[0])
			FAIL("function %u has no name", i);
	return true;
}

static bool check_signatures(struct run *r, char *why, size_t whylen)
{
	for (uint32_t i = 0; i < r->nsigs; i++) {
		const struct run_signature *s = &r->sigs[i];
		if (s->fn >= r->nfns)
			FAIL("signature %u refers to function %u, but there are %u", i, s->fn, r->nfns);
		if (!range_within(s->voff, s->nvals, r->nsigvals))
			FAIL("signature %u has values beyond the value table", i);
		/* the values must parse as the function's parameter groups */
		const struct fn_desc *d = &r->fns[s->fn];
		const int64_t *vals = r->sigvals ? r->sigvals + s->voff : NULL;   /* none when no call has values */
		struct param_walk w = param_walk(d, vals, s->nvals);
		while (param_walk_next(&w)) {
			char what[120];
			if (w.width == 4 && w.v[0] == SV_SHARED && !share_group_check(w.v, what, sizeof what))
				FAIL("signature %u (%s) parameter %s: %s", i, d->name, w.name, what);
		}
		if (w.bad || w.at != s->nvals)
			FAIL("signature %u (%s) has %u values that do not match the parameters of %s", i,
			     d->name, s->nvals, d->name);
	}
	return true;
}

/* a ranklist of the run's ranks, holding `count` of them, in the encoding ranklist_from_ranks
 * gives (what the readers and writers of runs make; false with why) */
static bool check_ranklist(const struct run *r, const struct ranklist *rl, uint32_t count, char *why, size_t whylen)
{
	char rwhy[160];
	if (!ranklist_check(rl->v, rl->len, r->nranks, rwhy, sizeof rwhy))
		FAIL("ranklist: %s", rwhy);
	uint64_t n = ranklist_count(rl->v, rl->len);
	if (n != count)
		FAIL("its ranklist holds %llu ranks, not %u", (unsigned long long)n, count);
	struct ranklist canon;
	struct ranklist_clash clash;
	ranklist_init(&canon);
	bool sorted = ranklist_union(&canon, &rl, 1, NULL, &clash),
	     same = sorted && canon.len == rl->len && (!rl->len || !memcmp(canon.v, rl->v, rl->len * sizeof *rl->v));
	ranklist_free(&canon);
	if (!sorted)
		FAIL("rank %llu is out of order in its ranklist", (unsigned long long)clash.rank);
	if (!same)
		FAIL("its ranklist is not in the encoding of its ranks (folded boxes, ranklist.h)");
	return true;
}

static bool check_group_ranks(const struct run *r, uint32_t i, char *why, size_t whylen)
{
	char rwhy[200];
	if (!check_ranklist(r, &r->groups[i].ranks, r->groups[i].nranks, rwhy, sizeof rwhy))
		FAIL("group %u: %s", i, rwhy);
	return true;
}

/* a group's length, which no 64-bit count overflows, and at most the calls each of its ranks
 * made by the profile (failed polls count more than one call each): bounds on any walk of it */
static bool check_group_length(struct run *r, uint32_t i, char *why, size_t whylen)
{
	struct run_group *g = &r->groups[i];
	g->length = grammar_expanded_length(&g->g);
	if (g->length == UINT64_MAX)
		FAIL("group %u: its grammar's repeat counts multiply to 2^64 calls or more", i);
	uint32_t rank;
	if (r->nnodes)
		RANKLIST_FOR(rank, &g->ranks) {
			uint64_t calls = run_rank_calls(r, rank);
			if (g->length > calls)
				FAIL("group %u: its grammar expands to %llu calls, but rank %u made %llu", i,
				     (unsigned long long)g->length, rank, (unsigned long long)calls);
		}
	return true;
}

static bool seconds(double x) { return isfinite(x) && x >= 0; }

/* CPU time is finite, non-negative seconds and never more than the wall time of the same gaps
 * (beyond the rounding of stored times): total, shortest and longest alike */
#define CPU_TOLERANCE(wall) ((wall) * 1e-3 + 1e-9)

static bool cpu_within(const struct run_cpu *c, double sum, double min, double max)
{
	return seconds(c->sum) && seconds(c->min) && seconds(c->max) && c->sum <= sum + CPU_TOLERANCE(sum) &&
	       c->min <= min + CPU_TOLERANCE(min) && c->max <= max + CPU_TOLERANCE(max);
}

static bool check_gap_cpu(const struct run_gap *gp, uint32_t i, uint32_t k, char *why, size_t whylen)
{
	bool ok = !gp->count || cpu_within(&gp->cpu, gp->sum, gp->min, gp->max);
	for (uint32_t j = 0; j < gp->nbins && ok; j++) {
		const struct run_bin *b = &gp->bins[j];
		ok = !b->count || cpu_within(&b->cpu, b->sum, b->min, b->max);
	}
	if (!ok)
		FAIL("group %u: gap histogram %u holds CPU times that are not finite non-negative seconds at most "
		     "their wall times", i, k);
	return true;
}

static bool check_group_timing(const struct run *r, uint32_t i, char *why, size_t whylen)
{
	const struct run_group *g = &r->groups[i];
	for (uint32_t k = 0; k < g->ndurs; k++) {
		const struct run_dur *d = &g->durs[k];
		if (d->sig >= r->nsigs)
			FAIL("group %u: duration of unknown signature %u", i, d->sig);
		if (!seconds(d->sum) || !seconds(d->sumsq) || !seconds(d->min) || !seconds(d->max))
			FAIL("group %u: the durations of signature %u are not finite non-negative seconds", i, d->sig);
	}
	for (uint32_t k = 0; k < g->ngaps; k++) {
		const struct run_gap *gp = &g->gaps[k];
		if (gp->sig >= r->nsigs || (gp->prev != RUN_NO_PREV && gp->prev >= r->nsigs))
			FAIL("group %u: gap histogram of unknown signature", i);
		bool finite = seconds(gp->sum) && seconds(gp->sumsq) && seconds(gp->min) && seconds(gp->max);
		uint64_t n = 0;
		for (uint32_t j = 0; j < gp->nbins; j++) {
			n += gp->bins[j].count;
			finite &= seconds(gp->bins[j].sum) && seconds(gp->bins[j].min) && seconds(gp->bins[j].max);
		}
		if (!finite)
			FAIL("group %u: gap histogram %u holds times that are not finite non-negative seconds", i, k);
		if (n != gp->count)
			FAIL("group %u: gap histogram %u holds %llu samples in its bins, %llu in total", i, k,
			     (unsigned long long)n, (unsigned long long)gp->count);
		if (!check_gap_cpu(gp, i, k, why, whylen))
			return false;
	}
	return true;
}

/* the groups' ranklists together hold every rank of the run once */
static bool check_groups_cover(const struct run *r, char *why, size_t whylen)
{
	const struct ranklist **lists = xcalloc(r->ngroups + 1, sizeof *lists);
	for (uint32_t i = 0; i < r->ngroups; i++)
		lists[i] = &r->groups[i].ranks;
	struct ranklist all;
	struct ranklist_clash clash;
	uint64_t count = 0;
	ranklist_init(&all);
	bool ok = ranklist_union(&all, lists, r->ngroups, &count, &clash);
	free(lists);
	if (!ok)
		snprintf(why, whylen, "rank %llu is in groups %zu and %zu", (unsigned long long)clash.rank,
			 clash.a < clash.b ? clash.a : clash.b, clash.a < clash.b ? clash.b : clash.a);
	if (ok && count != r->nranks) {   /* the first rank missing: where the first run of `all` does not begin or ends */
		struct ranklist_iter it = ranklist_walk(all.v, all.len);
		uint64_t start = 0, len = 0, missing = 0;
		if (ranklist_next_run(&it, &start, &len) && start == 0)
			missing = len;
		snprintf(why, whylen, "rank %llu belongs to no group", (unsigned long long)missing);
		ok = false;
	}
	ranklist_free(&all);
	return ok;
}

static bool check_groups(struct run *r, char *why, size_t whylen)
{
	char gwhy[200];
	for (uint32_t i = 0; i < r->ngroups; i++) {
		if (!grammar_check(&r->groups[i].g, r->nsigs, gwhy, sizeof gwhy))
			FAIL("group %u: %s", i, gwhy);
		if (!check_group_ranks(r, i, why, whylen) || !check_group_length(r, i, why, whylen) ||
		    !check_group_timing(r, i, why, whylen))
			return false;
	}
	return check_groups_cover(r, why, whylen);
}

/* no rank reads two streams of one signature (streams sorted by signature) */
static bool check_streams_apart(const struct run *r, char *why, size_t whylen)
{
	const struct ranklist **lists = xcalloc(r->nstreams + 1, sizeof *lists);
	bool ok = true;
	for (uint32_t i = 0, j; i < r->nstreams && ok; i = j) {
		for (j = i; j < r->nstreams && r->streams[j].sig == r->streams[i].sig; j++)
			lists[j - i] = &r->streams[j].ranks;
		struct ranklist_clash clash;
		ok = j - i == 1 || ranklist_union(NULL, lists, j - i, NULL, &clash);
		if (!ok)
			snprintf(why, whylen, "two value streams for rank %llu, signature %u", (unsigned long long)clash.rank,
				 r->streams[i].sig);
	}
	free(lists);
	return ok;
}

/* streams refer to known signatures, are well formed, and give each rank at most one stream per
 * signature; sorts them */
static bool check_streams(struct run *r, char *why, size_t whylen)
{
	for (uint32_t i = 0; i < r->nstreams; i++) {
		const struct run_stream *s = &r->streams[i];
		char swhy[200];
		if (s->sig >= r->nsigs)
			FAIL("value stream %u refers to signature %u, but there are %u", i, s->sig, r->nsigs);
		if (!run_stream_check(s, swhy, sizeof swhy) ||
		    !check_ranklist(r, &s->ranks, s->nranks, swhy, sizeof swhy))
			FAIL("value stream %u (signature %u): %s", i, s->sig, swhy);
	}
	if (r->nstreams)   /* none: there may be no array at all */
		qsort(r->streams, r->nstreams, sizeof *r->streams, run_stream_order);
	return check_streams_apart(r, why, whylen);
}

static bool check_callpaths(struct run *r, char *why, size_t whylen)
{
	for (uint32_t i = 0; i < r->nnodes; i++) {
		if (r->nodes[i].parent >= (int32_t)i || r->nodes[i].parent < -1)
			FAIL("profile call path %u has parent %d (parents come first)", i, r->nodes[i].parent);
		if (r->nodes[i].kind > PNODE_UNKNOWN)
			FAIL("profile call path %u has unknown kind %u", i, r->nodes[i].kind);
	}
	return true;
}

/* timing arrays hold finite, non-negative seconds; the statistics name ranks of the run */
static bool check_profile_arrays(struct run *r, char *why, size_t whylen)
{
	for (int a = 0; a < RUN_PROFILE_ARRAYS; a++) {
		const struct run_array *ar = &run_profile_arrays[a];
		const double *v = run_array_data(r, ar);
		if (!ar->timing || !v)
			continue;
		enum run_extent outer = ar->dims[0], inner = ar->dims[ar->ndims - 1];
		uint64_t n = run_array_length(r, ar), last = run_extent_size(r, inner);
		const char *const *names = run_extent_names(inner);
		for (uint64_t i = 0; i < n; i++) {
			if (isfinite(v[i]) && v[i] >= 0)
				continue;
			char entry[64];
			if (names)
				snprintf(entry, sizeof entry, "'%s'", names[i % last]);
			else
				snprintf(entry, sizeof entry, "%s %llu", run_extent_name(inner), (unsigned long long)(i % last));
			FAIL("/%s: %s of %s %llu is %g (must be finite and non-negative)", ar->dataset, entry,
			     run_extent_name(outer), (unsigned long long)(i / last), v[i]);
		}
	}
	for (uint32_t i = 0; i < r->nnodes; i++) {
		const double *st = r->time_stats + (size_t)i * RUN_STAT_COUNT;
		if (st[RUN_STAT_RANKS] > r->nranks || (st[RUN_STAT_RANKS] > 0 &&
		    (st[RUN_STAT_ARGMIN] >= r->nranks || st[RUN_STAT_ARGMAX] >= r->nranks)))
			FAIL("time statistics of call path %u name ranks beyond the run's %u", i, r->nranks);
	}
	return true;
}

static bool check_timestamps(struct run *r, char *why, size_t whylen)
{
	for (uint32_t i = 0; i < r->ntimestamps; i++) {
		const struct run_timestamps *t = &r->timestamps[i];
		if (t->rank >= r->nranks)
			FAIL("timestamps of rank %u, but the run has %u ranks", t->rank, r->nranks);
		for (uint64_t k = 0; k < t->n; k++)
			if (!seconds(t->start[k]) || !seconds(t->dur[k]))
				FAIL("timestamp %llu of rank %u is not finite non-negative seconds (start %g, duration %g)",
				     (unsigned long long)k, t->rank, t->start[k], t->dur[k]);
	}
	return true;
}

/* a prediction names a group and signatures of the run, and its interval holds its value */
static bool check_intervals(struct run *r, char *why, size_t whylen)
{
	for (uint32_t i = 0; i < r->nintervals; i++) {
		const struct run_interval *t = &r->intervals[i];
		if (t->group >= r->ngroups || t->sig >= r->nsigs || (t->prev != RUN_NO_PREV && t->prev >= r->nsigs) ||
		    t->kind > RUN_INTERVAL_GAP)
			FAIL("/extrap/intervals row %u names group %u, signatures %u and %u, kind %u: not of this run (%u "
			     "groups, %u signatures)", i, t->group, t->prev, t->sig, t->kind, r->ngroups, r->nsigs);
		if (!seconds(t->value) || !seconds(t->lo) || !seconds(t->hi) || t->lo > t->value || t->value > t->hi)
			FAIL("/extrap/intervals row %u: the prediction %g s is not within its interval [%g, %g] of "
			     "finite non-negative seconds", i, t->value, t->lo, t->hi);
	}
	return true;
}

bool run_check(struct run *r, char *why, size_t whylen)
{
	static bool (*const sections[])(struct run *, char *, size_t) = {
		check_functions, check_signatures, check_groups, check_streams,
		check_callpaths, check_profile_arrays, check_timestamps, check_intervals,
	};
	for (size_t i = 0; i < sizeof sections / sizeof *sections; i++)
		if (!sections[i](r, why, whylen))
			return false;
	return true;
}
