/*
 * classes — the rungs' grids and each position class's runs across the ladder: which group the
 * class's ranks are in at every rung where it exists (all of them in one, or the code is not SPMD
 * over the grid), and which rungs to add when a class exists at too few of them.
 */
#include "extrap/classes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/remainder_law.h"
#include "extrap/rung_advice.h"
#include "extrap/topology.h"
#include "mpi/signature.h"
#include "util/xalloc.h"

/* does the run split communicators (row/column communicators of a hand-made grid)? */
static bool splits_communicators(const struct run *r)
{
	for (uint32_t i = 0; i < r->nsigs; i++)
		if (!strcmp(r->fns[r->sigs[i].fn].name, "MPI_Comm_split"))
			return true;
	return false;
}

/* one rung's grid: its Cart_create's, the one its split communicators' laws read, or the one its
 * peers show */
static bool rung_grid(const struct run *r, struct grid *g, bool *periodic, char *why, size_t whylen)
{
	char cwhy[200], swhy[200], pwhy[1024];
	if (topology_from_cart(r, g, periodic, cwhy, sizeof cwhy))
		return true;
	if (topology_from_splits(r, g, swhy, sizeof swhy))
		return true;   /* not periodic: a split names rows and columns, not neighbours */
	if (topology_from_pattern(r, g, pwhy, sizeof pwhy)) {
		bool wraps = topology_wraps(r, g);
		for (uint32_t k = 0; k < g->ndims; k++)
			periodic[k] = wraps;
		return true;
	}
	snprintf(why, whylen, "p%u: %s, and the grid cannot be detected from the communication pattern: %s%s%s",
		 r->nranks, cwhy, pwhy, splits_communicators(r) ? "; nor from its MPI_Comm_split calls: " : "",
		 splits_communicators(r) ? swhy : "");
	return false;
}

/* a rung whose peers could not tell its grid takes the dimensionality of the rungs that did */
static bool small_rung_grid(const struct run *r, const struct grid *grids, const bool *found, size_t n,
			    struct grid *g, bool *periodic)
{
	for (size_t i = 0; i < n; i++)
		if (found[i] && grids[i].ndims >= 2 && topology_pattern_at(r, grids[i].ndims, g)) {
			bool wraps = topology_wraps(r, g);
			for (uint32_t k = 0; k < g->ndims; k++)
				periodic[k] = wraps;
			return true;
		}
	return false;
}

/* does some rung record its grid (MPI_Cart_create, or split colours that are laws of a grid)? */
static bool grid_recorded(struct run *const *rungs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct grid g;
		bool p[LAW_MAX_DIMS];
		char skip[200];
		if (topology_from_cart(rungs[i], &g, p, skip, sizeof skip) || topology_from_splits(rungs[i], &g, skip, sizeof skip))
			return true;
	}
	return false;
}

bool classes_grids(struct run *const *rungs, size_t n, struct grid *grids, bool *periodic, char *why, size_t whylen)
{
	char peers[4096] = "";
	if (!grid_recorded(rungs, n) && topology_from_peers(rungs, n, grids, periodic, peers, sizeof peers))
		return true;
	bool *found = xcalloc(n + 1, sizeof *found), (*here)[LAW_MAX_DIMS] = xcalloc(n + 1, sizeof *here);
	char first[2400] = "";
	for (size_t i = 0; i < n; i++) {
		char rwhy[2400];
		found[i] = rung_grid(rungs[i], &grids[i], here[i], rwhy, sizeof rwhy);
		if (!found[i] && !first[0])
			snprintf(first, sizeof first, "%s", rwhy);
	}
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++)
		ok = found[i] || small_rung_grid(rungs[i], grids, found, n, &grids[i], here[i]);
	free(found);
	if (!ok)
		snprintf(why, whylen, "%s", first);
	for (uint32_t k = 0; k < LAW_MAX_DIMS; k++)
		periodic[k] = false;
	for (size_t i = 0; ok && i < n; i++) {
		if (grids[i].ndims != grids[0].ndims) {
			snprintf(why, whylen, "inconsistent topology: p%u has a %u-D grid, p%u a %u-D one", rungs[i]->nranks,
				 grids[i].ndims, rungs[0]->nranks, grids[0].ndims);
			ok = false;
		}
		for (uint32_t k = 0; ok && k < grids[i].ndims; k++)
			periodic[k] = periodic[k] || here[i][k];
	}
	free(here);
	if (!ok && peers[0]) {
		size_t used = strlen(why);
		snprintf(why + used, whylen - used, "; no rule of a decomposition by hand explains the peers of every rung: %s",
			 peers);
	}
	return ok;
}

/* is every class of grid g in one group of r? */
static bool classes_single(const struct run *r, const struct grid *g)
{
	uint32_t group[TOPOLOGY_MAX_CLASSES];
	for (uint32_t c = 0; c < TOPOLOGY_MAX_CLASSES; c++)
		group[c] = UINT32_MAX;
	bool single = true;
	uint32_t rank;
	for (uint32_t i = 0; i < r->ngroups && single; i++)
		RANKLIST_FOR(rank, &r->groups[i].ranks) {
			uint32_t c = topology_class(g, rank);
			single = single && (group[c] == UINT32_MAX || group[c] == i);
			group[c] = i;
		}
	return single;
}

void classes_part(struct run *const *rungs, size_t n, struct grid *grids)
{
	bool single = true;
	for (size_t i = 0; i < n; i++)
		single = single && classes_single(rungs[i], &grids[i]);
	for (uint32_t part = 1; !single && part <= topology_nparts(); part++) {
		single = true;
		for (size_t i = 0; i < n; i++) {
			grids[i].part = part;
			single = single && classes_single(rungs[i], &grids[i]);
		}
		for (size_t i = 0; !single && i < n; i++)
			grids[i].part = 0;
	}
}

void classes_advice(uint32_t cls, const struct grid *grids, struct run *const *rungs, size_t n, char *out,
		   size_t outlen)
{
	bool dims_create_called = false;
	for (size_t i = 0; i < n; i++)
		dims_create_called = dims_create_called || topology_dims_create_asked(rungs[i]) > 0;
	struct rung_advice a;
	rung_advice_find(cls, grids, n, dims_create_called, &a);
	rung_advice_text(&a, out, outlen);
}

void classes_widening_advice(const struct grid *grids, size_t n, char *out, size_t outlen)
{
	uint32_t nd = grids[0].ndims;
	bool same[LAW_MAX_DIMS], any = false;
	int64_t top = 0;
	for (uint32_t k = 0; k < nd; k++) {
		same[k] = true;
		for (size_t i = 1; i < n; i++)
			same[k] = same[k] && grids[i].dims[k] == grids[0].dims[k];
		any = any || same[k];
	}
	for (size_t i = 0; i < n; i++)
		top = grid_size(&grids[i]) > top ? grid_size(&grids[i]) : top;
	size_t used = 0, found = 0;
	out[0] = 0;
	for (int64_t p = top + 1; p <= 4 * top + 64 && found < 3 && used < outlen; p++) {
		struct grid g;
		bool widens = false, narrows = false;
		topology_dims_create(p, nd, &g);
		for (uint32_t k = 0; k < nd; k++) {
			widens = widens || ((same[k] || !any) && g.dims[k] > grids[0].dims[k]);
			narrows = narrows || (same[k] && g.dims[k] < grids[0].dims[k]);
		}
		widens = widens && !narrows;
		if (widens)
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld", found++ ? ", " : "", (long long)p);
	}
}

/* the first value in which two signatures of one function and call site differ: "MPI_Sendrecv dest
 * +2 against +6"; false when they are not such a pair */
static bool value_difference(const struct run *r, uint32_t a, uint32_t b, char *out, size_t outlen)
{
	const struct run_signature *x = &r->sigs[a], *y = &r->sigs[b];
	if (x->fn != y->fn || x->callsite != y->callsite || x->nvals != y->nvals)
		return false;
	for (uint32_t j = 0; j < x->nvals; j++) {
		int64_t u = r->sigvals[x->voff + j], v = r->sigvals[y->voff + j];
		uint32_t p = 0, e = 0;
		if (u == v || !param_walk_value_at(&r->fns[x->fn], r->sigvals + x->voff, x->nvals, j, &p, &e))
			continue;
		char nu[24], nv[24];
		snprintf(out, outlen, "%s %s %s against %s", r->fns[x->fn].name, r->fns[x->fn].params[p].name,
			 sv_text(u, nu, sizeof nu), sv_text(v, nv, sizeof nv));
		return true;
	}
	return false;
}

/* how the call sequences of two groups differ, for the refusal */
static void groups_difference(const struct run *r, uint32_t a, uint32_t b, char *out, size_t outlen)
{
	const struct grammar *ga = &r->groups[a].g, *gb = &r->groups[b].g;
	bool shape = ga->nrules == gb->nrules;
	for (uint32_t k = 0; shape && k < ga->nrules; k++)
		shape = grammar_rule_len(ga, k) == grammar_rule_len(gb, k);
	if (r->groups[a].length == r->groups[b].length)
		snprintf(out, outlen, "different sequences of %llu calls", (unsigned long long)r->groups[a].length);
	else
		snprintf(out, outlen, "%llu calls against %llu", (unsigned long long)r->groups[a].length,
			 (unsigned long long)r->groups[b].length);
	for (uint32_t k = 0; shape && k < ga->nrules; k++)
		for (uint64_t i = 0; i < grammar_rule_len(ga, k); i++) {
			struct gsymbol x = grammar_rule_syms(ga, k)[i], y = grammar_rule_syms(gb, k)[i];
			if (gsym_is_rule(x) || gsym_is_rule(y) || x.val == y.val)
				continue;
			char what[160];
			if (!value_difference(r, (uint32_t)x.val, (uint32_t)y.val, what, sizeof what))
				return;
			snprintf(out, outlen, "the same calls with different values (%s): a peer or value that changes "
				 "from rank to rank within a grid position (a transpose partner, say) is not extrapolated",
				 what);
			return;
		}
}

/* where groups a and b of r, of one shape, first differ by a value: rule k, symbol i, value j of
 * the terminal's signature in a */
static bool first_value_difference(const struct run *r, uint32_t a, uint32_t b, uint32_t *k, uint64_t *i, uint32_t *j)
{
	const struct grammar *ga = &r->groups[a].g, *gb = &r->groups[b].g;
	for (*k = 0; ga->nrules == gb->nrules && *k < ga->nrules; (*k)++)
		for (*i = 0; grammar_rule_len(ga, *k) == grammar_rule_len(gb, *k) && *i < grammar_rule_len(ga, *k); (*i)++) {
			struct gsymbol x = grammar_rule_syms(ga, *k)[*i], y = grammar_rule_syms(gb, *k)[*i];
			if (gsym_is_rule(x) || gsym_is_rule(y) || x.val == y.val)
				continue;
			const struct run_signature *sx = &r->sigs[x.val], *sy = &r->sigs[y.val];
			if (sx->fn != sy->fn || sx->callsite != sy->callsite || sx->nvals != sy->nvals)
				return false;
			for (*j = 0; *j < sx->nvals; (*j)++)
				if (r->sigvals[sx->voff + *j] != r->sigvals[sy->voff + *j])
					return true;
		}
	return false;
}

/* the value j of the terminal at rule k, symbol i of rank's group at a rung, when it is a call of
 * the function and call site of signature like (of another rung) */
static bool value_at(const struct run *q, const uint32_t *group_of, uint32_t rank, uint32_t k, uint64_t i, uint32_t j,
		     const struct run_signature *like, int64_t *v)
{
	const struct grammar *g = &q->groups[group_of[rank]].g;
	if (k >= g->nrules || i >= grammar_rule_len(g, k) || gsym_is_rule(grammar_rule_syms(g, k)[i]))
		return false;
	const struct run_signature *s = &q->sigs[grammar_rule_syms(g, k)[i].val];
	if (s->fn != like->fn || s->callsite != like->callsite || s->nvals != like->nvals)
		return false;
	*v = q->sigvals[s->voff + j];
	return true;
}

/* The value in which groups a and b of class cls at rung r differ, across every rank of the
 * class at every rung: the share of a remainder dealt to the first coordinates (remainder_law.h),
 * said in out; false when it is none. */
static bool remainder_of_class(uint32_t cls, struct run *const *rungs, const struct grid *grids, size_t n,
			       const struct run *r, uint32_t a, uint32_t b, char *out, size_t outlen)
{
	uint32_t k, j;
	uint64_t i;
	if (!first_value_difference(r, a, b, &k, &i, &j))
		return false;
	const struct run_signature *like = &r->sigs[grammar_rule_syms(&r->groups[a].g, k)[i].val];
	size_t cap = 1, m = 0;
	for (size_t q = 0; q < n; q++)
		cap += rungs[q]->nranks;
	struct grid *g = xmalloc(cap * sizeof *g);
	int64_t *ranks = xmalloc(cap * sizeof *ranks), *values = xmalloc(cap * sizeof *values);
	bool ok = true;
	for (size_t q = 0; ok && q < n; q++) {
		uint32_t *group_of = run_group_index(rungs[q]);
		for (uint32_t rank = 0; ok && rank < rungs[q]->nranks; rank++)
			if (topology_class(&grids[q], rank) == cls) {
				ok = value_at(rungs[q], group_of, rank, k, i, j, like, &values[m]);
				g[m] = grids[q], ranks[m++] = rank;
			}
		free(group_of);
	}
	struct coord_points pts = {g, ranks, values, m};
	struct remainder_law law;
	ok = ok && remainder_law_fit(&pts, &law);
	if (ok)
		snprintf(out, outlen, "; at every rung it is %s, a remainder dealt to the first coordinates, not "
			 "decided by the rungs for every call that holds it", law.text);
	free(g);
	free(ranks);
	free(values);
	return ok;
}

/* lossy mode: the group most of the class's ranks are in (UINT32_MAX when none); the others are
 * counted as replaced */
static uint32_t dominant_group(const struct run *r, const struct grid *g, uint32_t cls, uint64_t *replaced)
{
	uint32_t *count = xcalloc(r->ngroups + 1, sizeof *count), best = UINT32_MAX, members = 0, rank;
	for (uint32_t i = 0; i < r->ngroups; i++)
		RANKLIST_FOR(rank, &r->groups[i].ranks)
			if (topology_class(g, rank) == cls) {
				count[i]++;
				members++;
			}
	for (uint32_t k = 0; k < r->ngroups; k++)
		if (count[k] && (best == UINT32_MAX || count[k] > count[best]))
			best = k;
	if (best != UINT32_MAX)
		*replaced += members - count[best];
	free(count);
	return best;
}

bool classes_rungs(uint32_t cls, struct run *const *rungs, const struct grid *grids, struct grammar *const *pruned,
		   size_t n, struct class_rungs *cr, char *why, size_t whylen)
{
	char name[64];
	topology_class_name(cls, grids[0].ndims, name, sizeof name);
	cr->n = 0;
	cr->runs = xmalloc(n * sizeof *cr->runs);
	cr->grids = xmalloc(n * sizeof *cr->grids);
	cr->groups = xmalloc(n * sizeof *cr->groups);
	cr->grammars = pruned ? xcalloc(n, sizeof *cr->grammars) : NULL;
	for (size_t i = 0; i < n; i++) {
		const struct run *r = rungs[i];
		uint32_t group = UINT32_MAX, *group_of = run_group_index(r);
		if (cr->lossy)
			group = dominant_group(r, &grids[i], cls, &cr->replaced);
		for (uint32_t rank = 0; group == UINT32_MAX || !cr->lossy ? rank < r->nranks : false; rank++) {
			if (topology_class(&grids[i], rank) != cls)
				continue;
			if (group != UINT32_MAX && group_of[rank] != group) {
				char how[320], rem[240] = "";
				groups_difference(r, group_of[rank], group, how, sizeof how);
				remainder_of_class(cls, rungs, grids, n, r, group_of[rank], group, rem, sizeof rem);
				snprintf(why, whylen,
					 "class %s at p%u: ranks of the same grid position behave differently (rank %u "
					 "in group %u, others in group %u: %s%s): not SPMD over the grid (--lossy takes "
					 "the group most of them are in)",
					 name, r->nranks, rank, group_of[rank], group, how, rem);
				free(group_of);
				return false;
			}
			group = group_of[rank];
		}
		free(group_of);
		if (group == UINT32_MAX)
			continue;
		cr->runs[cr->n] = r;
		((struct grid *)cr->grids)[cr->n] = grids[i];
		if (pruned)
			cr->grammars[cr->n] = &pruned[i][group];
		cr->groups[cr->n++] = group;
	}
	return true;
}

void classes_too_few(uint32_t cls, const struct class_rungs *cr, const struct grid *grids, struct run *const *rungs,
		     size_t n, char *why, size_t whylen)
{
	char name[64], add[1200];
	topology_class_name(cls, grids[0].ndims, name, sizeof name);
	classes_advice(cls, grids, rungs, n, add, sizeof add);
	snprintf(why, whylen,
		 "class %s exists at %zu rung%s of the ladder, too few to tell its laws (2 at least); %s",
		 name, cr->n, cr->n == 1 ? "" : "s", add);
}

void class_rungs_free(struct class_rungs *cr)
{
	free(cr->runs);
	free((void *)cr->grids);
	free(cr->groups);
	free(cr->grammars);
	memset(cr, 0, sizeof *cr);
}
