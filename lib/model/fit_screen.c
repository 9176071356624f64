/*
 * fit_screen — exact least-squares updates for screening hypotheses that add one term to a
 * smaller one: the RSS, the predictions at the check points and what model averaging needs,
 * from an orthonormal basis of the smaller hypothesis' design. See fit_screen.h.
 */
#include "model/fit_screen.h"

#include <math.h>

/* Gram-Schmidt with re-orthogonalisation (twice is enough) of the n x m design x into the
 * columns of q (m x n) and r; false when a column is (numerically) in the span of the others */
static bool orthonormalise(const double *x, size_t n, size_t m, double *q, double r[][FIT_MAX_COEF])
{
	double rmax = 0;
	for (size_t c = 0; c < m; c++) {
		double *v = q + c * n;
		for (size_t i = 0; i < n; i++)
			v[i] = x[i * m + c];
		for (size_t j = 0; j < m; j++)
			r[j][c] = 0;
		for (int pass = 0; pass < 2; pass++)
			for (size_t j = 0; j < c; j++) {
				double d = 0;
				for (size_t i = 0; i < n; i++)
					d += q[j * n + i] * v[i];
				r[j][c] += d;
				for (size_t i = 0; i < n; i++)
					v[i] -= d * q[j * n + i];
			}
		double sq = 0;
		for (size_t i = 0; i < n; i++)
			sq += v[i] * v[i];
		r[c][c] = sqrt(sq);
		rmax = fmax(rmax, r[c][c]);
		if (!(r[c][c] > 1e-10 * rmax))
			return false;
		for (size_t i = 0; i < n; i++)
			v[i] /= r[c][c];
	}
	return true;
}

bool fit_base_init(const struct fit_problem *p, const struct hypothesis *base, struct fit_base *b)
{
	size_t n = p->n, m = base->nterms + (base->constant ? 1 : 0);
	b->m = 0;
	if (m == 0 || n <= m || m > FIT_MAX_COEF || p->ncheck > FIT_MAX_CHECKS)
		return false;
	double design[n * m], scale[FIT_MAX_COEF];
	if (!fit_design(p, base, design, scale) || !orthonormalise(design, n, m, b->q, b->r))
		return false;
	for (size_t i = 0; i < n; i++)
		b->res[i] = p->sw[i] * p->y[i];
	for (size_t c = 0; c < m; c++) {
		double d = 0;
		for (size_t i = 0; i < n; i++)
			d += b->q[c * n + i] * b->res[i];
		b->qy[c] = d;
		for (size_t i = 0; i < n; i++)
			b->res[i] -= d * b->q[c * n + i];
	}
	b->rss = 0;
	for (size_t i = 0; i < n; i++)
		b->rss += b->res[i] * b->res[i];
	/* the design is X S^-1 = Q R (S: the column scales), so x . beta = z . (Q^T sw y) with
	 * z = R^-T S^-1 x */
	for (size_t j = 0; j < p->ncheck; j++) {
		double x[FIT_MAX_COEF];
		size_t c = 0;
		if (base->constant) {
			x[c] = 1.0 / scale[c];
			c++;
		}
		for (unsigned k = 0; k < base->nterms; k++, c++)
			x[c] = p->basis_check[base->idx[k] * p->ncheck + j] / scale[c];
		b->pred[j] = 0;
		for (c = 0; c < m; c++) {
			double v = x[c];
			for (size_t i = 0; i < c; i++)
				v -= b->r[i][c] * b->z[j][i];
			b->z[j][c] = v / b->r[c][c];
			b->pred[j] += b->z[j][c] * b->qy[c];
		}
	}
	b->var0 = 0;
	for (size_t c = 0; p->ncheck && c < m; c++)
		b->var0 += b->z[0][c] * b->z[0][c];
	b->logdet = 0;
	for (size_t i = 0; i < m; i++) {
		b->logdet += 2 * log(b->r[i][i] * scale[i]);
		b->scale[i] = scale[i];
	}
	b->m = m;
	return true;
}

bool fit_extend(const struct fit_problem *p, const struct fit_base *b, unsigned c, struct fit_extension *out)
{
	size_t n = p->n, m = b->m;
	double col[n], k[FIT_MAX_COEF], sq0 = 0;
	for (size_t i = 0; i < n; i++) {
		col[i] = p->sw[i] * p->basis[c * n + i];
		sq0 += col[i] * col[i];
	}
	double norm0 = sqrt(sq0);
	if (!(norm0 > 0) || !isfinite(norm0))
		return false;
	/* u = col - Q (Q^T col): what the term adds to the span of the base */
	for (size_t j = 0; j < m; j++) {
		k[j] = 0;
		for (size_t i = 0; i < n; i++)
			k[j] += b->q[j * n + i] * col[i];
	}
	for (size_t j = 0; j < m; j++)
		for (size_t i = 0; i < n; i++)
			col[i] -= k[j] * b->q[j * n + i];
	double sq = 0, proj = 0;
	for (size_t i = 0; i < n; i++) {
		sq += col[i] * col[i];
		proj += b->res[i] * col[i];
	}
	double norm = sqrt(sq);
	if (!(norm > 1e-10 * norm0))
		return false;
	out->rss = fmax(0.0, b->rss - proj * proj / (norm * norm));
	out->norm = norm;
	out->logdet = b->logdet + 2 * log(norm);
	/* the coefficient of u is proj / |u|^2; at a check point u is worth x_c - z . k */
	double gamma = proj / (norm * norm);
	for (size_t j = 0; j < p->ncheck; j++) {
		double t = p->basis_check[c * p->ncheck + j];
		for (size_t i = 0; i < m; i++)
			t -= b->z[j][i] * k[i];
		out->pred[j] = b->pred[j] + gamma * t;
		out->gain[j] = t;
		if (j == 0)
			out->var0 = b->var0 + t * t / (norm * norm);
	}
	/* the base's coefficients: R^-1 (Q^T sw y - gamma k), unscaled */
	out->coef_added = gamma;
	for (size_t i = m; i-- > 0;) {
		double v = b->qy[i] - gamma * k[i];
		for (size_t j = i + 1; j < m; j++)
			v -= b->r[i][j] * out->coef[j];
		out->coef[i] = v / b->r[i][i];
	}
	for (size_t i = 0; i < m; i++)
		out->coef[i] /= b->scale[i];
	return true;
}
