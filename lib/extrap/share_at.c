/*
 * share_at — lossy mode's count arrays by rule, decided across the ladder. See share_at.h.
 */
#include "extrap/share_at.h"
#include "extrap/world_comm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/signature.h"
#include "run/events.h"
#include "run/share.h"
#include "util/xalloc.h"

#define SHARE_MAX_ARRAYS 4

struct share_entry {
	const char *fn;
	const char *total;       /* the array whose sum is the rank's total */
	struct {
		const char *param;
		enum share_rule rule;
	} arrays[SHARE_MAX_ARRAYS];
};

#define ALLTOALLV_ARRAYS                                                                        \
	{{"sendcounts", SHARE_TO}, {"sdispls", SHARE_TO_DISPLS}, {"recvcounts", SHARE_FROM}, \
	 {"rdispls", SHARE_FROM_DISPLS}}

static const struct share_entry table[] = {
	{"MPI_Alltoallv", "sendcounts", ALLTOALLV_ARRAYS},
	{"MPI_Ialltoallv", "sendcounts", ALLTOALLV_ARRAYS},
	{"MPI_Reduce_scatter", "recvcounts", {{"recvcounts", SHARE_EVEN}}},
	{"MPI_Ireduce_scatter", "recvcounts", {{"recvcounts", SHARE_EVEN}}},
};

static const struct share_entry *entry_of(const char *fn)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (!strcmp(table[i].fn, fn))
			return &table[i];
	return NULL;
}

bool share_covers(const char *fn) { return entry_of(fn) != NULL; }

/* the rule of parameter name, or -1 when the entry does not cover it */
static int rule_of(const struct share_entry *e, const char *name)
{
	for (int k = 0; k < SHARE_MAX_ARRAYS && e->arrays[k].param; k++)
		if (!strcmp(e->arrays[k].param, name))
			return (int)e->arrays[k].rule;
	return -1;
}

/* the group of parameter name in a call's values, or NULL */
static const int64_t *group_named(const struct fn_desc *d, const int64_t *v, uint32_t nvals, const char *name)
{
	PARAM_FOR (w, d, v, nvals)
		if (!strcmp(w.name, name))
			return w.v;
	return NULL;
}

/* one call's arrays are one entry per rank over MPI_COMM_WORLD; its total in *sum */
static bool call_total(const struct run *r, const struct share_entry *e, const struct event *ev, uint32_t nranks,
		       int64_t *sum, char *why, size_t whylen)
{
	const int64_t *comm = group_of_kind(ev->fn, ev->vals, ev->nvals, PK_COMM);
	if (!comm || !world_comm(r, comm[0])) {
		snprintf(why, whylen, "it is called over a communicator other than MPI_COMM_WORLD");
		return false;
	}
	for (int k = 0; k < SHARE_MAX_ARRAYS && e->arrays[k].param; k++) {
		const int64_t *g = group_named(ev->fn, ev->vals, ev->nvals, e->arrays[k].param);
		if (g && g[0] != (int64_t)nranks) {
			snprintf(why, whylen, "its %s has %lld entries at p%u, not one per rank", e->arrays[k].param,
				 (long long)g[0], nranks);
			return false;
		}
	}
	const int64_t *g = group_named(ev->fn, ev->vals, ev->nvals, e->total);
	*sum = 0;
	for (int64_t k = 0; g && k < g[0]; k++)
		*sum += g[1 + k];
	return g != NULL;
}

/* what every rank of r sends in all at every call of fn from callsite: the same number, or false
 * with why */
static bool rung_total(const struct run *r, const struct share_entry *e, uint64_t callsite, int64_t *total,
		       char *why, size_t whylen)
{
	bool ok = true, seen = false;
	for (uint32_t rank = 0; ok && rank < r->nranks; rank++) {
		struct event_iter it;
		struct event ev;
		event_iter_init(&it, r, rank);
		while (ok && event_next(&it, &ev)) {
			int64_t sum = 0;
			if (strcmp(ev.fn->name, e->fn) || ev.s->callsite != callsite)
				continue;
			ok = call_total(r, e, &ev, r->nranks, &sum, why, whylen);
			if (ok && seen && sum != *total) {
				snprintf(why, whylen, "its per-rank total (the sum of its %s) differs from call to call or "
					 "rank to rank: %lld and %lld at p%u", e->total, (long long)*total, (long long)sum,
					 r->nranks);
				ok = false;
			}
			*total = sum, seen = true;
		}
		event_iter_free(&it);
	}
	if (ok && !seen)
		snprintf(why, whylen, "no call of it at p%u", r->nranks);
	return ok && seen;
}

/* signature sig of r with the entry's arrays as (SV_SHARED, nranks, total, rule): false with why
 * when another value is streamed */
static bool compact(const struct run *r, uint32_t sig, const struct share_entry *e, int64_t total, int64_t **out,
		    uint32_t *nout, char *why, size_t whylen)
{
	const struct run_signature *s = &r->sigs[sig];
	const struct fn_desc *d = &r->fns[s->fn];
	const int64_t *v = r->sigvals + s->voff;
	int64_t *c = xmalloc((s->nvals + 4 * SHARE_MAX_ARRAYS + 1) * sizeof *c);
	uint32_t n = 0;
	PARAM_FOR (w, d, v, s->nvals) {
		int rule = rule_of(e, w.name);
		if (rule >= 0) {
			c[n++] = SV_SHARED, c[n++] = r->nranks, c[n++] = total, c[n++] = rule;
		} else if (w.v[0] == SV_STREAMED) {
			snprintf(why, whylen, "its %s changes from call to call too", w.name);
			free(c);
			return false;
		} else {
			memcpy(c + n, w.v, w.width * sizeof *v);
			n += w.width;
		}
	}
	*out = c, *nout = n;
	return true;
}

static bool total_law(const struct class_rungs *cr, const int64_t *totals, const struct grid *target,
		      struct xval *x, char *why, size_t whylen)
{
	struct law law;
	law_solve(totals, cr->grids, cr->n, target, &law);
	if (law.status != LAW_OK || law.predicted < 0) {
		int used = snprintf(why, whylen, "its per-rank total has no law of the grid sizes (");
		for (size_t i = 0; i < cr->n && (size_t)used < whylen; i++)
			used += snprintf(why + used, whylen - (size_t)used, "%s%lld at p%u", i ? ", " : "",
					 (long long)totals[i], cr->runs[i]->nranks);
		snprintf(why + used, whylen - (size_t)used, "): %s", law.status == LAW_OK ? "negative at the target" : law.text);
		return false;
	}
	xval_of_law(x, &law);
	return true;
}

bool share_at_rungs(const struct class_rungs *cr, const uint32_t *sigs, const struct grid *target, int64_t **vals,
		    uint32_t *nvals, struct xval *total, char *why, size_t whylen)
{
	const struct run *r0 = cr->runs[0];
	const struct run_signature *s0 = &r0->sigs[sigs[0]];
	const struct share_entry *e = entry_of(r0->fns[s0->fn].name);
	int64_t *totals = xcalloc(cr->n + 1, sizeof *totals);
	bool ok = e != NULL;
	if (!e)
		snprintf(why, whylen, "its count arrays are not stated by rule");
	memset(vals, 0, cr->n * sizeof *vals);
	for (size_t i = 0; ok && i < cr->n; i++) {
		uint32_t n = 0;
		ok = rung_total(cr->runs[i], e, s0->callsite, &totals[i], why, whylen) &&
		     compact(cr->runs[i], sigs[i], e, totals[i], &vals[i], &n, why, whylen);
		if (ok && i && n != *nvals) {
			snprintf(why, whylen, "its other values differ in number at p%u and p%u", cr->runs[i]->nranks,
				 r0->nranks);
			ok = false;
		}
		*nvals = n;
	}
	ok = ok && total_law(cr, totals, target, total, why, whylen);
	for (size_t i = 0; !ok && i < cr->n; i++)
		free(vals[i]), vals[i] = NULL;
	free(totals);
	return ok;
}
