/*
 * accuracy — prediction accuracy, interval coverage and ranking agreement. See accuracy.h.
 */
#include "report/accuracy.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

#include "util/xalloc.h"

double accuracy_of(double predicted, double measured)
{
	if (!isfinite(predicted) || !isfinite(measured))
		return NAN;
	if (measured == 0)
		return predicted == 0 ? 1.0 : NAN;
	return 1.0 - fabs(predicted - measured) / fabs(measured);
}

double aggregate_accuracy(const double *predicted, const double *measured, size_t n)
{
	double error = 0, total = 0;
	for (size_t i = 0; i < n; i++) {
		error += fabs(predicted[i] - measured[i]);
		total += fabs(measured[i]);
	}
	if (!n || !isfinite(error) || !isfinite(total))
		return NAN;
	if (total == 0)
		return error == 0 ? 1.0 : NAN;
	return 1.0 - error / total;
}

int interval_held(double lower, double upper, double measured)
{
	if (isnan(lower) || isnan(upper) || isnan(measured))
		return -1;
	return lower <= measured && measured <= upper;
}

double rank_correlation(const double *predicted, const double *measured, size_t n)
{
	if (n < 2)
		return NAN;
	double *work = xmalloc(2 * n * sizeof *work);
	double r = gsl_stats_spearman(predicted, 1, measured, 1, n, work);
	free(work);
	return isfinite(r) ? r : NAN;
}

/* larger value first, then the lower index */
static int by_value_desc(const void *a, const void *b, void *arg)
{
	const double *v = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	if (v[i] != v[j])
		return v[i] > v[j] ? -1 : 1;
	return (i > j) - (i < j);
}

/* the indices of the k largest values, into top */
static void largest(const double *v, size_t n, size_t k, size_t *top)
{
	size_t *order = xmalloc(n * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof *order, by_value_desc, (void *)v);
	for (size_t i = 0; i < k; i++)
		top[i] = order[i];
	free(order);
}

double topk_agreement(const double *predicted, const double *measured, size_t n, size_t k)
{
	if (n == 0 || k == 0)
		return NAN;
	if (k > n)
		k = n;
	size_t *tp = xmalloc(k * sizeof *tp), *tm = xmalloc(k * sizeof *tm);
	largest(predicted, n, k, tp);
	largest(measured, n, k, tm);
	size_t common = 0;
	for (size_t a = 0; a < k; a++)
		for (size_t b = 0; b < k; b++)
			common += tp[a] == tm[b];
	free(tp);
	free(tm);
	return (double)common / (double)k;
}

double median_of(double *v, size_t n)
{
	if (!n)
		return NAN;
	gsl_sort(v, 1, n);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
