/*
 * advise — which additional rung of the ladder would help a model most: the one that tells the
 * selected model from a rival that fits the measured rungs about as well but predicts another
 * value at the target, and the one that most narrows the prediction of the selected model at
 * the target.
 *
 *     struct advice a;
 *     if (!model_advise(res, cp, metric, &a) && a.has_rival)
 *         printf("measure p = %g\n", a.separate_at);
 *
 * How (one parameter, the rank count):
 *   - the hypotheses of the search are fitted again to the per-point values, the model's terms
 *     too (the selected one); a rival is one that fits within the noise of the selected one (its
 *     RSS exceeds the selected RSS by less than the critical F of one term times the noise
 *     variance) and differs most from it at the target;
 *   - the noise of a per-point value is that of the repetitions (aggregate.h), or without
 *     repetitions the residuals of the selected model, at least ADVISE_MIN_NOISE;
 *   - candidate rungs continue the ladder by its last factor (the ratio of its two largest
 *     rungs; a ladder of cubes, 1, 8, 27, by the next cubes) up to the target; with three rungs
 *     the rung that narrows most is the fourth to measure; the advice to separate is the
 *     smallest candidate where the two models differ by ADVISE_SEPARATION noise standard
 *     deviations (a single measurement tells
 *     them apart there), else the candidate where they differ most;
 *   - the advice to narrow is the candidate below the target that most reduces the variance of
 *     the selected model's prediction at the target, by the Sherman-Morrison update of the
 *     weighted least-squares fit with that rung added (the uncertainty of the coefficients; the
 *     rival covers the uncertainty of the terms).
 */
#ifndef LADDER_MODEL_ADVISE_H
#define LADDER_MODEL_ADVISE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/modeler.h"

/* differences of this many noise standard deviations are told apart by one measurement */
#define ADVISE_SEPARATION 3.0
/* a relative noise below this is not believed (a timer's resolution, system noise) */
#define ADVISE_MIN_NOISE 0.01
#define ADVISE_MAX_RUNGS 32

struct advice {
	char note[160];             /* why there is no advice (status not OK, several parameters, ...) */
	double target;              /* of the rank parameter */
	double largest;             /* the largest measured rung */
	double noise_sd;            /* relative standard deviation of a per-point value */
	size_t nrungs;              /* candidate rungs, ascending, the last may be the target */
	double rung[ADVISE_MAX_RUNGS];
	double best_pred;           /* the selected model at the target */
	/* the rival */
	bool has_rival;
	struct pmnf best, rival;    /* the selected hypothesis refitted, and its rival */
	double rival_pred;          /* the rival at the target */
	double separation_now;      /* their difference at the largest measured rung, in noise sd */
	double separate_at;         /* the rung advised to tell them apart */
	double separation;          /* their difference there, in noise sd */
	double agree_to;            /* the largest rung up to which they agree within one noise sd:
				       how far the ladder supports a prediction (0: not even at the
				       largest measured rung) */
	/* narrowing */
	bool has_narrowing;
	double narrow_at;           /* the rung that most narrows the prediction at the target */
	double sd_now, sd_after;    /* relative sd of the prediction at the target, now and with it */
};

/* the separation of two functions at rank count p, in noise sd (one parameter) */
double advise_separation(const struct pmnf *a, const struct pmnf *b, double p, double noise_sd);

/* 0 and the advice for (cp, metric); -1 with a.note saying why there is none */
int model_advise(const struct model_results *res, size_t cp, size_t metric, struct advice *a);

#endif
