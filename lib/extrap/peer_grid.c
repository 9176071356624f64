/*
 * peer_grid — the grid of a code that decomposes by hand, read from the peers of every rung at
 * once (ScalaExtrap §3.1 reads it from one trace, in MPI's order): the rank offsets of the peers
 * are the grid's strides, in whatever order and factorisation the code chose.
 *
 * Hypotheses, fewest dimensions first (only the dimensionality the code asked MPI_Dims_create for,
 * when it did): each rule of the code's decomposition (grid_rule.h: the balanced factors in some
 * order) gives a grid at every rung; it holds when at every rung every peer is a grid neighbour
 * (one dimension apart, else in the 27-point neighbourhood). Periodicity is read per dimension:
 * a dimension of 3 ranks or more is periodic only when some peer wraps around it (a corner of a
 * non-periodic 27-point halo talks to 7 ranks, not 26), and then at every rung where it is that
 * wide (else the rule's grids are not the code's: x-fastest ranks read in MPI_Dims_create's order
 * at 12 ranks wrap where no peer crosses at 27); one never that wide is periodic when some other
 * wraps. Call sites whose peers are every rank (peer_pairs_drop_dense) are left out. A rule is taken when some rung tells (on its grid some ranks are no neighbours of
 * each other under that periodicity); a 3-D code whose smallest rung is 2x2x1 is read in 3-D at
 * every rung, since no 2-D rule explains its larger ones.
 */
#include "extrap/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/grid_rule.h"
#include "extrap/peer_pairs.h"
#include "util/xalloc.h"

/* does every rank of g neighbour every other under this periodicity (nothing to tell)? */
static bool tells(const struct grid *g, const bool *periodic, bool moore)
{
	uint32_t wide = 0;
	for (uint32_t k = 0; k < g->ndims; k++) {
		if (g->dims[k] > 3 || (g->dims[k] == 3 && !periodic[k]))
			return true;
		wide += g->dims[k] >= 2;
	}
	return !moore && wide >= 2;
}

struct ladder_peers {
	struct run *const *rungs;
	size_t n;
	struct peer_pairs *pairs;
	char *tested;   /* what was tested and why it failed, for the refusal */
	size_t used, len;
};

static void note(struct ladder_peers *l, const char *fmt, const char *a, const char *b, const char *c)
{
	if (l->used < l->len)
		l->used += (size_t)snprintf(l->tested + l->used, l->len - l->used, fmt, a, b, c);
}

/* a dimension taken as periodic that some rung makes 3 ranks wide or more without a peer wrapping
 * around it (here[i][k]: a peer wraps around k at rung i): a rank there that does not talk across
 * the edge is no rank of a torus (issue patterns 1 and 2: a corner of a non-periodic 27-point halo
 * talks to 7 ranks), so the grids of the rule are not the code's; rung * LAW_MAX_DIMS + k, or -1 */
static int64_t edge_not_crossed(const struct ladder_peers *l, const struct grid *grids, bool (*here)[LAW_MAX_DIMS],
				const bool *periodic, uint32_t ndims)
{
	for (size_t i = 0; i < l->n; i++)
		for (uint32_t k = 0; k < ndims; k++)
			if (periodic[k] && grids[i].dims[k] >= 3 && !here[i][k])
				return (int64_t)(i * LAW_MAX_DIMS + k);
	return -1;
}

/* rule r in the 4- or 27-point neighbourhood at every rung: the grids and their periodicity */
static bool rule_holds(struct ladder_peers *l, const struct grid_rule *r, bool moore, struct grid *grids,
		       bool *periodic)
{
	bool wraps[LAW_MAX_DIMS] = {false}, wide[LAW_MAX_DIMS] = {false}, any = false;
	bool (*seen)[LAW_MAX_DIMS] = xcalloc(l->n + 1, sizeof *seen);
	char name[120], text[200];
	grid_rule_name(r, name, sizeof name);
	for (size_t i = 0; i < l->n; i++) {
		bool *here = seen[i];
		size_t bad = 0;
		grid_rule_apply(r, l->rungs[i]->nranks, &grids[i]);
		if (!peer_grid_explains(&l->pairs[i], l->rungs[i]->nranks, &grids[i], moore, here, &bad)) {
			free(seen);
			if (!moore)
				return false;   /* noted when the 27-point neighbourhood fails too */
			char g[32];
			grid_format(&grids[i], g, sizeof g);
			snprintf(text, sizeof text, "%u-D %s%s at p%u: rank %lld talks to rank %lld", r->ndims, g,
				 "", l->rungs[i]->nranks, (long long)l->pairs[i].me[bad],
				 (long long)(l->pairs[i].me[bad] + l->pairs[i].off[bad]));
			note(l, "%s%s (%s), not a neighbour", l->used ? "; " : "", text, name);
			return false;
		}
		for (uint32_t k = 0; k < r->ndims; k++) {
			wraps[k] = wraps[k] || here[k];
			wide[k] = wide[k] || grids[i].dims[k] >= 3;
			any = any || here[k];
		}
	}
	bool told = false;
	for (uint32_t k = 0; k < r->ndims; k++)
		periodic[k] = wide[k] ? wraps[k] : any;
	int64_t open = edge_not_crossed(l, grids, seen, periodic, r->ndims);
	free(seen);
	if (open >= 0) {
		char g[32];
		uint32_t k = (uint32_t)(open % LAW_MAX_DIMS);
		size_t i = (size_t)(open / LAW_MAX_DIMS);
		grid_format(&grids[i], g, sizeof g);
		snprintf(text, sizeof text, "%u-D %s at p%u: no rank talks across the edge of dimension %u, which wraps at "
			 "another rung", r->ndims, g, l->rungs[i]->nranks, k);
		note(l, "%s%s (%s): no torus", l->used ? "; " : "", text, name);
		return false;
	}
	for (size_t i = 0; i < l->n; i++)
		told = told || tells(&grids[i], periodic, moore);
	if (!told && moore)
		note(l, "%s%s-D %s: every rank is a neighbour of every other at every rung, which tells nothing",
		     l->used ? "; " : "", r->ndims == 2 ? "2" : r->ndims == 3 ? "3" : "1", name);
	return told;
}

/* the ndims the code asked MPI_Dims_create for at some rung, or 0 */
static uint32_t asked_ndims(struct run *const *rungs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t nd = topology_dims_create_asked(rungs[i]);
		if (nd)
			return nd;
	}
	return 0;
}

bool topology_from_peers(struct run *const *rungs, size_t n, struct grid *grids, bool *periodic, char *why,
			 size_t whylen)
{
	struct ladder_peers l = {rungs, n, xcalloc(n + 1, sizeof *l.pairs), why, 0, whylen};
	bool talk = false, found = false;
	why[0] = 0;
	int64_t *nranks = xcalloc(n + 1, sizeof *nranks);
	for (size_t i = 0; i < n; i++) {
		peer_pairs_collect_sites(rungs[i], &l.pairs[i]);
		nranks[i] = rungs[i]->nranks;
		talk = talk || l.pairs[i].n;
	}
	peer_pairs_drop_dense(l.pairs, nranks, n);
	for (size_t i = 0; i < n; i++)
		peer_pairs_distinct(&l.pairs[i]);
	free(nranks);
	uint32_t asked = asked_ndims(rungs, n);
	if (!talk)
		snprintf(why, whylen, "no rung makes a point-to-point call to another rank");
	for (uint32_t nd = asked ? asked : 1; talk && !found && nd <= (asked ? asked : LAW_MAX_DIMS); nd++)
		for (uint32_t i = 0; !found && i < grid_rule_count(nd); i++)
			for (int moore = 0; !found && moore < 2; moore++) {
				struct grid_rule r;
				grid_rule_nth(nd, i, &r);
				found = rule_holds(&l, &r, moore, grids, periodic);
			}
	for (size_t i = 0; i < n; i++)
		peer_pairs_free(&l.pairs[i]);
	free(l.pairs);
	return found;
}
