/*
 * align — a position class's grammar and signatures matched across the rungs, each value turned
 * into what it is across the ladder. See align.h.
 */
#include "extrap/align.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/family.h"
#include "extrap/share_at.h"
#include "extrap/stream_at.h"
#include "extrap/topology.h"
#include "run/events.h"
#include "util/xalloc.h"

struct site {              /* where in the class's grammar a value lives, for messages */
	uint32_t cls, ndims, rule;
	uint64_t pos;
	const struct class_rungs *cr;
	const struct grid *target;
	bool streamed;             /* the call's streamed values are decided (stream_at.h) */
	char shared[1024];          /* what the last call whose count arrays were stated by rule is */
};

int align_where(uint32_t cls, uint32_t ndims, char *out, size_t outlen)
{
	char name[64];
	topology_class_name(cls, ndims, name, sizeof name);
	return snprintf(out, outlen, "class %s", name);
}

static int where(const struct site *s, char *why, size_t whylen)
{
	int used = align_where(s->cls, s->ndims, why, whylen);
	return used + snprintf(why + used, whylen - (size_t)used, ", rule R%u symbol %llu: ", s->rule,
			       (unsigned long long)s->pos);
}

/* "4 at p9, 5 at p16" */
static void list_values(const struct class_rungs *cr, const int64_t *v, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = 0;
	char num[24];
	for (size_t i = 0; i < cr->n && used < outlen; i++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%s at p%u", i ? ", " : "", sv_text(v[i], num, sizeof num),
					 cr->runs[i]->nranks);
}

/* Why a call's value count differs across rungs, when one of its count arrays has one entry per
 * rank (an Alltoallv's): whether the entries vary from peer to peer (data-dependent, no law of the
 * grid) or are all equal (a law could give them; per-peer arrays are not extrapolated). False when
 * no such array explains the difference. */
static bool per_rank_array(const struct run *r, const struct run_signature *sig, char *out, size_t outlen)
{
	const struct fn_desc *d = &r->fns[sig->fn];
	const int64_t *v = r->sigvals + sig->voff;
	PARAM_FOR (w, d, v, sig->nvals) {
		const int64_t *g = w.v;
		bool per_rank = g[0] == (int64_t)r->nranks && w.width == r->nranks + 1;
		if ((w.kind == PK_COUNTS || w.kind == PK_DISPLS) && per_rank) {
			int64_t lo = INT64_MAX, hi = INT64_MIN;
			for (uint32_t j = 1; j < w.width; j++)
				lo = g[j] < lo ? g[j] : lo, hi = g[j] > hi ? g[j] : hi;
			if (lo == hi)
				snprintf(out, outlen,
					 " (its %s array has one entry per rank, %u at p%u, all %lld: per-peer arrays are "
					 "not extrapolated; --lossy drops the call)",
					 w.name, r->nranks, r->nranks, (long long)lo);
			else
				snprintf(out, outlen,
					 " (its %s array has one entry per rank, %u at p%u, and the entries differ from "
					 "peer to peer, %lld to %lld: data-dependent, no law of the grid sizes; --lossy "
					 "states the arrays by rule when every rank's total has a law, else drops the call)",
					 w.name, r->nranks, r->nranks, (long long)lo, (long long)hi);
			return true;
		}
	}
	return false;
}

/* lossy mode keeps a streamed count (approximated later); other streamed values are data */
static bool streamed_ok(const struct run *r, const struct run_signature *s, uint32_t j, bool lossy)
{
	uint32_t p, e;
	const struct fn_desc *d = &r->fns[s->fn];
	return lossy && param_walk_value_at(d, r->sigvals + s->voff, s->nvals, j, &p, &e) && d->params[p].kind == PK_COUNT;
}

static const char *signature_problem(const struct run *r0, const struct run_signature *a, const struct run *ri,
				     const struct run_signature *b, bool lossy)
{
	if (strcmp(r0->fns[a->fn].name, ri->fns[b->fn].name))
		return "calls a different function";
	if (a->callsite != b->callsite)
		return "is called from a different call site";
	if (a->flags != b->flags)
		return "has different flags";
	if (a->nvals != b->nvals)
		return "has a different number of values (an array's length changes)";
	(void)lossy;
	return NULL;
}

/* does any rung's signature stream a value lossy mode cannot approximate? */
static bool streams_data(const struct site *s, const uint32_t *terms)
{
	for (size_t i = 0; i < s->cr->n; i++) {
		const struct run *ri = s->cr->runs[i];
		const struct run_signature *b = &ri->sigs[terms[i]];
		for (uint32_t j = 0; j < b->nvals; j++)
			if (ri->sigvals[b->voff + j] == SV_STREAMED && !streamed_ok(ri, b, j, s->cr->lossy))
				return true;
	}
	return false;
}

/* a call with streamed values: its stream decided across the ladder, or refused (lossy mode: a
 * streamed count without a law is approximated instead) */
static bool decide_stream(struct site *s, const uint32_t *terms, struct occurrence *o, char *why, size_t whylen)
{
	bool any = false;
	for (size_t i = 0; i < s->cr->n; i++) {
		const struct run_signature *b = &s->cr->runs[i]->sigs[terms[i]];
		for (uint32_t j = 0; j < b->nvals; j++)
			any = any || s->cr->runs[i]->sigvals[b->voff + j] == SV_STREAMED;
	}
	if (!any)
		return true;
	char swhy[1024];
	struct run_stream at;
	if (stream_at_target(s->cls, s->cr, terms, s->target, &at, swhy, sizeof swhy)) {
		o->stream = xmalloc(sizeof *o->stream);
		*o->stream = at;
		s->streamed = true;
		return true;
	}
	if (!streams_data(s, terms))
		return true;
	const struct run *r0 = s->cr->runs[0];
	int used = where(s, why, whylen);
	snprintf(why + used, whylen - (size_t)used, "%s has streamed (data-dependent) values without a law across the "
		 "ladder: %s%s", r0->fns[r0->sigs[terms[0]].fn].name, swhy, s->cr->lossy ? "" : "; --lossy drops the call");
	return false;
}

static bool same_signature(const struct site *s, const uint32_t *terms, char *why, size_t whylen)
{
	const struct run *r0 = s->cr->runs[0];
	const struct run_signature *a = &r0->sigs[terms[0]];
	for (size_t i = 0; i < s->cr->n; i++) {
		const struct run *ri = s->cr->runs[i];
		const struct run_signature *b = &ri->sigs[terms[i]];
		const char *problem = signature_problem(r0, a, ri, b, s->cr->lossy);
		if (problem) {
			char detail[1024] = "";
			if (a->nvals != b->nvals && !per_rank_array(ri, b, detail, sizeof detail))
				detail[0] = 0;
			int used = where(s, why, whylen);
			snprintf(why + used, whylen - (size_t)used, "%s at p%u %s (compared with p%u)%s", ri->fns[b->fn].name,
				 ri->nranks, problem, r0->nranks, detail);
			return false;
		}
	}
	return true;
}

const struct grammar *class_grammar(const struct class_rungs *cr, size_t i)
{
	return cr->grammars && cr->grammars[i] ? cr->grammars[i] : &cr->runs[i]->groups[cr->groups[i]].g;
}

static bool is_peer(enum param_kind k) { return k == PK_PEER || k == PK_SRC || k == PK_PEER_OUT; }

/* MPI says what these are at any scale: a communicator's size, MPI_Dims_create's node count */
static bool counts_ranks(const struct fn_desc *d, uint32_t p)
{
	return d->params[p].kind == PK_SIZE_OUT ||
	       (!strcmp(d->name, "MPI_Dims_create") && !strcmp(d->params[p].name, "nnodes"));
}

/* one value at every rung: the same move on each rung's grid */
static bool as_step(const struct site *s, const int64_t *v, struct xval *x)
{
	const struct class_rungs *cr = s->cr;
	for (size_t q = 0; q < cr->n; q++) {
		struct step here;
		if (!step_of_offset(&cr->grids[q], cr->periodic, s->cls, v[q], &here))
			return false;
		if (q == 0)
			x->step = here;
		else if (!step_meet(&x->step, &here, s->ndims))
			return false;
	}
	x->kind = XV_STEP;
	return true;
}

/* the rank count, or element e of the grid's dimensions, at every rung */
static bool as_grid(const struct site *s, const struct fn_desc *d, uint32_t p, uint32_t e, const int64_t *v,
		    struct xval *x)
{
	bool nranks = counts_ranks(d, p) && e == 0, dim = e > 0 && !strcmp(d->params[p].name, "dims");
	for (size_t q = 0; q < s->cr->n && (nranks || dim); q++) {
		const struct grid *g = &s->cr->grids[q];
		nranks = nranks && v[q] == grid_size(g);
		dim = dim && e <= g->ndims && v[q] == g->dims[e - 1];
	}
	if (nranks)
		x->kind = XV_NRANKS;
	else if (dim)
		x->kind = XV_GRID_DIM, x->dim = (int8_t)(e - 1);
	return nranks || dim;
}

/* the value at every rung: what it is across the ladder, or XV_PENDING when it differs */
static bool value_across(const struct site *s, const struct fn_desc *d, uint32_t p, uint32_t e, const int64_t *v,
			 struct xval *x, char *why, size_t whylen)
{
	enum param_kind k = d->params[p].kind;
	bool symbolic = false, equal = true;
	memset(x, 0, sizeof *x);
	for (size_t q = 0; q < s->cr->n; q++) {
		symbolic = symbolic || sv_is_symbolic(v[q]);
		equal = equal && v[q] == v[0];
	}
	if ((k == PK_REQ && e == 0) || (k == PK_REQS && e > 0 && e % 2 == 1)) {
		x->kind = sv_is_symbolic(v[0]) ? XV_CONST : XV_CREATOR;   /* named by its creator later */
		x->v = v[0];
		return true;
	}
	if (k == PK_COUNT && s->cr->lossy && (!equal || (v[0] == SV_STREAMED && !s->streamed))) {
		x->kind = XV_PENDING;   /* a law, or approximated (family.h) */
		return true;
	}
	if (symbolic && !equal) {
		char values[256];
		list_values(s->cr, v, values, sizeof values);
		int used = where(s, why, whylen);
		snprintf(why + used, whylen - (size_t)used, "%s %s is symbolic at some rungs only (%s)", d->name,
			 d->params[p].name, values);
		return false;
	}
	x->v = v[0];
	if (symbolic || (is_peer(k) && as_step(s, v, x)) || as_grid(s, d, p, e, v, x))
		return true;
	x->kind = equal ? XV_CONST : XV_PENDING;
	return true;
}

/* lossy mode: the call's count arrays by rule (share_at.h) instead of dropping it; its values at
 * every rung, with the arrays as rules, in vals (NULL: no such arrays or no law for their total,
 * said in why after the reason the call could not be aligned as it is) */
static int64_t **shared_values(struct site *s, const uint32_t *terms, size_t ref, struct occurrence *o,
			       struct xval *total, char *why, size_t whylen)
{
	const struct run *rr = s->cr->runs[ref];
	if (!s->cr->lossy || !share_covers(rr->fns[rr->sigs[terms[ref]].fn].name))
		return NULL;
	int64_t **vals = xcalloc(s->cr->n + 1, sizeof *vals);
	char swhy[1024];
	uint32_t nvals = 0;
	if (!share_at_rungs(s->cr, terms, s->target, vals, &nvals, total, swhy, sizeof swhy)) {
		size_t used = strlen(why);
		snprintf(why + used, whylen - used, "; its count arrays are not stated by rule either: %s", swhy);
		free(vals);
		return NULL;
	}
	free(o->x);
	o->nvals = nvals;
	o->x = xcalloc(nvals + 1, sizeof *o->x);
	o->shared = true;
	int used = where(s, s->shared, sizeof s->shared);
	snprintf(s->shared + used, sizeof s->shared - (size_t)used,
		 "%s's per-peer counts are data; its per-rank total, %lld at the target, is split evenly over the "
		 "peers", rr->fns[o->fn].name, (long long)total->v);
	return vals;
}

/* the arrays stated by rule at the target: their length the rank count, their total's law */
static void shared_xvals(struct occurrence *o, const int64_t *v, const struct xval *total)
{
	for (uint32_t i = 0; i + 3 < o->nvals; i++)
		if (v[i] == SV_SHARED) {
			o->x[i] = (struct xval){.kind = XV_CONST, .v = SV_SHARED};
			o->x[i + 1] = (struct xval){.kind = XV_NRANKS};
			xval_free(&o->x[i + 2]);
			xval_copy(&o->x[i + 2], total);
			o->x[i + 3] = (struct xval){.kind = XV_CONST, .v = v[i + 3]};
			i += 3;
		}
}

/* one terminal position: its signature across the rungs */
static bool align_terminal(struct site *s, const uint32_t *terms, size_t ref, struct occurrence *o, char *why,
			   size_t whylen)
{
	const struct run *rr = s->cr->runs[ref];
	const struct run_signature *rs = &rr->sigs[terms[ref]];
	const struct fn_desc *d = &rr->fns[rs->fn];
	*o = (struct occurrence){rs->fn, rs->flags, rs->callsite, rs->nvals, xcalloc(rs->nvals + 1, sizeof *o->x),
				 NULL, terms[ref], xmalloc(s->cr->n * sizeof *o->rung_sigs), false, false, false, NULL};
	memcpy(o->rung_sigs, terms, s->cr->n * sizeof *terms);
	s->streamed = false;
	int64_t **shared = NULL;
	struct xval total = {0};
	if ((!same_signature(s, terms, why, whylen) || !decide_stream(s, terms, o, why, whylen)) &&
	    !(shared = shared_values(s, terms, ref, o, &total, why, whylen)))
		return false;
	int64_t *v = xmalloc(s->cr->n * sizeof *v);
	const int64_t *at_ref = shared ? shared[ref] : rr->sigvals + rs->voff;
	bool ok = true;
	PARAM_FOR (w, d, at_ref, o->nvals) {
		uint32_t i = w.at;
		for (uint32_t e = 0; ok && e < w.width; e++) {
			for (size_t q = 0; q < s->cr->n; q++)
				v[q] = shared ? shared[q][i + e]
					      : s->cr->runs[q]->sigvals[s->cr->runs[q]->sigs[terms[q]].voff + i + e];
			ok = value_across(s, d, w.p, e, v, &o->x[i + e], why, whylen);
		}
		if (!ok)
			break;
	}
	if (ok && shared)
		shared_xvals(o, at_ref, &total);
	for (size_t q = 0; shared && q < s->cr->n; q++)
		free(shared[q]);
	free(shared);
	xval_free(&total);
	free(v);
	return ok;
}

static bool same_shape(const struct site *s, char *why, size_t whylen)
{
	const struct grammar *g0 = class_grammar(s->cr, 0);
	for (size_t i = 1; i < s->cr->n; i++) {
		const struct grammar *gi = class_grammar(s->cr, i);
		bool same = gi->nrules == g0->nrules;
		for (uint32_t r = 0; same && r < g0->nrules; r++)
			same = grammar_rule_len(gi, r) == grammar_rule_len(g0, r);
		if (!same) {
			int used = align_where(s->cls, s->ndims, why, whylen);
			snprintf(why + used, whylen - (size_t)used,
				 ": the call sequence has a different structure at p%u than at p%u (rules or their "
				 "lengths differ): the code does not follow one pattern across the ladder (--lossy "
				 "keeps the calls the rungs share and drops the others)",
				 s->cr->runs[i]->nranks, s->cr->runs[0]->nranks);
			return false;
		}
	}
	return true;
}

/* a repetition count across the rungs: a constant or a law of its own */
static bool repetitions(const struct site *s, const int64_t *exps, const struct grid *target, struct xval *x,
			char *why, size_t whylen)
{
	struct law law;
	memset(x, 0, sizeof *x);
	law_solve(exps, s->cr->grids, s->cr->n, target, &law);
	if (law.status == LAW_OK && law.predicted >= 1) {
		xval_of_law(x, &law);
		return true;
	}
	char values[256];
	list_values(s->cr, exps, values, sizeof values);
	int used = where(s, why, whylen);
	if (law.status == LAW_OK)
		snprintf(why + used, whylen - (size_t)used, "the repetition count's law %s gives %lld at the target",
			 law.text, (long long)law.predicted);
	else
		snprintf(why + used, whylen - (size_t)used, "the repetition count (%s): %s: %s", values,
			 law_status_name(law.status), law.text);
	return false;
}

static void drop_symbol(struct aligned_class *a, int64_t reps, const char *why)
{
	a->reps[a->g.nsyms] = (struct xval){.kind = XV_CONST, .v = reps};
	a->symdrop[a->g.nsyms] = true;
	if (!a->first_dropped[0])
		snprintf(a->first_dropped, sizeof a->first_dropped, "%s", why);
}

static bool align_symbol(struct site *s, size_t ref, const struct grid *target, struct aligned_class *out,
			 size_t *capocc, size_t *capreps, char *why, size_t whylen)
{
	size_t n = s->cr->n;
	int64_t *exps = xmalloc(n * sizeof *exps);
	uint32_t *terms = xmalloc(n * sizeof *terms);
	struct gsymbol sym0 = grammar_rule_syms(class_grammar(s->cr, 0), s->rule)[s->pos];
	bool ok = true;
	for (size_t i = 0; ok && i < n; i++) {
		struct gsymbol sym = grammar_rule_syms(class_grammar(s->cr, i), s->rule)[s->pos];
		exps[i] = (int64_t)sym.exp;
		terms[i] = (uint32_t)sym.val;
		if (gsym_is_rule(sym) != gsym_is_rule(sym0) || (gsym_is_rule(sym) && sym.val != sym0.val)) {
			int used = where(s, why, whylen);
			snprintf(why + used, whylen - (size_t)used, "a rule at p%u, a call at p%u", s->cr->runs[i]->nranks,
				 s->cr->runs[0]->nranks);
			ok = false;
		}
	}
	XGROW(out->reps, *capreps, out->g.nsyms + 1);
	out->symdrop = xrealloc(out->symdrop, (out->g.nsyms + 1) * sizeof *out->symdrop);
	out->symdrop[out->g.nsyms] = false;
	if (ok && !repetitions(s, exps, target, &out->reps[out->g.nsyms], why, whylen)) {
		ok = out->lossy;
		if (ok)   /* lossy mode: the symbol's calls go; its count as at the reference keeps the grammar whole */
			drop_symbol(out, exps[ref], why);
	}
	if (ok && gsym_is_rule(sym0)) {
		grammar_add_symbol(&out->g, sym0.val, 1);
	} else if (ok) {
		XGROW(out->occ, *capocc, out->nocc + 1);
		ok = align_terminal(s, terms, ref, &out->occ[out->nocc++], why, whylen);
		if (ok && out->occ[out->nocc - 1].shared && !out->first_shared[0])
			snprintf(out->first_shared, sizeof out->first_shared, "%s", s->shared);
		if (!ok && out->lossy) {   /* leave the call out, and say so */
			aligned_class_drop(out, out->nocc - 1, why);
			ok = true;
		}
		if (ok)
			grammar_add_symbol(&out->g, out->nocc - 1, 1);
	}
	free(exps);
	free(terms);
	return ok;
}

/* the slot occurrence o's signature at the first rung gives the request it creates, or -1 */
static int64_t created_slot(const struct aligned_class *a, uint32_t o)
{
	const struct run *ref = a->runs[0];
	const int64_t *v = run_param(ref, &ref->sigs[a->occ[o].rung_sigs[0]], PK_REQ_OUT, NULL, NULL);
	return v ? *v : -1;
}

/* the occurrence that created the request occurrence i names by key and slot (value j, j + 1):
 * the first with the key; in runs whose pools are keyed by base, where the signatures of one call
 * site share a key, the nearest one before i with the slot too */
static uint32_t creator_of(const struct aligned_class *a, const uint64_t *key, bool by_base, uint32_t i, uint32_t j)
{
	const struct run *ref = a->runs[0];
	const struct run_signature *s = &ref->sigs[a->occ[i].rung_sigs[0]];
	uint64_t k = (uint64_t)a->occ[i].x[j].v;
	if (by_base && j + 1 < s->nvals) {
		int64_t slot = ref->sigvals[s->voff + j + 1];
		for (uint32_t c = i; c-- > 0;)
			if (key[c] == k && created_slot(a, c) == slot)
				return c;
	}
	uint32_t c = 0;
	while (c < a->nocc && key[c] != k)
		c++;
	return c;
}

/* requests are named by the occurrence that created them (as value_across kept them: by hash,
 * at the first rung) */
static bool name_creators(struct aligned_class *a, char *why, size_t whylen)
{
	const struct run *ref = a->runs[0];
	bool by_base = run_req_pools_by_base(ref);
	uint64_t *key = xmalloc((a->nocc + 1) * sizeof *key);
	for (uint32_t i = 0; i < a->nocc; i++) {
		const struct run_signature *s = &ref->sigs[a->occ[i].rung_sigs[0]];
		key[i] = run_signature_req_key(by_base, s->fn, s->callsite, s->flags, &ref->fns[s->fn], ref->sigvals + s->voff,
					       s->nvals);
	}
	bool ok = true;
	for (uint32_t i = 0; ok && i < a->nocc; i++)
		for (uint32_t j = 0; ok && !a->occ[i].dropped && j < a->occ[i].nvals; j++) {
			struct xval *x = &a->occ[i].x[j];
			if (x->kind != XV_CREATOR)
				continue;
			uint32_t c = creator_of(a, key, by_base, i, j);
			x->v = c;
			if (c < a->nocc)
				continue;
			int used = align_where(a->cls, a->grids[0].ndims, why, whylen);
			snprintf(why + used, whylen - (size_t)used, ": %s at p%u completes a request whose creating call is "
				 "not in the class's calls", ref->fns[a->occ[i].fn].name, ref->nranks);
			if (a->lossy)
				aligned_class_drop(a, i, why);
			ok = a->lossy;
		}
	free(key);
	return ok;
}

void aligned_class_rungs(struct aligned_class *a, const struct run *const *runs, const uint32_t *groups,
			 const struct grid *grids, size_t n)
{
	a->nrungs = n;
	a->runs = xmalloc(n * sizeof *a->runs);
	a->groups = xmalloc(n * sizeof *a->groups);
	a->grids = xmalloc(n * sizeof *a->grids);
	memcpy(a->runs, runs, n * sizeof *a->runs);
	memcpy(a->groups, groups, n * sizeof *a->groups);
	memcpy(a->grids, grids, n * sizeof *a->grids);
}

size_t aligned_class_ref_index(const struct aligned_class *a)
{
	size_t q = 0;
	while (q < a->nrungs && a->runs[q] != a->ref)
		q++;
	return q;
}

static void class_init(uint32_t cls, const struct class_rungs *cr, bool lossy, struct aligned_class *out)
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
	aligned_class_rungs(out, cr->runs, cr->groups, cr->grids, cr->n);
	size_t used = (size_t)snprintf(out->origin, sizeof out->origin, "seen at");
	for (size_t i = 0; i < cr->n && used < sizeof out->origin; i++)
		used += (size_t)snprintf(out->origin + used, sizeof out->origin - used, "%s p%u", i ? "," : "",
					 cr->runs[i]->nranks);
}

bool align_class(uint32_t cls, const struct class_rungs *cr, const struct grid *target, bool lossy,
		 struct aligned_class *out, char *why, size_t whylen)
{
	class_init(cls, cr, lossy, out);
	size_t ref = 0;
	while (cr->runs[ref] != out->ref)
		ref++;
	struct site s = {cls, target->ndims, 0, 0, cr, target, false, ""};
	if (!same_shape(&s, why, whylen))
		return false;
	const struct grammar *g0 = class_grammar(cr, 0);
	size_t capocc = 0, capreps = 0;
	for (s.rule = 0; s.rule < g0->nrules; s.rule++) {
		grammar_begin_rule(&out->g);
		for (s.pos = 0; s.pos < grammar_rule_len(g0, s.rule); s.pos++)
			if (!align_symbol(&s, ref, target, out, &capocc, &capreps, why, whylen))
				return false;
	}
	grammar_end(&out->g);
	if (!name_creators(out, why, whylen) || !family_decide(out, cr->others, cr->nothers, target, why, whylen))
		return false;
	aligned_class_receive_room(out);
	return true;
}

void aligned_class_drop(struct aligned_class *a, uint32_t o, const char *why)
{
	a->occ[o].dropped = true;
	if (!a->first_dropped[0])
		snprintf(a->first_dropped, sizeof a->first_dropped, "%s", why);
}

void aligned_class_free(struct aligned_class *a)
{
	for (uint32_t i = 0; i < a->nocc; i++) {
		for (uint32_t j = 0; j < a->occ[i].nvals; j++)
			xval_free(&a->occ[i].x[j]);
		free(a->occ[i].x);
		free(a->occ[i].vals);
		free(a->occ[i].rung_sigs);
		if (a->occ[i].stream)
			run_stream_free(a->occ[i].stream);
		free(a->occ[i].stream);
	}
	for (uint64_t i = 0; a->reps && i < a->g.nsyms; i++)
		xval_free(&a->reps[i]);
	free(a->reps);
	free(a->symdrop);
	free(a->runs);
	free(a->groups);
	free(a->grids);
	free(a->occ);
	grammar_free(&a->g);
	memset(a, 0, sizeof *a);
}
