/*
 * origin — the target's classes, aligned or composed, built once. See origin.h.
 */
#include "extrap/origin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/classes.h"
#include "extrap/compose.h"
#include "extrap/evaluate.h"
#include "extrap/topology.h"
#include "util/xalloc.h"

enum { UNKNOWN = 0, BUILT, FAILED };

struct origins {
	struct run *const *rungs;
	size_t n;
	const struct grid *grids;
	const bool *periodic;
	struct grid target;
	const struct alike_laws *coord;
	bool lossy;
	uint64_t replaced;
	uint8_t state[TOPOLOGY_MAX_CLASSES];
	struct aligned_class cls[TOPOLOGY_MAX_CLASSES];
	int evidence;               /* UNKNOWN, BUILT (checked), FAILED (reason kept) */
	char evidence_why[600];
	struct grammar **pruned;    /* lossy alignment: [rung][group], or NULL */
	struct lcs_loss *unaligned; /* per rung: what it left out */
};

/* does some class have a call sequence of a different structure at different rungs? */
static bool shapes_differ(const struct origins *o)
{
	bool differ = false;
	for (uint32_t ci = 0; ci < topology_nclasses(&o->target) && !differ; ci++) {
		uint32_t c = topology_class_id(&o->target, ci);
		struct class_rungs cr = {.lossy = o->lossy};
		char why[1024];
		if (classes_rungs(c, o->rungs, o->grids, NULL, o->n, &cr, why, sizeof why))
			for (size_t i = 1; i < cr.n && !differ; i++) {
				const struct grammar *a = class_grammar(&cr, 0), *b = class_grammar(&cr, i);
				differ = a->nrules != b->nrules;
				for (uint32_t r = 0; r < a->nrules && !differ; r++)
					differ = grammar_rule_len(a, r) != grammar_rule_len(b, r);
			}
		class_rungs_free(&cr);
	}
	return differ;
}

/* the group of the middle rank of the largest rung: the reference of lossy alignment */
static void middle(const struct origins *o, size_t *rung, uint32_t *group)
{
	*rung = 0;
	for (size_t i = 1; i < o->n; i++)
		*rung = o->rungs[i]->nranks > o->rungs[*rung]->nranks ? i : *rung;
	const struct grid *g = &o->grids[*rung];
	int64_t rank = 0;
	for (uint32_t k = 0; k < g->ndims; k++)
		rank = rank * g->dims[k] + g->dims[k] / 2;
	*group = run_rank_group(o->rungs[*rung], (uint32_t)rank);
}

/* every group's grammar pruned to what all share; the calls left out per rung */
static bool prune(struct origins *o, char *why, size_t whylen)
{
	size_t total = 0, ref = 0, k = 0, rr;
	uint32_t rg;
	middle(o, &rr, &rg);
	for (size_t i = 0; i < o->n; i++)
		total += o->rungs[i]->ngroups;
	struct lcs_input *in = xmalloc((total + 1) * sizeof *in);
	struct grammar *out = xcalloc(total + 1, sizeof *out);
	for (size_t i = 0; i < o->n; i++)
		for (uint32_t g = 0; g < o->rungs[i]->ngroups; g++, k++) {
			in[k] = (struct lcs_input){o->rungs[i], &o->rungs[i]->groups[g].g};
			ref = i == rr && g == rg ? k : ref;
		}
	bool ok = lcs_common(in, total, ref, out, why, whylen);
	free(in);
	if (!ok) {
		free(out);
		return false;
	}
	o->pruned = xcalloc(o->n, sizeof *o->pruned);
	o->unaligned = xcalloc(o->n, sizeof *o->unaligned);
	for (size_t i = 0, k2 = 0; i < o->n; i++) {
		o->pruned[i] = out + k2;
		o->unaligned[i].ranks = o->rungs[i]->nranks;
		for (uint32_t g = 0; g < o->rungs[i]->ngroups; g++, k2++) {
			const struct run_group *grp = &o->rungs[i]->groups[g];
			uint64_t all = grammar_expanded_length(&grp->g), kept = grammar_expanded_length(&out[k2]);
			o->unaligned[i].calls += all * grp->nranks;
			o->unaligned[i].dropped += (all - kept) * grp->nranks;
		}
	}
	return true;
}

struct origins *origins_new(struct run *const *rungs, size_t n, const struct grid *grids, const bool *periodic,
			    const struct grid *target, const struct alike_laws *coord, bool lossy, char *why,
			    size_t whylen)
{
	struct origins *o = xcalloc(1, sizeof *o);
	*o = (struct origins){.rungs = rungs, .n = n, .grids = grids, .periodic = periodic, .target = *target,
			      .coord = coord, .lossy = lossy};
	if (lossy && shapes_differ(o) && !prune(o, why, whylen)) {
		size_t used = strlen(why);
		snprintf(why + used, whylen - used, ": lossy alignment keeps nothing");
		origins_free(o);
		return NULL;
	}
	return o;
}

uint64_t origins_replaced(const struct origins *o) { return o->replaced; }

const struct lcs_loss *origins_unaligned(const struct origins *o) { return o->unaligned; }

void origins_free(struct origins *o)
{
	for (uint32_t c = 0; c < TOPOLOGY_MAX_CLASSES; c++)
		if (o->state[c] == BUILT)
			aligned_class_free(&o->cls[c]);
	if (o->pruned) {
		size_t total = 0;
		for (size_t i = 0; i < o->n; i++)
			total += o->rungs[i]->ngroups;
		for (size_t k = 0; k < total; k++)
			grammar_free(&o->pruned[0][k]);
		free(o->pruned[0]);
	}
	free(o->pruned);
	free(o->unaligned);
	free(o);
}

/* the class aligned across the rungs that have it; NULL when fewer than two do (*rungs says how
 * many) or it does not align */
static struct aligned_class *aligned(struct origins *o, uint32_t cls, size_t *rungs, char *why, size_t whylen)
{
	const struct aligned_class *built[TOPOLOGY_MAX_CLASSES];
	size_t nbuilt = 0;
	for (uint32_t c = 0; c < TOPOLOGY_MAX_CLASSES; c++)
		if (o->state[c] == BUILT && c != cls)
			built[nbuilt++] = &o->cls[c];
	struct class_rungs cr = {.periodic = o->periodic, .coord = o->coord, .lossy = o->lossy, .others = built,
				 .nothers = nbuilt};
	bool ok = classes_rungs(cls, o->rungs, o->grids, o->pruned, o->n, &cr, why, whylen);
	*rungs = ok ? cr.n : 0;
	if (ok && cr.n < 2)
		classes_too_few(cls, &cr, o->grids, o->rungs, o->n, why, whylen);
	ok = ok && cr.n >= 2 && align_class(cls, &cr, &o->target, o->lossy, &o->cls[cls], why, whylen);
	if (ok)
		o->replaced += cr.replaced;
	else if (cr.n >= 2 && strstr(why, law_status_name(LAW_TOO_FEW))) {
		char add[1200];
		size_t used = strlen(why);
		classes_advice(cls, o->grids, o->rungs, o->n, add, sizeof add);
		snprintf(why + used, whylen - used, "; %s", add);
	}
	if (!ok && *rungs >= 2)
		aligned_class_free(&o->cls[cls]);
	class_rungs_free(&cr);
	o->state[cls] = ok ? BUILT : FAILED;
	return ok ? &o->cls[cls] : NULL;
}

/* a dimension no rung makes wider than 2 (it never has an interior) */
static bool never_inside(const struct origins *o, uint32_t k)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->grids[i].dims[k] >= 3)
			return false;
	return true;
}

/* one check of the union rule: class mid (interior along k) against its sides; 0 when the ladder
 * lacks one of the three, 1 when it holds, -1 when not (why) */
static int check_one(struct origins *o, uint32_t mid, uint32_t k, char *why, size_t whylen)
{
	uint32_t nd = o->target.ndims, ids[3] = {topology_class_with(mid, nd, k, POS_LOW), mid,
						     topology_class_with(mid, nd, k, POS_HIGH)};
	struct aligned_class *c[3];
	char skip[600];
	for (int i = 0; i < 3; i++) {
		size_t rungs;
		c[i] = o->state[ids[i]] == BUILT ? &o->cls[ids[i]]
		       : o->state[ids[i]] == FAILED ? NULL
						    : aligned(o, ids[i], &rungs, skip, sizeof skip);
		if (!c[i])
			return 0;
	}
	return compose_check(c[0], c[1], c[2], k, &o->target, why, whylen) ? 1 : -1;
}

/* the evidence for composing: along every dimension the ladder shows an interior of, the classes
 * that have one are the union of their sides */
static bool evidence(struct origins *o)
{
	if (o->evidence)
		return o->evidence == BUILT;
	uint32_t nd = o->target.ndims, checked = 0;
	for (uint32_t k = 0; k < nd && o->evidence != FAILED; k++)
		for (uint32_t i = 0; !never_inside(o, k) && i < topology_nclasses(&o->target) && o->evidence != FAILED; i++) {
			uint32_t c = topology_class_id(&o->target, i);
			if (topology_class_pos(c, nd, k) != POS_INTERIOR)
				continue;
			int r = check_one(o, c, k, o->evidence_why, sizeof o->evidence_why);
			checked += r == 1;
			o->evidence = r < 0 ? FAILED : o->evidence;
		}
	if (!o->evidence && !checked) {
		o->evidence = FAILED;
		snprintf(o->evidence_why, sizeof o->evidence_why,
			 "no dimension shows an interior at two rungs of the ladder beside both of its sides, so the rule "
			 "that an interior is the union of its sides cannot be checked");
	}
	o->evidence = o->evidence ? o->evidence : BUILT;
	return o->evidence == BUILT;
}

static struct aligned_class *composed(struct origins *o, uint32_t cls, uint32_t k, char *why, size_t whylen)
{
	uint32_t nd = o->target.ndims;
	char name[64], add[1200];
	topology_class_name(cls, nd, name, sizeof name);
	classes_advice(cls, o->grids, o->rungs, o->n, add, sizeof add);
	if (!evidence(o)) {
		snprintf(why, whylen,
			 "class %s: no rung has it (dimension %u is never wider than 2 on the ladder) and it cannot be "
			 "composed from its sides: %s; %s",
			 name, k, o->evidence_why, add);
		return NULL;
	}
	struct aligned_class *lo = origins_class(o, topology_class_with(cls, nd, k, POS_LOW), why, whylen);
	struct aligned_class *hi = lo ? origins_class(o, topology_class_with(cls, nd, k, POS_HIGH), why, whylen) : NULL;
	if (!hi)
		return NULL;
	bool ok = compose_union(lo, hi, k, cls, &o->target, &o->cls[cls], why, whylen);
	if (!ok) {
		aligned_class_free(&o->cls[cls]);
		size_t used = strlen(why);
		snprintf(why + used, whylen - used, "; %s", add);
	}
	o->state[cls] = ok ? BUILT : FAILED;
	return ok ? &o->cls[cls] : NULL;
}

/* do a and b, evaluated on grid g, make the same calls with the same values? */
static bool same_at(struct aligned_class *a, struct aligned_class *b, const struct grid *g, char *why, size_t whylen)
{
	struct class_at x, y;
	bool ok = evaluate_class(a, g, &x, why, whylen), ok2 = ok && evaluate_class(b, g, &y, why, whylen);
	ok = ok2 && grammar_equal(&x.g, &y.g) && a->nocc == b->nocc;
	for (uint32_t i = 0; ok && i < a->nocc; i++)
		ok = a->occ[i].dropped == b->occ[i].dropped && a->occ[i].nvals == b->occ[i].nvals &&
		     (a->occ[i].dropped || !memcmp(a->occ[i].vals, b->occ[i].vals, a->occ[i].nvals * sizeof *a->occ[i].vals));
	if (ok2 && !ok)
		snprintf(why, whylen, "the union makes other calls or values than the rung shows");
	class_at_free(&x);
	if (ok2)
		class_at_free(&y);
	return ok;
}

/* a class exactly one rung has (a non-periodic 27-point halo on rungs of 8 and 27 ranks: only 27
 * has interiors), interior along some dimension: the union of its sides along it (classes with
 * laws of their own, or composed alike), taken when on that rung's grid it makes the calls the
 * rung shows */
static struct aligned_class *composed_at_one(struct origins *o, uint32_t cls, char *why, size_t whylen)
{
	uint32_t nd = o->target.ndims;
	struct class_rungs cr = {.periodic = o->periodic, .coord = o->coord, .lossy = o->lossy};
	struct aligned_class seen;
	char reason[600] = "";
	bool ok = classes_rungs(cls, o->rungs, o->grids, o->pruned, o->n, &cr, reason, sizeof reason) && cr.n == 1;
	struct grid at = ok ? cr.grids[0] : o->target;
	if (ok) {   /* what the rung shows: its values as constants of a ladder of it twice, on its own grid */
		cr.runs[1] = cr.runs[0], cr.groups[1] = cr.groups[0], ((struct grid *)cr.grids)[1] = cr.grids[0];
		if (cr.grammars)
			cr.grammars[1] = cr.grammars[0];
		cr.n = 2;
	}
	if (ok && !align_class(cls, &cr, &at, o->lossy, &seen, reason, sizeof reason)) {
		aligned_class_free(&seen);
		ok = false;
	}
	class_rungs_free(&cr);
	bool built = false;
	for (uint32_t k = 0; ok && !built && k < nd; k++) {
		if (topology_class_pos(cls, nd, k) != POS_INTERIOR)
			continue;
		struct aligned_class *lo = origins_class(o, topology_class_with(cls, nd, k, POS_LOW), reason, sizeof reason);
		struct aligned_class *hi = lo ? origins_class(o, topology_class_with(cls, nd, k, POS_HIGH), reason,
							     sizeof reason) : NULL;
		struct aligned_class u;
		if (!hi)
			continue;
		bool here = compose_union_on(lo, hi, k, cls, &at, &o->target, &u, reason, sizeof reason);
		here = here && same_at(&u, &seen, &at, reason, sizeof reason);
		aligned_class_free(&u);
		if (here && compose_union(lo, hi, k, cls, &o->target, &o->cls[cls], reason, sizeof reason)) {
			snprintf(o->cls[cls].origin, sizeof o->cls[cls].origin, "union of its sides along dimension %u, as at p%u",
				 k, (unsigned)grid_size(&at));
			built = true;
		} else if (here) {
			aligned_class_free(&o->cls[cls]);
		}
	}
	if (ok)
		aligned_class_free(&seen);
	if (!built && reason[0]) {
		size_t used = strlen(why);
		snprintf(why + used, whylen - used, "; nor is it the union of its sides: %s", reason);
	}
	o->state[cls] = built ? BUILT : FAILED;
	return built ? &o->cls[cls] : NULL;
}

/* is the class, at every rung that has it (mine), in the group class c is in there (cr)? */
static bool same_groups(const struct class_rungs *mine, const struct class_rungs *cr)
{
	for (size_t i = 0; i < mine->n; i++) {
		bool found = false;
		for (size_t j = 0; j < cr->n && !found; j++)
			found = cr->runs[j] == mine->runs[i] && cr->groups[j] == mine->groups[i];
		if (!found)
			return false;
	}
	return mine->n > 0;
}

/* a rank of class cls on grid g of rank count n, or -1 */
static int64_t rank_of_class(const struct grid *g, uint32_t n, uint32_t cls)
{
	for (uint32_t rank = 0; rank < n; rank++)
		if (topology_class(g, rank) == cls)
			return rank;
	return -1;
}

/* do ranks a and b of r read the same streams, or streams of the same values (relative peers: the
 * same moves on r's grid)? A group holds ranks whose streamed values differ: a corner's streams
 * of a non-periodic halo hold MPI_PROC_NULL where an interior rank's hold its neighbours. */
static bool read_alike(const struct run *r, uint32_t a, uint32_t b)
{
	const struct run_stream **sa = xcalloc(r->nstreams + 1, sizeof *sa), **sb = xcalloc(r->nstreams + 1, sizeof *sb);
	uint32_t na = run_rank_streams(r, a, sa), nb = run_rank_streams(r, b, sb);
	bool alike = na == nb;
	for (uint32_t i = 0; alike && i < na; i++) {
		alike = sa[i]->sig == sb[i]->sig && sa[i]->length == sb[i]->length;
		for (uint64_t v = 0; alike && sa[i] != sb[i] && v < sa[i]->length; v++)
			alike = run_stream_value(sa[i], a, v) == run_stream_value(sb[i], b, v);
	}
	free(sa);
	free(sb);
	return alike;
}

/* at every rung that has class cls (mine), do its ranks read what class c's read? */
static bool streams_alike(const struct class_rungs *mine, uint32_t cls, uint32_t c)
{
	for (size_t i = 0; i < mine->n; i++) {
		const struct run *r = mine->runs[i];
		int64_t a = rank_of_class(&mine->grids[i], r->nranks, cls), b = rank_of_class(&mine->grids[i], r->nranks, c);
		if (a < 0 || b < 0 || !read_alike(r, (uint32_t)a, (uint32_t)b))
			return false;
	}
	return true;
}

/* another class seen at two rungs or more whose ranks are in the same group as the class's at
 * every rung that has the class, and read the same streamed values there (they behave alike: an interior off a grid's part that only the
 * largest rung has, like the edges off it), aligned as the class; NULL when none is */
static struct aligned_class *borrowed(struct origins *o, uint32_t cls)
{
	struct class_rungs mine = {.lossy = o->lossy};
	char skip[600];
	struct aligned_class *a = NULL;
	bool ok = classes_rungs(cls, o->rungs, o->grids, o->pruned, o->n, &mine, skip, sizeof skip);
	for (uint32_t i = 0; ok && !a && i < topology_nclasses(&o->target); i++) {
		uint32_t c = topology_class_id(&o->target, i);
		struct class_rungs cr = {.periodic = o->periodic, .coord = o->coord, .lossy = o->lossy};
		if (c != cls && classes_rungs(c, o->rungs, o->grids, o->pruned, o->n, &cr, skip, sizeof skip) &&
		    cr.n >= 2 && same_groups(&mine, &cr) && streams_alike(&mine, cls, c)) {
			if (align_class(c, &cr, &o->target, o->lossy, &o->cls[cls], skip, sizeof skip)) {
				char name[64];
				a = &o->cls[cls];
				a->cls = cls;
				topology_class_name(c, o->target.ndims, name, sizeof name);
				snprintf(a->origin, sizeof a->origin, "laws of class %.40s (alike where both exist)", name);
				o->state[cls] = BUILT;
			} else {
				aligned_class_free(&o->cls[cls]);
			}
		}
		class_rungs_free(&cr);
	}
	class_rungs_free(&mine);
	return a;
}

struct aligned_class *origins_class(struct origins *o, uint32_t cls, char *why, size_t whylen)
{
	if (o->state[cls] == BUILT)
		return &o->cls[cls];
	size_t rungs = 0;
	struct aligned_class *a = aligned(o, cls, &rungs, why, whylen);
	for (uint32_t k = 0; !a && rungs < 2 && k < o->target.ndims; k++)
		if (topology_class_pos(cls, o->target.ndims, k) == POS_INTERIOR && never_inside(o, k))
			return composed(o, cls, k, why, whylen);
	if (!a && rungs < 2)
		a = borrowed(o, cls) ? &o->cls[cls] : NULL;
	if (!a && rungs == 1)
		a = composed_at_one(o, cls, why, whylen);
	return a;
}
