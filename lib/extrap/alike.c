/*
 * alike — groups of a rung that differ only by values with a law of the grid coordinates, united.
 * See alike.h.
 */
#include "extrap/alike.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/coord_law.h"
#include "mpi/signature.h"
#include "run/merge.h"
#include "util/xalloc.h"

/* one value that differs: a slot of the signatures of a function and call site that keep some
 * tags, its points */
struct key {
	uint32_t fn, slot;
	uint64_t callsite, tags;
	size_t n, cap;
	struct grid *grids;
	int64_t *ranks, *values;
	struct coord_law law;
	bool count;                    /* the slot is a count */
	bool fits, remainder;          /* remainder: the law is rem */
	struct remainder_law rem;
};

/* a set of alike groups of one rung: the leader's signatures that differ (fs), and per member the
 * signature it has where the leader has fs[k] (ms[m * nfs + k]) */
struct set {
	size_t rung;
	uint32_t *members, nmembers;
	uint32_t *fs, nfs, *ms;
	bool usable;
};

struct plan {
	struct run *const *rungs;
	const struct grid *grids;
	struct key *keys;
	size_t nkeys, capkeys;
	struct set *sets;
	size_t nsets, capsets;
};

static bool sigs_alike(const struct run *r, uint32_t a, uint32_t b)
{
	const struct run_signature *x = &r->sigs[a], *y = &r->sigs[b];
	return x->fn == y->fn && x->callsite == y->callsite && x->flags == y->flags && x->nvals == y->nvals;
}

static bool groups_alike(const struct run *r, uint32_t a, uint32_t b)
{
	const struct grammar *x = &r->groups[a].g, *y = &r->groups[b].g;
	if (x->nrules != y->nrules || x->nsyms != y->nsyms ||
	    memcmp(x->rule_start, y->rule_start, (x->nrules + 1) * sizeof *x->rule_start))
		return false;
	for (uint64_t i = 0; i < x->nsyms; i++) {
		struct gsymbol u = x->syms[i], v = y->syms[i];
		if (u.exp != v.exp || gsym_is_rule(u) != gsym_is_rule(v))
			return false;
		if (gsym_is_rule(u) ? u.val != v.val : !sigs_alike(r, (uint32_t)u.val, (uint32_t)v.val))
			return false;
	}
	return true;
}

/* do groups a and b of one shape differ only by values that are not symbolic (a peer that is
 * MPI_PROC_NULL in one is a boundary, no value to unite)? */
static bool differ_by_numbers(const struct run *r, uint32_t a, uint32_t b)
{
	const struct grammar *x = &r->groups[a].g, *y = &r->groups[b].g;
	for (uint64_t i = 0; i < x->nsyms; i++) {
		struct gsymbol u = x->syms[i], v = y->syms[i];
		if (gsym_is_rule(u) || u.val == v.val)
			continue;
		const struct run_signature *f = &r->sigs[u.val], *g = &r->sigs[v.val];
		for (uint32_t j = 0; j < f->nvals; j++) {
			int64_t p = r->sigvals[f->voff + j], q = r->sigvals[g->voff + j];
			if (p != q && (sv_is_symbolic(p) || sv_is_symbolic(q)))
				return false;
		}
	}
	return true;
}

/* may value j of signature s be streamed as a law (a scalar peer, source, tag or count)? */
static bool streamable(const struct run *r, uint32_t s, uint32_t j)
{
	const struct run_signature *x = &r->sigs[s];
	const int64_t *v = r->sigvals + x->voff;
	uint32_t p, e;
	if (!param_walk_value_at(&r->fns[x->fn], v, x->nvals, j, &p, &e))
		return false;
	enum param_kind k = r->fns[x->fn].params[p].kind;
	return (k == PK_PEER || k == PK_SRC || k == PK_TAG || k == PK_COUNT) && !sv_is_symbolic(v[j]);
}

/* the values of s's tag parameters that are neither masked nor streamed, as one number */
static uint64_t tags_of(const struct run *r, uint32_t s, const bool *mask)
{
	const struct run_signature *x = &r->sigs[s];
	const int64_t *v = r->sigvals + x->voff;
	uint64_t h = 1469598103934665603ull;
	uint32_t p, e;
	for (uint32_t j = 0; j < x->nvals; j++)
		if (!(mask && mask[j]) && v[j] != SV_STREAMED && param_walk_value_at(&r->fns[x->fn], v, x->nvals, j, &p, &e) &&
		    r->fns[x->fn].params[p].kind == PK_TAG)
			h = (h ^ (uint64_t)v[j] ^ ((uint64_t)j << 56)) * 1099511628211ull;
	return h;
}

uint64_t alike_tags(const struct run *r, uint32_t sig) { return tags_of(r, sig, NULL); }

static struct key *key_of(struct plan *pl, const struct run *r, uint32_t s, uint32_t j, const bool *mask)
{
	const struct run_signature *x = &r->sigs[s];
	uint64_t tags = tags_of(r, s, mask);
	for (size_t i = 0; i < pl->nkeys; i++)
		if (pl->keys[i].fn == x->fn && pl->keys[i].callsite == x->callsite && pl->keys[i].slot == j &&
		    pl->keys[i].tags == tags)
			return &pl->keys[i];
	XGROW(pl->keys, pl->capkeys, pl->nkeys + 1);
	struct key *k = &pl->keys[pl->nkeys++];
	memset(k, 0, sizeof *k);
	k->fn = x->fn, k->callsite = x->callsite, k->slot = j, k->tags = tags;
	uint32_t p, e;
	k->count = param_walk_value_at(&r->fns[x->fn], r->sigvals + x->voff, x->nvals, j, &p, &e) &&
		   r->fns[x->fn].params[p].kind == PK_COUNT;
	return k;
}

static void key_add(struct key *k, const struct grid *g, uint32_t rank, int64_t value)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->grids = xrealloc(k->grids, k->cap * sizeof *k->grids);
		k->ranks = xrealloc(k->ranks, k->cap * sizeof *k->ranks);
		k->values = xrealloc(k->values, k->cap * sizeof *k->values);
	}
	k->grids[k->n] = *g, k->ranks[k->n] = rank, k->values[k->n++] = value;
}

/* the member's signature where the leader has fs; records it, false when it is not one */
static bool map_member(struct set *st, uint32_t m, uint32_t fs, uint32_t ms)
{
	uint32_t k = 0;
	while (k < st->nfs && st->fs[k] != fs)
		k++;
	if (k == st->nfs)
		return false;
	uint32_t *at = &st->ms[m * st->nfs + k];
	if (*at != UINT32_MAX && *at != ms)
		return false;
	*at = ms;
	return true;
}

/* the leader's signatures at the positions where some member differs */
static void differing_sigs(const struct run *r, struct set *st)
{
	const struct grammar *lead = &r->groups[st->members[0]].g;
	st->fs = xmalloc((lead->nsyms + 1) * sizeof *st->fs);
	for (uint32_t m = 1; m < st->nmembers; m++)
		for (uint64_t i = 0; i < lead->nsyms; i++) {
			struct gsymbol u = lead->syms[i], v = r->groups[st->members[m]].g.syms[i];
			bool seen = false;
			for (uint32_t k = 0; k < st->nfs; k++)
				seen = seen || st->fs[k] == (uint32_t)u.val;
			if (!gsym_is_rule(u) && u.val != v.val && !seen)
				st->fs[st->nfs++] = (uint32_t)u.val;
		}
	st->ms = xmalloc(((size_t)st->nmembers * st->nfs + 1) * sizeof *st->ms);
	for (size_t k = 0; k < (size_t)st->nmembers * st->nfs; k++)
		st->ms[k] = UINT32_MAX;
}

/* each member's signature for each of the leader's that differ; false when a member has two */
static bool map_members(const struct run *r, struct set *st)
{
	const struct grammar *lead = &r->groups[st->members[0]].g;
	for (uint32_t m = 0; m < st->nmembers; m++)
		for (uint64_t i = 0; i < lead->nsyms; i++) {
			struct gsymbol u = lead->syms[i], v = r->groups[st->members[m]].g.syms[i];
			bool differs = false;
			for (uint32_t k = 0; k < st->nfs; k++)
				differs = differs || st->fs[k] == (uint32_t)u.val;
			if (!gsym_is_rule(u) && differs && !map_member(st, m, (uint32_t)u.val, (uint32_t)v.val))
				return false;
		}
	return true;
}

/* the slots of fs's parameter groups in which some member differs; false when one of them is not
 * streamable or a signature streams already */
static bool differing_slots(const struct run *r, const struct set *st, uint32_t k, bool *mask)
{
	const struct run_signature *f = &r->sigs[st->fs[k]];
	const int64_t *fv = r->sigvals + f->voff;
	uint32_t p, e, q, e2;
	for (uint32_t m = 0; m < st->nmembers; m++) {
		const int64_t *mv = r->sigvals + r->sigs[st->ms[m * st->nfs + k]].voff;
		for (uint32_t j = 0; j < f->nvals; j++) {
			if (fv[j] == SV_STREAMED || mv[j] == SV_STREAMED)
				return false;
			if (fv[j] == mv[j] || mask[j])
				continue;
			if (!param_walk_value_at(&r->fns[f->fn], fv, f->nvals, j, &p, &e))
				return false;
			for (uint32_t i = 0; i < f->nvals; i++)   /* the whole parameter group is streamed */
				if (param_walk_value_at(&r->fns[f->fn], fv, f->nvals, i, &q, &e2) && q == p)
					mask[i] = true;
		}
	}
	for (uint32_t m = 0; m < st->nmembers; m++)
		for (uint32_t j = 0; j < f->nvals; j++)
			if (mask[j] && !streamable(r, st->ms[m * st->nfs + k], j))
				return false;
	return true;
}

/* the points of the set's differing values, added to their keys; false when it cannot be united */
static bool set_points(struct plan *pl, struct set *st)
{
	const struct run *r = pl->rungs[st->rung];
	if (!map_members(r, st))
		return false;
	for (uint32_t k = 0; k < st->nfs; k++) {
		const struct run_signature *f = &r->sigs[st->fs[k]];
		bool *mask = xcalloc(f->nvals + 1, sizeof *mask);
		bool ok = differing_slots(r, st, k, mask);
		for (uint32_t j = 0; ok && j < f->nvals; j++) {
			if (!mask[j])
				continue;
			struct key *key = key_of(pl, r, st->fs[k], j, mask);
			for (uint32_t m = 0; m < st->nmembers; m++) {
				const struct run_group *g = &r->groups[st->members[m]];
				int64_t v = r->sigvals[r->sigs[st->ms[m * st->nfs + k]].voff + j];
				uint32_t rank;
				RANKLIST_FOR(rank, &g->ranks)
					key_add(key, &pl->grids[st->rung], rank, v);
			}
		}
		free(mask);
		if (!ok)
			return false;
	}
	return true;
}

/* the sets of alike groups of rung i (two groups at least) */
static void find_sets(struct plan *pl, size_t i)
{
	const struct run *r = pl->rungs[i];
	bool *taken = xcalloc(r->ngroups + 1, sizeof *taken);
	for (uint32_t a = 0; a < r->ngroups; a++) {
		if (taken[a])
			continue;
		struct set st = {.rung = i, .members = xmalloc((r->ngroups + 1) * sizeof *st.members)};
		for (uint32_t b = a; b < r->ngroups; b++)
			if (!taken[b] && (b == a || (groups_alike(r, a, b) && differ_by_numbers(r, a, b))))
				taken[b] = true, st.members[st.nmembers++] = b;
		if (st.nmembers < 2) {
			free(st.members);
			continue;
		}
		differing_sigs(r, &st);
		st.usable = set_points(pl, &st);
		XGROW(pl->sets, pl->capsets, pl->nsets + 1);
		pl->sets[pl->nsets++] = st;
	}
	free(taken);
}

/* a copy of signature s with the masked values streamed; its index */
static uint32_t streamed_sig(struct run *r, uint32_t s, const bool *mask)
{
	struct run_signature x = r->sigs[s];
	r->sigvals = xrealloc(r->sigvals, (r->nsigvals + x.nvals + 1) * sizeof *r->sigvals);
	for (uint32_t j = 0; j < x.nvals; j++)
		r->sigvals[r->nsigvals + j] = mask[j] ? SV_STREAMED : r->sigvals[x.voff + j];
	x.voff = r->nsigvals;
	r->nsigvals += x.nvals;
	r->sigs = xrealloc(r->sigs, (r->nsigs + 1) * sizeof *r->sigs);
	r->sigs[r->nsigs] = x;
	return r->nsigs++;
}

/* the stream of the new signature ns for the set's ranks: one period of the masked values' laws */
static void law_stream(struct plan *pl, size_t rung, uint32_t fs, uint32_t ns, const bool *mask,
		       const struct ranklist *ranks, uint32_t nranks, uint64_t calls)
{
	struct run *r = pl->rungs[rung];
	const struct run_signature *f = &r->sigs[fs];
	uint32_t width = 0;
	for (uint32_t j = 0; j < f->nvals; j++)
		width += mask[j];
	int64_t *zero = xcalloc(width + 1, sizeof *zero);
	struct run_stream *s = run_add_stream(r, ns, ranklist_first(ranks), calls * width, 0, width, zero);
	free(zero);
	ranklist_copy(&s->ranks, ranks);
	s->nranks = nranks;
	s->laws = xcalloc(width + 1, sizeof *s->laws);
	for (uint32_t j = 0; j < f->nvals; j++)
		if (mask[j]) {
			s->laws[s->nlaws].cell = s->nlaws;
			const struct key *key = key_of(pl, r, fs, j, mask);
			if (key->remainder)
				remainder_law_at(&key->rem, &pl->grids[rung], &s->laws[s->nlaws].law);
			else
				coord_law_at(&key->law, &pl->grids[rung], &s->laws[s->nlaws].law);
			s->nlaws++;
		}
}

/* the members' ranks, together */
static struct ranklist set_ranks(const struct run *r, const struct set *st, uint32_t *n)
{
	struct ranklist all;
	ranklist_init(&all);
	*n = 0;
	for (uint32_t m = 0; m < st->nmembers; m++) {
		ranklist_join(&all, &r->groups[st->members[m]].ranks);
		*n += r->groups[st->members[m]].nranks;
	}
	return all;
}

/* the leader's timing tables on the new signatures */
static void remap_timing(struct run_group *g, const uint32_t *map, uint32_t nmap)
{
	for (uint32_t i = 0; i < g->ndurs; i++)
		g->durs[i].sig = g->durs[i].sig < nmap ? map[g->durs[i].sig] : g->durs[i].sig;
	for (uint32_t i = 0; i < g->ngaps; i++) {
		struct run_gap *x = &g->gaps[i];
		x->sig = x->sig < nmap ? map[x->sig] : x->sig;
		x->prev = x->prev < nmap ? map[x->prev] : x->prev;
	}
	qsort(g->durs, g->ndurs, sizeof *g->durs, run_dur_order);
	qsort(g->gaps, g->ngaps, sizeof *g->gaps, run_gap_order);
}

/* does every value the set streams have a law? */
static bool set_fits(struct plan *pl, const struct set *st)
{
	const struct run *r = pl->rungs[st->rung];
	bool fits = st->usable;
	for (uint32_t k = 0; fits && k < st->nfs; k++) {
		const struct run_signature *f = &r->sigs[st->fs[k]];
		bool *mask = xcalloc(f->nvals + 1, sizeof *mask);
		differing_slots(r, st, k, mask);
		for (uint32_t j = 0; j < f->nvals; j++)
			fits = fits && (!mask[j] || key_of(pl, r, st->fs[k], j, mask)->fits);
		free(mask);
	}
	return fits;
}

/* the set's groups become its leader's, on signatures whose differing values are streamed */
static void unite_set(struct plan *pl, const struct set *st, bool *drop)
{
	struct run *r = pl->rungs[st->rung];
	struct run_group *lead = &r->groups[st->members[0]];
	uint32_t nmap = r->nsigs, nranks, *map = xmalloc((nmap + 1) * sizeof *map);
	uint64_t *calls = xcalloc(nmap + 1, sizeof *calls);
	for (uint32_t i = 0; i < nmap; i++)
		map[i] = i;
	grammar_terminal_counts(&lead->g, calls, nmap);
	struct ranklist ranks = set_ranks(r, st, &nranks);
	for (uint32_t k = 0; k < st->nfs; k++) {
		bool *mask = xcalloc(r->sigs[st->fs[k]].nvals + 1, sizeof *mask);
		differing_slots(r, st, k, mask);
		map[st->fs[k]] = streamed_sig(r, st->fs[k], mask);
		law_stream(pl, st->rung, st->fs[k], map[st->fs[k]], mask, &ranks, nranks, calls[st->fs[k]]);
		free(mask);
	}
	lead = &r->groups[st->members[0]];
	grammar_map_terminals(&lead->g, map, nmap);
	remap_timing(lead, map, nmap);
	ranklist_free(&lead->ranks);
	lead->ranks = ranks, lead->nranks = nranks;
	for (uint32_t m = 1; m < st->nmembers; m++)
		drop[st->members[m]] = true;
	free(map);
	free(calls);
}

static bool makes_key(const struct run *r, uint32_t s, const struct key *k);

/* the slots of s to stream because they make the call of a key with a remainder law (the whole
 * parameter group of each), in mask; false when there are none, or one of them has no such law */
static bool remainder_slots(struct plan *pl, const struct run *r, uint32_t s, bool *mask)
{
	const struct run_signature *x = &r->sigs[s];
	const int64_t *v = r->sigvals + x->voff;
	bool any = false;
	uint32_t p, e, q, e2;
	for (size_t i = 0; i < pl->nkeys; i++) {
		const struct key *k = &pl->keys[i];
		if (!k->remainder || !makes_key(r, s, k) || !param_walk_value_at(&r->fns[x->fn], v, x->nvals, k->slot, &p, &e))
			continue;
		for (uint32_t j = 0; j < x->nvals; j++)
			if (param_walk_value_at(&r->fns[x->fn], v, x->nvals, j, &q, &e2) && q == p)
				mask[j] = any = true;
	}
	for (uint32_t j = 0; any && j < x->nvals; j++)
		if (mask[j] && !key_of(pl, r, s, j, mask)->remainder)
			return false;
	return any;
}

/* in every group of rung i, the calls of keys with a remainder law streamed as that law (groups of
 * one rank, or alike groups left as they were, too): the class has one form on the ladder */
static void stream_remainders(struct plan *pl, size_t i)
{
	struct run *r = pl->rungs[i];
	uint32_t nmap = r->nsigs, *made = xmalloc((nmap + 1) * sizeof *made), *map = xmalloc((nmap + 1) * sizeof *map);
	uint64_t *calls = xcalloc(nmap + 1, sizeof *calls);
	bool *mask = NULL;
	for (uint32_t s = 0; s < nmap; s++)
		made[s] = UINT32_MAX;
	for (uint32_t g = 0; g < r->ngroups; g++) {
		bool any = false;
		memset(calls, 0, (nmap + 1) * sizeof *calls);
		grammar_terminal_counts(&r->groups[g].g, calls, nmap);
		for (uint32_t s = 0; s < nmap; s++) {
			map[s] = s;
			if (!calls[s])
				continue;
			free(mask);
			mask = xcalloc(r->sigs[s].nvals + 1, sizeof *mask);
			if (!remainder_slots(pl, r, s, mask))
				continue;
			if (made[s] == UINT32_MAX)
				made[s] = streamed_sig(r, s, mask);
			map[s] = made[s];
			law_stream(pl, i, s, made[s], mask, &r->groups[g].ranks, r->groups[g].nranks, calls[s]);
			any = true;
		}
		if (any) {
			grammar_map_terminals(&r->groups[g].g, map, nmap);
			remap_timing(&r->groups[g], map, nmap);
		}
	}
	free(mask);
	free(made);
	free(map);
	free(calls);
}

/* the groups marked in drop removed */
static void drop_groups(struct run *r, const bool *drop)
{
	uint32_t k = 0;
	for (uint32_t g = 0; g < r->ngroups; g++) {
		if (drop[g])
			run_group_free(&r->groups[g]);
		else
			r->groups[k++] = r->groups[g];
	}
	r->ngroups = k;
}

static void plan_free(struct plan *pl)
{
	for (size_t i = 0; i < pl->nkeys; i++) {
		free(pl->keys[i].grids);
		free(pl->keys[i].ranks);
		free(pl->keys[i].values);
	}
	for (size_t i = 0; i < pl->nsets; i++) {
		free(pl->sets[i].members);
		free(pl->sets[i].fs);
		free(pl->sets[i].ms);
	}
	free(pl->keys);
	free(pl->sets);
}

/* does literal signature s of r make the call of key k, with a number at its slot? */
static bool makes_key(const struct run *r, uint32_t s, const struct key *k)
{
	const struct run_signature *x = &r->sigs[s];
	if (x->fn != k->fn || x->callsite != k->callsite || k->slot >= x->nvals)
		return false;
	int64_t v = r->sigvals[x->voff + k->slot];
	return v != SV_STREAMED && !sv_is_symbolic(v) && tags_of(r, s, NULL) == k->tags;
}

/* every rank of every rung that makes key k's call, with its value: the points of all the ladder
 * (a rank that makes it with two values gives both) */
static struct key every_point(const struct plan *pl, size_t nrungs, const struct key *k)
{
	struct key all = *k;
	all.n = all.cap = 0, all.grids = NULL, all.ranks = NULL, all.values = NULL;
	for (size_t i = 0; i < nrungs; i++) {
		const struct run *r = pl->rungs[i];
		uint64_t *calls = xcalloc(r->nsigs + 1, sizeof *calls);
		for (uint32_t g = 0; g < r->ngroups; g++) {
			memset(calls, 0, (r->nsigs + 1) * sizeof *calls);
			grammar_terminal_counts(&r->groups[g].g, calls, r->nsigs);
			for (uint32_t s = 0; s < r->nsigs; s++) {
				if (!calls[s] || !makes_key(r, s, k))
					continue;
				uint32_t rank;
				RANKLIST_FOR(rank, &r->groups[g].ranks)
					key_add(&all, &pl->grids[i], rank, r->sigvals[r->sigs[s].voff + k->slot]);
			}
		}
		free(calls);
	}
	return all;
}

/* the coordinate law of k explains every point of all */
static bool coord_explains(const struct key *k, const struct key *all)
{
	for (size_t i = 0; i < all->n; i++)
		if (coord_law_eval(&k->law, &all->grids[i], all->ranks[i]) != all->values[i])
			return false;
	return true;
}

/* the keys' laws; the first that has none, in note. A count no coordinate law explains at every
 * rank of every rung that makes its call may be an uneven decomposition's share (remainder_law.h),
 * fitted over all of them. */
static void fit_keys(struct plan *pl, size_t nrungs, const struct grid *target, char *note, size_t notelen)
{
	for (size_t i = 0; i < pl->nkeys; i++) {
		struct key *k = &pl->keys[i];
		struct coord_points pts = {k->grids, k->ranks, k->values, k->n};
		k->fits = coord_law_fit(&pts, target, &k->law);
		struct key all = every_point(pl, nrungs, k);
		struct coord_points every = {all.grids, all.ranks, all.values, all.n};
		if (k->count && (!k->fits || !coord_explains(k, &all)) && remainder_law_fit(&every, &k->rem) &&
		    k->rem.lo == k->rem.hi)
			k->fits = k->remainder = true;
		free(all.grids);
		free(all.ranks);
		free(all.values);
		if (!k->fits && !note[0])
			snprintf(note, notelen, "%s value %u of its call site %llx has no law of the grid coordinates: %s",
				 pl->rungs[0]->fns[k->fn].name, k->slot, (unsigned long long)k->callsite, k->law.text);
	}
}

const struct alike_law *alike_law_of(const struct alike_laws *laws, uint32_t fn, uint64_t callsite, uint64_t tags,
				     uint32_t slot)
{
	for (size_t i = 0; laws && i < laws->n; i++)
		if (laws->v[i].fn == fn && laws->v[i].callsite == callsite && laws->v[i].slot == slot &&
		    laws->v[i].tags == tags)
			return &laws->v[i];
	return NULL;
}

/* the laws that fit, for the alignment */
static void keep_laws(const struct plan *pl, struct alike_laws *laws)
{
	laws->n = 0;
	laws->v = xmalloc((pl->nkeys + 1) * sizeof *laws->v);
	for (size_t i = 0; i < pl->nkeys; i++)
		if (pl->keys[i].fits)
			laws->v[laws->n++] = (struct alike_law){pl->keys[i].fn, pl->keys[i].slot, pl->keys[i].callsite,
								 pl->keys[i].tags, pl->keys[i].law, pl->keys[i].remainder,
								 pl->keys[i].rem};
}

void alike_unite(struct run *const *rungs, size_t n, const struct grid *grids, const struct grid *target,
		 struct alike_laws *laws, char *note, size_t notelen)
{
	struct plan pl = {.rungs = rungs, .grids = grids};
	note[0] = 0;
	for (size_t i = 0; i < n; i++)
		find_sets(&pl, i);
	fit_keys(&pl, n, target, note, notelen);
	for (size_t i = 0; i < n; i++) {
		struct run *r = rungs[i];
		bool *drop = xcalloc(r->ngroups + 1, sizeof *drop), any = false;
		for (size_t s = 0; s < pl.nsets; s++)
			if (pl.sets[s].rung == i && set_fits(&pl, &pl.sets[s])) {
				unite_set(&pl, &pl.sets[s], drop);
				any = true;
			}
		drop_groups(r, drop);
		free(drop);
		size_t before = r->nsigs;
		stream_remainders(&pl, i);
		any = any || r->nsigs != before;
		char why[300];
		if (any && !run_check(r, why, sizeof why) && !note[0])
			snprintf(note, notelen, "p%u: its united groups do not check: %s", r->nranks, why);
	}
	keep_laws(&pl, laws);
	plan_free(&pl);
}
