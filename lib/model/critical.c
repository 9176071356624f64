/*
 * critical — quantiles that never abort. See critical.h.
 */
#include "model/critical.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_roots.h>
#include <math.h>

void critical_gsl_quiet(void)
{
	gsl_set_error_handler_off();
}

struct f_tail {
	double alpha, nu1, nu2;
};

/* log P(F > x) - log alpha, decreasing in x; on log x so the root search spans decades */
static double tail_gap(double logx, void *arg)
{
	const struct f_tail *t = arg;
	double q = gsl_cdf_fdist_Q(exp(logx), t->nu1, t->nu2);
	return log(fmax(q, 1e-300)) - log(t->alpha);
}

/* the root of tail_gap by Brent's method, bracketed by widening from [log 1e-3, log 10] */
static double search_quantile(double alpha, double nu1, double nu2)
{
	struct f_tail t = {alpha, nu1, nu2};
	gsl_function fn = {tail_gap, &t};
	double lo = log(1e-3), hi = log(10.0);
	for (int k = 0; k < 60 && tail_gap(lo, &t) < 0; k++)
		lo -= 2;
	for (int k = 0; k < 60 && tail_gap(hi, &t) > 0; k++)
		hi += 2;
	if (!(tail_gap(lo, &t) >= 0 && tail_gap(hi, &t) <= 0))
		return NAN;
	gsl_root_fsolver *s = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	if (!s)
		return NAN;
	double root = NAN;
	if (gsl_root_fsolver_set(s, &fn, lo, hi) == GSL_SUCCESS) {
		for (int it = 0; it < 200; it++) {
			if (gsl_root_fsolver_iterate(s) != GSL_SUCCESS)
				break;
			root = gsl_root_fsolver_root(s);
			double a = gsl_root_fsolver_x_lower(s), b = gsl_root_fsolver_x_upper(s);
			if (gsl_root_test_interval(a, b, 0, 1e-12) == GSL_SUCCESS)
				break;
		}
	}
	gsl_root_fsolver_free(s);
	return exp(root);
}

double critical_f(double alpha, double nu1, double nu2)
{
	if (!(alpha > 0 && alpha < 1 && nu1 > 0 && nu2 > 0))
		return NAN;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	double x = gsl_cdf_fdist_Qinv(alpha, nu1, nu2);
	if (!(isfinite(x) && x >= 0))
		x = search_quantile(alpha, nu1, nu2);
	gsl_set_error_handler(old);
	return x;
}
