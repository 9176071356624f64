/*
 * tell — what a ladder can tell about a function's leading term at a noise level: the nearest
 * function of the search space whose leading terms differ, and how far it is in units of the
 * noise a per-point value keeps.
 *
 * A term that does not show on the ladder cannot be learnt by any modeler: when another leading
 * term fits the exact values within the noise, even a choice between just those two functions,
 * their coefficients known, errs at rate Phi(-d / 2 sigma) (equal prior odds; d: the relative
 * distance, sigma: the relative standard deviation of a per-point value). accuracy_model reports
 * the functions the ladder cannot tell apart (d < TELL_SIGMAS sigma) separately, and one minus
 * the mean of that rate as the ceiling of the leading-term rate; study_model's pairwise bound is
 * the same rate.
 */
#ifndef LADDER_TESTS_TELL_H
#define LADDER_TESTS_TELL_H

#include <stddef.h>

#include "model/candidates.h"
#include "model/fit.h"
#include "model/pmnf.h"

/* a function whose nearest other leading term is closer than this many sigma cannot be told */
#define TELL_SIGMAS 2.0

/* The relative distance (the square root of the sum of squared relative differences) from the
 * exact values of f at the points (n x f->nparams) to the nearest valid fit of at most
 * max(f->nterms, 1) candidate terms, with or without a constant, whose leading terms are not f's;
 * INFINITY when there is none. target: where a fit must stay positive (NULL: the largest point).
 * *nearest (when not NULL) receives that fit. */
double tell_distance(const struct pmnf *f, const double *points, size_t n, const struct candidates *c,
		     const double *target, struct fit_work *w, struct pmnf *nearest);

/* The relative standard deviation of the more precise of the mean and the midrange of reps
 * draws of uniform multiplicative noise in [-noise, noise] (the modeler selects terms with the
 * midrange when it is the more precise, aggregate.h). */
double tell_sigma(double noise, size_t reps);

/* Phi(-d / 2 sigma): the equal-odds error of telling f from its nearest other leading term */
double tell_error(double d, double sigma);

#endif
