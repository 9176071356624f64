/*
 * average — the prediction interval over the hypotheses the data cannot tell apart, by Bayesian
 * model averaging (Hoeting et al., Statist. Sci. 1999) over every hypothesis the search screened.
 *
 * Why: at 16x the largest rung the uncertainty is mostly in which terms the model has. Seven
 * points with 5% noise cannot tell c + a p^2 from c + a p^(3/2) + b p^3 log^2 p (both fit within
 * the noise), and the two differ 15x at 16x the largest rung; a bootstrap around the selected
 * model cannot see that, and the union of every hypothesis within the noise is as wide as the
 * wildest of them. Averaging weighs each hypothesis by its posterior (posterior.h): how well it
 * explains the data, and how much it needed its terms to do so.
 *
 * Each hypothesis predicts N(prediction, s_h^2 x0 (X^T W X)^-1 x0 + (prediction * v)^2) at the
 * target, s_h^2 its estimate of the noise of a weighted per-point value (posterior.h), v^2 the
 * relative variance of a per-point value measured there. The interval is the central `level`
 * interval of the mixture.
 *
 * The prediction is the median of the mixture of the AVERAGE_TOP most probable hypotheses (their
 * weights renormalised), not the selected model's value: where the ladder cannot tell the
 * leading term, the selection is a coin toss between rivals that part by 10x at the target, and
 * the median of the few that explain the data best lies between them. The whole mixture is no
 * better a point: every hypothesis with a small extra growing term that the noise allows weighs
 * in, and only upwards (a term that subtracts is 7x less likely, and one that turns the model
 * negative at the target is not a hypothesis), which pulled strong-scaling predictions up. On
 * accuracy_model (both sets) the median of the top 3 gave fewer predictions off by more than
 * 10x and a lower 90th-percentile error at 64x than the selected model, 2, 5 and 8 hypotheses,
 * the whole mixture, or the whole mixture weighted by 1/value (the minimiser of the expected
 * relative error, which pulls predictions under the truth).
 */
#ifndef LADDER_MODEL_AVERAGE_H
#define LADDER_MODEL_AVERAGE_H

#include <stddef.h>

#include "model/posterior.h"
#include "model/search.h"

struct average_spec {
	const struct search_record *h;   /* the hypotheses (search_result.record) */
	size_t n;
	unsigned ncand;                  /* candidate terms the search chose from */
	struct posterior_noise noise;    /* of a weighted per-point value */
	double future_var;               /* v^2: relative variance of a per-point value at the target */
	double level;
};

/* the hypotheses the prediction averages over */
#define AVERAGE_TOP 3

/* 0, the prediction and the interval [lo, hi] (see above); -1 when there is nothing to average
 * (no hypotheses, no noise estimate) */
int average_prediction(const struct average_spec *s, double *value, double *lo, double *hi);

#endif
