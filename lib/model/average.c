/*
 * average — Bayesian model averaging of the screened hypotheses' predictions. See average.h.
 */
#include "model/average.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

/* components lighter than this share of the heaviest are left out of the mixture (at most
 * SEARCH_RECORDS of them: 0.5% of its mass) */
#define NEGLIGIBLE 1e-5
/* the quantiles to this relative precision (0.1%) */
#define PRECISION 1e-3

/* the mixture's CDF at x, and its density */
static double mixture_cdf(double x, const double *w, const double *mu, const double *sd, size_t n, double *pdf)
{
	double c = 0, d = 0;
	for (size_t k = 0; k < n; k++) {
		double z = (x - mu[k]) / sd[k];
		if (z > 9) {
			c += w[k];
		} else if (z > -9) {
			c += w[k] * 0.5 * erfc(-z * M_SQRT1_2);
			d += w[k] * exp(-0.5 * z * z) / (sd[k] * sqrt(2 * M_PI));
		}
	}
	*pdf = d;
	return c;
}

/* The q-quantile of the mixture: it lies between the smallest and the largest of the
 * components' q-quantiles (at the smallest every component's CDF is at most q); Newton steps
 * from their weighted mean, bisection when a step leaves the bracket. */
static double mixture_quantile(double q, const double *w, const double *mu, const double *sd, size_t n)
{
	double zq = gsl_cdf_ugaussian_Pinv(q), a = INFINITY, b = -INFINITY, x = 0;
	for (size_t k = 0; k < n; k++) {
		double qk = mu[k] + zq * sd[k];
		a = fmin(a, qk);
		b = fmax(b, qk);
		x += w[k] * qk;
	}
	for (int it = 0; it < 100 && b - a > PRECISION * fmax(fabs(a), fabs(b)); it++) {
		double pdf, f = mixture_cdf(x, w, mu, sd, n, &pdf) - q;
		if (f < 0)
			a = x;
		else
			b = x;
		double next = pdf > 0 ? x - f / pdf : NAN;
		x = next > a && next < b ? next : 0.5 * (a + b);
	}
	return x;
}

/* the mixture's components that matter: weights (normalised, heaviest first when sorted),
 * means and sds; returns how many (0: nothing to average) */
struct component {
	double w, mu, sd;
};

static size_t mixture(const struct average_spec *s, struct component *c)
{
	if (!s->n || !(s->noise.s2 > 0))
		return 0;
	double lw[s->n], lmax = -INFINITY, total = 0;
	posterior_log_weights(s->h, s->n, s->ncand, &s->noise, lw);
	for (size_t k = 0; k < s->n; k++)
		lmax = fmax(lmax, lw[k]);
	size_t n = 0;
	for (size_t k = 0; k < s->n; k++) {
		double wk = exp(lw[k] - lmax);
		if (!(wk > NEGLIGIBLE))
			continue;
		const struct search_record *h = &s->h[k];
		double sd = sqrt(h->var0 * posterior_noise_var(h, &s->noise) + h->pred * h->pred * s->future_var);
		c[n++] = (struct component){.w = wk, .mu = h->pred, .sd = sd > 0 ? sd : 1e-12 * fabs(h->pred) + 1e-300};
		total += wk;
	}
	for (size_t k = 0; k < n; k++)
		c[k].w /= total;
	return n;
}

/* the q-quantile of the first n components, their weights renormalised */
static double quantile_of(const struct component *c, size_t n, double q)
{
	double w[n], mu[n], sd[n], total = 0;
	for (size_t k = 0; k < n; k++)
		total += c[k].w;
	for (size_t k = 0; k < n; k++) {
		w[k] = c[k].w / total;
		mu[k] = c[k].mu;
		sd[k] = c[k].sd;
	}
	return mixture_quantile(q, w, mu, sd, n);
}

static int heaviest_first(const void *a, const void *b)
{
	double x = ((const struct component *)a)->w, y = ((const struct component *)b)->w;
	return (x < y) - (x > y);
}

int average_prediction(const struct average_spec *s, double *value, double *lo, double *hi)
{
	struct component c[s->n ? s->n : 1];
	size_t n = mixture(s, c);
	if (!n)
		return -1;
	*lo = quantile_of(c, n, (1 - s->level) / 2);
	*hi = quantile_of(c, n, (1 + s->level) / 2);
	qsort(c, n, sizeof c[0], heaviest_first);
	*value = quantile_of(c, n < AVERAGE_TOP ? n : AVERAGE_TOP, 0.5);
	return 0;
}
