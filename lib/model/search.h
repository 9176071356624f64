/*
 * search — the hypothesis search with iterative refinement (Calotoiu et al., SC13, §2.3-2.4):
 * start from the constant, allow one more term per stage, pick each stage's best hypothesis by
 * cross-validation, and stop at statistical shrinkage (the adjusted R^2 no longer rises) or when
 * cross-validation stops improving, or at the term limit.
 *
 * With repetitions there is one more stop, and it matters most: once the residuals of the
 * current model are consistent with the noise measured by the repetitions (an F-test of the
 * residual variance against the repetition variance), more terms could only fit noise. Without
 * it the best of 190 two-term hypotheses beats the best single term by chance alone, and noisy
 * data gets tiny spurious p^3 terms that ruin the extrapolation.
 *
 * Stages whose hypotheses are few enough are searched exhaustively (all pairs of the default 20
 * terms, so any two-term function is found); larger stages extend the best few hypotheses of
 * the previous stage by one term (a beam search). Beyond the first stage, every hypothesis is
 * first screened by its exact residual sum of squares, computed by projecting the added term
 * off the orthonormal basis of the smaller hypothesis (a few dot products instead of a QR); only
 * the SEARCH_SCREEN best are fitted and cross-validated.
 *
 * The basic mode reproduces Extra-P's basic single-parameter modeler for comparison: the
 * constant or a constant plus exactly one term, chosen by the SMAPE of leave-one-out
 * predictions, with no positivity check.
 */
#ifndef LADDER_MODEL_SEARCH_H
#define LADDER_MODEL_SEARCH_H

#include <stdbool.h>

#include "model/fit.h"
#include "model/fit_screen.h"

#define SEARCH_KEEP 6
/* hypotheses of a stage fitted and cross-validated after screening by residual sum of squares */
#define SEARCH_SCREEN 16
/* the fewest points (per parameter) a search works with: a constant and one term, one point
 * left over for cross-validation and one degree of freedom */
#define SEARCH_MIN_POINTS 4

struct search_options {
	unsigned max_terms;          /* at most this many terms besides the constant */
	unsigned beam;               /* hypotheses extended per stage when not exhaustive */
	unsigned long exhaustive_limit; /* enumerate a stage when it has at most this many hypotheses */
	bool basic;                  /* Extra-P's basic modeler */
	bool lookahead;              /* search the stage after the selected one too (for intervals) */
};

void search_options_default(struct search_options *o);

struct search_result {
	struct hypothesis best;                    /* the selected hypothesis */
	unsigned nstages;                          /* stage[k]: best with k terms, k < nstages */
	struct hypothesis stage[PMNF_MAX_TERMS + 1];
	unsigned ntop[PMNF_MAX_TERMS + 1];          /* the best few of every stage searched */
	struct hypothesis top[PMNF_MAX_TERMS + 1][SEARCH_KEEP];
	unsigned long tried;                       /* hypotheses fitted */
};

/* 0 on success; -1 when not even the constant could be fitted */
int search_best(const struct fit_problem *p, const struct search_options *o, struct search_result *r,
		struct fit_work *w);

/* The refinement rule, shared with the bootstrap: refine while the current selection does not
 * yet fit within the noise of the repetitions, and the next stage's best raises the adjusted
 * R^2 and lowers the cross-validation error. */
bool search_accepts(const struct fit_problem *p, const struct hypothesis *current, const struct hypothesis *next);

#endif
