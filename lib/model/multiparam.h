/*
 * multiparam — candidate terms for several parameters, the way Extra-P's multi-parameter
 * modeler builds them: model each parameter alone along the lines of points where the others
 * are fixed (averaging the longest such lines), then offer every product of one selected term
 * (or none) per parameter to the search. A model "c + a p log p + b p log p * n" is found as the
 * products of {log p, p log p} along p and {n} along n. The terms selected along a line are
 * those of its best few hypotheses of every size up to the one its search selects, so that the
 * grid search and model averaging see the simpler rivals of a line model too.
 */
#ifndef LADDER_MODEL_MULTIPARAM_H
#define LADDER_MODEL_MULTIPARAM_H

#include <stdbool.h>
#include <stddef.h>

#include "model/candidates.h"
#include "model/error.h"
#include "model/exponents.h"
#include "model/fit.h"
#include "model/search.h"

/* candidate factors kept per parameter */
#define MULTIPARAM_MAX_FACTORS 8

/* the largest number of distinct values of `param` among points sharing all other coordinates */
size_t multiparam_line_length(const double *points, size_t n, unsigned nparams, unsigned param);

struct multiparam_spec {
	const double *points;     /* n x nparams */
	const double *y;          /* n */
	size_t n;
	unsigned nparams;
	const struct exponent_set *exponents;
	const struct search_options *search;
	bool relative_weights;
	double eps_contrib;
	double rel_noise_var;     /* relative variance of a per-point value, and its dof */
	double noise_dof;
};

/* 0, or -1 when a parameter has too few values along its lines */
int multiparam_candidates(const struct multiparam_spec *s, struct candidates *out, struct fit_work *w,
			  struct model_error *err);

#endif
