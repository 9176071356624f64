/*
 * peer_pairs — the point-to-point peers of a run as (rank, relative peer) pairs, and whether a grid
 * explains them as grid neighbours. See peer_pairs.h.
 */
#include "extrap/peer_pairs.h"

#include <stdlib.h>
#include <string.h>

#include "run/events.h"
#include "util/xalloc.h"

/* every (rank, relative peer) pair of the run's point-to-point calls, each once */
static void pair_add(struct peer_pairs *p, int64_t me, int64_t off)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->me = xrealloc(p->me, p->cap * sizeof *p->me);
		p->off = xrealloc(p->off, p->cap * sizeof *p->off);
	}
	p->me[p->n] = me, p->off[p->n++] = off;
}

/* the relative peers of one call: PEER values and the posted source of SRC groups, appended */
static void call_peers(const struct fn_desc *d, const int64_t *v, uint32_t nvals, int64_t **out, size_t *n,
		       size_t *cap)
{
	if (!(d->flags & FNF_P2P))
		return;
	PARAM_FOR (w, d, v, nvals)
		if ((w.kind == PK_PEER || w.kind == PK_SRC) && !sv_is_symbolic(w.v[0]) && w.v[0] != 0) {
			XGROW(*out, *cap, *n + 1);
			(*out)[(*n)++] = w.v[0];
		}
}

static int offset_order(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* the distinct offsets in offs[0..n) as pairs of rank me */
static void add_distinct(struct peer_pairs *p, int64_t me, int64_t *offs, size_t n)
{
	if (n)
		qsort(offs, n, sizeof *offs, offset_order);
	for (size_t i = 0; i < n; i++)
		if (!i || offs[i] != offs[i - 1])
			pair_add(p, me, offs[i]);
}

/* the peers of one rank, its streamed values read (run/events.h) */
static void rank_pairs(const struct run *r, uint32_t rank, struct peer_pairs *p)
{
	struct event_iter it;
	struct event ev;
	int64_t *offs = NULL;
	size_t n = 0, cap = 0;
	event_iter_init(&it, r, rank);
	while (event_next(&it, &ev))
		call_peers(ev.fn, ev.vals, ev.nvals, &offs, &n, &cap);
	event_iter_free(&it);
	add_distinct(p, rank, offs, n);
	free(offs);
}

/* the peers of a group's signatures (NULL offsets: it streams a point-to-point call's values) */
static int64_t *group_offsets(const struct run *r, const struct run_group *g, size_t *n)
{
	int64_t *offs = NULL;
	size_t cap = 0;
	*n = 0;
	for (uint64_t k = 0; k < g->g.nsyms; k++) {
		struct gsymbol sym = g->g.syms[k];
		if (gsym_is_rule(sym))
			continue;
		const struct run_signature *s = &r->sigs[sym.val];
		const int64_t *v = r->sigvals + s->voff;
		for (uint32_t j = 0; j < s->nvals && (r->fns[s->fn].flags & FNF_P2P); j++)
			if (v[j] == SV_STREAMED) {
				free(offs);
				return NULL;
			}
		call_peers(&r->fns[s->fn], v, s->nvals, &offs, n, &cap);
	}
	XGROW(offs, cap, *n + 1);
	return offs;
}

void peer_pairs_collect(const struct run *r, struct peer_pairs *p)
{
	memset(p, 0, sizeof *p);
	for (uint32_t gi = 0; gi < r->ngroups; gi++) {
		const struct run_group *g = &r->groups[gi];
		size_t n;
		int64_t *offs = group_offsets(r, g, &n);
		uint32_t rank;
		RANKLIST_FOR(rank, &g->ranks) {
			if (!offs)
				rank_pairs(r, rank, p);
			else
				add_distinct(p, rank, offs, n);
		}
		free(offs);
	}
}

void peer_pairs_free(struct peer_pairs *p)
{
	free(p->me);
	free(p->off);
}

/* a and b are neighbours on g: they differ by one in one dimension (moore: in any number of
 * dimensions, the 27-point neighbourhood of a 3-D halo), possibly across its ends (wraps[k]) */
bool peer_neighbours(const struct grid *g, int64_t a, int64_t b, bool moore, bool *wraps)
{
	int differ = 0;
	for (int k = (int)g->ndims - 1; k >= 0; k--) {
		int64_t ca = a % g->dims[k], cb = b % g->dims[k], d = ca > cb ? ca - cb : cb - ca;
		a /= g->dims[k], b /= g->dims[k];
		if (d == 0)
			continue;
		if (d != 1 && d != g->dims[k] - 1)
			return false;
		if (d > 1 && d == g->dims[k] - 1)
			wraps[k] = true;
		differ++;
	}
	return moore ? differ >= 1 : differ == 1;
}

bool peer_grid_explains(const struct peer_pairs *p, int64_t nranks, const struct grid *g, bool moore, bool *wraps,
			size_t *failed)
{
	for (uint32_t k = 0; k < LAW_MAX_DIMS; k++)
		wraps[k] = false;
	for (size_t i = 0; i < p->n; i++) {
		int64_t peer = p->me[i] + p->off[i];
		if (peer < 0 || peer >= nranks || !peer_neighbours(g, p->me[i], peer, moore, wraps)) {
			if (failed)
				*failed = i;
			return false;
		}
	}
	return true;
}
