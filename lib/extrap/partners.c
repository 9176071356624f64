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
#define MAX_CLASSES (1u << LAW_MAX_DIMS)       /* per dimension: the coordinate is 0, or not */
#define MAX_BLOCK 4                             /* call sites in the body of one loop */
#define PARTNER_MAX_LOOP 4096                   /* calls of one loop at the target, at most */

struct pcall {
	uint32_t fn, flags, sig, nvals;
	uint64_t callsite, voff;
};

struct pseq {
	struct pcall *c;
	size_t n, cap;
	size_t *start;   /* per run of the class's skeleton: its first call */
	uint8_t *block;  /* per run: the call sites of its loop's body */
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

struct trun {   /* one call site of a run of a class (a run whose loop body calls at B sites is B of them) */
	uint32_t fn, flags, nvals;
	size_t run;                /* the run of the rank's calls it is in */
	uint32_t pos, B;           /* its place in the loop's body, and the body's call sites */
	uint64_t callsite;
	int64_t *len;              /* per rung */
	int64_t target;            /* its length at the target */
	char lentext[sizeof(((struct law *)0)->text) + 16];
	struct vlaw *v;
};

struct tclass {
	size_t nruns;
	struct trun *runs;
	uint32_t cls;              /* bit d set: the ranks whose coordinate d is 0; clear: the others */
	bool empty;                /* no rank of the target is in it */
};

/* The classes are rank 0 and every other rank (COARSE and COARSE | 1: a root's buffers differ), or
 * where these do not explain the ladder the ranks with the same coordinates 0: on a 2-D grid rank
 * 0, the rest of row 0, the rest of column 0 and the ranks with neither (a code that skips a step
 * on a row or column 0) */
#define COARSE 0x100u

static bool in_class(uint32_t cls, const struct grid *g, int64_t rank)
{
	if (cls & COARSE)
		return (cls & 1) ? rank != 0 : rank == 0;
	for (uint32_t d = 0; d < g->ndims; d++)
		if ((grid_coord(g, rank, d) == 0) != ((cls >> d) & 1))
			return false;
	return true;
}

static uint32_t class_count(const struct grid *g) { return 1u << g->ndims; }

/* the rank that stands for the class on g (coordinate 0 or 1 in every dimension), -1 when it has none */
static int64_t rep_of(uint32_t cls, const struct grid *g)
{
	if (cls & COARSE)
		return !(cls & 1) ? 0 : grid_size(g) > 1 ? 1 : -1;
	int64_t rank = 0;
	for (uint32_t d = 0; d < g->ndims; d++)
		if (!((cls >> d) & 1)) {
			if (g->dims[d] < 2)
				return -1;
			rank += grid_stride(g, d);
		}
	return rank;
}

/* the class's ranks on g as one box: per dimension the coordinate 0, or 1 .. d - 1 */
static void class_box(uint32_t cls, const struct grid *g, int64_t *lo, int64_t *hi)
{
	for (uint32_t d = 0; d < g->ndims; d++) {
		bool zero = (cls >> d) & 1;
		lo[d] = zero ? 0 : 1;
		hi[d] = zero ? 0 : g->dims[d] - 1;
	}
}

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
		free(p->seq[q].block);
	}
	free(p->seq);
	free(p->vals);
}

static bool same_site(const struct pcall *a, const struct pcall *b)
{
	return a->fn == b->fn && a->callsite == b->callsite && a->flags == b->flags;
}

/* the repetitions of the body of B calls at s->c[i] (0 when its call sites are not B distinct ones) */
static size_t body_repeats(const struct pseq *s, size_t i, size_t B)
{
	if (i + B > s->n)
		return 0;
	for (size_t x = 0; x < B; x++)
		for (size_t y = x + 1; y < B; y++)
			if (same_site(&s->c[i + x], &s->c[i + y]))
				return 0;
	size_t reps = 1;
	for (;;) {
		size_t at = i + reps * B, x = 0;
		while (x < B && at + x < s->n && same_site(&s->c[at + x], &s->c[i + x]))
			x++;
		if (x < B)
			return reps;
		reps++;
	}
}

/* the runs of a rank's calls: loops whose body calls at one call site, or at up to MAX_BLOCK
 * distinct ones in turn (the longest stretch, the shorter body on a tie); their starts and bodies
 * (freed by the caller), and their number */
static size_t runs_of(const struct pseq *s, size_t maxb, size_t **start, uint8_t **block)
{
	size_t n = 0;
	*start = xmalloc((s->n + 1) * sizeof **start);
	*block = xmalloc((s->n + 1) * sizeof **block);
	for (size_t i = 0; i < s->n;) {
		size_t best = 1, cover = body_repeats(s, i, 1);
		for (size_t B = 2; B <= maxb; B++) {
			size_t reps = body_repeats(s, i, B);
			if (reps >= 2 && reps * B > cover)
				best = B, cover = reps * B;
		}
		(*start)[n] = i;
		(*block)[n++] = (uint8_t)best;
		i += cover;
	}
	(*start)[n] = s->n;
	return n;
}

/* the iterations of run i */
static size_t run_len(const struct pseq *s, size_t i) { return (s->start[i + 1] - s->start[i]) / s->block[i]; }

/* the values of call pos of iteration j of run i */
static const int64_t *call_vals(const struct prung *p, uint32_t q, size_t i, size_t j, uint32_t pos)
{
	const struct pseq *s = &p->seq[q];
	return p->vals + s->c[s->start[i] + j * s->block[i] + pos].voff;
}

static const struct pcall *run_call(const struct pseq *s, size_t i, uint32_t pos) { return &s->c[s->start[i] + pos]; }

static bool same_run(const struct pseq *a, size_t i, const struct pseq *b, size_t k)
{
	if (a->block[i] != b->block[k])
		return false;
	for (uint32_t x = 0; x < a->block[i]; x++)
		if (!same_site(run_call(a, i, x), run_call(b, k, x)))
			return false;
	return true;
}

/* every rank of the class at every rung shows the skeleton of the class's first rung */
static bool skeleton(struct prung *pr, size_t n, struct tclass *tc, size_t maxb, char *why, size_t whylen)
{
	size_t nruns = 0;
	uint32_t cls = tc->cls, rep0 = (uint32_t)rep_of(cls, &pr[0].g);
	for (size_t r = 0; r < n; r++)
		for (uint32_t q = 0; q < pr[r].r->nranks; q++) {
			if (!in_class(cls, &pr[r].g, q))
				continue;
			struct pseq *s = &pr[r].seq[q], *ref = &pr[0].seq[rep0];
			free(s->start);   /* read again on another grid */
			free(s->block);
			size_t k = runs_of(s, maxb, &s->start, &s->block);
			if (r == 0 && q == rep0) {
				nruns = k;
				continue;
			}
			size_t i = 0;
			while (i < k && i < nruns && same_run(s, i, ref, i))
				i++;
			if (i < k || i < nruns) {
				const char *fn = i < k ? pr[r].r->fns[s->c[s->start[i]].fn].name : "its last call";
				snprintf(why, whylen, "rank %u at p%u makes its calls in %zu loops (at one call site each, or "
					 "a body of up to %zu in turn), rank %u at p%u in %zu; they part at loop %zu (%s): calls "
					 "only some ranks of the class make (the classes are the ranks whose coordinates are "
					 "0 in the same dimensions), or a loop whose body ladder cannot carry as a law",
					 q, pr[r].r->nranks, k, maxb, rep0, pr[0].r->nranks, nruns, i, fn);
				return false;
			}
		}
	const struct pseq *ref = &pr[0].seq[rep0];
	size_t nsub = 0;
	for (size_t i = 0; i < nruns; i++)
		nsub += ref->block[i];
	tc->nruns = nsub;
	tc->runs = xcalloc(nsub + 1, sizeof *tc->runs);
	for (size_t i = 0, at = 0; i < nruns; i++)
		for (uint32_t pos = 0; pos < ref->block[i]; pos++, at++) {
			struct trun *t = &tc->runs[at];
			const struct pcall *c = run_call(ref, i, pos);
			t->fn = c->fn, t->flags = c->flags, t->callsite = c->callsite, t->nvals = c->nvals;
			t->run = i, t->pos = pos, t->B = ref->block[i];
			t->len = xcalloc(n, sizeof *t->len);
			for (size_t r = 0; r < n; r++) {
				uint32_t rep = (uint32_t)rep_of(cls, &pr[r].g);
				t->len[r] = (int64_t)run_len(&pr[r].seq[rep], i);
				for (uint32_t q = 0; q < pr[r].r->nranks; q++) {
					if (!in_class(cls, &pr[r].g, q))
						continue;
					const struct pseq *s = &pr[r].seq[q];
					bool ok = run_len(s, i) == (size_t)t->len[r];
					for (size_t j = 0; ok && j < run_len(s, i); j++)
						ok = s->c[s->start[i] + j * t->B + pos].nvals == t->nvals;
					if (!ok) {
						snprintf(why, whylen, "the calls of loop %zu (%s) differ in number or shape "
							 "between ranks %u and %u at p%u", i, pr[0].r->fns[t->fn].name, q, rep,
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
		if (!v->base) {   /* 0 halved or doubled any number of times */
			*out = 0;
			return true;
		}
		if (sh >= 62 || v->base % (INT64_C(1) << sh))
			return false;
		*out = v->base / (INT64_C(1) << sh);
		return true;
	}
	case FORM_DOUBLED:
		if (!v->base) {
			*out = 0;
			return true;
		}
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
	int64_t P = grid_size(g);
	for (uint32_t d = g->ndims; d-- > 0;)
		for (int64_t c = 0; c < g->dims[d] && n + 2 <= cap; c++) {
			out[n++] = c * grid_stride(g, d);
			out[n++] = P - 1 - c * grid_stride(g, d);
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
		if (in_class(cls, target, sample[k]))
			sample[kept++] = sample[k];
	ns = kept;
	for (uint32_t f = 0; f < nf; f++) {
		struct partner_family fam;
		partner_family_nth(target->ndims, f, &fam);
		/* a skew's pieces are boxes of a class's box; where c_by is 0 it is no move */
		if (partner_is_piecewise(&fam) && ((cls & COARSE) || ((cls >> fam.by) & 1)))
			continue;
		bool fits = true;
		for (size_t r = 0; fits && r < n; r++)
			for (uint32_t q = 0; fits && q < pr[r].r->nranks; q++)
				for (int64_t j = 0; fits && in_class(cls, &pr[r].g, q) && j < t->len[r]; j++) {
					int64_t off = call_vals(&pr[r], q, t->run, (size_t)j, t->pos)[slot];
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
			 "distance 2^k or 1 on a ring, mirror, transpose, shift by another coordinate) on every rung",
			 pr[0].r->fns[t->fn].name, slot);
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
		uint32_t rep = (uint32_t)rep_of(cls, &pr[r].g);
		u[r] = xcalloc((size_t)t->len[r] + 1, sizeof **u);
		twice = twice || t->len[r] >= 2;
		for (int64_t j = 0; j < t->len[r]; j++) {
			u[r][j] = call_vals(&pr[r], rep, t->run, (size_t)j, t->pos)[slot];
			for (uint32_t q = 0; uniform && q < pr[r].r->nranks; q++)
				uniform = !in_class(cls, &pr[r].g, q) ||
					  call_vals(&pr[r], q, t->run, (size_t)j, t->pos)[slot] == u[r][j];
		}
	}
	bool ok = false, clash = false;
	/* every run has a first call at rung 0 */
	const int64_t *vals0 = call_vals(&pr[0], (uint32_t)rep_of(cls, &pr[0].g), t->run, 0, t->pos);
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

static bool fit_runs(struct prung *pr, size_t n, uint32_t cls, const struct grid *grids, const struct grid *target,
		     struct tclass *tc, char *why, size_t whylen);

static bool fit_class(struct prung *pr, size_t n, uint32_t cls, const struct grid *grids, const struct grid *target,
		      struct tclass *tc, char *why, size_t whylen)
{
	/* loops at one call site each first; where the ranks do not show one skeleton so, or its laws
	 * do not hold, loops whose body calls at several sites in turn (a loop of length 1 at a small
	 * rung, inside another loop, reads as such a body there and not at larger rungs: never first).
	 * The refusal is the first reading's when its skeleton held. */
	char first[600] = "";
	for (size_t maxb = 1;; maxb = MAX_BLOCK) {
		free_class(tc);
		tc->cls = cls;
		bool parsed = skeleton(pr, n, tc, maxb, why, whylen);
		if (parsed && fit_runs(pr, n, cls, grids, target, tc, why, whylen))
			return true;
		if (maxb == MAX_BLOCK) {
			if (first[0])
				snprintf(why, whylen, "%s", first);
			return false;
		}
		if (parsed)
			snprintf(first, sizeof first, "%s", why);
	}
}

/* the lengths and values of the class's runs */
static bool fit_runs(struct prung *pr, size_t n, uint32_t cls, const struct grid *grids, const struct grid *target,
		     struct tclass *tc, char *why, size_t whylen)
{
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

struct item {   /* a streamed value: a literal, a law of the rank, or a partner constant by pieces */
	bool law, piecewise;
	int64_t value;
	struct rank_law l;
	struct partner_family fam;   /* piecewise: the family */
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
		    b->items[i].piecewise == it->piecewise &&
		    (!it->piecewise || !memcmp(&b->items[i].fam, &it->fam, sizeof it->fam)) &&
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
	const struct pseq *rs = &ref->seq[rep_of(tc->cls, &ref->g)];
	for (size_t i0 = 0; i0 < tc->nruns; i0 += tc->runs[i0].B)
		for (int64_t j = 0; j < tc->runs[i0].target; j++)
			for (uint32_t pos = 0; pos < tc->runs[i0].B; pos++) {
				const struct trun *t = &tc->runs[i0 + pos];
				const struct fn_desc *d = &b->out->fns[t->fn];
				XGROW(vals, capvals, t->nvals + 1);
				struct item slot_item[64];
				bool streamed[64] = {false};
				if (t->nvals > 64) {
					snprintf(why, whylen, "%s: calls of more than 64 values", d->name);
					goto fail;
				}
				for (uint32_t s = 0; s < t->nvals; s++) {
					const struct vlaw *v = &t->v[s];
					slot_item[s] = (struct item){0};
					if (v->form == FORM_PARTNER && partner_is_piecewise(&v->fam)) {
						slot_item[s].law = slot_item[s].piecewise = true;
						slot_item[s].fam = v->fam;
						vals[s] = 0;
					} else if (v->form == FORM_PARTNER) {
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
				size_t rl = run_len(rs, t->run);
				size_t rj = (size_t)j < rl ? (size_t)j : rl - 1;
				XGROW(*calls, cap, *ncalls + 1);
				(*calls)[(*ncalls)++] = (struct tcall){sig, rl ? rs->c[rs->start[t->run] + rj * t->B + t->pos].sig
									  : UINT32_MAX};
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

/* the ranks of g whose coordinates lie in lo..hi as one box of a ranklist; their number */
static uint64_t box_ranklist(const struct grid *g, const int64_t *lo, const int64_t *hi, struct ranklist *rl)
{
	ranklist_init(rl);
	XGROW(rl->v, rl->cap, 2 + 2 * (size_t)g->ndims);
	int64_t start = 0;
	uint64_t count = 1;
	rl->v[rl->len++] = g->ndims;
	rl->v[rl->len++] = 0;
	for (uint32_t d = 0; d < g->ndims; d++) {
		start += lo[d] * grid_stride(g, d);
		count *= (uint64_t)(hi[d] - lo[d] + 1);
		rl->v[rl->len++] = hi[d] - lo[d] + 1;
		rl->v[rl->len++] = grid_stride(g, d);
	}
	rl->v[1] = start;
	struct ranklist norm;
	struct ranklist_clash clash;
	ranklist_init(&norm);
	if (ranklist_normalize(&norm, rl->v, rl->len, &clash)) {   /* one box names no rank twice */
		ranklist_free(rl);
		*rl = norm;
	}
	return count;
}

/* a stream of the items ids[0..nhead+nperiod) for the ranks of rl; a piecewise item's cells are
 * the relative partner of the piece's first rank */
static void add_stream(struct build *b, uint32_t sig, const int64_t *ids, uint64_t length, uint64_t nhead,
		       uint64_t nperiod, const struct ranklist *rl, uint64_t nranks, const struct grid *target)
{
	XGROW(b->streams, b->capstreams, b->nstreams + 1);
	struct run_stream *st = &b->streams[b->nstreams++];
	memset(st, 0, sizeof *st);
	st->sig = sig, st->nranks = (uint32_t)nranks, st->length = length, st->nhead = nhead, st->nperiod = nperiod;
	ranklist_copy(&st->ranks, rl);
	st->cells = xcalloc(nhead + nperiod + 1, sizeof *st->cells);
	st->laws = xcalloc(nhead + nperiod + 1, sizeof *st->laws);
	int64_t first = ranklist_first(rl);
	for (uint64_t c = 0; c < nhead + nperiod; c++) {
		const struct item *it = &b->items[ids[c]];
		if (it->piecewise)
			st->cells[c] = partner_of(&it->fam, target, first, 0, 1) - first;
		else if (it->law)
			st->laws[st->nlaws++] = (struct stream_law){c, it->l};
		else
			st->cells[c] = it->value;
	}
}

/* the class's streams: per signature with streamed values one for the class's ranks, or where its
 * partners are skews one per piece of the class's box lo..hi of the target */
static bool class_streams(struct build *b, struct sigitems *items, uint32_t nsigs, const struct grid *target,
			  const struct ranklist *ranks, uint32_t nranks, const int64_t *lo, const int64_t *hi, char *why,
			  size_t whylen)
{
	for (uint32_t s = 0; s < nsigs; s++) {
		struct sigitems *si = &items[s];
		if (!si->n)
			continue;
		uint64_t nhead, nperiod;
		stream_fold(si->ids, si->n, &nhead, &nperiod);
		struct partner_family fams[8];
		size_t nfams = 0;
		for (uint64_t c = 0; c < nhead + nperiod; c++) {
			const struct item *it = &b->items[si->ids[c]];
			bool seen = !it->piecewise;
			for (size_t f = 0; !seen && f < nfams; f++)
				seen = !memcmp(&fams[f], &it->fam, sizeof it->fam);
			if (seen)
				continue;
			if (nfams == sizeof fams / sizeof *fams) {
				snprintf(why, whylen, "%s: more than %zu skews of partners in one call", b->out->fns[b->out->sigs[s].fn].name,
					 nfams);
				return false;
			}
			fams[nfams++] = it->fam;
		}
		struct ranklist rl;
		if (!nfams) {
			add_stream(b, s, si->ids, si->n, nhead, nperiod, ranks, nranks, target);
			continue;
		}
		if (!lo) {
			snprintf(why, whylen, "%s: skewed partners in a class that is no box of the grid",
				 b->out->fns[b->out->sigs[s].fn].name);
			return false;
		}
		struct partner_piece *pieces;
		char w[300];
		size_t np = partner_pieces(fams, nfams, target, lo, hi, &pieces, w, sizeof w);
		if (!np) {
			snprintf(why, whylen, "%s at the target: %s", b->out->fns[b->out->sigs[s].fn].name, w);
			free(pieces);
			return false;
		}
		for (size_t p = 0; p < np; p++) {
			uint64_t count = box_ranklist(target, pieces[p].lo, pieces[p].hi, &rl);
			add_stream(b, s, si->ids, si->n, nhead, nperiod, &rl, count, target);
			ranklist_free(&rl);
		}
		free(pieces);
	}
	return true;
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

static bool build_target(struct prung *pr, size_t n, struct tclass *tcs, uint32_t ntcs, const struct grid *target,
			 struct run *out, char *why, size_t whylen)
{
	struct build b = {.out = out};
	size_t ref = 0;
	for (size_t r = 1; r < n; r++)
		ref = pr[r].r->nranks > pr[ref].r->nranks ? r : ref;
	uint32_t order[MAX_CLASSES], nc = 0;   /* the classes by their first rank */
	for (uint32_t c = 0; c < ntcs; c++) {
		if (tcs[c].empty)
			continue;
		uint32_t at = nc++;
		while (at > 0 && rep_of(tcs[order[at - 1]].cls, target) > rep_of(tcs[c].cls, target)) {
			order[at] = order[at - 1];
			at--;
		}
		order[at] = c;
	}
	out->groups = xcalloc(nc + 1, sizeof *out->groups);
	bool ok = true;
	for (uint32_t k = 0; ok && k < nc; k++) {
		uint32_t c = order[k], cls = tcs[c].cls;
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
		int64_t lo[LAW_MAX_DIMS], hi[LAW_MAX_DIMS];
		uint32_t count = (cls & 1) ? (uint32_t)grid_size(target) - 1 : 1;
		if (cls & COARSE) {
			ranklist_from_range(&g->ranks, cls & 1, count);
		} else {
			class_box(cls, target, lo, hi);
			count = (uint32_t)box_ranklist(target, lo, hi, &g->ranks);
		}
		g->nranks = count;
		class_timing(calls, ncalls, pr[ref].r, (uint32_t)rep_of(cls, &pr[ref].g), count, out->nsigs, g);
		ok = class_streams(&b, items, out->nsigs, target, &g->ranks, count, (cls & COARSE) ? NULL : lo, hi, why,
				   whylen);
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

/* "rank 0", "the ranks with c0 = 0 but rank 0", "the ranks with c0 > 0, c1 = 0" */
static void class_name(uint32_t cls, uint32_t ndims, char *out, size_t outlen)
{
	if (cls == (1u << ndims) - 1 || cls == COARSE) {
		snprintf(out, outlen, "rank 0");
		return;
	}
	if (ndims == 1 || cls == (COARSE | 1)) {
		snprintf(out, outlen, "the ranks but 0");
		return;
	}
	size_t at = (size_t)snprintf(out, outlen, "the ranks with");
	for (uint32_t d = 0; d < ndims && at < outlen; d++)
		at += (size_t)snprintf(out + at, outlen - at, "%s c%u %s 0", d ? "," : "", d, (cls >> d) & 1 ? "=" : ">");
}

/* the classes cls[0..nc) of the ladder on grids into tcs; false with why (*unfit_grid: a class has
 * no rank at a rung but some at the target) */
static bool fit_classes(struct prung *pr, size_t n, const struct grid *grids, const struct grid *target,
			const uint32_t *cls, uint32_t nc, struct tclass *tcs, bool *unfit_grid, char *why, size_t whylen)
{
	*unfit_grid = true;
	for (uint32_t c = 0; c < nc; c++) {
		char name[120];
		free_class(&tcs[c]);
		class_name(cls[c], target->ndims, name, sizeof name);
		tcs[c].cls = cls[c];
		tcs[c].empty = rep_of(cls[c], target) < 0;
		for (size_t r = 0; !tcs[c].empty && r < n; r++)
			if (rep_of(cls[c], &grids[r]) < 0) {
				snprintf(why, whylen, "%s: none at p%u, but some at the target", name, pr[r].r->nranks);
				return false;
			}
	}
	*unfit_grid = false;
	for (uint32_t c = 0; c < nc; c++) {
		char w[600], name[120];
		class_name(cls[c], target->ndims, name, sizeof name);
		if (!tcs[c].empty && !fit_class(pr, n, cls[c], grids, target, &tcs[c], w, sizeof w)) {
			snprintf(why, whylen, "%s: %s", name, w);
			return false;
		}
	}
	return true;
}

/* the classes of the ladder on grids: rank 0 and the others, else by coordinates 0; their number
 * in *ntcs; false with why (both refusals) */
static bool fit_all(struct prung *pr, size_t n, const struct grid *grids, const struct grid *target,
		    struct tclass *tcs, uint32_t *ntcs, bool *unfit_grid, char *why, size_t whylen)
{
	*unfit_grid = true;
	for (size_t r = 0; r < n; r++) {
		pr[r].g = grids[r];
		if (grids[r].ndims != target->ndims) {
			snprintf(why, whylen, "the rungs' grids have different dimensions");
			return false;
		}
	}
	const uint32_t coarse[2] = {COARSE, COARSE | 1};
	*ntcs = 2;
	if (fit_classes(pr, n, grids, target, coarse, 2, tcs, unfit_grid, why, whylen))
		return true;
	char first[700];
	snprintf(first, sizeof first, "%s", why);
	bool unfit_coarse = *unfit_grid;
	uint32_t fine[MAX_CLASSES];
	*ntcs = class_count(target);
	for (uint32_t c = 0; c < *ntcs; c++)
		fine[c] = c;
	if (target->ndims < 2 ||   /* in 1-D the classes by coordinates are the same two */
	    fit_classes(pr, n, grids, target, fine, *ntcs, tcs, unfit_grid, why, whylen)) {
		if (target->ndims >= 2)
			return true;
		*ntcs = 2;
		snprintf(why, whylen, "%s", first);
		*unfit_grid = unfit_coarse;
		return false;
	}
	*unfit_grid = *unfit_grid && unfit_coarse;
	size_t used = strlen(first);
	snprintf(first + used, sizeof first - used, "; by the coordinates that are 0, %s", why);
	snprintf(why, whylen, "%s", first);
	return false;
}

bool partners_build(struct run *const *rungs, size_t n, const struct extrap_options *o, struct run *out,
		    struct grid *target, char *rule, size_t rulelen, char *families, size_t familieslen, char *why,
		    size_t whylen)
{
	struct prung *pr = xcalloc(n, sizeof *pr);
	struct grid *grids = xcalloc(n, sizeof *grids);
	struct tclass tcs[MAX_CLASSES] = {{0}};
	uint32_t ntcs = 0;
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
		bool unfit;
		ok = ok && fit_all(pr, n, grids, target, tcs, &ntcs, &unfit, why, whylen);
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
				bool unfit;   /* a grid with a dimension of 1 at a rung: no refusal to tell */
				ok = fit_all(pr, n, grids, target, tcs, &ntcs, &unfit, why, whylen);
				if (ok)
					grid_rule_name(&gr, rule, rulelen);
				else if (!first[0] && !unfit)
					snprintf(first, sizeof first, "%s", why);
			}
		if (!ok && first[0])
			snprintf(why, whylen, "%s", first);
	}
	if (ok && grid_size(target) != o->target) {
		snprintf(why, whylen, "the target grid is not one of %lld ranks", (long long)o->target);
		ok = false;
	}
	if (ok) {
		families[0] = '\0';
		for (uint32_t c = 0; c < ntcs; c++)
			describe(rungs[0], &tcs[c], families, familieslen);
		if (!families[0])
			snprintf(families, familieslen, "no loop or partner law beyond constants");
		ok = build_target(pr, n, tcs, ntcs, target, out, why, whylen);
	}
	for (uint32_t c = 0; c < MAX_CLASSES; c++)
		free_class(&tcs[c]);
	for (size_t r = 0; r < n; r++)
		free_rung(&pr[r]);
	free(pr);
	free(grids);
	return ok;
}
