/*
 * fit — weighted least squares of one hypothesis with GSL QR, its cross-validation error, and
 * the linear operators the bootstrap reuses. See fit.h.
 */
#include "model/fit.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct fit_work {
	size_t nmax;
	double *x;      /* n x m design, weighted and column-scaled */
	double *qr;     /* its QR factors */
	double *xt;     /* training rows of a fold */
	double *yp;     /* weighted values */
	double *yt;     /* training values of a fold */
	double *res;    /* residuals */
	double *v;      /* scratch vector (n) */
	double *p;      /* m x n solution operator */
	double *hat;    /* n x n */
	double tau[FIT_MAX_COEF], beta[FIT_MAX_COEF], scale[FIT_MAX_COEF];
};

struct fit_work *fit_work_new(size_t nmax)
{
	struct fit_work *w = xcalloc(1, sizeof *w);
	w->nmax = nmax;
	w->x = xmalloc(nmax * FIT_MAX_COEF * sizeof(double));
	w->qr = xmalloc(nmax * FIT_MAX_COEF * sizeof(double));
	w->xt = xmalloc(nmax * FIT_MAX_COEF * sizeof(double));
	w->yp = xmalloc(nmax * sizeof(double));
	w->yt = xmalloc(nmax * sizeof(double));
	w->res = xmalloc(nmax * sizeof(double));
	w->v = xmalloc(nmax * sizeof(double));
	w->p = xmalloc(nmax * FIT_MAX_COEF * sizeof(double));
	w->hat = xmalloc(nmax * nmax * sizeof(double));
	return w;
}

void fit_work_free(struct fit_work *w)
{
	if (!w)
		return;
	free(w->x);
	free(w->qr);
	free(w->xt);
	free(w->yp);
	free(w->yt);
	free(w->res);
	free(w->v);
	free(w->p);
	free(w->hat);
	free(w);
}

double fit_weighted_tss(size_t n, const double *y, const double *sw)
{
	double sumw = 0, sumwy = 0, tss = 0;
	for (size_t i = 0; i < n; i++) {
		sumw += sw[i] * sw[i];
		sumwy += sw[i] * sw[i] * y[i];
	}
	for (size_t i = 0; i < n; i++) {
		double d = sw[i] * (y[i] - sumwy / sumw);
		tss += d * d;
	}
	return tss;
}

void fit_weights(size_t n, const double *y, bool relative, double *sw, double *tss)
{
	/* a zero value (no messages at p = 1) has no relative error: it is weighted as the smallest
	 * non-zero value, not by 1/0 (which gave it all the leverage and left no hypothesis valid) */
	double ymin = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (fabs(y[i]) > 0)
			ymin = fmin(ymin, fabs(y[i]));
	double floor_ = isfinite(ymin) ? ymin : 1.0;
	for (size_t i = 0; i < n; i++)
		sw[i] = relative ? 1.0 / fmax(fabs(y[i]), floor_) : 1.0;
	*tss = fit_weighted_tss(n, y, sw);
}

void fit_problem_set_values(struct fit_problem *p, const double *y)
{
	p->y = y;
	p->tss = fit_weighted_tss(p->n, y, p->sw);
}

void fit_assign_folds(size_t n, const double *order_key, unsigned k, unsigned *fold)
{
	/* rank of each point by key; fold = rank mod k */
	for (size_t i = 0; i < n; i++) {
		size_t rank = 0;
		for (size_t j = 0; j < n; j++)
			rank += order_key[j] < order_key[i] || (order_key[j] == order_key[i] && j < i);
		fold[i] = (unsigned)(rank % k);
	}
}

size_t fit_design(const struct fit_problem *p, const struct hypothesis *h, double *x, double *scale)
{
	size_t m = h->nterms + (h->constant ? 1 : 0), n = p->n;
	for (size_t i = 0; i < n; i++) {
		size_t c = 0;
		if (h->constant)
			x[i * m + c++] = p->sw[i];
		for (unsigned k = 0; k < h->nterms; k++)
			x[i * m + c++] = p->sw[i] * p->basis[h->idx[k] * n + i];
	}
	for (size_t c = 0; c < m; c++) {
		double sq = 0;
		for (size_t i = 0; i < n; i++)
			sq += x[i * m + c] * x[i * m + c];
		double norm = sqrt(sq);
		if (!(norm > 0) || !isfinite(norm))
			return 0;
		scale[c] = norm;
		for (size_t i = 0; i < n; i++)
			x[i * m + c] /= norm;
	}
	return m;
}

/* QR-factorise rows x[0..rows) x m into qr/tau; false when (numerically) rank deficient */
static bool factorise(const double *x, size_t rows, size_t m, double *qr, double *tau)
{
	memcpy(qr, x, rows * m * sizeof(double));
	gsl_matrix_view a = gsl_matrix_view_array(qr, rows, m);
	gsl_vector_view t = gsl_vector_view_array(tau, m);
	if (gsl_linalg_QR_decomp(&a.matrix, &t.vector))
		return false;
	double rmax = 0;
	for (size_t c = 0; c < m; c++)
		rmax = fmax(rmax, fabs(qr[c * m + c]));
	for (size_t c = 0; c < m; c++)
		if (!(fabs(qr[c * m + c]) > 1e-10 * rmax))
			return false;
	return true;
}

/* false when GSL reports an error (the error handler is off: model_experiment) */
static bool solve(double *qr, double *tau, size_t rows, size_t m, const double *y, double *beta, double *res)
{
	gsl_matrix_view a = gsl_matrix_view_array(qr, rows, m);
	gsl_vector_view t = gsl_vector_view_array(tau, m);
	gsl_vector_const_view b = gsl_vector_const_view_array(y, rows);
	gsl_vector_view xb = gsl_vector_view_array(beta, m);
	gsl_vector_view r = gsl_vector_view_array(res, rows);
	return gsl_linalg_QR_lssolve(&a.matrix, &t.vector, &b.vector, &xb.vector, &r.vector) == GSL_SUCCESS;
}

/* leave-one-out residuals (weighted) from the leverages of the full fit; false when a point
 * has full leverage (the others cannot predict it) */
static bool loo_residuals(struct fit_work *w, size_t n, size_t m, double *cvres)
{
	gsl_matrix_view a = gsl_matrix_view_array(w->qr, n, m);
	gsl_vector_view t = gsl_vector_view_array(w->tau, m);
	gsl_vector_view v = gsl_vector_view_array(w->v, n);
	double lev[n];
	memset(lev, 0, sizeof lev);
	for (size_t c = 0; c < m; c++) {
		if (gsl_vector_set_basis(&v.vector, c) || gsl_linalg_QR_Qvec(&a.matrix, &t.vector, &v.vector))
			return false;
		for (size_t i = 0; i < n; i++)
			lev[i] += w->v[i] * w->v[i];
	}
	for (size_t i = 0; i < n; i++) {
		double d = 1.0 - lev[i];
		if (d < 1e-10)
			return false;
		cvres[i] = w->res[i] / d;
	}
	return true;
}

/* copy the rows outside fold f; returns how many */
static size_t training_rows(const struct fit_problem *p, const double *x, size_t m, unsigned f,
			    double *xt, double *yt, const double *yp)
{
	size_t nt = 0;
	for (size_t i = 0; i < p->n; i++) {
		if (p->fold[i] == f)
			continue;
		memcpy(xt + nt * m, x + i * m, m * sizeof(double));
		yt[nt++] = yp[i];
	}
	return nt;
}

static bool kfold_residuals(const struct fit_problem *p, struct fit_work *w, size_t m, double *cvres)
{
	double qr[p->n * m], tau[FIT_MAX_COEF], beta[FIT_MAX_COEF], res[p->n];
	for (unsigned f = 0; f < p->kfold; f++) {
		size_t nt = training_rows(p, w->x, m, f, w->xt, w->yt, w->yp);
		if (nt == p->n)
			continue;
		if (nt < m || !factorise(w->xt, nt, m, qr, tau))
			return false;
		if (!solve(qr, tau, nt, m, w->yt, beta, res))
			return false;
		for (size_t i = 0; i < p->n; i++) {
			if (p->fold[i] != f)
				continue;
			double pred = 0;
			for (size_t c = 0; c < m; c++)
				pred += w->x[i * m + c] * beta[c];
			cvres[i] = w->yp[i] - pred;
		}
	}
	return true;
}

/* mean squared weighted held-out residual, and the SMAPE of the held-out predictions */
static void score_cv(const struct fit_problem *p, const double *cvres, struct hypothesis *h)
{
	double sq = 0, smape = 0;
	for (size_t i = 0; i < p->n; i++) {
		sq += cvres[i] * cvres[i];
		double y = p->y[i], pred = y - cvres[i] / p->sw[i];
		double sum = fabs(y) + fabs(pred);
		if (sum > 0)
			smape += 2.0 * fabs(y - pred) / sum;
	}
	h->cv = sq / (double)p->n;
	h->cv_smape = 100.0 * smape / (double)p->n;
}

/* a term whose contribution is below eps at every point only fits noise */
static bool has_negligible_term(const struct fit_problem *p, const struct hypothesis *h)
{
	for (unsigned k = 0; k < h->nterms; k++) {
		double most = 0;
		for (size_t i = 0; i < p->n; i++) {
			double y = fabs(p->y[i]);
			double c = fabs(h->coef[k] * p->basis[h->idx[k] * p->n + i]);
			most = fmax(most, y > 0 ? c / y : (c > 0 ? INFINITY : 0));
		}
		if (most < p->eps_contrib)
			return true;
	}
	return false;
}

/* the value of h at a point (basis: the candidates' values there, stride apart) and the sum of
 * the magnitudes of its parts */
static double value_and_magnitude(const struct hypothesis *h, const double *basis, size_t stride, double *magnitude)
{
	double v = h->c0;
	*magnitude = fabs(h->c0);
	for (unsigned k = 0; k < h->nterms; k++) {
		double part = h->coef[k] * basis[h->idx[k] * stride];
		v += part;
		*magnitude += fabs(part);
	}
	return v;
}

/* positive at the check points, and not cancelling there */
static bool positive_at_checks(const struct fit_problem *p, const struct hypothesis *h)
{
	for (size_t c = 0; c < p->ncheck; c++) {
		double magnitude, v = value_and_magnitude(h, p->basis_check + c, p->ncheck, &magnitude);
		if (!(v > 0) || (h->nterms > 1 && magnitude > FIT_CANCEL_LIMIT * v))
			return false;
	}
	return true;
}

/* terms that cancel each other at a measured point: their parts are far larger than the value
 * they add up to (238.6 + 13.58 p^(1/2) log2(p)^2 - 68.41 p + 0.0072 p^(5/2) for 5000/p + 20) */
static bool cancelling(const struct fit_problem *p, const struct hypothesis *h)
{
	if (h->nterms < 2)
		return false;
	for (size_t i = 0; i < p->n; i++) {
		double magnitude, v = value_and_magnitude(h, p->basis + i, p->n, &magnitude);
		if (magnitude > FIT_CANCEL_LIMIT * fmax(fabs(v), fabs(p->y[i])))
			return true;
	}
	return false;
}

bool fit_hypothesis(const struct fit_problem *p, struct hypothesis *h, struct fit_work *w)
{
	size_t n = p->n;
	size_t m = h->nterms + (h->constant ? 1 : 0);
	h->valid = false;
	h->cv = h->cv_smape = h->rss = INFINITY;
	h->ar2 = -INFINITY;
	if (m == 0 || n <= m || n > w->nmax)
		return false;
	if (!fit_design(p, h, w->x, w->scale) || !factorise(w->x, n, m, w->qr, w->tau))
		return false;
	for (size_t i = 0; i < n; i++)
		w->yp[i] = p->sw[i] * p->y[i];
	if (!solve(w->qr, w->tau, n, m, w->yp, w->beta, w->res))
		return false;
	size_t c = 0;
	h->c0 = h->constant ? w->beta[c] / w->scale[c] : 0.0;
	c += h->constant ? 1 : 0;
	for (unsigned k = 0; k < h->nterms; k++, c++)
		h->coef[k] = w->beta[c] / w->scale[c];
	double rss = 0;
	for (size_t i = 0; i < n; i++)
		rss += w->res[i] * w->res[i];
	h->rss = rss;
	h->ar2 = p->tss > 0 ? 1.0 - (rss / (double)(n - m)) / (p->tss / (double)(n - 1)) : (rss > 0 ? 0.0 : 1.0);
	double cvres[n];
	if (!(p->cv == FIT_CV_KFOLD ? kfold_residuals(p, w, m, cvres) : loo_residuals(w, n, m, cvres)))
		return false;
	score_cv(p, cvres, h);
	if (!isfinite(h->cv) || !isfinite(h->c0))
		return false;
	for (unsigned k = 0; k < h->nterms; k++)
		if (!isfinite(h->coef[k]))
			return false;
	if (has_negligible_term(p, h) || cancelling(p, h) || !positive_at_checks(p, h))
		return false;
	h->valid = true;
	return true;
}

/* m x rows operator P with beta_scaled = P (sw y), from the QR factors of rows x[0..rows):
 * P = R^-1 Q1^T, Q1 the first m columns of Q */
static bool solution_operator(double *qr, double *tau, size_t rows, size_t m, double *pmat)
{
	gsl_matrix_view a = gsl_matrix_view_array(qr, rows, m);
	gsl_vector_view t = gsl_vector_view_array(tau, m);
	for (size_t c = 0; c < m; c++) {
		gsl_vector_view v = gsl_vector_view_array(pmat + c * rows, rows);
		if (gsl_vector_set_basis(&v.vector, c) || gsl_linalg_QR_Qvec(&a.matrix, &t.vector, &v.vector))
			return false;
	}
	gsl_matrix_view r = gsl_matrix_submatrix(&a.matrix, 0, 0, m, m);
	gsl_matrix_view pv = gsl_matrix_view_array(pmat, m, rows);
	return gsl_blas_dtrsm(CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, 1.0, &r.matrix, &pv.matrix) == GSL_SUCCESS;
}

int fit_operators(const struct fit_problem *p, const struct hypothesis *h, const double *x0,
		  struct fit_ops *ops, struct fit_work *w)
{
	size_t n = p->n, m = h->nterms + (h->constant ? 1 : 0);
	if (!fit_design(p, h, w->x, w->scale) || !factorise(w->x, n, m, w->qr, w->tau))
		return -1;
	ops->n = n;
	ops->g = xmalloc(n * sizeof(double));
	ops->cvop = xcalloc(n * n, sizeof(double));
	ops->resop = xmalloc(n * n * sizeof(double));
	if (!solution_operator(w->qr, w->tau, n, m, w->p)) {
		fit_ops_free(ops);
		return -1;
	}

	/* residual operator I - X P */
	gsl_matrix_view xv = gsl_matrix_view_array(w->x, n, m), pv = gsl_matrix_view_array(w->p, m, n);
	gsl_matrix_view rv = gsl_matrix_view_array(ops->resop, n, n);
	gsl_matrix_set_identity(&rv.matrix);
	if (gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, -1.0, &xv.matrix, &pv.matrix, 1.0, &rv.matrix)) {
		fit_ops_free(ops);
		return -1;
	}

	/* prediction functional */
	double u[FIT_MAX_COEF];
	size_t c = 0;
	if (h->constant) {
		u[c] = 1.0 / w->scale[c];
		c++;
	}
	for (unsigned k = 0; k < h->nterms; k++, c++)
		u[c] = x0[h->idx[k]] / w->scale[c];
	for (size_t i = 0; i < n; i++) {
		double s = 0;
		for (size_t cc = 0; cc < m; cc++)
			s += w->p[cc * n + i] * u[cc];
		ops->g[i] = s * p->sw[i];
	}

	if (p->cv == FIT_CV_LOO) {
		for (size_t i = 0; i < n; i++) {
			double d = ops->resop[i * n + i];
			for (size_t j = 0; j < n; j++)
				ops->cvop[i * n + j] = d > 1e-10 ? ops->resop[i * n + j] / d : 0.0;
		}
		return 0;
	}
	/* k-fold: held-out residual = y_i - x_i P_f y_train */
	double qr[n * m], tau[FIT_MAX_COEF], pf[m * n];
	for (unsigned f = 0; f < p->kfold; f++) {
		size_t rows[n], nt = 0;
		for (size_t i = 0; i < n; i++) {
			if (p->fold[i] == f)
				continue;
			memcpy(w->xt + nt * m, w->x + i * m, m * sizeof(double));
			rows[nt++] = i;
		}
		if (nt == n)
			continue;
		if (nt < m || !factorise(w->xt, nt, m, qr, tau) || !solution_operator(qr, tau, nt, m, pf)) {
			fit_ops_free(ops);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			if (p->fold[i] != f)
				continue;
			ops->cvop[i * n + i] = 1.0;
			for (size_t t = 0; t < nt; t++) {
				double s = 0;
				for (size_t cc = 0; cc < m; cc++)
					s += w->x[i * m + cc] * pf[cc * nt + t];
				ops->cvop[i * n + rows[t]] -= s;
			}
		}
	}
	return 0;
}

void fit_ops_free(struct fit_ops *ops)
{
	free(ops->g);
	free(ops->cvop);
	free(ops->resop);
	memset(ops, 0, sizeof *ops);
}
