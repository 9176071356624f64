/*
 * support — whether the ladder constrains every term of a model at the target, whether the
 * leave-one-out fits agree there, and whether the interval is narrow enough. See support.h.
 */
#include "model/support.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/modeler.h"

/* the share of term k (-1: the constant) in fn's magnitude at x: its part over the sum of the
 * parts' magnitudes, so that cancelling parts do not make a share exceed 1 */
static double share(const struct pmnf *fn, int k, const double *x)
{
	double total = fabs(fn->constant), part = k < 0 ? fabs(fn->constant) : 0;
	for (unsigned t = 0; t < fn->nterms; t++) {
		double v = fabs(fn->term[t].coef * pmnf_term_basis(&fn->term[t], fn->nparams, x));
		total += v;
		if ((int)t == k)
			part = v;
	}
	return total > 0 ? part / total : 0;
}

int support_unconstrained_term(const struct pmnf *fn, const double *pts, size_t n, const double *target,
			       double *share_target, double *share_ladder)
{
	int worst = -1;
	double worst_ratio = 0;
	for (unsigned t = 0; t < fn->nterms; t++) {
		double at = share(fn, (int)t, target), most = 0;
		for (size_t i = 0; i < n; i++)
			most = fmax(most, share(fn, (int)t, pts + i * fn->nparams));
		if (!(at >= SUPPORT_SHARE_LEADS) || !(at > SUPPORT_SHARE_RATIO * most))
			continue;
		double ratio = most > 0 ? at / most : INFINITY;
		if (worst < 0 || ratio > worst_ratio) {
			worst = (int)t;
			worst_ratio = ratio;
			*share_target = at;
			*share_ladder = most;
		}
	}
	return worst;
}

/* the GSL objects of one leave-one-out pass: every refit has the same size */
struct refit_work {
	gsl_vector *c;
	gsl_matrix *cov;
	gsl_multifit_linear_workspace *w;
};

/* weighted least squares of fn's shape over the rows of x (n x m), the prediction at x0 */
static bool refit_predict(struct refit_work *rw, const double *x, const double *y, const double *wt, size_t n,
			  size_t m, const double *x0, double *pred)
{
	gsl_matrix_const_view xv = gsl_matrix_const_view_array(x, n, m);
	gsl_vector_const_view yv = gsl_vector_const_view_array(y, n), wv = gsl_vector_const_view_array(wt, n);
	double chisq;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	bool ok = gsl_multifit_wlinear(&xv.matrix, &wv.vector, &yv.vector, rw->c, rw->cov, &chisq, rw->w) == GSL_SUCCESS;
	gsl_set_error_handler(old);
	*pred = 0;
	for (size_t j = 0; ok && j < m; j++)
		*pred += gsl_vector_get(rw->c, j) * x0[j];
	return ok && isfinite(*pred);
}

/* fn's columns (the constant first when it has one) at point p */
static size_t columns(const struct pmnf *fn, const double *p, double *row)
{
	size_t m = 0;
	if (fn->constant != 0)
		row[m++] = 1;
	for (unsigned t = 0; t < fn->nterms; t++)
		row[m++] = pmnf_term_basis(&fn->term[t], fn->nparams, p);
	return m;
}

/* the leave-one-out prediction at x0 without row `leave` of x (n x m), by an explicit refit */
static bool refit_without(struct refit_work *rw, const double *x, const double *y, const double *wt, size_t n,
			  size_t m, size_t leave, const double *x0, double *pred)
{
	double xs[(n - 1) * m], ys[n - 1], ws[n - 1];
	for (size_t i = 0, k = 0; i < n; i++)
		if (i != leave) {
			memcpy(xs + k * m, x + i * m, m * sizeof *xs);
			ys[k] = y[i];
			ws[k++] = wt[i];
		}
	if (!rw->w) {
		rw->c = gsl_vector_alloc(m);
		rw->cov = gsl_matrix_alloc(m, m);
		rw->w = gsl_multifit_linear_alloc(n - 1, m);
	}
	return refit_predict(rw, xs, ys, ws, n - 1, m, x0, pred);
}

/* A rung whose leverage is this close to 1 holds a term up alone: its leave-one-out fit is refitted
 * explicitly (and may be rank-deficient) rather than updated. The update divides the rung's
 * residual, itself rounding of the order of the design's condition, by 1 - h: it loses about
 * log10(1 / (1 - h)) digits (c/p^11 through p = 2..128, 1 - h near 1e-7, was 7e-10 off its refit),
 * five at most here. */
#define LEVERAGE_ONE (1 - 1e-5)

bool support_loo_range(const struct pmnf *fn, const double *pts, const double *y, size_t n, const double *target,
		       double *lo, double *hi)
{
	size_t m = (fn->constant != 0) + fn->nterms;
	*lo = *hi = NAN;
	if (!m || n < 2)
		return false;
	if (n - 1 < m)
		return false;
	double x[n * (PMNF_MAX_TERMS + 1)], wt[n], x0[PMNF_MAX_TERMS + 1];
	columns(fn, target, x0);
	for (size_t i = 0; i < n; i++) {
		columns(fn, pts + i * fn->nparams, x + i * m);
		wt[i] = y[i] != 0 ? 1.0 / (y[i] * y[i]) : 1.0;
	}
	/* one fit of all rungs; each leave-one-out prediction is its update without the rung:
	 * pred - (x0' C x_i) w_i e_i / (1 - h_ii), C = (X'WX)^-1, h_ii = w_i x_i' C x_i */
	struct refit_work all = {gsl_vector_alloc(m), gsl_matrix_alloc(m, m), gsl_multifit_linear_alloc(n, m)}, one = {0};
	double pred;
	bool ok = refit_predict(&all, x, y, wt, n, m, x0, &pred);
	for (size_t leave = 0; ok && leave < n; leave++) {
		const double *xi = x + leave * m;
		double fit = 0, h = 0, g = 0, p;
		for (size_t a = 0; a < m; a++) {
			double q = 0;   /* (C x_i)_a */
			for (size_t b = 0; b < m; b++)
				q += gsl_matrix_get(all.cov, a, b) * xi[b];
			fit += gsl_vector_get(all.c, a) * xi[a];
			h += xi[a] * q;
			g += x0[a] * q;
		}
		h *= wt[leave];
		if (h < LEVERAGE_ONE) {
			p = pred - g * wt[leave] * (y[leave] - fit) / (1 - h);
			ok = isfinite(p);
		} else {
			ok = refit_without(&one, x, y, wt, n, m, leave, x0, &p);
		}
		*lo = leave ? fmin(*lo, p) : p;
		*hi = leave ? fmax(*hi, p) : p;
	}
	for (int k = 0; k < 2; k++) {
		struct refit_work *rw = k ? &one : &all;
		if (rw->w)
			gsl_multifit_linear_free(rw->w);
		if (rw->cov)
			gsl_matrix_free(rw->cov);
		if (rw->c)
			gsl_vector_free(rw->c);
	}
	if (!ok)
		*lo = *hi = NAN;
	return ok;
}

void support_judge(const struct pmnf *fn, const double *pts, const double *y, size_t n, const double *target,
		   bool has_interval, double lo, double hi, double level, const double *loo, struct support *out)
{
	memset(out, 0, sizeof *out);
	out->loo_lo = out->loo_hi = NAN;
	size_t m = (fn->constant != 0) + fn->nterms;
	if (n < m + SUPPORT_MIN_CHECKS) {
		snprintf(out->why, sizeof out->why,
			 "%zu rung%s beyond its %zu coefficients check%s the model; an exact law needs %d", n > m ? n - m : 0,
			 n - m == 1 ? "" : "s", m, n - m == 1 ? "s" : "", SUPPORT_MIN_CHECKS);
		return;
	}
	double at = 0, most = 0;
	int t = support_unconstrained_term(fn, pts, n, target, &at, &most);
	if (t >= 0) {
		snprintf(out->why, sizeof out->why,
			 "a term the ladder does not constrain rules at the target: %.0f%% of the prediction there, at most "
			 "%.0f%% on the rungs", 100 * at, 100 * most);
		return;
	}
	if (!has_interval) {
		snprintf(out->why, sizeof out->why, "no interval");
		return;
	}
	/* the span first: when it says no, the leave-one-out refits cannot change the verdict */
	if (!(hi <= MODEL_SUPPORT_SPAN * lo)) {
		if (lo > 0)
			snprintf(out->why, sizeof out->why, "its %.0f%% interval spans %.0fx", 100 * level, hi / lo);
		else
			snprintf(out->why, sizeof out->why, "its %.0f%% interval reaches 0", 100 * level);
		return;
	}
	bool fitted = true;
	if (loo) {
		out->loo_lo = loo[0];
		out->loo_hi = loo[1];
		fitted = isfinite(loo[0]) && isfinite(loo[1]);
	} else {
		fitted = support_loo_range(fn, pts, y, n, target, &out->loo_lo, &out->loo_hi);
	}
	double width = hi - lo, tol = 1e-6 * fmax(fabs(hi), fabs(lo));
	if (!fitted) {
		snprintf(out->why, sizeof out->why, "its terms cannot be fitted without each rung in turn");
		return;
	}
	if (out->loo_hi - out->loo_lo > width + tol) {
		snprintf(out->why, sizeof out->why,
			 "the leave-one-out fits predict %.4g to %.4g at the target, more apart than the interval is wide",
			 out->loo_lo, out->loo_hi);
		return;
	}
	out->supported = true;
}
