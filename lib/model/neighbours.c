/*
 * neighbours — the selected model with one term moved elsewhere in the space, screened as rivals.
 * See neighbours.h.
 */
#include "model/neighbours.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "model/critical.h"
#include "model/fit_screen.h"
#include "model/search.h"
#include "util/xalloc.h"

/* parameters whose factor a neighbour may change at once */
#define NEIGHBOUR_CHANGES 2

static bool same_term(const struct pmnf_term *a, const struct pmnf_term *b, unsigned nparams)
{
	for (unsigned l = 0; l < nparams; l++)
		if (pmnf_factor_cmp(a->f[l], b->f[l]))
			return false;
	return true;
}

/* factor k of the space: the exponent set's, or none (k == ex->n) */
static struct pmnf_factor factor_at(const struct exponent_set *ex, size_t k)
{
	return k < ex->n ? ex->f[k] : (struct pmnf_factor){0, 0};
}

/* v appended to out[0..*n) unless it is all ones or one of best's terms */
static void offer_term(const struct pmnf_term *v, const struct candidates *cand, const struct hypothesis *best,
		       struct pmnf_term *out, size_t *n)
{
	unsigned np = cand->nparams;
	bool one = true;
	for (unsigned l = 0; l < np; l++)
		one &= pmnf_factor_is_one(v->f[l]);
	for (unsigned j = 0; !one && j < best->nterms; j++)
		if (same_term(v, &cand->term[best->idx[j]], np))
			return;
	if (!one)
		out[(*n)++] = *v;
}

/* Every term made of t by changing the factors of one parameter or of two (NEIGHBOUR_CHANGES),
 * neither all ones nor one of best's terms, into out (allocated); returns how many. */
static size_t moved_terms(const struct pmnf_term *t, const struct candidates *cand, const struct hypothesis *best,
			  const struct exponent_set *ex, struct pmnf_term **out)
{
	unsigned np = cand->nparams;
	size_t per = ex->n + 1, cap = np * per + (size_t)np * (np - 1) / 2 * per * per, n = 0;
	*out = xmalloc((cap ? cap : 1) * sizeof **out);
	for (unsigned a = 0; a < np; a++)
		for (size_t fa = 0; fa < per; fa++) {
			struct pmnf_term v = *t;
			v.f[a] = factor_at(ex, fa);
			if (!pmnf_factor_cmp(v.f[a], t->f[a]))
				continue;
			offer_term(&v, cand, best, *out, &n);
			for (unsigned b = a + 1; NEIGHBOUR_CHANGES > 1 && b < np; b++)
				for (size_t fb = 0; fb < per; fb++) {
					struct pmnf_term w = v;
					w.f[b] = factor_at(ex, fb);
					if (pmnf_factor_cmp(w.f[b], t->f[b]))
						offer_term(&w, cand, best, *out, &n);
				}
		}
	return n;
}

/* Judges one extension of a batch's base (x: base + candidate k of p); true stops the screen. */
typedef bool (*extension_judge)(const struct fit_problem *p, const struct hypothesis *base, const struct fit_extension *x,
				unsigned k, void *arg);

/* The model without best's term `drop` (none: drop = best->nterms) extended by each of
 * moved[0..nmoved) in turn, a batch of candidates at a time, each extension handed to judge
 * until it says stop. */
static void screen_extensions(const struct neighbour_spec *s, unsigned drop, const struct pmnf_term *moved,
			      size_t nmoved, extension_judge judge, void *arg)
{
	const struct problem_spec *spec = s->problem;
	const struct hypothesis *best = s->best;
	size_t n = spec->n;
	bool stop = false;
	for (size_t from = 0; from < nmoved && !stop;) {
		struct candidates c = {.nparams = spec->cand->nparams};
		struct hypothesis base = {.constant = true};
		for (unsigned k = 0; k < best->nterms; k++)
			if (k != drop) {
				base.idx[base.nterms++] = (unsigned)c.n;
				c.term[c.n++] = spec->cand->term[best->idx[k]];
			}
		unsigned first = (unsigned)c.n;
		while (from < nmoved && c.n < CANDIDATES_MAX)
			c.term[c.n++] = moved[from++];
		struct problem_spec ps = *spec;
		ps.cand = &c;
		ps.basis = NULL;
		/* only the RSS and the predictions are wanted: the critical values of the problem's own
		 * tests come from a cache of their own, so that they do not evict the search's */
		ps.critical = s->critical;
		struct problem pr;
		problem_init(&pr, &ps);
		fit_problem_set_values(&pr.fp, s->ysel);
		double q[(PMNF_MAX_TERMS + 1) * n], res[n];
		struct fit_base fb = {.q = q, .res = res};
		if (fit_base_init(&pr.fp, &base, &fb))
			for (unsigned k = first; k < c.n && !stop; k++) {
				struct fit_extension x;
				stop = fit_extend(&pr.fp, &fb, k, &x) && judge(&pr.fp, &base, &x, k, arg);
			}
		problem_free(&pr);
	}
}

struct rival_judge {
	struct search_rival rv;
	struct fit_work *w;
	double found;
};

/* judged as the search judges its own hypotheses (search_admissible) */
static bool judge_rival(const struct fit_problem *p, const struct hypothesis *base, const struct fit_extension *x,
			unsigned k, void *arg)
{
	struct rival_judge *j = arg;
	double v;
	if (!search_rival_qualifies(p, base, x, k, &j->rv, j->w, &v))
		return false;
	j->found = v;
	return true;
}

/* The neighbours that replace best's term `drop` (none: drop = best->nterms, they add a term) by
 * moved[0..nmoved), a batch at a time: the prediction of the first that qualifies (neighbours.h),
 * NAN when none does. rss_below: a neighbour's weighted RSS must be at most it. */
static double screen_moved(const struct neighbour_spec *s, unsigned drop, const struct pmnf_term *moved, size_t nmoved,
			   double rss_below, double lo, double hi, double factor)
{
	struct rival_judge j = {.rv = {.rss_limit = rss_below, .lo = lo, .hi = hi, .factor = factor}, .w = s->w,
				.found = NAN};
	screen_extensions(s, drop, moved, nmoved, judge_rival, &j);
	return j.found;
}

double neighbour_rival_outside(const struct neighbour_spec *s, double lo, double hi, double factor)
{
	const struct hypothesis *best = s->best;
	const struct candidates *cand = s->problem->cand;
	/* each term moved, then (drop == nterms) a term of at most two parameters added, unless the
	 * model has as many terms as a model may */
	struct pmnf_term none = {.coef = 1};
	unsigned last = best->nterms < PMNF_MAX_TERMS ? best->nterms : best->nterms - 1;
	for (unsigned drop = 0; drop <= last; drop++) {
		struct pmnf_term *moved;
		const struct pmnf_term *from = drop < best->nterms ? &cand->term[best->idx[drop]] : &none;
		size_t nmoved = moved_terms(from, cand, best, s->exponents, &moved);
		double below = best->rss + s->crit * s->s2;
		if (drop == best->nterms) {
			/* an added term must be significant among all those tried, as the search would judge
			 * it (fit_significant): any term added lowers the RSS */
			double crit = critical_f(FIT_ALPHA / (double)(nmoved ? nmoved : 1), 1, s->dof);
			below = isfinite(crit) ? best->rss - crit * s->s2 : -INFINITY;
		}
		double found = screen_moved(s, drop, moved, nmoved, below, lo, hi, factor);
		free(moved);
		if (isfinite(found))
			return found;
	}
	return NAN;
}

/* is v the term t made faster: a factor at least t's in every parameter? */
static bool faster_than(const struct pmnf_term *v, const struct pmnf_term *t, unsigned nparams)
{
	for (unsigned l = 0; l < nparams; l++)
		if (pmnf_factor_cmp(v->f[l], t->f[l]) < 0)
			return false;
	return true;
}

/* how many parameters t has a factor of */
static unsigned params_of(const struct pmnf_term *t, unsigned nparams)
{
	unsigned used = 0;
	for (unsigned l = 0; l < nparams; l++)
		used += !pmnf_factor_is_one(t->f[l]);
	return used;
}

struct tail_judge {
	double limit, hi, found;
};

/* the added term's coefficient raised as far as the noise allows: its prediction, when positive
 * far out and above both hi and what was found */
static bool judge_tail(const struct fit_problem *p, const struct hypothesis *base, const struct fit_extension *x,
		       unsigned k, void *arg)
{
	(void)base;
	(void)k;
	struct tail_judge *t = arg;
	if (!(x->rss <= t->limit) || !(x->norm > 0))
		return false;
	double d = sqrt(t->limit - x->rss) / x->norm;
	double v = x->pred[0] + d * x->gain[0], far = x->pred[p->ncheck - 1] + d * x->gain[p->ncheck - 1];
	if (x->coef_added + d > 0 && far > 0 && v > t->hi && !(v <= t->found))
		t->found = v;
	return false;
}

double neighbour_faster_tail(const struct neighbour_spec *s, double hi)
{
	const struct hypothesis *best = s->best;
	const struct candidates *cand = s->problem->cand;
	unsigned np = cand->nparams;
	if (best->nterms >= PMNF_MAX_TERMS)
		return NAN;
	struct tail_judge t = {.limit = best->rss + s->crit * s->s2, .hi = hi, .found = NAN};
	/* the search's own candidates (the products of the factors its line searches chose) that
	 * make one of the model's terms faster */
	struct pmnf_term *faster = xmalloc((cand->n ? cand->n : 1) * sizeof *faster);
	size_t nfaster = 0;
	for (size_t c = 0; c < cand->n; c++) {
		bool own = false, above = false;
		for (unsigned k = 0; k < best->nterms; k++) {
			const struct pmnf_term *m = &cand->term[best->idx[k]];
			own |= same_term(&cand->term[c], m, np);
			above |= faster_than(&cand->term[c], m, np);
		}
		if (!own && above)
			faster[nfaster++] = cand->term[c];
	}
	screen_extensions(s, best->nterms, faster, nfaster, judge_tail, &t);
	free(faster);
	/* each of the model's terms of one parameter made faster in that parameter, with any factor
	 * of the space: the line search of that parameter may not have offered it */
	for (unsigned k = 0; k < best->nterms; k++) {
		const struct pmnf_term *from = &cand->term[best->idx[k]];
		if (params_of(from, np) != 1)
			continue;
		struct pmnf_term *moved;
		size_t nmoved = moved_terms(from, cand, best, s->exponents, &moved);
		nfaster = 0;
		for (size_t j = 0; j < nmoved; j++)
			if (params_of(&moved[j], np) == 1 && faster_than(&moved[j], from, np))
				moved[nfaster++] = moved[j];
		screen_extensions(s, best->nterms, moved, nfaster, judge_tail, &t);
		free(moved);
	}
	return t.found;
}
