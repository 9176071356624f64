/*
 * interval — the prediction interval at the target, by bootstrap over the repetitions.
 *
 * Why this bootstrap: at 16x the largest rung most of the uncertainty is not in the
 * coefficients but in which terms the model has, so each replicate (1) resamples the
 * repetitions of every point and re-aggregates them (into the per-point values, median by
 * default, and into the values terms are selected with), (2) re-selects among
 * the search's finalists (each stage's best and the runners-up of the chosen stage) with the
 * same refinement rule, (3) predicts at the target, and (4) multiplies by the aggregate of a
 * resampled set of relative deviations, so the interval covers the value one would measure at
 * the target with as many repetitions, not just the curve. The repetitions are re-aggregated
 * both into the per-point values and into the values terms are selected with. With a single repetition per point
 * the replicates resample relative residuals of the fit instead.
 *
 * Re-selection alone is not enough when the data cannot tell neighbouring classes apart (p^(5/2)
 * and p^2 log^2 p over 2..128, or one term against a sum of two): the replicates keep choosing
 * the same one. So the interval is widened to cover the percentile interval of every finalist
 * whose residuals are within the noise of the repetitions (fit_within_noise): a model the data
 * cannot rule out must not fall outside the interval. The search looks one stage ahead of the
 * selected model to supply those finalists. The weights are held fixed
 * across replicates, which makes every refit a product with a precomputed matrix (fit_ops)
 * and the whole bootstrap cheap. Percentile interval at the requested level.
 */
#ifndef LADDER_MODEL_INTERVAL_H
#define LADDER_MODEL_INTERVAL_H

#include <stddef.h>

#include "model/aggregate.h"
#include "model/fit.h"

struct interval_spec {
	const struct fit_problem *p;    /* the selection problem: its y are the selection values */
	const double *values;           /* the per-point values (the requested aggregate) */
	const double *const *reps;      /* sorted repetitions of each point */
	const size_t *nreps;
	enum model_aggregate aggregate; /* of the values */
	enum model_aggregate select;    /* of the selection values (aggregate_for_selection) */
	const struct hypothesis *finalists;   /* the search's finalists; [0] is the selected one */
	size_t nfinalists;
	const double *x0;               /* candidate values at the target */
	unsigned replicates;
	double level;
	unsigned long seed;
};

/* 0 and [lo, hi] on success */
int interval_bootstrap(const struct interval_spec *s, struct fit_work *w, double *lo, double *hi);

#endif
