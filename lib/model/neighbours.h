/*
 * neighbours — the hypotheses next to a selected multi-parameter model that its search never saw:
 * the model with one of its terms moved elsewhere in the space (the factors of at most two
 * parameters changed to other exponents of the space, or to none), and the model with one term
 * of at most two parameters added. A multi-parameter search only offers the products of the
 * factors each parameter's line search selected, so a model whose term carries the wrong exponent
 * of a parameter (p^2 log2(p) n where the truth is p^(5/2) log2(p) n log2(n)), or none of it
 * (n^(3/2) where the truth is p^3 n^(5/2)), or a constant where the largest point shows
 * p^3 n^(5/2), has no rival among the search's records even when the rungs favour the neighbour.
 * Each neighbour is screened by an exact least-squares update on the values the terms were
 * selected with (fit_screen.h). A moved term is a rival when it fits as well as the model; an
 * added one only when it is significant among all those tried, as the search would have judged
 * it: any term added lowers the RSS, and a term the rungs do not ask for is no rival. A neighbour
 * that passes the screen is a rival only when the search would accept it as a hypothesis
 * (search_admissible: without a constant when the constant comes out negative; no terms that
 * cancel, none negligible, positive at the check points). A model of PMNF_MAX_TERMS terms has
 * no neighbours with a term added, but its moved terms compete as any model's.
 *
 *     double r = neighbour_rival_outside(&spec, lo, hi, 3.0);
 *     if (isfinite(r)) ... a neighbour that fits as well predicts r at the target ...
 */
#ifndef LADDER_MODEL_NEIGHBOURS_H
#define LADDER_MODEL_NEIGHBOURS_H

#include "model/exponents.h"
#include "model/fit.h"
#include "model/problem.h"

struct neighbour_spec {
	const struct problem_spec *problem;   /* the selection's problem: points, per-point values (the
						 weights), target, noise; cand: what best's indices name */
	const double *ysel;                   /* the values the terms were selected with */
	const struct exponent_set *exponents; /* the factors a term may take in each parameter */
	const struct hypothesis *best;        /* the selected hypothesis */
	double s2, dof;                       /* the noise of a weighted per-point value, its dof */
	double crit;                          /* a moved term fits as well within crit * s2 of best's RSS */
	struct fit_critical *critical;        /* a cache for the neighbours' problems (fit.h), or NULL */
	struct fit_work *w;                   /* for fitting the neighbours that pass the screen, problem->n
						 points at least */
};

/* The prediction at the target of the first neighbour that fits the rungs as well (a moved term:
 * weighted RSS within crit * s2 of best's; an added term: lower by more than the critical F of
 * adding one of all those tried, at FIT_ALPHA), admissible to the search, and more than
 * `factor` outside [lo, hi]; NAN when none. */
double neighbour_rival_outside(const struct neighbour_spec *s, double lo, double hi, double factor);

/* The selected model with one term more that makes one of its terms faster, whose coefficient
 * is as large as the noise allows: weighted RSS within crit * s2 of best's, that coefficient
 * positive, the prediction positive far out. The terms tried: the search's own candidates (cand:
 * the products of the factors its line searches chose) with a factor at least a model term's in
 * every parameter, and each model term of one parameter with a larger factor of that parameter
 * from the whole space (41.8 + 1.41e-08 p log2(p) n^3 + 3.933e-06 p^3 log2(p) at 5% noise fitted
 * with p^2 log2(p) for the p^3 log2(p) term, supported 33x low at 64x). A term faster in p or n
 * alone from the whole space, beside a product model, is not tried: at 64x in both parameters
 * any of them within the noise widens almost every noisy prediction past support. The largest
 * such prediction at the target above hi; NAN when none. The multi-parameter form of series.c's
 * faster tail: what the noise cannot rule out, a supported interval holds. */
double neighbour_faster_tail(const struct neighbour_spec *s, double hi);

#endif
