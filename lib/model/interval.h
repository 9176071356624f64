/*
 * interval — the bootstrap part of the prediction interval at the target (the other part is
 * model averaging, average.h; the modeler takes the hull of both).
 *
 * Each replicate (1) resamples the repetitions of every point and re-aggregates them (the
 * per-point values, median by default, and the values terms are selected with), (2) re-selects
 * among the search's finalists (each stage's best) with the same refinement rule, (3) predicts at
 * the target, and (4) multiplies by the aggregate of a resampled set of relative deviations, so
 * the interval covers the value one would measure at the target with as many repetitions, not
 * just the curve. With a single repetition per point the replicates resample relative residuals
 * of the fit instead. The weights are held fixed across replicates, which makes every refit a
 * product with a precomputed matrix (fit_ops) and the whole bootstrap cheap. Percentile interval
 * at the requested level.
 *
 * The bootstrap sees how the coefficients and the selection vary with the noise, and the shape
 * of the noise; it cannot see the hypotheses the selection never picks because the data cannot
 * tell them from the selected one (a single term against a sum of two): re-selection around the
 * selected model is 35% right for two-term sums at 16x. Model averaging covers those.
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
