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
	value_param(d, a->ref->sigvals + s->voff, s->nvals, j, &p, &e);
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
			char what[300];
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

/* requests named by their creator's signature at the target */
static bool name_requests(struct aligned_class *a, char *why, size_t whylen)
{
	if (a->lossy)
		settle_requests(a);
	uint64_t *key = xmalloc((a->nocc + 1) * sizeof *key);
	for (uint32_t i = 0; i < a->nocc; i++) {
		const struct occurrence *o = &a->occ[i];
		key[i] = run_signature_req_key(o->fn, o->callsite, o->flags, &a->ref->fns[o->fn], o->vals, o->nvals);
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
		char what[300];
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

/* does rule r keep nothing? state: 0 unknown, 1 empty, 2 keeps something (no recursion) */
static bool empty_rule(const struct aligned_class *a, const struct grammar *g, uint32_t r, uint8_t *state)
{
	if (!state[r]) {
		bool empty = true;
		for (uint64_t k = 0; empty && k < grammar_rule_len(g, r); k++) {
			struct gsymbol s = grammar_rule_syms(g, r)[k];
			uint64_t at = g->rule_start[r] + k;
			empty = a->symdrop[at] || (gsym_is_rule(s) ? empty_rule(a, g, gsym_rule(s), state) : a->occ[s.val].dropped);
		}
		state[r] = empty ? 1 : 2;
	}
	return state[r] == 1;
}

static void empty_rules(const struct aligned_class *a, const struct grammar *g, bool *empty)
{
	uint8_t *state = xcalloc(g->nrules + 1, 1);
	for (uint32_t r = 0; r < g->nrules; r++)
		empty[r] = empty_rule(a, g, r, state);
	free(state);
}

/* the rules the start rule still reaches through kept symbols (none of them empty) */
static void mark_kept(const struct aligned_class *a, const struct grammar *g, const bool *empty, uint32_t r, bool *kept)
{
	if (kept[r] || empty[r])
		return;
	kept[r] = true;
	for (uint64_t k = 0; k < grammar_rule_len(g, r); k++) {
		struct gsymbol s = grammar_rule_syms(g, r)[k];
		if (gsym_is_rule(s) && !a->symdrop[g->rule_start[r] + k])
			mark_kept(a, g, empty, gsym_rule(s), kept);
	}
}

/* the grammar of the calls kept: dropped calls, empty and unreached rules left out, rules renumbered */
static bool kept_grammar(const struct aligned_class *a, const struct grammar *g, struct grammar *out)
{
	bool *empty = xcalloc(g->nrules + 1, sizeof *empty), *kept = xcalloc(g->nrules + 1, sizeof *kept);
	uint32_t *number = xcalloc(g->nrules + 1, sizeof *number), n = 0;
	empty_rules(a, g, empty);
	mark_kept(a, g, empty, 0, kept);
	for (uint32_t r = 0; r < g->nrules; r++)
		number[r] = kept[r] ? n++ : UINT32_MAX;
	grammar_init(out);
	for (uint32_t r = 0; r < g->nrules; r++) {
		if (!kept[r])
			continue;
		grammar_begin_rule(out);
		for (uint64_t k = 0; k < grammar_rule_len(g, r); k++) {
			struct gsymbol s = grammar_rule_syms(g, r)[k];
			if (a->symdrop[g->rule_start[r] + k])
				continue;
			if (gsym_is_rule(s) && kept[gsym_rule(s)])
				grammar_add_symbol(out, gsym_rule_val(number[gsym_rule(s)]), s.exp);
			else if (!gsym_is_rule(s) && !a->occ[s.val].dropped)
				grammar_add_symbol(out, s.val, s.exp);
		}
	}
	grammar_end(out);
	bool any = kept[0];
	free(empty);
	free(kept);
	free(number);
	return any;
}

/* calls of approximated occurrences per rank, in the grammar of the kept calls */
static uint64_t approximated_calls(const struct aligned_class *a, const struct grammar *g)
{
	uint64_t *counts = xcalloc(a->nocc + 1, sizeof *counts), n = 0;
	grammar_terminal_counts(g, counts, a->nocc);
	for (uint32_t o = 0; o < a->nocc; o++)
		n += a->occ[o].approximated ? counts[o] : 0;
	free(counts);
	return n;
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
	bool kept = kept_grammar(a, &full, &out->g);
	out->kept = kept ? grammar_expanded_length(&out->g) : 0;
	out->dropped = grammar_expanded_length(&full) - out->kept;
	out->approximated = kept ? approximated_calls(a, &out->g) : 0;
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
