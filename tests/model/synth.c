/*
 * synth — ground-truth functions and noisy synthetic measurements. See synth.h.
 */
#include "synth.h"

#include <gsl/gsl_randist.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/exponents.h"

void synth_ladder_geometric(struct synth_ladder *l, double first, double factor, size_t n)
{
	memset(l, 0, sizeof *l);
	l->nparams = 1;
	for (size_t k = 0; k < n && k < SYNTH_MAX_POINTS; k++)
		l->x[l->npoints++] = first * pow(factor, (double)k);
}

void synth_ladder_grid(struct synth_ladder *l, double p0, double pf, size_t np, double n0, double nf, size_t nn)
{
	memset(l, 0, sizeof *l);
	l->nparams = 2;
	for (size_t a = 0; a < np; a++)
		for (size_t b = 0; b < nn && l->npoints < SYNTH_MAX_POINTS; b++) {
			l->x[2 * l->npoints] = p0 * pow(pf, (double)a);
			l->x[2 * l->npoints + 1] = n0 * pow(nf, (double)b);
			l->npoints++;
		}
}

void synth_ladder_default(struct synth_ladder *l, unsigned nparams)
{
	if (nparams == 1)
		synth_ladder_geometric(l, 2, 2, 7);
	else
		synth_ladder_grid(l, 2, 2, 5, 16, 2, 5);
}

const char *synth_family_name(enum synth_family fam)
{
	static const char *const names[] = {"one term + constant", "one term, no constant", "two terms + constant",
					    "strong scaling", "two parameters"};
	return names[fam];
}

static double largest(const struct synth_ladder *l, unsigned param, bool smallest)
{
	double v = l->x[param];
	for (size_t k = 1; k < l->npoints; k++) {
		double x = l->x[k * l->nparams + param];
		v = smallest ? fmin(v, x) : fmax(v, x);
	}
	return v;
}

void synth_reference_point(const struct synth_ladder *l, bool smallest, double *x)
{
	for (unsigned q = 0; q < l->nparams; q++)
		x[q] = largest(l, q, smallest);
}

/* f = c0 + sum_k c_k t_k with c_k t_k(x_ref) = share_k * 100 and c0 = the remainder */
static struct pmnf with_shares(const struct synth_ladder *l, const struct pmnf_term *terms, const double *share,
			       unsigned nterms, bool constant, bool at_smallest)
{
	struct pmnf f = {.nparams = l->nparams};
	double x[2], rest = 1.0;
	synth_reference_point(l, at_smallest, x);
	for (unsigned k = 0; k < nterms; k++) {
		f.term[k] = terms[k];
		f.term[k].coef = 100.0 * share[k] / pmnf_term_basis(&terms[k], l->nparams, x);
		rest -= share[k];
	}
	f.nterms = nterms;
	f.constant = constant ? 100.0 * rest : 0.0;
	return f;
}

static struct pmnf_term single(double i, double j)
{
	struct pmnf_term t = {.coef = 1};
	t.f[0] = (struct pmnf_factor){i, j};
	return t;
}

static size_t one_term(const struct synth_ladder *l, gsl_rng *rng, bool constant, struct pmnf *out, size_t cap)
{
	struct exponent_set s;
	exponents_default(&s);
	size_t n = 0;
	for (size_t k = 0; k < s.n && n < cap; k++) {
		struct pmnf_term t = single(s.f[k].i, s.f[k].j);
		double share = constant ? gsl_ran_flat(rng, 0.5, 0.9) : 1.0;
		out[n++] = with_shares(l, &t, &share, 1, constant, false);
	}
	return n;
}

static size_t two_terms(const struct synth_ladder *l, gsl_rng *rng, struct pmnf *out, size_t cap)
{
	struct exponent_set s;
	exponents_default(&s);
	size_t n = 0;
	for (size_t a = 0; a < s.n; a++)
		for (size_t b = a + 1; b < s.n && n < cap; b++) {
			struct pmnf_term t[2] = {single(s.f[a].i, s.f[a].j), single(s.f[b].i, s.f[b].j)};
			double share[2] = {gsl_ran_flat(rng, 0.2, 0.35), gsl_ran_flat(rng, 0.4, 0.6)};
			out[n++] = with_shares(l, t, share, 2, true, false);
		}
	return n;
}

static size_t strong(const struct synth_ladder *l, gsl_rng *rng, struct pmnf *out, size_t cap)
{
	static const double decay[] = {-0.5, -1, -1.5, -2};
	static const struct pmnf_factor grow[] = {{0, 1}, {0.5, 0}, {0, 2}};
	size_t n = 0;
	double x[2];
	synth_reference_point(l, true, x);
	for (size_t d = 0; d < 4 && n < cap; d++) {
		/* c / p^i + d: the decaying term holds 60-90% at the smallest rung */
		struct pmnf_term t = single(decay[d], 0);
		double share = gsl_ran_flat(rng, 0.6, 0.9);
		out[n++] = with_shares(l, &t, &share, 1, true, true);
		/* c / p^i + d * g(p): compute shrinks while communication grows */
		for (size_t g = 0; g < 3 && n < cap; g++) {
			struct pmnf f = {.nparams = l->nparams, .nterms = 2};
			f.term[0] = single(decay[d], 0);
			f.term[1] = single(grow[g].i, grow[g].j);
			double xl[2];
			synth_reference_point(l, false, xl);
			/* 60-90% decaying at the smallest rung; the growing term reaches 30-60% of that
			 * level at the largest */
			f.term[0].coef = 100.0 * gsl_ran_flat(rng, 0.6, 0.9) / pmnf_term_basis(&f.term[0], l->nparams, x);
			f.term[1].coef = 100.0 * gsl_ran_flat(rng, 0.3, 0.6) / pmnf_term_basis(&f.term[1], l->nparams, xl);
			f.constant = gsl_ran_flat(rng, 5, 20);
			out[n++] = f;
		}
	}
	return n;
}

static size_t two_params(const struct synth_ladder *l, gsl_rng *rng, struct pmnf *out, size_t cap)
{
	static const struct pmnf_factor fs[] = {{0, 1}, {0.5, 0}, {1, 0}, {1, 1}, {2, 0}};
	size_t n = 0;
	for (size_t a = 0; a < 5; a++)
		for (size_t b = 0; b < 5; b++) {
			struct pmnf_term tp = {.coef = 1}, tn = {.coef = 1}, tpn = {.coef = 1};
			tp.f[0] = fs[a];
			tn.f[1] = fs[b];
			tpn.f[0] = fs[a];
			tpn.f[1] = fs[b];
			double s1 = gsl_ran_flat(rng, 0.5, 0.9);
			if (n < cap)
				out[n++] = with_shares(l, &tpn, &s1, 1, true, false);
			struct pmnf_term sum[2] = {tp, tn};
			double s2[2] = {gsl_ran_flat(rng, 0.3, 0.5), gsl_ran_flat(rng, 0.3, 0.5)};
			if (n < cap)
				out[n++] = with_shares(l, sum, s2, 2, true, false);
			struct pmnf_term mixed[2] = {tpn, tp};
			double s3[2] = {gsl_ran_flat(rng, 0.4, 0.6), gsl_ran_flat(rng, 0.2, 0.3)};
			if (n < cap)
				out[n++] = with_shares(l, mixed, s3, 2, true, false);
		}
	return n;
}

size_t synth_family_truths(enum synth_family fam, const struct synth_ladder *l, gsl_rng *rng,
			   struct pmnf *out, size_t cap)
{
	switch (fam) {
	case SYNTH_ONE_TERM: return one_term(l, rng, true, out, cap);
	case SYNTH_ONE_TERM_PURE: return one_term(l, rng, false, out, cap);
	case SYNTH_TWO_TERMS: return two_terms(l, rng, out, cap);
	case SYNTH_STRONG: return strong(l, rng, out, cap);
	case SYNTH_TWO_PARAMS: return two_params(l, rng, out, cap);
	}
	return 0;
}

void synth_measure(const struct pmnf *f, const struct synth_ladder *l, size_t reps, double noise,
		   enum synth_noise kind, gsl_rng *rng, struct experiment *e, size_t cp, size_t metric)
{
	for (size_t k = 0; k < l->npoints; k++) {
		const double *x = l->x + k * l->nparams;
		double v[reps ? reps : 1], truth = pmnf_eval(f, x);
		for (size_t r = 0; r < reps; r++) {
			double eps = noise <= 0 ? 0 : kind == SYNTH_UNIFORM ? gsl_ran_flat(rng, -noise, noise)
									  : gsl_ran_gaussian(rng, noise);
			v[r] = truth * (1 + eps);
			if (v[r] < 0)
				v[r] = 0;
		}
		experiment_add_values(e, cp, metric, experiment_intern_point(e, x), v, reps);
	}
}

struct experiment *synth_experiment(const struct synth_ladder *l)
{
	static const char *const names[] = {"p", "n"};
	struct experiment *e = experiment_new();
	for (unsigned q = 0; q < l->nparams; q++)
		experiment_add_parameter(e, names[q], NULL);
	for (size_t k = 0; k < l->npoints; k++)
		experiment_intern_point(e, l->x + k * l->nparams);
	return e;
}

struct experiment *synth_family_experiment(enum synth_family fam, unsigned nparams, unsigned long seed, size_t reps,
					   double noise, enum synth_noise kind, struct pmnf *truths, size_t cap, size_t *n)
{
	struct synth_ladder l;
	synth_ladder_default(&l, nparams);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	*n = synth_family_truths(fam, &l, rng, truths, cap);
	struct experiment *e = synth_experiment(&l);
	size_t m = experiment_intern_metric(e, "time");
	for (size_t k = 0; k < *n; k++) {
		char name[32];
		snprintf(name, sizeof name, "f%zu", k);
		synth_measure(&truths[k], &l, reps, noise, kind, rng, e, experiment_intern_callpath(e, name), m);
	}
	gsl_rng_free(rng);
	return e;
}

void synth_target(const struct synth_ladder *l, double factor, double *target)
{
	for (unsigned q = 0; q < l->nparams; q++)
		target[q] = (q == 0 ? factor : 1.0) * largest(l, q, false);
}
