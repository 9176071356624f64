/*
 * align — a position class's grammar and signatures matched across the rungs, values and trip
 * counts turned into laws. See align.h.
 */
#include "extrap/align.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/topology.h"
#include "util/xalloc.h"

struct site {              /* where in the class's grammar a value lives, for messages */
	uint32_t cls, ndims, rule;
	uint64_t pos;
	const struct class_rungs *cr;
};

static int where(const struct site *s, char *why, size_t whylen)
{
	char name[64];
	topology_class_name(s->cls, s->ndims, name, sizeof name);
	return snprintf(why, whylen, "class %s, rule R%u symbol %llu: ", name, s->rule, (unsigned long long)s->pos);
}

/* "4 at p9, 5 at p16" */
static void list_values(const struct site *s, const int64_t *v, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = 0;
	for (size_t i = 0; i < s->cr->n && used < outlen; i++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%lld at p%u", i ? ", " : "", (long long)v[i],
					 s->cr->runs[i]->nranks);
}

static bool solve(const struct site *s, const char *what, const int64_t *v, const struct grid *target, int64_t *out,
		  char *why, size_t whylen)
{
	bool symbolic = false, equal = true;
	for (size_t i = 0; i < s->cr->n; i++) {
		symbolic = symbolic || sv_is_symbolic(v[i]);
		equal = equal && v[i] == v[0];
	}
	if (equal) {
		*out = v[0];
		return true;
	}
	char values[256];
	list_values(s, v, values, sizeof values);
	int used = where(s, why, whylen);
	if (symbolic) {
		snprintf(why + used, whylen - (size_t)used, "%s is symbolic at some rungs only (%s)", what, values);
		return false;
	}
	struct law law;
	law_solve(v, s->cr->grids, s->cr->n, target, &law);
	if (law.status == LAW_OK) {
		*out = law.predicted;
		return true;
	}
	snprintf(why + used, whylen - (size_t)used, "%s (%s): %s: %s", what, values, law_status_name(law.status),
		 law.text);
	return false;
}

/* Why a call's value count differs across rungs, when one of its count arrays has one entry per
 * rank (an Alltoallv's): whether the entries vary from peer to peer (data-dependent, no law of the
 * grid) or are all equal (a law could give them; per-peer arrays are not extrapolated). False when
 * no such array explains the difference. */
static bool per_rank_array(const struct run *r, const struct run_signature *sig, char *out, size_t outlen)
{
	const struct fn_desc *d = &r->fns[sig->fn];
	const int64_t *v = r->sigvals + sig->voff;
	uint32_t i = 0;
	for (uint32_t p = 0; p < d->nparams && i < sig->nvals; p++) {
		bool bad = false;
		enum param_kind k = d->params[p].kind;
		uint32_t w = group_width(k, v, i, sig->nvals, &bad);
		if (bad)
			return false;
		if ((k == PK_COUNTS || k == PK_DISPLS) && v[i] == (int64_t)r->nranks && w == r->nranks + 1) {
			int64_t lo = INT64_MAX, hi = INT64_MIN;
			for (uint32_t j = 1; j < w; j++)
				lo = v[i + j] < lo ? v[i + j] : lo, hi = v[i + j] > hi ? v[i + j] : hi;
			if (lo == hi)
				snprintf(out, outlen,
					 " (its %s array has one entry per rank, %u at p%u, all %lld: per-peer arrays are "
					 "not extrapolated; --lossy drops the call)",
					 d->params[p].name, r->nranks, r->nranks, (long long)lo);
			else
				snprintf(out, outlen,
					 " (its %s array has one entry per rank, %u at p%u, and the entries differ from "
					 "peer to peer, %lld to %lld: data-dependent, no law of the grid sizes; --lossy "
					 "drops the call)",
					 d->params[p].name, r->nranks, r->nranks, (long long)lo, (long long)hi);
			return true;
		}
		i += w;
	}
	return false;
}

static bool same_signature(const struct site *s, const uint32_t *terms, char *why, size_t whylen)
{
	const struct run *r0 = s->cr->runs[0];
	const struct run_signature *a = &r0->sigs[terms[0]];
	for (size_t i = 0; i < s->cr->n; i++) {
		const struct run *ri = s->cr->runs[i];
		const struct run_signature *b = &ri->sigs[terms[i]];
		const char *problem = strcmp(r0->fns[a->fn].name, ri->fns[b->fn].name) ? "calls a different function"
				      : a->callsite != b->callsite ? "is called from a different call site"
				      : a->flags != b->flags ? "has different flags"
				      : a->nvals != b->nvals ? "has a different number of values (an array's length changes)"
							     : NULL;
		for (uint32_t j = 0; !problem && j < b->nvals; j++)
			if (ri->sigvals[b->voff + j] == SV_STREAMED)
				problem = "has streamed (data-dependent) values, which are not extrapolated";
		if (problem) {
			char detail[240] = "";
			if (a->nvals != b->nvals && !per_rank_array(ri, b, detail, sizeof detail))
				detail[0] = 0;
			int used = where(s, why, whylen);
			snprintf(why + used, whylen - (size_t)used, "%s at p%u %s than at p%u%s", ri->fns[b->fn].name,
				 ri->nranks, problem, r0->nranks, detail);
			return false;
		}
	}
	return true;
}

/* one terminal position: the signature at the target */
static bool align_terminal(const struct site *s, const uint32_t *terms, size_t ref, const struct grid *target,
			   struct occurrence *o, char *why, size_t whylen)
{
	if (!same_signature(s, terms, why, whylen))
		return false;
	const struct run *rr = s->cr->runs[ref];
	const struct run_signature *rs = &rr->sigs[terms[ref]];
	const struct fn_desc *d = &rr->fns[rs->fn];
	*o = (struct occurrence){rs->fn, rs->flags, rs->callsite, rs->nvals, xcalloc(rs->nvals + 1, sizeof(int64_t)),
				 terms[ref], NULL};
	o->rung_sigs = xmalloc(s->cr->n * sizeof *o->rung_sigs);
	memcpy(o->rung_sigs, terms, s->cr->n * sizeof *terms);
	const int64_t *rv = rr->sigvals + rs->voff;
	int64_t *v = xmalloc(s->cr->n * sizeof *v);
	uint32_t i = 0;
	bool ok = true;
	for (uint32_t p = 0; ok && p < d->nparams; p++) {
		bool bad = false;
		enum param_kind k = d->params[p].kind;
		uint32_t w = group_width(k, rv, i, rs->nvals, &bad);
		for (uint32_t j = 0; ok && j < w; j++) {
			bool creator = (k == PK_REQ && j == 0) || (k == PK_REQS && j > 0 && j % 2 == 1);
			if (creator) {   /* resolved once every creator is known */
				o->vals[i + j] = rv[i + j];
				continue;
			}
			for (size_t q = 0; q < s->cr->n; q++)
				v[q] = s->cr->runs[q]->sigvals[s->cr->runs[q]->sigs[terms[q]].voff + i + j];
			char what[96];
			snprintf(what, sizeof what, "%s %s", d->name, d->params[p].name);
			ok = solve(s, what, v, target, &o->vals[i + j], why, whylen);
		}
		i += w;
	}
	free(v);
	return ok;
}

static bool same_shape(const struct site *s, char *why, size_t whylen)
{
	const struct grammar *g0 = &s->cr->runs[0]->groups[s->cr->groups[0]].g;
	for (size_t i = 1; i < s->cr->n; i++) {
		const struct grammar *gi = &s->cr->runs[i]->groups[s->cr->groups[i]].g;
		bool same = gi->nrules == g0->nrules;
		for (uint32_t r = 0; same && r < g0->nrules; r++)
			same = grammar_rule_len(gi, r) == grammar_rule_len(g0, r);
		if (!same) {
			char name[64];
			topology_class_name(s->cls, s->ndims, name, sizeof name);
			snprintf(why, whylen,
				 "class %s: the call sequence has a different structure at p%u than at p%u (rules or their "
				 "lengths differ): the code does not follow one pattern across the ladder",
				 name, s->cr->runs[i]->nranks, s->cr->runs[0]->nranks);
			return false;
		}
	}
	return true;
}

static bool align_symbol(struct site *s, size_t ref, const struct grid *target, struct aligned_class *out,
			 size_t *capocc, char *why, size_t whylen)
{
	size_t n = s->cr->n;
	int64_t *exps = xmalloc(n * sizeof *exps), exp = 0;
	uint32_t *terms = xmalloc(n * sizeof *terms);
	struct gsymbol sym0 = grammar_rule_syms(&s->cr->runs[0]->groups[s->cr->groups[0]].g, s->rule)[s->pos];
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++) {
		struct gsymbol sym = grammar_rule_syms(&s->cr->runs[i]->groups[s->cr->groups[i]].g, s->rule)[s->pos];
		exps[i] = (int64_t)sym.exp;
		terms[i] = (uint32_t)sym.val;
		if (gsym_is_rule(sym) != gsym_is_rule(sym0) || (gsym_is_rule(sym) && sym.val != sym0.val)) {
			int used = where(s, why, whylen);
			snprintf(why + used, whylen - (size_t)used, "a rule at p%u, a call at p%u", s->cr->runs[i]->nranks,
				 s->cr->runs[0]->nranks);
			ok = false;
		}
	}
	ok = ok && solve(s, "the repetition count", exps, target, &exp, why, whylen);
	if (ok && exp < 1) {
		int used = where(s, why, whylen);
		snprintf(why + used, whylen - (size_t)used, "the repetition count's law gives %lld at the target",
			 (long long)exp);
		ok = false;
	}
	if (ok && gsym_is_rule(sym0))
		grammar_add_symbol(&out->g, sym0.val, (uint64_t)exp);
	else if (ok) {
		XGROW(out->occ, *capocc, out->nocc + 1);
		memset(&out->occ[out->nocc], 0, sizeof *out->occ);
		ok = align_terminal(s, terms, ref, target, &out->occ[out->nocc], why, whylen);
		if (ok || out->occ[out->nocc].vals)
			out->nocc++;
		if (ok)
			grammar_add_symbol(&out->g, out->nocc - 1, (uint64_t)exp);
		else if (out->lossy) {   /* leave the call out, and say so */
			out->dropped = xrealloc(out->dropped, (out->ndropped + 1) * sizeof *out->dropped);
			out->dropped[out->ndropped++] = (struct dropped_call){s->rule, (uint64_t)exp};
			if (!out->first_dropped[0])
				snprintf(out->first_dropped, sizeof out->first_dropped, "%s", why);
			ok = true;
		}
	}
	free(exps);
	free(terms);
	return ok;
}

bool align_class(uint32_t cls, const struct class_rungs *cr, const struct grid *target, bool lossy,
		 struct aligned_class *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	grammar_init(&out->g);
	out->cls = cls;
	out->lossy = lossy;
	size_t ref = 0;
	for (size_t i = 1; i < cr->n; i++)
		if (cr->runs[i]->nranks > cr->runs[ref]->nranks)
			ref = i;
	out->ref = cr->runs[ref];
	out->ref_group = cr->groups[ref];
	out->nrungs = cr->n;
	out->runs = xmalloc(cr->n * sizeof *out->runs);
	out->groups = xmalloc(cr->n * sizeof *out->groups);
	memcpy(out->runs, cr->runs, cr->n * sizeof *out->runs);
	memcpy(out->groups, cr->groups, cr->n * sizeof *out->groups);
	struct site s = {cls, target->ndims, 0, 0, cr};
	if (!same_shape(&s, why, whylen))
		return false;
	const struct grammar *g0 = &cr->runs[0]->groups[cr->groups[0]].g;
	size_t capocc = 0;
	for (s.rule = 0; s.rule < g0->nrules; s.rule++) {
		grammar_begin_rule(&out->g);
		for (s.pos = 0; s.pos < grammar_rule_len(g0, s.rule); s.pos++)
			if (!align_symbol(&s, ref, target, out, &capocc, why, whylen))
				return false;
	}
	grammar_end(&out->g);
	for (uint32_t r = 0; r < out->g.nrules; r++)
		if (!grammar_rule_len(&out->g, r)) {
			char name[64];
			topology_class_name(cls, target->ndims, name, sizeof name);
			snprintf(why, whylen, "class %s: lossy mode would drop every call of rule R%u: %s", name, r,
				 out->first_dropped);
			return false;
		}
	return true;
}

/* times rule r is expanded in one walk of the grammar (it has no recursion) */
static uint64_t expansions(const struct grammar *g, uint32_t r, uint64_t *memo)
{
	if (r == 0)
		return 1;
	if (memo[r])
		return memo[r];
	uint64_t n = 0;
	for (uint32_t q = 0; q < g->nrules; q++)
		for (uint64_t k = 0; k < grammar_rule_len(g, q); k++) {
			struct gsymbol sym = grammar_rule_syms(g, q)[k];
			if (gsym_is_rule(sym) && gsym_rule(sym) == r)
				n += sym.exp * expansions(g, q, memo);
		}
	return memo[r] = n;
}

uint64_t aligned_class_dropped(const struct aligned_class *a, uint64_t *kept)
{
	uint64_t *memo = xcalloc(a->g.nrules + 1, sizeof *memo), n = 0;
	for (uint32_t i = 0; i < a->ndropped; i++)
		n += a->dropped[i].exp * expansions(&a->g, a->dropped[i].rule, memo);
	free(memo);
	*kept = grammar_expanded_length(&a->g);
	return n;
}

void aligned_class_free(struct aligned_class *a)
{
	for (uint32_t i = 0; i < a->nocc; i++) {
		free(a->occ[i].vals);
		free(a->occ[i].rung_sigs);
	}
	free(a->runs);
	free(a->groups);
	free(a->occ);
	free(a->dropped);
	grammar_free(&a->g);
	memset(a, 0, sizeof *a);
}
