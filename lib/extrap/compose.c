/*
 * compose — a class's calls as the union of its low and high sides along one dimension. See
 * compose.h.
 */
#include "extrap/compose.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/stream_at.h"
#include "extrap/topology.h"
#include "mpi/signature.h"
#include "util/xalloc.h"

/* the absolute root of the occurrence's rooted call, or -1 */
static int64_t root_of(const struct aligned_class *a, uint32_t o)
{
	const struct occurrence *oc = &a->occ[o];
	const struct run_signature *s = &a->ref->sigs[oc->ref_sig];
	const struct fn_desc *d = &a->ref->fns[oc->fn];
	for (uint32_t j = 0; j < oc->nvals; j++) {
		uint32_t p, e;
		if (param_walk_value_at(d, a->ref->sigvals + s->voff, s->nvals, j, &p, &e) && d->params[p].kind == PK_ROOT &&
		    oc->x[j].kind == XV_CONST && !sv_is_symbolic(oc->x[j].v))
			return oc->x[j].v;
	}
	return -1;
}

static bool is_count(const struct aligned_class *a, uint32_t o, uint32_t j)
{
	const struct run_signature *s = &a->ref->sigs[a->occ[o].ref_sig];
	const struct fn_desc *d = &a->ref->fns[a->occ[o].fn];
	uint32_t p, e;
	return param_walk_value_at(d, a->ref->sigvals + s->voff, s->nvals, j, &p, &e) && d->params[p].kind == PK_COUNT;
}

/* does the class hold rank `root` at every rung it was seen at? */
static bool holds(const struct aligned_class *a, int64_t root)
{
	bool all = root >= 0;
	for (size_t q = 0; all && q < a->nrungs; q++)
		all = root < grid_size(&a->grids[q]) && topology_class(&a->grids[q], root) == a->cls;
	return all;
}

/* the occurrence's values on the united class: both sides alike, or PROC_NULL beside a move
 * along dim */
static bool unite_value(struct xval *out, const struct xval *a, const struct xval *b, uint32_t dim,
			const struct grid *target)
{
	xval_copy(out, a);
	if (xval_agree(out, b, target))
		return true;
	xval_free(out);
	const struct xval *null = a->kind == XV_CONST && a->v == SV_PROC_NULL ? a : b, *move = null == a ? b : a;
	/* a move across dim (along it alone, or diagonally in a 27-point halo): off the grid beyond
	 * one side's edge, on it from the interior; its other coordinates are the class's own */
	if (!(null->kind == XV_CONST && null->v == SV_PROC_NULL && move->kind == XV_STEP &&
	      !(move->step.mask[dim] & STEP_STAY)))
		return false;
	xval_copy(out, move);
	return true;
}

struct sides {
	const struct aligned_class *lo, *hi, *take;   /* take: the side whose rungs and timing are kept */
	const struct grid *streams_at;   /* the grid the sides' streams were evaluated on */
};

/* which side holds the root of occurrence o's rooted call, and whether the composed class does */
static const struct aligned_class *root_side(const struct sides *s, uint32_t o, uint32_t cls, const struct grid *t)
{
	int64_t root = root_of(s->lo, o);
	if (root < 0 || root != root_of(s->hi, o))
		return NULL;
	bool lo = holds(s->lo, root), hi = holds(s->hi, root);
	bool mine = root < grid_size(t) && topology_class(t, root) == cls;
	if (lo == hi)
		return NULL;
	return mine == lo ? s->lo : s->hi;   /* the side whose rootness the composed class shares */
}

static bool unite_occurrence(const struct sides *s, uint32_t o, uint32_t dim, uint32_t cls, const struct grid *t,
			     struct occurrence *out, char *why, size_t whylen)
{
	const struct occurrence *a = &s->lo->occ[o], *b = &s->hi->occ[o], *mine = &s->take->occ[o];
	*out = *mine;
	out->x = xcalloc(mine->nvals + 1, sizeof *out->x);
	out->vals = NULL;
	out->rung_sigs = xmalloc(s->take->nrungs * sizeof *out->rung_sigs);
	memcpy(out->rung_sigs, mine->rung_sigs, s->take->nrungs * sizeof *out->rung_sigs);
	out->stream = NULL;
	out->dropped = a->dropped || b->dropped;
	out->approximated = a->approximated || b->approximated;
	out->shared = a->shared || b->shared;
	struct stream_sides edge = {s->streams_at, cls, dim};
	if ((a->stream || b->stream) && !out->dropped && !(out->stream = stream_at_unite(a->stream, b->stream, &edge))) {
		snprintf(why, whylen, "call %u (%s) streams different values on the low and the high side", o,
			 s->lo->ref->fns[a->fn].name);
		if (!s->take->lossy)
			return false;
		out->dropped = true;
	}
	if (a->fn != b->fn || a->callsite != b->callsite || a->flags != b->flags || a->nvals != b->nvals) {
		snprintf(why, whylen, "call %u is %s on one side and %s on the other", o, s->lo->ref->fns[a->fn].name,
			 s->hi->ref->fns[b->fn].name);
		return false;
	}
	const struct aligned_class *like = root_side(s, o, cls, t);
	for (uint32_t j = 0; j < a->nvals; j++) {
		if (like) {
			xval_copy(&out->x[j], &like->occ[o].x[j]);
			continue;
		}
		if (out->dropped || unite_value(&out->x[j], &a->x[j], &b->x[j], dim, t))
			continue;
		char va[96], vb[96];
		xval_describe(&a->x[j], t->ndims, va, sizeof va);
		xval_describe(&b->x[j], t->ndims, vb, sizeof vb);
		snprintf(why, whylen, "call %u (%s) value %u is %s on the low side and %s on the high side", o,
			 s->lo->ref->fns[a->fn].name, j, va, vb);
		if (!s->take->lossy)
			return false;
		if (is_count(s->take, o, j)) {   /* lossy mode: a count the sides disagree on, as on one side */
			xval_copy(&out->x[j], &mine->x[j]);
			out->approximated = true;
		} else {
			out->dropped = true;   /* lossy mode: the sides disagree, the call goes */
		}
	}
	return true;
}

static bool same_grammar_shape(const struct grammar *a, const struct grammar *b)
{
	if (a->nrules != b->nrules || a->nsyms != b->nsyms)
		return false;
	for (uint64_t i = 0; i < a->nsyms; i++)
		if (a->syms[i].val != b->syms[i].val)
			return false;
	for (uint32_t r = 0; r <= a->nrules; r++)
		if (a->rule_start[r] != b->rule_start[r])
			return false;
	return true;
}

static void copy_frame(const struct aligned_class *from, uint32_t cls, struct aligned_class *out)
{
	memset(out, 0, sizeof *out);
	out->cls = cls;
	out->lossy = from->lossy;
	aligned_class_rungs(out, from->runs, from->groups, from->grids, from->nrungs);
	out->ref = from->ref;
	out->ref_group = from->ref_group;
	grammar_copy(&out->g, &from->g);
	snprintf(out->first_dropped, sizeof out->first_dropped, "%s", from->first_dropped);
	snprintf(out->first_approximated, sizeof out->first_approximated, "%s", from->first_approximated);
	snprintf(out->first_shared, sizeof out->first_shared, "%s", from->first_shared);
}

static bool unite(const struct sides *s, uint32_t dim, uint32_t cls, const struct grid *t, struct aligned_class *out,
		  char *why, size_t whylen)
{
	copy_frame(s->take, cls, out);
	if (!same_grammar_shape(&s->lo->g, &s->hi->g) || s->lo->nocc != s->hi->nocc) {
		snprintf(why, whylen, "the call sequences of the two sides have different structures");
		return false;
	}
	out->reps = xcalloc(out->g.nsyms + 1, sizeof *out->reps);
	out->symdrop = xcalloc(out->g.nsyms + 1, sizeof *out->symdrop);
	for (uint64_t i = 0; i < out->g.nsyms; i++) {
		xval_copy(&out->reps[i], &s->take->reps[i]);
		out->symdrop[i] = s->lo->symdrop[i] || s->hi->symdrop[i];
		struct xval other;
		xval_copy(&other, &s->lo->reps[i]);
		bool agree = out->symdrop[i] || xval_agree(&other, &s->hi->reps[i], t);
		xval_free(&other);
		if (!agree && !out->lossy) {
			snprintf(why, whylen, "symbol %llu repeats differently on the two sides", (unsigned long long)i);
			return false;
		}
		out->symdrop[i] = out->symdrop[i] || !agree;
	}
	out->occ = xcalloc(s->lo->nocc + 1, sizeof *out->occ);
	for (uint32_t o = 0; o < s->lo->nocc; o++) {
		why[0] = 0;
		bool ok = unite_occurrence(s, o, dim, cls, t, &out->occ[out->nocc++], why, whylen);
		if (!ok)
			return false;
		if (why[0] && out->occ[o].dropped && !out->first_dropped[0])   /* lossy mode dropped it */
			snprintf(out->first_dropped, sizeof out->first_dropped, "composing along dimension %u: %s", dim, why);
		if (why[0] && !out->occ[o].dropped && !out->first_approximated[0])   /* or approximated a count */
			snprintf(out->first_approximated, sizeof out->first_approximated, "composing along dimension %u: %s",
				 dim, why);
	}
	return true;
}

/* the side whose rungs and timing the composed class keeps: the one without a root it lacks */
static void choose_side(struct sides *s, uint32_t cls, const struct grid *t)
{
	s->take = s->lo;
	for (uint32_t o = 0; o < s->lo->nocc && o < s->hi->nocc; o++) {
		const struct aligned_class *like = root_side(s, o, cls, t);
		if (like) {
			s->take = like;
			return;
		}
	}
}

bool compose_union(const struct aligned_class *lo, const struct aligned_class *hi, uint32_t dim, uint32_t cls,
		   const struct grid *target, struct aligned_class *out, char *why, size_t whylen)
{
	return compose_union_on(lo, hi, dim, cls, target, target, out, why, whylen);
}

bool compose_union_on(const struct aligned_class *lo, const struct aligned_class *hi, uint32_t dim, uint32_t cls,
		      const struct grid *target, const struct grid *streams_at, struct aligned_class *out, char *why,
		      size_t whylen)
{
	struct sides s = {lo, hi, lo, streams_at};
	choose_side(&s, cls, target);
	char reason[1024] = "";
	bool ok = unite(&s, dim, cls, target, out, reason, sizeof reason);
	char name[64];
	topology_class_name(cls, target->ndims, name, sizeof name);
	snprintf(out->origin, sizeof out->origin, "the union of its low and high sides along dimension %u", dim);
	if (!ok)
		snprintf(why, whylen,
			 "class %s, which no rung has, cannot be composed as the union of its low and high sides along "
			 "dimension %u: %s",
			 name, dim, reason);
	return ok;
}

/* does u (a union) give mid? In lossy mode counts may differ: they are data, approximated */
static bool agree_class(struct aligned_class *u, const struct aligned_class *mid, const struct grid *t, char *why,
			size_t whylen)
{
	if (!same_grammar_shape(&u->g, &mid->g) || u->nocc != mid->nocc) {
		snprintf(why, whylen, "its call sequence has a different structure");
		return false;
	}
	for (uint64_t i = 0; i < u->g.nsyms; i++)
		if (!u->symdrop[i] && !mid->symdrop[i] && !xval_agree(&u->reps[i], &mid->reps[i], t)) {
			snprintf(why, whylen, "symbol %llu repeats differently", (unsigned long long)i);
			return false;
		}
	for (uint32_t o = 0; o < u->nocc; o++)
		for (uint32_t j = 0; !u->occ[o].dropped && !mid->occ[o].dropped && j < u->occ[o].nvals; j++)
			if (u->occ[o].fn != mid->occ[o].fn ||
			    (!xval_agree(&u->occ[o].x[j], &mid->occ[o].x[j], t) && !(u->lossy && is_count(mid, o, j)))) {
				char va[96], vb[96];
				xval_describe(&u->occ[o].x[j], t->ndims, va, sizeof va);
				xval_describe(&mid->occ[o].x[j], t->ndims, vb, sizeof vb);
				snprintf(why, whylen, "call %u (%s) value %u would be %s but is %s", o,
					 mid->ref->fns[mid->occ[o].fn].name, j, va, vb);
				return false;
			}
	return true;
}

bool compose_check(const struct aligned_class *lo, const struct aligned_class *mid, const struct aligned_class *hi,
		   uint32_t dim, const struct grid *target, char *why, size_t whylen)
{
	struct aligned_class u;
	char reason[1024];
	bool ok = compose_union(lo, hi, dim, mid->cls, target, &u, reason, sizeof reason) &&
		  agree_class(&u, mid, target, reason, sizeof reason);
	aligned_class_free(&u);
	if (!ok) {
		char name[64];
		topology_class_name(mid->cls, target->ndims, name, sizeof name);
		snprintf(why, whylen, "the interior along dimension %u of class %s (%s) is not the union of its low and "
			 "high sides: %s", dim, name, mid->origin, reason);
	}
	return ok;
}
