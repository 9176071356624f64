/*
 * aggregate — per-point aggregates and spread, and the noise test. See aggregate.h.
 */
#include "model/aggregate.h"

#include <assert.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

static const char *const agg_names[] = {"median", "mean", "min", "max", "midrange"};

const char *model_aggregate_name(enum model_aggregate a)
{
	assert((size_t)a < sizeof agg_names / sizeof agg_names[0]);
	return agg_names[a];
}

bool model_aggregate_parse(const char *s, enum model_aggregate *out)
{
	for (int k = 0; k < 5; k++)
		if (!strcmp(s, agg_names[k])) {
			*out = (enum model_aggregate)k;
			return true;
		}
	return false;
}

void point_stats_compute(const double *v, size_t n, enum model_aggregate a, double *sorted,
			 struct point_stats *out)
{
	assert(n > 0);   /* a point without values is no point (experiment_check) */
	memcpy(sorted, v, n * sizeof *v);
	gsl_sort(sorted, 1, n);
	out->nreps = n;
	out->min = sorted[0];
	out->max = sorted[n - 1];
	out->median = gsl_stats_median_from_sorted_data(sorted, 1, n);
	out->mean = gsl_stats_mean(sorted, 1, n);
	out->sd = n > 1 ? gsl_stats_sd_m(sorted, 1, n, out->mean) : 0.0;
	switch (a) {
	case MODEL_AGG_MEDIAN: out->value = out->median; break;
	case MODEL_AGG_MEAN: out->value = out->mean; break;
	case MODEL_AGG_MIN: out->value = out->min; break;
	case MODEL_AGG_MAX: out->value = out->max; break;
	case MODEL_AGG_MIDRANGE: out->value = 0.5 * (out->min + out->max); break;
	}
}

double aggregate_values(double *v, size_t n, enum model_aggregate a)
{
	assert(n > 0);
	switch (a) {
	case MODEL_AGG_MEAN: return gsl_stats_mean(v, 1, n);
	case MODEL_AGG_MIN: return gsl_stats_min(v, 1, n);
	case MODEL_AGG_MAX: return gsl_stats_max(v, 1, n);
	case MODEL_AGG_MIDRANGE: return 0.5 * (gsl_stats_min(v, 1, n) + gsl_stats_max(v, 1, n));
	default:
		gsl_sort(v, 1, n);
		return gsl_stats_median_from_sorted_data(v, 1, n);
	}
}

/* the value at 0-based position pos of the resample */
static double nth_of_counts(const double *sorted, const unsigned *count, size_t n, size_t pos)
{
	size_t seen = 0;
	for (size_t k = 0; k < n; k++) {
		seen += count[k];
		if (pos < seen)
			return sorted[k];
	}
	assert(!"the position lies past the counts");
	return sorted[n - 1];
}

double aggregate_counts(const double *sorted, const unsigned *count, size_t n, size_t total,
			enum model_aggregate a)
{
	switch (a) {
	case MODEL_AGG_MEDIAN:
		if (total % 2)
			return nth_of_counts(sorted, count, n, total / 2);
		return 0.5 * (nth_of_counts(sorted, count, n, total / 2 - 1) + nth_of_counts(sorted, count, n, total / 2));
	case MODEL_AGG_MEAN: {
		double s = 0;
		for (size_t k = 0; k < n; k++)
			s += count[k] * sorted[k];
		return s / (double)total;
	}
	case MODEL_AGG_MIN:
		for (size_t k = 0; k < n; k++)
			if (count[k])
				return sorted[k];
		break;
	case MODEL_AGG_MAX:
		for (size_t k = n; k-- > 0;)
			if (count[k])
				return sorted[k];
		break;
	case MODEL_AGG_MIDRANGE:
		return 0.5 * (aggregate_counts(sorted, count, n, total, MODEL_AGG_MIN) +
			      aggregate_counts(sorted, count, n, total, MODEL_AGG_MAX));
	}
	return sorted[0];
}

#define NOISE_DRAWS 256

/* variance of the k-th smallest (1-based) of r draws from the sorted atoms x[0..n), each of
 * mass 1/n: P(X_(k) <= x_j) = P(Binomial(r, (j+1)/n) >= k) */
static double order_statistic_variance(const double *x, size_t n, unsigned k, unsigned r)
{
	double prev = 0, m1 = 0, m2 = 0;
	for (size_t j = 0; j < n; j++) {
		double cdf = j + 1 == n ? 1.0 : gsl_cdf_binomial_Q(k - 1, (double)(j + 1) / (double)n, r);
		double mass = cdf - prev;
		prev = cdf;
		m1 += mass * x[j];
		m2 += mass * x[j] * x[j];
	}
	return fmax(0.0, m2 - m1 * m1);
}

/* the median of an even number of draws: simulated */
static double simulated_median_variance(const double *dev, size_t nd, size_t r, unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		return NAN;
	gsl_rng_set(rng, seed);
	double draws[NOISE_DRAWS], v[r];
	for (size_t b = 0; b < NOISE_DRAWS; b++) {
		for (size_t k = 0; k < r; k++)
			v[k] = dev[gsl_rng_uniform_int(rng, nd)];
		draws[b] = aggregate_values(v, r, MODEL_AGG_MEDIAN);
	}
	gsl_rng_free(rng);
	return gsl_stats_variance(draws, 1, NOISE_DRAWS);
}

/* variance of the midrange (min + max) / 2 of r draws from the sorted atoms x[0..n), each of
 * mass 1/n: P(min >= x_i, max <= x_j) = ((j - i + 1) / n)^r =: g[j - i], so
 * P(min = x_i, max = x_j) = g[j - i] - 2 g[j - i - 1] + g[j - i - 2] (g[-1] = g[-2] = 0) */
static double midrange_variance(const double *x, size_t n, unsigned r)
{
	double g[n + 2], m1 = 0, m2 = 0;
	g[0] = g[1] = 0;
	for (size_t d = 0; d < n; d++)
		g[d + 2] = pow((double)(d + 1) / (double)n, (double)r);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++) {
			size_t d = j - i + 2;
			double mass = g[d] - 2 * g[d - 1] + g[d - 2], mid = 0.5 * (x[i] + x[j]);
			m1 += mass * mid;
			m2 += mass * mid * mid;
		}
	return fmax(0.0, m2 - m1 * m1);
}

/* The noise sample: every repetition's relative deviation from its point's mean, scaled by
 * sqrt(r / (r - 1)) so that the sample spreads like the noise itself (deviations from a mean of
 * r are narrower by that factor; deviations from a median would put a fifth of the sample at
 * exactly zero and make the median look more precise than it is). Sorted. Returns its size;
 * *r receives the typical repetition count and *dof the degrees of freedom. */
static size_t noise_sample(const double *const *reps, const size_t *nreps, size_t npoints, double *dev, unsigned *r,
			   double *dof)
{
	size_t nd = 0, used = 0;
	*dof = 0;
	for (size_t k = 0; k < npoints; k++) {
		if (nreps[k] < 2)
			continue;
		double mean = gsl_stats_mean(reps[k], 1, nreps[k]);
		if (!(mean != 0))
			continue;
		double scale = sqrt((double)nreps[k] / (double)(nreps[k] - 1));
		for (size_t i = 0; i < nreps[k]; i++)
			dev[nd++] = scale * (reps[k][i] / mean - 1.0);
		used++;
		*dof += (double)(nreps[k] - 1);
	}
	*r = used ? (unsigned)((nd + used / 2) / used) : 0;
	gsl_sort(dev, 1, nd);
	return nd;
}

/* the variance of aggregate a of r draws from the noise sample */
static double variance_of(const double *dev, size_t nd, unsigned r, enum model_aggregate a, unsigned long seed)
{
	switch (a) {
	case MODEL_AGG_MEAN: {
		double ss = 0;
		for (size_t k = 0; k < nd; k++)
			ss += dev[k] * dev[k];
		return ss / (double)nd / (double)r;
	}
	case MODEL_AGG_MIN:
		return order_statistic_variance(dev, nd, 1, r);
	case MODEL_AGG_MAX:
		return order_statistic_variance(dev, nd, r, r);
	case MODEL_AGG_MEDIAN:
		if (r % 2)
			return order_statistic_variance(dev, nd, (r + 1) / 2, r);
		return simulated_median_variance(dev, nd, r, seed);
	case MODEL_AGG_MIDRANGE:
		return midrange_variance(dev, nd, r);
	}
	return NAN;
}

static size_t total_reps(const size_t *nreps, size_t npoints)
{
	size_t total = 0;
	for (size_t k = 0; k < npoints; k++)
		total += nreps[k] > 1 ? nreps[k] : 0;
	return total;
}

double aggregate_relative_variance(const double *const *reps, const size_t *nreps, size_t npoints,
				   enum model_aggregate a, unsigned long seed, double *dof)
{
	double dev[total_reps(nreps, npoints) + 1];
	unsigned r;
	size_t nd = noise_sample(reps, nreps, npoints, dev, &r, dof);
	return nd ? variance_of(dev, nd, r, a, seed) : 0.0;
}

enum model_aggregate aggregate_for_selection(const double *const *reps, const size_t *nreps, size_t npoints,
					     enum model_aggregate requested, unsigned long seed, double *var,
					     double *requested_var, double *dof)
{
	double dev[total_reps(nreps, npoints) + 1];
	unsigned r;
	size_t nd = noise_sample(reps, nreps, npoints, dev, &r, dof);
	*var = *requested_var = nd ? variance_of(dev, nd, r, requested, seed) : 0.0;
	if (requested != MODEL_AGG_MEDIAN || !nd)
		return requested;
	enum model_aggregate best = requested;
	static const enum model_aggregate rivals[] = {MODEL_AGG_MEAN, MODEL_AGG_MIDRANGE};
	for (int k = 0; k < 2; k++) {
		double v = variance_of(dev, nd, r, rivals[k], seed);
		if (v < *var) {
			*var = v;
			best = rivals[k];
		}
	}
	return best;
}

/* one-way ANOVA p-value of "the group means differ", on log values when all are positive */
static double anova_p_value(const double *const *reps, const size_t *nreps, size_t npoints)
{
	bool logs = true;
	size_t total = 0, groups = 0;
	for (size_t k = 0; k < npoints; k++) {
		for (size_t r = 0; r < nreps[k]; r++)
			logs &= reps[k][r] > 0;
		total += nreps[k];
		groups += nreps[k] > 0;
	}
	double grand = 0;
	for (size_t k = 0; k < npoints; k++)
		for (size_t r = 0; r < nreps[k]; r++)
			grand += logs ? log(reps[k][r]) : reps[k][r];
	grand /= (double)total;
	double ssb = 0, ssw = 0;
	for (size_t k = 0; k < npoints; k++) {
		if (!nreps[k])
			continue;
		double m = 0;
		for (size_t r = 0; r < nreps[k]; r++)
			m += logs ? log(reps[k][r]) : reps[k][r];
		m /= (double)nreps[k];
		ssb += (double)nreps[k] * (m - grand) * (m - grand);
		for (size_t r = 0; r < nreps[k]; r++) {
			double d = (logs ? log(reps[k][r]) : reps[k][r]) - m;
			ssw += d * d;
		}
	}
	if (groups < 2 || total <= groups)
		return 0.0;
	if (ssw <= 0)
		return ssb > 0 ? 0.0 : 1.0;
	double f = (ssb / (double)(groups - 1)) / (ssw / (double)(total - groups));
	return gsl_cdf_fdist_Q(f, (double)(groups - 1), (double)(total - groups));
}

/* (max - min) / |median| of sorted values */
static double relative_spread(const double *sorted, size_t n)
{
	double mid = gsl_stats_median_from_sorted_data(sorted, 1, n), range = sorted[n - 1] - sorted[0];
	return mid != 0 ? range / fabs(mid) : (range > 0 ? INFINITY : 0);
}

void noise_assess(const double *const *reps, const size_t *nreps, const double *values, size_t npoints,
		  double limit, struct noise_verdict *out)
{
	double spreads[npoints ? npoints : 1], vals[npoints ? npoints : 1];
	size_t ns = 0, nv = 0;
	memset(out, 0, sizeof *out);
	for (size_t k = 0; k < npoints; k++) {
		if (!nreps[k])
			continue;
		vals[nv++] = values[k];
		if (nreps[k] > 1)
			spreads[ns++] = relative_spread(reps[k], nreps[k]);
	}
	if (nv) {
		gsl_sort(vals, 1, nv);
		out->between = relative_spread(vals, nv);
	}
	if (ns < 2)
		return;
	gsl_sort(spreads, 1, ns);
	out->tested = true;
	out->spread = gsl_stats_median_from_sorted_data(spreads, 1, ns);
	out->p_value = anova_p_value(reps, nreps, npoints);
	out->too_noisy = out->p_value > 0.05 && out->spread > limit;
}
