/*
 * partners — the synthetic run of a code whose partners follow a law of the rank and whose loops
 * run log2 of a grid width times, read as runs of calls per call site (partners.h).
 */
#include "extrap/partners.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/grid_rule.h"
#include "extrap/partner_family.h"
#include "extrap/topology.h"
#include "grammar/sequitur.h"
#include "mpi/signature.h"
#include "run/events.h"
#include "run/histogram.h"
#include "run/ranklist.h"
#include "run/stream.h"
#include "util/xalloc.h"

#define PARTNERS_MAX_CALLS UINT64_C(4000000)   /* calls read of all the rungs' ranks together */
#define NCLASSES 2                              /* rank 0, and every other rank */
#define PARTNER_MAX_LOOP 4096                   /* calls of one loop at the target, at most */

struct pcall {
	uint32_t fn, flags, sig, nvals;
	uint64_t callsite, voff;
};

struct pseq {
	struct pcall *c;
	size_t n, cap;
	size_t *start;   /* per run of the class's skeleton: its first call */
};

struct prung {
	const struct run *r;
	struct grid g;
	struct pseq *seq;   /* per rank */
	int64_t *vals;
	size_t nvals, capvals;
};

enum form { FORM_CONST, FORM_LINEAR, FORM_HALVED, FORM_DOUBLED, FORM_PARTNER };

struct vlaw {   /* one value of the j-th call of a run */
	uint8_t form;
	bool down;                 /* k = L - 1 - j */
	uint8_t extra;             /* halved k + extra times */
	int64_t delta;             /* linear: the step per k */
	int64_t base;              /* the law's base at the target */
	char text[sizeof(((struct law *)0)->text) + 16];   /* the base's law */
	struct partner_family fam;
};

struct trun {   /* one run of a class */
	uint32_t fn, flags, nvals;
	uint64_t callsite;
	int64_t *len;              /* per rung */
	int64_t target;            /* its length at the target */
	char lentext[sizeof(((struct law *)0)->text) + 16];
	struct vlaw *v;
};

struct tclass {
	size_t nruns;
	struct trun *runs;
	uint32_t rep;              /* the rank that stands for the class at every rung */
};

static bool in_class(uint32_t cls, uint32_t rank) { return cls == 0 ? rank == 0 : rank != 0; }

static bool read_rung(const struct run *r, struct prung *p, uint64_t *budget, char *why, size_t whylen)
{
	p->r = r;
	p->seq = xcalloc(r->nranks, sizeof *p->seq);
	for (uint32_t q = 0; q < r->nranks; q++) {
		struct event_iter it;
		struct event ev;
		bool ok = true;
		event_iter_init(&it, r, q);
		while (ok && event_next(&it, &ev)) {
			if (ev.repeat > 1 || !*budget) {
				snprintf(why, whylen, "p%u: %s", r->nranks,
					 ev.repeat > 1 ? "runs of failed polls" : "more calls than the partner search reads");
				ok = false;
				break;
			}
			(*budget)--;
			struct pseq *s = &p->seq[q];
			XGROW(s->c, s->cap, s->n + 1);
			XGROW(p->vals, p->capvals, p->nvals + ev.nvals + 1);
			memcpy(p->vals + p->nvals, ev.vals, ev.nvals * sizeof *ev.vals);
			s->c[s->n++] = (struct pcall){ev.s->fn, ev.s->flags, ev.sig, ev.nvals, ev.s->callsite, p->nvals};
			p->nvals += ev.nvals;
		}
		if (ok && it.error[0]) {
			snprintf(why, whylen, "p%u: %s", r->nranks, it.error);
			ok = false;
		}
		event_iter_free(&it);
		if (!ok)
			return false;
	}
	return true;
}

static void free_rung(struct prung *p)
{
	for (uint32_t q = 0; p->seq && q < p->r->nranks; q++) {
		free(p->seq[q].c);
		free(p->seq[q].start);
	}
	free(p->seq);
	free(p->vals);
}

static bool same_site(const struct pcall *a, const struct pcall *b)
{
	return a->fn == b->fn && a->callsite == b->callsite && a->flags == b->flags;
}

/* the runs of a rank's calls: their starts (freed by the caller), and their number */
static size_t runs_of(const struct pseq *s, size_t **start)
{
	size_t n = 0;
	*start = xmalloc((s->n + 1) * sizeof **start);
	for (size_t i = 0; i < s->n; i++)
		if (!i || !same_site(&s->c[i], &s->c[i - 1]))
			(*start)[n++] = i;
	(*start)[n] = s->n;
	return n;
}

static size_t run_len(const struct pseq *s, size_t i) { return s->start[i + 1] - s->start[i]; }

static const int64_t *call_vals(const struct prung *p, uint32_t q, size_t i, size_t j)
{
	return p->vals + p->seq[q].c[p->seq[q].start[i] + j].voff;
}

/* every rank of the class at every rung shows the skeleton of the class's first rung */
static bool skeleton(struct prung *pr, size_t n, uint32_t cls, struct tclass *tc, char *why, size_t whylen)
{
	size_t nruns = 0;
	for (size_t r = 0; r < n; r++)
		for (uint32_t q = 0; q < pr[r].r->nranks; q++) {
			if (!in_class(cls, q))
				continue;
			struct pseq *s = &pr[r].seq[q], *ref = &pr[0].seq[tc->rep];
			free(s->start);   /* read again on another grid */
			size_t k = runs_of(s, &s->start);
			if (r == 0 && q == tc->rep) {
				nruns = k;
				continue;
			}
			size_t i = 0;
			while (i < k && i < nruns && same_site(&s->c[s->start[i]], &ref->c[ref->start[i]]))
				i++;
			if (i < k || i < nruns) {
				const char *fn = i < k ? pr[r].r->fns[s->c[s->start[i]].fn].name : "its last call";
				snprintf(why, whylen, "rank %u at p%u makes its calls in %zu runs at one call site each, rank %u "
					 "at p%u in %zu; they part at run %zu (%s): a loop whose body calls at several call "
					 "sites, or calls only some ranks of the class make, is no run of calls ladder can "
					 "carry as a law", q, pr[r].r->nranks, k, tc->rep, pr[0].r->nranks, nruns, i, fn);
				return false;
			}
		}
	tc->nruns = nruns;
	tc->runs = xcalloc(nruns + 1, sizeof *tc->runs);
	for (size_t i = 0; i < nruns; i++) {
		struct trun *t = &tc->runs[i];
		const struct pcall *c = &pr[0].seq[tc->rep].c[pr[0].seq[tc->rep].start[i]];
		t->fn = c->fn, t->flags = c->flags, t->callsite = c->callsite, t->nvals = c->nvals;
		t->len = xcalloc(n, sizeof *t->len);
		for (size_t r = 0; r < n; r++) {
			t->len[r] = (int64_t)run_len(&pr[r].seq[tc->rep], i);
			for (uint32_t q = 0; q < pr[r].r->nranks; q++) {
				if (!in_class(cls, q))
					continue;
				const struct pseq *s = &pr[r].seq[q];
				bool ok = run_len(s, i) == (size_t)t->len[r];
				for (size_t j = 0; ok && j < run_len(s, i); j++)
					ok = s->c[s->start[i] + j].nvals == t->nvals;
				if (!ok) {
					snprintf(why, whylen, "the calls of run %zu (%s) differ in number or shape between "
						 "ranks %u and %u at p%u", i, pr[0].r->fns[t->fn].name, q, tc->rep,
						 pr[r].r->nranks);
					return false;
				}
			}
		}
	}
	return true;
}

static bool power_of_two(int64_t v) { return v > 0 && !(v & (v - 1)); }
static int64_t log2_of(int64_t v)
{
	int64_t k = 0;
	while ((INT64_C(1) << k) < v)
		k++;
	return k;
}

/* dimension d of g, or its size for d = ndims */
static int64_t width_of(const struct grid *g, uint32_t d) { return d < g->ndims ? g->dims[d] : grid_size(g); }

/* the run's length at the target: a law of the grid (law.h) or log2 of a width plus a constant;
 * every law that fits must agree there */
static bool fit_length(struct trun *t, const struct grid *grids, size_t n, const struct grid *target, char *why,
		       size_t whylen)
{
	int64_t cand[LAW_MAX_DIMS + 2];
	char text[LAW_MAX_DIMS + 2][sizeof(((struct law *)0)->text) + 16];
	size_t nc = 0;
	bool same = true;
	for (size_t r = 1; r < n; r++)
		same = same && t->len[r] == t->len[0];
	if (same) {
		cand[nc] = t->len[0];
		snprintf(text[nc++], sizeof text[0], "%lld", (long long)t->len[0]);
	} else {
		struct law l;
		law_solve(t->len, grids, n, target, &l);
		if (l.status == LAW_OK) {
			cand[nc] = l.predicted;
			snprintf(text[nc++], sizeof text[0], "%s", l.text);
		}
		for (uint32_t d = 0; d <= target->ndims; d++) {
			bool fits = true, varies = false;
			int64_t b = 0;
			for (size_t r = 0; fits && r < n; r++) {
				int64_t w = width_of(&grids[r], d);
				fits = power_of_two(w);
				if (fits && r == 0)
					b = t->len[0] - log2_of(w);
				fits = fits && t->len[r] - log2_of(w) == b;
				varies = varies || w != width_of(&grids[0], d);
			}
			if (!fits || !varies)
				continue;
			int64_t w = width_of(target, d);
			if (!power_of_two(w)) {
				snprintf(why, whylen, "%s runs log2(%s) %+lld times at every rung, but the target's %s is %lld, "
					 "not a power of two", "a loop", d < target->ndims ? "d" : "P", (long long)b,
					 d < target->ndims ? "dimension" : "rank count", (long long)w);
				return false;
			}
			cand[nc] = log2_of(w) + b;
			if (d < target->ndims)
				snprintf(text[nc], sizeof text[0], "log2(d%u)", d);
			else
				snprintf(text[nc], sizeof text[0], "log2(P)");
			if (b)
				snprintf(text[nc] + strlen(text[nc]), sizeof text[0] - strlen(text[nc]), " %c %lld", b < 0 ? '-' : '+',
					 (long long)(b < 0 ? -b : b));
			nc++;
			if (nc == LAW_MAX_DIMS + 2)
				break;
		}
	}
	if (!nc) {
		snprintf(why, whylen, "no law of the grid gives the number of calls of a loop at every rung");
		return false;
	}
	for (size_t c = 1; c < nc; c++)
		if (cand[c] != cand[0]) {
			snprintf(why, whylen, "the number of calls of a loop is %s or %s, %lld or %lld calls at the target: "
				 "a rung where they differ would tell", text[0], text[c], (long long)cand[0],
				 (long long)cand[c]);
			return false;
		}
	if (cand[0] < 0) {
		snprintf(why, whylen, "a loop runs %s = %lld times at the target", text[0], (long long)cand[0]);
		return false;
	}
	if (cand[0] > PARTNER_MAX_LOOP) {   /* the run is built call by call: its size follows its loops */
		snprintf(why, whylen, "a loop runs %s = %lld times at the target; partner families carry loops of at "
			 "most %d calls", text[0], (long long)cand[0], PARTNER_MAX_LOOP);
		return false;
	}
	t->target = cand[0];
	snprintf(t->lentext, sizeof t->lentext, "%s", text[0]);
	return true;
}

static uint64_t k_of(bool down, uint64_t j, uint64_t L) { return down ? L - 1 - j : j; }

/* a form's value at the target for call j of L; false when it gives none (a halving that does not
 * divide) */
static bool form_eval(const struct vlaw *v, uint64_t j, uint64_t L, int64_t *out)
{
	uint64_t k = k_of(v->down, j, L);
	switch (v->form) {
	case FORM_CONST: *out = v->base; return true;
	case FORM_LINEAR: {
		int64_t step;
		return !__builtin_mul_overflow(v->delta, (int64_t)k, &step) && !__builtin_add_overflow(v->base, step, out);
	}
	case FORM_HALVED: {
		uint64_t sh = k + v->extra;
		if (sh >= 62 || v->base % (INT64_C(1) << sh))
			return false;
		*out = v->base / (INT64_C(1) << sh);
		return true;
	}
	case FORM_DOUBLED:
		return k < 62 && !__builtin_mul_overflow(v->base, INT64_C(1) << k, out);
	default: return false;
	}
}

/* the base every call of the run shows at rung r under the form, or false when they differ */
static bool base_at(const struct vlaw *v, const int64_t *u, int64_t L, int64_t *out)
{
	for (int64_t j = 0; j < L; j++) {
		uint64_t k = k_of(v->down, (uint64_t)j, (uint64_t)L);
		int64_t b;
		if (sv_is_symbolic(u[j]))
			b = u[j];
		else if (v->form == FORM_CONST)
			b = u[j];
		else if (v->form == FORM_LINEAR)
			b = u[j] - v->delta * (int64_t)k;
		else if (v->form == FORM_HALVED) {
			if (u[j] < 0 || k + v->extra >= 62 || __builtin_mul_overflow(u[j], INT64_C(1) << (k + v->extra), &b))
				return false;
		} else {
			if (k >= 62 || u[j] % (INT64_C(1) << k))
				return false;
			b = u[j] / (INT64_C(1) << k);
		}
		if (j && b != *out)
			return false;
		*out = b;
	}
	return true;
}

/* u[r][j]: the value every rank of the class shows; a form fits when its base is one per rung and
 * a law of the grid across them */
static bool fit_form(struct vlaw *v, int64_t *const *u, const struct trun *t, const struct grid *grids, size_t n,
		     const struct grid *target)
{
	int64_t *b = xcalloc(n, sizeof *b);
	bool ok = true, same = true, symbolic = false;
	for (size_t r = 0; ok && r < n; r++) {
		ok = base_at(v, u[r], t->len[r], &b[r]);
		same = same && b[r] == b[0];
		symbolic = symbolic || sv_is_symbolic(b[r]);
	}
	if (ok && (same || symbolic)) {
		ok = same && (!symbolic || v->form == FORM_CONST);
		v->base = b[0];
		snprintf(v->text, sizeof v->text, "%lld", (long long)b[0]);
	} else if (ok) {
		struct law l;
		law_solve(b, grids, n, target, &l);
		ok = l.status == LAW_OK;
		v->base = l.predicted;
		snprintf(v->text, sizeof v->text, "%s", l.text);
	}
	free(b);
	return ok;
}

/* the slot is a peer (a PEER value, or a SRC's source or actual source) */
static bool peer_slot(const struct fn_desc *d, const int64_t *vals, uint32_t nvals, uint32_t slot)
{
	PARAM_FOR (w, d, vals, nvals)
		if (slot >= w.at && slot < w.at + w.width)
			return (w.kind == PK_PEER && w.width == 1) || (w.kind == PK_SRC && w.width == 2);
	return false;
}

/* sample ranks of g: the lines through rank 0 and through the last rank along every dimension */
static size_t sample_ranks(const struct grid *g, int64_t *out, size_t cap)
{
	size_t n = 0;
	int64_t P = grid_size(g), s = 1;
	for (uint32_t d = g->ndims; d-- > 0;) {
		for (int64_t c = 0; c < g->dims[d] && n + 2 <= cap; c++) {
			out[n++] = c * s;
			out[n++] = P - 1 - c * s;
		}
		s *= g->dims[d];
	}
	return n;
}

static bool fit_partner(struct vlaw *v, struct prung *pr, size_t n, uint32_t cls, size_t i, uint32_t slot,
			const struct trun *t, const struct grid *target, char *why, size_t whylen)
{
	uint32_t nf = partner_family_count(target->ndims);
	bool found = false;
	struct partner_family first = {0};
	int64_t sample[512];
	size_t ns = sample_ranks(target, sample, sizeof sample / sizeof *sample), kept = 0;
	for (size_t k = 0; k < ns; k++)   /* the class's ranks only */
		if (in_class(cls, (uint32_t)sample[k]))
			sample[kept++] = sample[k];
	ns = kept;
	for (uint32_t f = 0; f < nf; f++) {
		struct partner_family fam;
		partner_family_nth(target->ndims, f, &fam);
		bool fits = true;
		for (size_t r = 0; fits && r < n; r++)
			for (uint32_t q = 0; fits && q < pr[r].r->nranks; q++)
				for (int64_t j = 0; fits && in_class(cls, q) && j < t->len[r]; j++) {
					int64_t off = call_vals(&pr[r], q, i, (size_t)j)[slot];
					int64_t to = partner_of(&fam, &pr[r].g, q, (uint64_t)j, (uint64_t)t->len[r]);
					fits = !sv_is_symbolic(off) && to >= 0 && to == q + off;
				}
		if (!fits)
			continue;
		if (!found) {
			first = fam;
			found = true;
			continue;
		}
		for (size_t k = 0; k < ns; k++)   /* a second family that fits must agree at the target */
			for (int64_t j = 0; j < t->target; j++)
				if (partner_of(&fam, target, sample[k], (uint64_t)j, (uint64_t)t->target) !=
				    partner_of(&first, target, sample[k], (uint64_t)j, (uint64_t)t->target)) {
					char a[80], b[80];
					partner_family_name(&first, a, sizeof a);
					partner_family_name(&fam, b, sizeof b);
					snprintf(why, whylen, "the partners of %s are %s or %s on every rung, and differ at the "
						 "target: a rung where they differ would tell", pr[0].r->fns[t->fn].name, a, b);
					return false;
				}
	}
	if (!found) {
		snprintf(why, whylen, "the peers of %s (value %u of its calls) follow no partner family (xor 2^k, "
			 "distance 2^k on a ring, mirror, transpose) on every rung", pr[0].r->fns[t->fn].name, slot);
		return false;
	}
	v->form = FORM_PARTNER;
	v->fam = first;
	partner_family_name(&first, v->text, sizeof v->text);
	return true;
}

/* value slot of run i of the class */
static bool fit_value(struct prung *pr, size_t n, uint32_t cls, const struct tclass *tc, size_t i, uint32_t slot,
		      const struct grid *grids, const struct grid *target, char *why, size_t whylen)
{
	struct trun *t = &tc->runs[i];
	struct vlaw *v = &t->v[slot];
	int64_t **u = xcalloc(n, sizeof *u);
	bool uniform = true, twice = false;
	for (size_t r = 0; r < n; r++) {
		u[r] = xcalloc((size_t)t->len[r] + 1, sizeof **u);
		twice = twice || t->len[r] >= 2;
		for (int64_t j = 0; j < t->len[r]; j++) {
			u[r][j] = call_vals(&pr[r], tc->rep, i, (size_t)j)[slot];
			for (uint32_t q = 0; uniform && q < pr[r].r->nranks; q++)
				uniform = !in_class(cls, q) || call_vals(&pr[r], q, i, (size_t)j)[slot] == u[r][j];
		}
	}
	bool ok = false, clash = false;
	const int64_t *vals0 = call_vals(&pr[0], tc->rep, i, 0);   /* every run has a first call at rung 0 */
	if (t->len[0] > 0 && peer_slot(&pr[0].r->fns[t->fn], vals0, t->nvals, slot))   /* a partner family first */
		ok = fit_partner(v, pr, n, cls, i, slot, t, target, why, whylen);
	if (!ok && uniform) {   /* every form that fits, which must agree at the target */
		struct vlaw forms[1 + 2 * 4];   /* the constant, and per direction 4 forms */
		size_t nf = 0;
		forms[nf++] = (struct vlaw){.form = FORM_CONST};
		for (int down = 0; twice && down < 2; down++) {
			int64_t delta = 0;
			for (size_t r = 0; r < n && !delta; r++)
				if (t->len[r] >= 2 && !sv_is_symbolic(u[r][0]) && !sv_is_symbolic(u[r][1]))
					delta = (u[r][1] - u[r][0]) * (down ? -1 : 1);
			if (delta)
				forms[nf++] = (struct vlaw){.form = FORM_LINEAR, .down = down, .delta = delta};
			forms[nf++] = (struct vlaw){.form = FORM_HALVED, .down = down, .extra = 0};
			forms[nf++] = (struct vlaw){.form = FORM_HALVED, .down = down, .extra = 1};
			forms[nf++] = (struct vlaw){.form = FORM_DOUBLED, .down = down};
		}
		for (size_t f = 0; f < nf && !clash; f++) {
			if (!fit_form(&forms[f], u, t, grids, n, target))
				continue;
			if (!ok) {
				*v = forms[f];
				ok = true;
				continue;
			}
			for (int64_t j = 0; j < t->target; j++) {
				int64_t a, b;
				bool ea = form_eval(v, (uint64_t)j, (uint64_t)t->target, &a);
				bool eb = form_eval(&forms[f], (uint64_t)j, (uint64_t)t->target, &b);
				if (ea != eb || (ea && a != b)) {
					snprintf(why, whylen, "value %u of %s is explained by two laws that differ at the target "
						 "(call %lld of %lld)", slot, pr[0].r->fns[t->fn].name, (long long)j,
						 (long long)t->target);
					ok = false;
					clash = true;
					break;
				}
			}
		}
		if (!ok && !clash)
			snprintf(why, whylen, "value %u of %s (%lld at p%u) has no law of the grid and the call's index on "
				 "every rung", slot, pr[0].r->fns[t->fn].name, (long long)u[n - 1][0],
				 pr[n - 1].r->nranks);
		if (ok && t->target >= 2 && !twice && v->form == FORM_CONST) {
			snprintf(why, whylen, "%s runs %lld times at the target, but no rung shows it twice: its values "
				 "cannot be told", pr[0].r->fns[t->fn].name, (long long)t->target);
			ok = false;
		}
	} else if (!ok && !strstr(why, "partner")) {
		snprintf(why, whylen, "value %u of %s differs from rank to rank and is no peer", slot,
			 pr[0].r->fns[t->fn].name);
	}
	for (size_t r = 0; r < n; r++)
		free(u[r]);
	free(u);
	return ok;
}

static void free_class(struct tclass *tc)
{
	for (size_t i = 0; tc->runs && i < tc->nruns; i++) {
		free(tc->runs[i].len);
		free(tc->runs[i].v);
	}
	free(tc->runs);
	memset(tc, 0, sizeof *tc);
}

static bool fit_class(struct prung *pr, size_t n, uint32_t cls, const struct grid *grids, const struct grid *target,
		      struct tclass *tc, char *why, size_t whylen)
{
	tc->rep = cls == 0 ? 0 : 1;
	if (!skeleton(pr, n, cls, tc, why, whylen))
		return false;
	for (size_t i = 0; i < tc->nruns; i++) {
		struct trun *t = &tc->runs[i];
		if (!fit_length(t, grids, n, target, why, whylen))
			return false;
		t->v = xcalloc(t->nvals + 1, sizeof *t->v);
		for (uint32_t s = 0; s < t->nvals; s++)
			if (!fit_value(pr, n, cls, tc, i, s, grids, target, why, whylen))
				return false;
	}
	return true;
}

/* ---- the target run ---- */

struct item {   /* a streamed value: a literal, or a law of the rank */
	bool law;
	int64_t value;
	struct rank_law l;
};

struct build {
	struct run *out;
	int64_t *sigvals;
	size_t nsigvals, capsigvals, capsigs;
	struct item *items;
	size_t nitems, capitems;
	struct run_stream *streams;
	size_t nstreams, capstreams;
};

static int64_t item_id(struct build *b, const struct item *it)
{
	for (size_t i = 0; i < b->nitems; i++)
		if (b->items[i].law == it->law && b->items[i].value == it->value &&
		    (!it->law || !memcmp(&b->items[i].l, &it->l, sizeof it->l)))
			return (int64_t)i;
	XGROW(b->items, b->capitems, b->nitems + 1);
	b->items[b->nitems] = *it;
	return (int64_t)b->nitems++;
}

static uint32_t sig_id(struct build *b, uint32_t fn, uint64_t callsite, uint32_t flags, const int64_t *vals,
		       uint32_t nvals)
{
	struct run *out = b->out;
	for (uint32_t i = 0; i < out->nsigs; i++) {
		const struct run_signature *s = &out->sigs[i];
		if (s->fn == fn && s->callsite == callsite && s->flags == flags && s->nvals == nvals &&
		    !memcmp(b->sigvals + s->voff, vals, nvals * sizeof *vals))
			return i;
	}
	XGROW(out->sigs, b->capsigs, out->nsigs + 1);
	XGROW(b->sigvals, b->capsigvals, b->nsigvals + nvals + 1);
	memcpy(b->sigvals + b->nsigvals, vals, nvals * sizeof *vals);
	out->sigs[out->nsigs] = (struct run_signature){fn, callsite, flags, nvals, b->nsigvals};
	b->nsigvals += nvals;
	return out->nsigs++;
}

/* per signature of a class, the ids of the items its calls stream, in order */
struct sigitems {
	int64_t *ids;
	size_t n, cap;
};

struct tcall {   /* a call of the class at the target, mapped to the reference rung's */
	uint32_t sig, ref_sig;
};

static void grow_items(struct sigitems **items, size_t *cap, size_t need)
{
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 8;
	while (n < need)
		n *= 2;
	*items = xrealloc(*items, n * sizeof **items);
	memset(*items + *cap, 0, (n - *cap) * sizeof **items);
	*cap = n;
}

static bool class_calls(struct build *b, const struct tclass *tc, const struct prung *ref,
			const struct grid *target, struct tcall **calls, size_t *ncalls, struct sigitems **items,
			char *why, size_t whylen)
{
	size_t cap = 0, capitems = 0;
	*calls = NULL, *ncalls = 0, *items = NULL;
	int64_t *vals = NULL;
	size_t capvals = 0;
	const struct pseq *rs = &ref->seq[tc->rep];
	for (size_t i = 0; i < tc->nruns; i++) {
		const struct trun *t = &tc->runs[i];
		const struct fn_desc *d = &b->out->fns[t->fn];
		XGROW(vals, capvals, t->nvals + 1);
		for (int64_t j = 0; j < t->target; j++) {
			struct item slot_item[64];
			bool streamed[64] = {false};
			if (t->nvals > 64) {
				snprintf(why, whylen, "%s: calls of more than 64 values", d->name);
				goto fail;
			}
			for (uint32_t s = 0; s < t->nvals; s++) {
				const struct vlaw *v = &t->v[s];
				slot_item[s] = (struct item){0};
				if (v->form == FORM_PARTNER) {
					char w[200];
					if (!partner_rank_law(&v->fam, target, (uint64_t)j, (uint64_t)t->target, &slot_item[s].l,
							      w, sizeof w)) {
						snprintf(why, whylen, "%s at the target: %s", d->name, w);
						goto fail;
					}
					slot_item[s].law = true;
					vals[s] = 0;
				} else if (!form_eval(v, (uint64_t)j, (uint64_t)t->target, &vals[s])) {
					snprintf(why, whylen, "value %u of %s: %s halved %llu times is no integer at the "
						 "target", s, d->name, v->text,
						 (unsigned long long)(k_of(v->down, (uint64_t)j, (uint64_t)t->target) + v->extra));
					goto fail;
				} else {
					slot_item[s].value = vals[s];
				}
			}
			bool any = false;
			PARAM_FOR (w, d, vals, t->nvals) {
				bool law = false;
				for (uint32_t s = w.at; s < w.at + w.width; s++)
					law = law || slot_item[s].law;
				if (!law)
					continue;
				if (param_kind_is_array(w.kind)) {
					snprintf(why, whylen, "%s: a partner law in an array", d->name);
					goto fail;
				}
				for (uint32_t s = w.at; s < w.at + w.width; s++)
					streamed[s] = any = true;
			}
			int64_t ids[64];
			uint32_t nids = 0;
			for (uint32_t s = 0; s < t->nvals; s++)
				if (streamed[s]) {
					ids[nids++] = item_id(b, &slot_item[s]);
					vals[s] = SV_STREAMED;
				}
			uint32_t sig = sig_id(b, t->fn, t->callsite, t->flags, vals, t->nvals);
			if (any) {
				grow_items(items, &capitems, sig + 1);
				struct sigitems *si = &(*items)[sig];
				XGROW(si->ids, si->cap, si->n + nids);
				memcpy(si->ids + si->n, ids, nids * sizeof *ids);
				si->n += nids;
			}
			size_t rl = rs->start[i + 1] - rs->start[i];
			size_t rj = (size_t)j < rl ? (size_t)j : rl - 1;
			XGROW(*calls, cap, *ncalls + 1);
			(*calls)[(*ncalls)++] = (struct tcall){sig, rl ? rs->c[rs->start[i] + rj].sig : UINT32_MAX};
		}
	}
	grow_items(items, &capitems, b->out->nsigs + 1);
	free(vals);
	return true;
fail:
	free(vals);
	free(*calls);
	*calls = NULL;
	for (size_t s = 0; *items && s < capitems; s++)
		free((*items)[s].ids);
	free(*items);
	*items = NULL;
	return false;
}

/* the class's streams: one per signature with streamed values, read by the class's ranks */
static void class_streams(struct build *b, struct sigitems *items, uint32_t nsigs, const struct ranklist *ranks,
			  uint32_t nranks)
{
	for (uint32_t s = 0; s < nsigs; s++) {
		struct sigitems *si = &items[s];
		if (!si->n)
			continue;
		uint64_t nhead, nperiod;
		stream_fold(si->ids, si->n, &nhead, &nperiod);
		XGROW(b->streams, b->capstreams, b->nstreams + 1);
		struct run_stream *st = &b->streams[b->nstreams++];
		memset(st, 0, sizeof *st);
		st->sig = s, st->nranks = nranks, st->length = si->n, st->nhead = nhead, st->nperiod = nperiod;
		ranklist_copy(&st->ranks, ranks);
		st->cells = xcalloc(nhead + nperiod + 1, sizeof *st->cells);
		st->laws = xcalloc(nhead + nperiod + 1, sizeof *st->laws);
		for (uint64_t c = 0; c < nhead + nperiod; c++) {
			const struct item *it = &b->items[si->ids[c]];
			if (it->law)
				st->laws[st->nlaws++] = (struct stream_law){c, it->l};
			else
				st->cells[c] = it->value;
		}
	}
}

static const struct run_dur *dur_of(const struct run_group *g, uint32_t sig)
{
	for (uint32_t i = 0; i < g->ndurs; i++)
		if (g->durs[i].sig == sig)
			return &g->durs[i];
	return NULL;
}

static const struct run_gap *gap_of(const struct run_group *g, uint32_t prev, uint32_t sig)
{
	const struct run_gap *any = NULL;
	for (uint32_t i = 0; i < g->ngaps; i++)
		if (g->gaps[i].sig == sig) {
			if (g->gaps[i].prev == prev)
				return &g->gaps[i];
			any = any ? any : &g->gaps[i];
		}
	return any;
}

/* durations and gaps as the reference rung's representative measured them per call */
static void class_timing(const struct tcall *calls, size_t n, const struct run *ref, uint32_t rep, uint32_t nranks,
			 uint32_t nsigs, struct run_group *g)
{
	const struct run_group *rg = &ref->groups[run_rank_group(ref, rep)];
	uint64_t *count = xcalloc(nsigs + 1, sizeof *count);
	for (size_t i = 0; i < n; i++)
		count[calls[i].sig]++;
	for (uint32_t s = 0; s < nsigs; s++) {
		if (!count[s])
			continue;
		uint32_t rs = UINT32_MAX;
		for (size_t i = 0; i < n && rs == UINT32_MAX; i++)
			rs = calls[i].sig == s ? calls[i].ref_sig : rs;
		const struct run_dur *d = rs == UINT32_MAX ? NULL : dur_of(rg, rs);
		double mean = d && d->count ? d->sum / (double)d->count : 0, c = (double)(count[s] * nranks);
		g->durs = xrealloc(g->durs, (g->ndurs + 1) * sizeof *g->durs);
		g->durs[g->ndurs++] = (struct run_dur){s, count[s] * nranks, mean * c, mean * mean * c, d ? d->min : 0,
						       d ? d->max : 0};
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t prev = i ? calls[i - 1].sig : RUN_NO_PREV, sig = calls[i].sig;
		struct run_gap *x = NULL;
		for (uint32_t k = 0; k < g->ngaps && !x; k++)
			x = g->gaps[k].prev == prev && g->gaps[k].sig == sig ? &g->gaps[k] : NULL;
		if (!x) {
			g->gaps = xrealloc(g->gaps, (g->ngaps + 1) * sizeof *g->gaps);
			x = &g->gaps[g->ngaps++];
			memset(x, 0, sizeof *x);
			x->prev = prev, x->sig = sig;
			const struct run_gap *r = calls[i].ref_sig == UINT32_MAX ? NULL
				: gap_of(rg, i ? calls[i - 1].ref_sig : RUN_NO_PREV, calls[i].ref_sig);
			double mean = r && r->count ? r->sum / (double)r->count : 0;
			double cpu = r && r->count ? r->cpu.sum / (double)r->count : 0;
			x->min = x->max = mean;
			x->cpu.min = x->cpu.max = cpu < mean ? cpu : mean;
			x->nbins = 1;
			x->bins = xcalloc(1, sizeof *x->bins);
			x->bins[0].bin = hist_quarter_octave(mean);
			x->bins[0].min = x->bins[0].max = mean;
			x->bins[0].cpu = x->cpu;
		}
		double mean = x->max, cpu = x->cpu.max;
		x->count += nranks, x->sum += mean * nranks, x->sumsq += mean * mean * nranks;
		x->cpu.sum += cpu * nranks;
		x->bins[0].count += nranks, x->bins[0].sum += mean * nranks, x->bins[0].cpu.sum += cpu * nranks;
	}
	free(count);
}

static void describe(const struct run *r, const struct tclass *tc, char *out, size_t outlen)
{
	for (size_t i = 0; i < tc->nruns; i++) {
		const struct trun *t = &tc->runs[i];
		const struct vlaw *partner = NULL;
		for (uint32_t s = 0; s < t->nvals && !partner; s++)
			partner = t->v[s].form == FORM_PARTNER ? &t->v[s] : NULL;
		bool literal = strspn(t->lentext, "-0123456789") == strlen(t->lentext);
		if (!partner && literal)
			continue;
		char line[400];
		int used = snprintf(line, sizeof line, "%s: %s %s calls", r->fns[t->fn].name, literal ? "runs of" : "loops of",
				    t->lentext);
		if (partner && used > 0 && (size_t)used < sizeof line)
			snprintf(line + used, sizeof line - (size_t)used, ", partners %s", partner->text);
		if (strstr(out, line))
			continue;
		size_t at = strlen(out);
		snprintf(out + at, outlen - at, "%s%s", at ? "; " : "", line);
	}
}

static bool build_target(struct prung *pr, size_t n, struct tclass *tcs, const struct grid *target, struct run *out,
			 char *why, size_t whylen)
{
	struct build b = {.out = out};
	size_t ref = 0;
	for (size_t r = 1; r < n; r++)
		ref = pr[r].r->nranks > pr[ref].r->nranks ? r : ref;
	uint32_t P = (uint32_t)grid_size(target);
	out->groups = xcalloc(NCLASSES, sizeof *out->groups);
	bool ok = true;
	for (uint32_t c = 0; ok && c < NCLASSES; c++) {
		struct tcall *calls;
		size_t ncalls;
		struct sigitems *items;
		ok = class_calls(&b, &tcs[c], &pr[ref], target, &calls, &ncalls, &items, why, whylen);
		if (!ok)
			break;
		struct run_group *g = &out->groups[out->ngroups++];
		grammar_init(&g->g);
		struct sequitur *q = sequitur_new();
		for (size_t i = 0; i < ncalls; i++)
			sequitur_append(q, calls[i].sig);
		sequitur_export(q, &g->g);
		sequitur_free(q);
		uint32_t first = c == 0 ? 0 : 1, count = c == 0 ? 1 : P - 1;
		ranklist_from_range(&g->ranks, first, count);
		g->nranks = count;
		class_timing(calls, ncalls, pr[ref].r, tcs[c].rep, count, out->nsigs, g);
		class_streams(&b, items, out->nsigs, &g->ranks, count);
		for (uint32_t s = 0; items && s < out->nsigs; s++)
			free(items[s].ids);
		free(items);
		free(calls);
	}
	out->sigvals = b.sigvals, out->nsigvals = b.nsigvals;
	out->streams = b.streams ? b.streams : xcalloc(1, sizeof *out->streams);
	out->nstreams = (uint32_t)b.nstreams;
	free(b.items);
	return ok;
}

/* the classes of the ladder on grids; false with why */
static bool fit_all(struct prung *pr, size_t n, const struct grid *grids, const struct grid *target,
		    struct tclass *tcs, char *why, size_t whylen)
{
	for (size_t r = 0; r < n; r++) {
		pr[r].g = grids[r];
		if (grids[r].ndims != target->ndims) {
			snprintf(why, whylen, "the rungs' grids have different dimensions");
			return false;
		}
	}
	for (uint32_t c = 0; c < NCLASSES; c++) {
		free_class(&tcs[c]);
		char w[600];
		if (!fit_class(pr, n, c, grids, target, &tcs[c], w, sizeof w)) {
			snprintf(why, whylen, "%s: %s", c == 0 ? "rank 0" : "the ranks but 0", w);
			return false;
		}
	}
	return true;
}

bool partners_build(struct run *const *rungs, size_t n, const struct extrap_options *o, struct run *out,
		    struct grid *target, char *rule, size_t rulelen, char *families, size_t familieslen, char *why,
		    size_t whylen)
{
	struct prung *pr = xcalloc(n, sizeof *pr);
	struct grid *grids = xcalloc(n, sizeof *grids);
	struct tclass tcs[NCLASSES] = {{0}};
	uint64_t budget = PARTNERS_MAX_CALLS;
	bool ok = true, cart = true, dims_created = false;
	for (size_t r = 0; ok && r < n; r++) {
		bool same = rungs[r]->nfns == rungs[0]->nfns;   /* function numbers mean the same at every rung */
		for (uint32_t f = 0; same && f < rungs[0]->nfns; f++)
			same = !strcmp(rungs[r]->fns[f].name, rungs[0]->fns[f].name);
		if (!same || rungs[r]->nranks < 2) {
			snprintf(why, whylen, "p%u %s", rungs[r]->nranks,
				 same ? "has fewer than 2 ranks" : "records other functions than the first rung");
			ok = false;
			break;
		}
		ok = read_rung(rungs[r], &pr[r], &budget, why, whylen);
		bool periodic[LAW_MAX_DIMS];
		char w[300];
		cart = cart && topology_from_cart(rungs[r], &grids[r], periodic, w, sizeof w);
		dims_created = dims_created || topology_dims_create_asked(rungs[r]) > 0;
	}
	if (ok && cart) {
		if (!o->target_grid.ndims)
			ok = grid_rule_target(grids, n, o->target, dims_created, target, rule, rulelen, why, whylen);
		ok = ok && fit_all(pr, n, grids, target, tcs, why, whylen);
	} else if (ok) {   /* a grid by hand: the first rule whose grids explain every rung */
		static const uint32_t order[] = {2, 3, 1};
		char first[600] = "";
		ok = false;
		for (size_t d = 0; !ok && d < sizeof order / sizeof *order; d++)
			for (uint32_t i = 0; !ok && i < grid_rule_count(order[d]); i++) {
				struct grid_rule gr;
				grid_rule_nth(order[d], i, &gr);
				for (size_t r = 0; r < n; r++)
					grid_rule_apply(&gr, rungs[r]->nranks, &grids[r]);
				if (!o->target_grid.ndims)
					grid_rule_apply(&gr, o->target, target);
				ok = fit_all(pr, n, grids, target, tcs, why, whylen);
				if (ok)
					grid_rule_name(&gr, rule, rulelen);
				else if (!first[0])
					snprintf(first, sizeof first, "%s", why);
			}
		if (!ok)
			snprintf(why, whylen, "%s", first);
	}
	if (ok && grid_size(target) != o->target) {
		snprintf(why, whylen, "the target grid is not one of %lld ranks", (long long)o->target);
		ok = false;
	}
	if (ok) {
		families[0] = '\0';
		for (uint32_t c = 0; c < NCLASSES; c++)
			describe(rungs[0], &tcs[c], families, familieslen);
		if (!families[0])
			snprintf(families, familieslen, "no loop or partner law beyond constants");
		ok = build_target(pr, n, tcs, target, out, why, whylen);
	}
	for (uint32_t c = 0; c < NCLASSES; c++)
		free_class(&tcs[c]);
	for (size_t r = 0; r < n; r++)
		free_rung(&pr[r]);
	free(pr);
	free(grids);
	return ok;
}
