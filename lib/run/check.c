/*
 * check — run_check: every count and cross-reference of a run validated, one function per
 * section, so that tools can trust a run that passed. Builds the rank -> group and stream indexes
 * on the way. See run.h.
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
		uint32_t k = 0;
		bool bad = false;
		for (uint32_t p = 0; p < d->nparams && !bad; p++) {
			enum param_kind kind = d->params[p].kind;
			if (kind == PK_IGNORE || kind == PK_STATUS)
				continue;
			uint32_t w = group_width(kind, vals, k, s->nvals, &bad);
			char what[120];
			if (!bad && w == 4 && vals[k] == SV_SHARED && !share_group_check(vals + k, what, sizeof what))
				FAIL("signature %u (%s) parameter %s: %s", i, d->name, d->params[p].name, what);
			k += w;
		}
		if (bad || k != s->nvals)
			FAIL("signature %u (%s) has %u values that do not match the parameters of %s", i,
			     d->name, s->nvals, d->name);
	}
	return true;
}

/* a group's ranks: in the run, sorted, in no other group; fills r->rank_group */
static bool check_group_ranks(struct run *r, uint32_t i, char *why, size_t whylen)
{
	const struct run_group *g = &r->groups[i];
	for (uint32_t k = 0; k < g->nranks; k++) {
		if (g->ranks[k] >= r->nranks)
			FAIL("group %u lists rank %u, but the run has %u ranks", i, g->ranks[k], r->nranks);
		if (k && g->ranks[k] <= g->ranks[k - 1])
			FAIL("group %u: ranks are not sorted", i);
		if (r->rank_group[g->ranks[k]] != UINT32_MAX)
			FAIL("rank %u is in groups %u and %u", g->ranks[k], r->rank_group[g->ranks[k]], i);
		r->rank_group[g->ranks[k]] = i;
	}
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
	for (uint32_t k = 0; k < g->nranks && r->nnodes; k++) {
		uint64_t calls = run_rank_calls(r, g->ranks[k]);
		if (g->length > calls)
			FAIL("group %u: its grammar expands to %llu calls, but rank %u made %llu", i,
			     (unsigned long long)g->length, g->ranks[k], (unsigned long long)calls);
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

static bool check_groups(struct run *r, char *why, size_t whylen)
{
	free(r->rank_group);
	r->rank_group = xmalloc((r->nranks + 1) * sizeof *r->rank_group);
	for (uint32_t k = 0; k < r->nranks; k++)
		r->rank_group[k] = UINT32_MAX;
	char gwhy[200];
	for (uint32_t i = 0; i < r->ngroups; i++) {
		if (!grammar_check(&r->groups[i].g, r->nsigs, gwhy, sizeof gwhy))
			FAIL("group %u: %s", i, gwhy);
		if (!check_group_ranks(r, i, why, whylen) || !check_group_length(r, i, why, whylen) ||
		    !check_group_timing(r, i, why, whylen))
			return false;
	}
	for (uint32_t k = 0; k < r->nranks; k++)
		if (r->rank_group[k] == UINT32_MAX)
			FAIL("rank %u belongs to no group", k);
	return true;
}

/* rank -> its streams by signature (streams sorted by signature): stream_first, rank_streams */
static bool index_streams(struct run *r, char *why, size_t whylen)
{
	free(r->stream_first);
	free(r->rank_streams);
	r->stream_first = xcalloc(r->nranks + 1, sizeof *r->stream_first);
	uint64_t total = 0;
	for (uint32_t i = 0; i < r->nstreams; i++) {
		total += r->streams[i].nranks;
		for (uint32_t k = 0; k < r->streams[i].nranks; k++)
			r->stream_first[r->streams[i].ranks[k] + 1]++;
	}
	if (total > UINT32_MAX)
		FAIL("%llu (rank, stream) pairs: more than this ladder indexes", (unsigned long long)total);
	r->rank_streams = xmalloc((total ? total : 1) * sizeof *r->rank_streams);
	for (uint32_t q = 0; q < r->nranks; q++)
		r->stream_first[q + 1] += r->stream_first[q];
	uint32_t *at = xmalloc((r->nranks + 1) * sizeof *at);
	memcpy(at, r->stream_first, r->nranks * sizeof *at);
	bool ok = true;
	for (uint32_t i = 0; i < r->nstreams && ok; i++)
		for (uint32_t k = 0; k < r->streams[i].nranks && ok; k++) {
			uint32_t q = r->streams[i].ranks[k];
			ok = at[q] == r->stream_first[q] || r->streams[r->rank_streams[at[q] - 1]].sig != r->streams[i].sig;
			r->rank_streams[at[q]++] = i;
			if (!ok)
				snprintf(why, whylen, "two value streams for rank %u, signature %u", q, r->streams[i].sig);
		}
	free(at);
	return ok;
}

/* streams refer to known signatures, are well formed, and give each rank at most one stream per
 * signature; sorts them and builds the index */
static bool check_streams(struct run *r, char *why, size_t whylen)
{
	for (uint32_t i = 0; i < r->nstreams; i++) {
		const struct run_stream *s = &r->streams[i];
		char swhy[200];
		if (s->sig >= r->nsigs)
			FAIL("value stream %u refers to signature %u, but there are %u", i, s->sig, r->nsigs);
		if (!run_stream_check(s, r->nranks, swhy, sizeof swhy))
			FAIL("value stream %u (signature %u): %s", i, s->sig, swhy);
	}
	if (r->nstreams)   /* none: there may be no array at all */
		qsort(r->streams, r->nstreams, sizeof *r->streams, run_stream_order);
	return index_streams(r, why, whylen);
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
