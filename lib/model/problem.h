/*
 * problem — assembles a fit_problem (fit.h) from points, per-point values and candidate terms:
 * the weights, the candidate values at the points, at the target and far beyond it (where a
 * model of a non-negative metric must stay positive), and the cross-validation folds.
 */
#ifndef LADDER_MODEL_PROBLEM_H
#define LADDER_MODEL_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>

#include "model/candidates.h"
#include "model/fit.h"

struct problem_spec {
	const double *points;      /* n x nparams */
	const double *y;           /* n */
	size_t n;
	const struct candidates *cand;
	const double *basis;       /* the candidates at the points if known (ncand x n), or NULL */
	const double *target;      /* nparams, or NULL */
	bool relative_weights;
	enum fit_cv cv;
	unsigned kfold;
	double eps_contrib;
	double rel_noise_var;       /* relative variance of a per-point value (aggregate.h) */
	double noise_dof;           /* its degrees of freedom, 0 when unknown */
	struct fit_critical *critical;  /* shared critical values (fit_noise_init), or NULL */
};

struct problem {
	struct fit_problem fp;
	double *sw, *basis, *check, *x0;
	unsigned *fold;
};

void problem_init(struct problem *pr, const struct problem_spec *spec);
void problem_free(struct problem *pr);
/* the pmnf of hypothesis h over the problem's candidates */
void problem_function(const struct candidates *cand, const struct hypothesis *h, struct pmnf *out);

#endif
