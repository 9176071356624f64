/*
 * fit_screen — screening the hypotheses that add one term to a smaller one (the base) by exact
 * least-squares updates: a few dot products per candidate instead of a QR. Besides the RSS (what
 * the search ranks by), each extension gives its coefficients, its predictions at the check
 * points (the target, and far beyond: a model must stay positive there), the variance factor of
 * its prediction at the target and log det X^T W X, which model averaging needs (average.h).
 *
 *     struct fit_base b = {.q = q, .res = res};
 *     if (fit_base_init(p, &base, &b))
 *         for (c ...) if (fit_extend(p, &b, c, &x)) ... x.rss, x.pred[0] ...
 */
#ifndef LADDER_MODEL_FIT_SCREEN_H
#define LADDER_MODEL_FIT_SCREEN_H

#include <stdbool.h>

#include "model/fit.h"

/* A hypothesis (the base) to be extended by one candidate: an orthonormal basis q of its
 * weighted design (Gram-Schmidt, twice), its weighted residual, and for each check point (the
 * target first) the vector z with prediction = z . (Q^T sw y). The caller points q at
 * (terms + 1) x n and res at n values. */
#define FIT_MAX_CHECKS 2
struct fit_base {
	size_t m;                                   /* coefficients; 0: degenerate */
	double *q, *res, rss;
	double qy[FIT_MAX_COEF];               /* Q^T sw y */
	double z[FIT_MAX_CHECKS][FIT_MAX_COEF];
	double pred[FIT_MAX_CHECKS];                /* the base's predictions at the check points */
	double var0;                                /* x0 (X^T W X)^-1 x0 at the target */
	double r[FIT_MAX_COEF][FIT_MAX_COEF], scale[FIT_MAX_COEF];
	double logdet;                              /* log det X^T W X */
};
bool fit_base_init(const struct fit_problem *p, const struct hypothesis *base, struct fit_base *b);

/* The base with candidate c added, by exact least-squares updates: its weighted RSS, its
 * predictions at the check points, and the variance factor of its prediction at the target
 * (times the noise variance of a weighted value: the variance of the prediction). false when c
 * is (numerically) in the span of the base. */
struct fit_extension {
	double rss;
	double pred[FIT_MAX_CHECKS];
	double var0;
	double coef[FIT_MAX_COEF];   /* the base's coefficients (its constant first) */
	double coef_added;                 /* the added term's */
	double logdet;
	/* the added coefficient moved by d from its least-squares value raises the weighted RSS by
	 * (d norm)^2 and moves the prediction at check point j by d gain[j] */
	double norm, gain[FIT_MAX_CHECKS];
};
bool fit_extend(const struct fit_problem *p, const struct fit_base *b, unsigned c, struct fit_extension *out);

#endif
