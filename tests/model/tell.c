/*
 * tell — the nearest other leading term of a function on a ladder. See tell.h.
 */
#include "tell.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

#include "model/problem.h"

/* fit the candidates idx[0..k) (with or without a constant) to the problem; the distance when it
 * is valid and its leading terms differ from f's, else INFINITY; *fn the fit */
static double other_distance(const struct pmnf *f, const struct problem *pr, const struct candidates *c,
			     const unsigned *idx, unsigned k, bool constant, struct fit_work *w, struct pmnf *fn)
{
	struct hypothesis h = {.nterms = k, .constant = constant};
	for (unsigned t = 0; t < k; t++)
		h.idx[t] = idx[t];
	if (!fit_hypothesis(&pr->fp, &h, w))
		return INFINITY;
	problem_function(c, &h, fn);
	return pmnf_same_leading(fn, f) ? INFINITY : sqrt(h.rss);
}

double tell_distance(const struct pmnf *f, const double *points, size_t n, const struct candidates *c,
		     const double *target, struct fit_work *w, struct pmnf *nearest)
{
	double y[n];
	for (size_t i = 0; i < n; i++)
		y[i] = pmnf_eval(f, points + i * f->nparams);
	struct problem pr;
	struct problem_spec ps = {.points = points, .y = y, .n = n, .cand = c, .target = target,
				  .relative_weights = true, .cv = FIT_CV_LOO, .eps_contrib = 5e-4};
	problem_init(&pr, &ps);
	unsigned most = f->nterms > 1 ? 2 : 1;
	double d = INFINITY;
	for (unsigned a = 0; a < c->n; a++)
		for (unsigned b = a; b < (most == 2 ? c->n : a + 1); b++) {
			unsigned idx[2] = {a, b}, k = b == a ? 1 : 2;
			for (int constant = 0; constant < 2; constant++) {
				struct pmnf fn;
				double dk = other_distance(f, &pr, c, idx, k, constant, w, &fn);
				if (dk < d && nearest)
					*nearest = fn;
				d = fmin(d, dk);
			}
		}
	problem_free(&pr);
	return d;
}

double tell_sigma(double noise, size_t reps)
{
	double r = (double)reps;
	double mean = noise / sqrt(3 * r), midrange = noise * sqrt(2 / ((r + 1) * (r + 2)));
	return fmin(mean, midrange);
}

double tell_error(double d, double sigma)
{
	if (d == 0)
		return 0.5;
	if (!(sigma > 0))
		return 0;
	return gsl_cdf_ugaussian_Q(d / (2 * sigma));
}
