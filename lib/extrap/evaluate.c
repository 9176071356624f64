/*
 * evaluate — an aligned class's values, repetition counts and requests at the target. See
 * evaluate.h.
 */
#include "extrap/evaluate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/family.h"
#include "util/xalloc.h"

static int call_where(const struct aligned_class *a, uint32_t o, uint32_t j, char *why, size_t whylen)
{
	const struct run_signature *s = &a->ref->sigs[a->occ[o].ref_sig];
	const struct fn_desc *d = &a->ref->fns[s->fn];
	uint32_t p = 0, e = 0;
	param_walk_value_at(d, a->ref->sigvals + s->voff, s->nvals, j, &p, &e);
	int used = align_where(a->cls, a->grids[0].ndims, why, whylen);
	return used + snprintf(why + used, whylen - (size_t)used, " (%s), call %u: %s %s: ", a->origin, o, d->name,
			       d->params[p].name);
}

/* every value but request names */
static bool evaluate_values(struct aligned_class *a, const struct grid *target, char *why, size_t whylen)
{
	for (uint32_t o = 0; o < a->nocc; o++) {
		struct occurrence *oc = &a->occ[o];
		free(oc->vals);
		oc->vals = xcalloc(oc->nvals + 1, sizeof *oc->vals);
		for (uint32_t j = 0; !oc->dropped && j < oc->nvals; j++) {
			char what[1024];
			if (oc->x[j].kind == XV_CREATOR ||
			    xval_eval(&oc->x[j], target, a->cls, &oc->vals[j], what, sizeof what))
				continue;
			int used = call_where(a, o, j, why, whylen);
			snprintf(why + used, whylen - (size_t)used, "%s", what);
			if (!a->lossy)
				return false;
			aligned_class_drop(a, o, why);
		}
	}
	return true;
}

/* lossy mode: a call that completes a dropped call's request goes too, and so do the requests a
 * dropped completion would have left pending, until nothing changes */
static void settle_requests(struct aligned_class *a)
{
	for (bool changed = true; changed;) {
		changed = false;
		for (uint32_t i = 0; i < a->nocc; i++)
			for (uint32_t j = 0; j < a->occ[i].nvals; j++) {
				const struct xval *x = &a->occ[i].x[j];
				if (x->kind != XV_CREATOR || (uint64_t)x->v >= a->nocc ||
				    a->occ[i].dropped == a->occ[x->v].dropped)
					continue;
				uint32_t victim = a->occ[i].dropped ? (uint32_t)x->v : i;
				aligned_class_drop(a, victim, "a request's creating or completing call was dropped");
				changed = true;
			}
	}
}

/* a call that reads the status another call filled in (MPI_Get_count, MPI_Get_elements) */
static bool reads_status(const char *fn)
{
	return !strcmp(fn, "MPI_Get_count") || !strcmp(fn, "MPI_Get_elements") || !strcmp(fn, "MPI_Get_elements_x");
}

/* lossy mode: a call that reads the status of the call before it in its rule goes with it (a
 * Get_count whose Recv or Sendrecv was dropped would read a status nobody filled in); chains of
 * them go together */
static void settle_status_readers(struct aligned_class *a)
{
	for (uint32_t r = 0; r < a->g.nrules; r++) {
		const struct gsymbol *syms = grammar_rule_syms(&a->g, r);
		for (uint64_t k = 1; k < grammar_rule_len(&a->g, r); k++) {
			if (gsym_is_rule(syms[k]) || gsym_is_rule(syms[k - 1]))
				continue;
			uint32_t o = (uint32_t)syms[k].val, before = (uint32_t)syms[k - 1].val;
			if (o < a->nocc && before < a->nocc && a->occ[before].dropped && !a->occ[o].dropped &&
			    reads_status(a->ref->fns[a->occ[o].fn].name))
				aligned_class_drop(a, o, "it reads the status of the call before it, which lossy mode dropped");
		}
	}
}

/* requests named by their creator's signature at the target */
static bool name_requests(struct aligned_class *a, char *why, size_t whylen)
{
	if (a->lossy) {
		settle_requests(a);
		settle_status_readers(a);
	}
	bool by_base = run_req_pools_by_base(a->ref);   /* the synthetic run takes ref's header */
	uint64_t *key = xmalloc((a->nocc + 1) * sizeof *key);
	for (uint32_t i = 0; i < a->nocc; i++) {
		const struct occurrence *o = &a->occ[i];
		key[i] = run_signature_req_key(by_base, o->fn, o->callsite, o->flags, &a->ref->fns[o->fn], o->vals, o->nvals);
	}
	bool ok = true;
	for (uint32_t i = 0; ok && i < a->nocc; i++)
		for (uint32_t j = 0; ok && !a->occ[i].dropped && j < a->occ[i].nvals; j++) {
			const struct xval *x = &a->occ[i].x[j];
			if (x->kind != XV_CREATOR)
				continue;
			a->occ[i].vals[j] = (int64_t)key[x->v];
			if (a->occ[x->v].dropped) {
				int used = call_where(a, i, j, why, whylen);
				snprintf(why + used, whylen - (size_t)used,
					 "completes the request of call %lld, which lossy mode dropped", (long long)x->v);
				ok = false;
			}
		}
	free(key);
	return ok;
}

/* the grammar with repetition counts at the target; false when one is below 1 */
static bool counted_grammar(const struct aligned_class *a, const struct grid *target, struct grammar *g, char *why,
			    size_t whylen)
{
	grammar_copy(g, &a->g);
	for (uint64_t i = 0; i < g->nsyms; i++) {
		int64_t v;
		char what[1024];
		if (!xval_eval(&a->reps[i], target, a->cls, &v, what, sizeof what) || v < 1) {
			int used = align_where(a->cls, target->ndims, why, whylen);
			snprintf(why + used, whylen - (size_t)used, ": a repetition count is %s at the target",
				 v < 1 ? "below 1" : what);
			return false;
		}
		g->syms[i].exp = (uint64_t)v;
	}
	return true;
}

/* lossy mode keeps a symbol unless its repetition count or its call was dropped */
static bool kept_symbol(const struct grammar *g, uint64_t sym, void *arg)
{
	const struct aligned_class *a = arg;
	struct gsymbol s = g->syms[sym];
	return !a->symdrop[sym] && (gsym_is_rule(s) || !a->occ[s.val].dropped);
}

/* calls per rank of the occurrences approximated (a count as at the largest rung) and of those
 * with count arrays by rule, in the grammar of the kept calls */
static void approximated_calls(const struct aligned_class *a, const struct grammar *g, struct class_at *out)
{
	uint64_t *counts = xcalloc(a->nocc + 1, sizeof *counts);
	grammar_terminal_counts(g, counts, a->nocc);
	for (uint32_t o = 0; o < a->nocc; o++) {
		out->approximated += a->occ[o].approximated ? counts[o] : 0;
		out->shared += a->occ[o].shared ? counts[o] : 0;
	}
	free(counts);
}

bool evaluate_class(struct aligned_class *a, const struct grid *target, struct class_at *out, char *why,
		    size_t whylen)
{
	memset(out, 0, sizeof *out);
	grammar_init(&out->g);
	family_orient(a, target->ndims);
	struct grammar full;
	if (!evaluate_values(a, target, why, whylen) || !name_requests(a, why, whylen))
		return false;
	if (!counted_grammar(a, target, &full, why, whylen)) {
		grammar_free(&full);
		return false;
	}
	grammar_free(&out->g);
	bool kept = grammar_prune(&full, kept_symbol, a, &out->g);
	out->kept = kept ? grammar_expanded_length(&out->g) : 0;
	out->dropped = grammar_expanded_length(&full) - out->kept;
	if (kept)
		approximated_calls(a, &out->g, out);
	grammar_free(&full);
	if (!kept) {
		int used = align_where(a->cls, target->ndims, why, whylen);
		snprintf(why + used, whylen - (size_t)used, ": lossy mode would drop every call: %s", a->first_dropped);
	}
	return kept;
}

void class_at_free(struct class_at *c)
{
	grammar_free(&c->g);
	memset(c, 0, sizeof *c);
}
