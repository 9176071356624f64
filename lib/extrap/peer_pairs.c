/*
 * peer_pairs — the point-to-point peers of a run as (rank, relative peer) pairs, and whether a grid
 * explains them as grid neighbours. See peer_pairs.h.
 */
#include "extrap/peer_pairs.h"

#include <stdlib.h>
#include <string.h>

#include "run/events.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* a relative peer and the site that talks to it */
struct site_peer {
	int64_t off;
	uint64_t site;
};

/* every (rank, relative peer, site) of the run's point-to-point calls, each once */
static void pair_add(struct peer_pairs *p, int64_t me, int64_t off, uint64_t site)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->me = xrealloc(p->me, p->cap * sizeof *p->me);
		p->off = xrealloc(p->off, p->cap * sizeof *p->off);
		p->site = xrealloc(p->site, p->cap * sizeof *p->site);
	}
	p->me[p->n] = me, p->off[p->n] = off, p->site[p->n++] = site;
}

/* the site of a call: its function, call site, communicator and tag (PETSc gives each object's
 * messages a tag of their own) */
static uint64_t site_of(const struct fn_desc *d, uint64_t callsite, const int64_t *v, uint32_t nvals)
{
	uint64_t h = hash_combine(hash_bytes(d->name, strlen(d->name), 0x5173), callsite);
	PARAM_FOR (w, d, v, nvals)
		if (w.kind == PK_COMM || w.kind == PK_TAG)
			h = hash_combine(h, (uint64_t)w.v[0]);
	return h;
}

/* the relative peers of one call: PEER values and the posted source of SRC groups, appended */
static void call_peers(const struct fn_desc *d, uint64_t callsite, const int64_t *v, uint32_t nvals,
		       struct site_peer **out, size_t *n, size_t *cap)
{
	if (!(d->flags & FNF_P2P))
		return;
	uint64_t site = site_of(d, callsite, v, nvals);
	PARAM_FOR (w, d, v, nvals)
		if ((w.kind == PK_PEER || w.kind == PK_SRC) && !sv_is_symbolic(w.v[0]) && w.v[0] != 0) {
			XGROW(*out, *cap, *n + 1);
			(*out)[(*n)++] = (struct site_peer){w.v[0], site};
		}
}

static int peer_order(const void *a, const void *b)
{
	const struct site_peer *x = a, *y = b;
	if (x->off != y->off)
		return (x->off > y->off) - (x->off < y->off);
	return (x->site > y->site) - (x->site < y->site);
}

/* the distinct peers in offs[0..n) as pairs of rank me */
static void add_distinct(struct peer_pairs *p, int64_t me, struct site_peer *offs, size_t n)
{
	if (n)
		qsort(offs, n, sizeof *offs, peer_order);
	for (size_t i = 0; i < n; i++)
		if (!i || peer_order(&offs[i], &offs[i - 1]))
			pair_add(p, me, offs[i].off, offs[i].site);
}

/* the peers of one rank, its streamed values read (run/events.h) */
static void rank_pairs(const struct run *r, uint32_t rank, struct peer_pairs *p)
{
	struct event_iter it;
	struct event ev;
	struct site_peer *offs = NULL;
	size_t n = 0, cap = 0;
	event_iter_init(&it, r, rank);
	while (event_next(&it, &ev))
		call_peers(ev.fn, ev.s->callsite, ev.vals, ev.nvals, &offs, &n, &cap);
	event_iter_free(&it);
	add_distinct(p, rank, offs, n);
	free(offs);
}

/* the peers of a group's signatures (NULL offsets: it streams a point-to-point call's values) */
static struct site_peer *group_offsets(const struct run *r, const struct run_group *g, size_t *n)
{
	struct site_peer *offs = NULL;
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
		call_peers(&r->fns[s->fn], s->callsite, v, s->nvals, &offs, n, &cap);
	}
	XGROW(offs, cap, *n + 1);
	return offs;
}

void peer_pairs_collect(const struct run *r, struct peer_pairs *p)
{
	peer_pairs_collect_sites(r, p);
	peer_pairs_distinct(p);
}

/* a rank's pairs are together, sorted by peer: the first of each peer stays */
void peer_pairs_distinct(struct peer_pairs *p)
{
	size_t m = 0;
	for (size_t i = 0; i < p->n; i++)
		if (!m || p->me[i] != p->me[m - 1] || p->off[i] != p->off[m - 1])
			p->me[m] = p->me[i], p->off[m] = p->off[i], p->site[m++] = p->site[i];
	p->n = m;
}

void peer_pairs_collect_sites(const struct run *r, struct peer_pairs *p)
{
	memset(p, 0, sizeof *p);
	for (uint32_t gi = 0; gi < r->ngroups; gi++) {
		const struct run_group *g = &r->groups[gi];
		size_t n;
		struct site_peer *offs = group_offsets(r, g, &n);
		uint32_t rank;
		RANKLIST_FOR(rank, &g->ranks) {
			if (!offs) {
				rank_pairs(r, rank, p);
			} else {
				struct site_peer *mine = xmalloc((n + 1) * sizeof *mine);   /* add_distinct sorts */
				memcpy(mine, offs, n * sizeof *mine);
				add_distinct(p, rank, mine, n);
				free(mine);
			}
		}
		free(offs);
	}
}

void peer_pairs_free(struct peer_pairs *p)
{
	free(p->me);
	free(p->off);
	free(p->site);
}

static int u64_order(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* the distinct sites of p, sorted, into *out; their number */
static size_t sites_of(const struct peer_pairs *p, uint64_t **out)
{
	uint64_t *s = xmalloc((p->n + 1) * sizeof *s);
	size_t n = 0;
	memcpy(s, p->site, p->n * sizeof *s);
	if (p->n)
		qsort(s, p->n, sizeof *s, u64_order);
	for (size_t i = 0; i < p->n; i++)
		if (!i || s[i] != s[n - 1])
			s[n++] = s[i];
	*out = s;
	return n;
}

/* is every pair of the site one of hub's, and every other rank in one? */
static bool site_star(const struct peer_pairs *p, int64_t nranks, uint64_t site, int64_t hub)
{
	bool *seen = xcalloc((size_t)nranks + 1, sizeof *seen), star = hub >= 0 && hub < nranks;
	int64_t others = 0;
	for (size_t i = 0; star && i < p->n; i++) {
		if (p->site[i] != site)
			continue;
		int64_t a = p->me[i], b = p->me[i] + p->off[i], other = a == hub ? b : a;
		star = (a == hub || b == hub) && other >= 0 && other < nranks;
		if (star && !seen[other])
			seen[other] = true, others++;
	}
	free(seen);
	return star && others == nranks - 1;
}

/* is site's graph on p's nranks ranks every rank with every other (an all-to-all by point-to-point
 * calls) or one rank with every other, and the others with it alone, in either direction (a
 * gather or scatter to a root, the master of a master-worker code)? Its peer set is then "every
 * rank", a law of P, whatever the grid. */
static bool site_dense(const struct peer_pairs *p, int64_t nranks, uint64_t site)
{
	if (nranks < 3)
		return false;
	int64_t *peers = xcalloc((size_t)nranks + 1, sizeof *peers), full = 0;
	size_t first = p->n;
	for (size_t i = 0; i < p->n; i++)
		if (p->site[i] == site && p->me[i] >= 0 && p->me[i] < nranks) {
			peers[p->me[i]]++;   /* distinct per (rank, peer, site) */
			first = first < p->n ? first : i;
		}
	for (int64_t r = 0; r < nranks; r++)
		full += peers[r] == nranks - 1;
	free(peers);
	return first < p->n && (full == nranks || site_star(p, nranks, site, p->me[first]) ||
				site_star(p, nranks, site, p->me[first] + p->off[first]));
}

size_t peer_pairs_drop_dense(struct peer_pairs *p, const int64_t *nranks, size_t n)
{
	uint64_t **sites = xcalloc(n + 1, sizeof *sites);
	size_t *nsites = xcalloc(n + 1, sizeof *nsites), kept = 0, dropped = 0;
	for (size_t i = 0; i < n; i++)
		nsites[i] = sites_of(&p[i], &sites[i]);
	/* a site is dense when it is so at every rung that has it */
	uint64_t *dense = xmalloc(1 * sizeof *dense);
	size_t ndense = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < nsites[i]; j++) {
			uint64_t site = sites[i][j];
			bool all = true, done = false;
			for (size_t k = 0; k < ndense && !done; k++)
				done = dense[k] == site;
			for (size_t r = 0; all && !done && r < n; r++)
				all = !bsearch(&site, sites[r], nsites[r], sizeof site, u64_order) || site_dense(&p[r], nranks[r], site);
			if (done)
				continue;
			if (all) {
				dense = xrealloc(dense, (ndense + 1) * sizeof *dense);
				dense[ndense++] = site;
			} else {
				kept++;
			}
		}
	if (ndense && kept)   /* the grid comes from the sites that are not dense; never from none */
		for (size_t i = 0; i < n; i++) {
			size_t m = 0;
			for (size_t q = 0; q < p[i].n; q++) {
				bool drop = false;
				for (size_t k = 0; k < ndense && !drop; k++)
					drop = p[i].site[q] == dense[k];
				if (!drop)
					p[i].me[m] = p[i].me[q], p[i].off[m] = p[i].off[q], p[i].site[m++] = p[i].site[q];
			}
			p[i].n = m;
			dropped = ndense;
		}
	for (size_t i = 0; i < n; i++)
		free(sites[i]);
	free(sites);
	free(nsites);
	free(dense);
	return dropped;
}

/* a and b are neighbours on g: they differ by one in one dimension (moore: in any number of
 * dimensions, the 27-point neighbourhood of a 3-D halo), possibly across its ends (wraps[k]) */
bool peer_neighbours(const struct grid *g, int64_t a, int64_t b, bool moore, bool *wraps)
{
	int differ = 0;
	for (int k = (int)g->ndims - 1; k >= 0; k--) {
		int64_t ca = grid_coord(g, a, (uint32_t)k), cb = grid_coord(g, b, (uint32_t)k), d = ca > cb ? ca - cb : cb - ca;
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
