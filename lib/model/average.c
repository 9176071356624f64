/*
 * average — Bayesian model averaging of the screened hypotheses' predictions. See average.h.
 */
#include "model/average.h"

#include <gsl/gsl_cdf.h>
#include <math.h>

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

int average_interval(const struct average_spec *s, double *lo, double *hi)
{
	if (!s->n || !(s->noise.s2 > 0))
		return -1;
	double lw[s->n], lmax = -INFINITY;
	posterior_log_weights(s->h, s->n, s->ncand, &s->noise, lw);
	for (size_t k = 0; k < s->n; k++)
		lmax = fmax(lmax, lw[k]);
	/* keep the components that matter, normalised */
	double w[s->n], mu[s->n], sd[s->n], total = 0;
	size_t n = 0;
	for (size_t k = 0; k < s->n; k++) {
		double wk = exp(lw[k] - lmax);
		if (!(wk > NEGLIGIBLE))
			continue;
		const struct search_record *h = &s->h[k];
		w[n] = wk;
		mu[n] = h->pred;
		sd[n] = sqrt(h->var0 * posterior_noise_var(h, &s->noise) + h->pred * h->pred * s->future_var);
		if (!(sd[n] > 0))
			sd[n] = 1e-12 * fabs(h->pred) + 1e-300;
		total += wk;
		n++;
	}
	for (size_t k = 0; k < n; k++)
		w[k] /= total;
	*lo = mixture_quantile((1 - s->level) / 2, w, mu, sd, n);
	*hi = mixture_quantile((1 + s->level) / 2, w, mu, sd, n);
	return 0;
}
