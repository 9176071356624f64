/*
 * average — the prediction interval over the hypotheses the data cannot tell apart, by Bayesian
 * model averaging (Hoeting et al., Statist. Sci. 1999) over every hypothesis the search screened.
 *
 * Why: at 16x the largest rung the uncertainty is mostly in which terms the model has. Seven
 * points with 5% noise cannot tell c + a p^2 from c + a p^(3/2) + b p^3 log^2 p (both fit within
 * the noise), and the two differ 15x at 16x the largest rung; a bootstrap around the selected
 * model cannot see that, and the union of every hypothesis within the noise is as wide as the
 * wildest of them. Averaging weighs each hypothesis by how well it explains the data, and how
 * much it needed its terms to do so:
 *
 *   posterior(h) ~ prior(h) * marginal likelihood(h)
 *   prior(h)     = uniform over the number of terms, then over the sets of terms of that size
 *   marginal     ~ Laplace: exp(-RSS / 2 s^2) (2 pi s^2)^(m/2) det(X^T W X)^(-1/2) pi(beta)
 *
 * with a flat prior on the constant and a normal prior N(0, tau_k^2) on each term's coefficient
 * with tau_k = 1 / max_i |w_i x_k(p_i)|: a term about as large as the metric where it is largest
 * (its relative contribution has unit scale). A term the data pins near zero (a tiny p^3 log^2 p
 * next to the real term) pays for it by the ratio of its posterior to its prior width; a term the
 * data cannot separate from another pays little and shares the weight. s^2 is the noise
 * variance of a weighted per-point value (from the repetitions).
 *
 * Each hypothesis predicts N(prediction, s^2 x0 (X^T W X)^-1 x0 + (prediction * v)^2) at the
 * target, v^2 the relative variance of a per-point value measured there. The interval is the
 * central `level` interval of the mixture.
 */
#ifndef LADDER_MODEL_AVERAGE_H
#define LADDER_MODEL_AVERAGE_H

#include <stddef.h>

#include "model/search.h"

struct average_spec {
	const struct search_record *h;   /* the hypotheses (search_result.record) */
	size_t n;
	unsigned ncand;                  /* candidate terms the search chose from */
	double noise_var;                /* s^2: variance of a weighted per-point value */
	double future_var;               /* v^2: relative variance of a per-point value at the target */
	double level;
};

/* 0 and [lo, hi]; -1 when there is nothing to average (no hypotheses, no noise estimate) */
int average_interval(const struct average_spec *s, double *lo, double *hi);

#endif
