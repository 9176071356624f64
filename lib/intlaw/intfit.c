/*
 * intfit — integer coefficients by least squares (GSL), and subsets of terms. See intfit.h.
 */
#include "intlaw/intfit.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>

bool intfit_solve(const double *x, const double *y, size_t n, size_t s, int64_t *coef)
{
	if (!n || !s || n < s)
		return false;
	gsl_matrix_const_view xv = gsl_matrix_const_view_array(x, n, s);
	gsl_vector_const_view yv = gsl_vector_const_view_array(y, n);
	gsl_vector *c = gsl_vector_alloc(s);
	gsl_matrix *cov = gsl_matrix_alloc(s, s);
	gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(n, s);
	double chisq;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	bool ok = gsl_multifit_linear(&xv.matrix, &yv.vector, c, cov, &chisq, w) == GSL_SUCCESS;
	gsl_set_error_handler(old);
	for (size_t j = 0; ok && j < s; j++) {
		double v = gsl_vector_get(c, j);
		ok = isfinite(v) && fabs(v) < 9e15 && llround(v) != 0;
		coef[j] = ok ? llround(v) : 0;
	}
	gsl_multifit_linear_free(w);
	gsl_matrix_free(cov);
	gsl_vector_free(c);
	return ok;
}

bool intfit_next_subset(size_t *idx, size_t s, size_t m)
{
	size_t i = s;
	while (i > 0 && idx[i - 1] == m - s + i - 1)
		i--;
	if (i == 0)
		return false;
	idx[i - 1]++;
	for (size_t j = i; j < s; j++)
		idx[j] = idx[j - 1] + 1;
	return true;
}
