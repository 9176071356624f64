/*
 * search — the hypothesis search with iterative refinement (Calotoiu et al., SC13, §2.3-2.4):
 * start from the constant, allow one more term per stage, and refine while the statistics say
 * the larger model is better. The rule below decides how far the search goes, what the
 * bootstrap re-selects with (interval.h) and what is selected without a posterior to go by
 * (--basic, or data reproduced exactly); the model is the most probable of the hypotheses the
 * search screened (posterior.h).
 *
 * Within a stage every hypothesis has the same number of terms, so the weighted least-squares
 * fit (the likelihood under multiplicative noise) ranks them: the stage's best has the least
 * weighted RSS. Leave-one-out over seven points ranks them worse (on the synthetic set the
 * hypothesis with the least RSS has the true leading term more often than the one with the least
 * cross-validation error, 79% against 74% for one term and a constant at 5% noise).
 *
 * Between stages, where the number of terms differs, a larger hypothesis replaces the current
 * selection only when all of these hold:
 *   - the current one does not yet fit within the noise measured by the repetitions (an F-test
 *     of its residual variance against the repetition variance): a model within the noise is
 *     final, more terms could only fit noise;
 *   - the adjusted R^2 rises (the paper's statistical shrinkage);
 *   - the cross-validation error (leave-one-out, or k-fold) falls;
 *   - the drop in RSS is significant against the repetition noise, at 5% shared among the terms
 *     that could have been added (fit_significant): the best of 190 pairs beats the best single
 *     term by chance alone, and without this test noisy data gets spurious second terms, often
 *     faster-growing ones that change the leading term.
 * A stage that is not accepted does not end the search at once: the next one is still compared
 * with the current selection (search_refine), since the best single term of c/p^2 + d log p can
 * fit worse than the constant while the best pair is exact.
 *
 * Stages whose hypotheses are few enough are searched exhaustively (all pairs of the default 20
 * terms, so any two-term function is found); larger stages extend the best few hypotheses of
 * the previous stage by one term (a beam search). Beyond the first stage, every hypothesis is
 * first screened by its exact residual sum of squares, computed by projecting the added term
 * off the orthonormal basis of the smaller hypothesis (a few dot products instead of a QR); only
 * the SEARCH_SCREEN best are fitted and cross-validated. The screening also gives each
 * hypothesis' prediction at the target and what model averaging needs (average.h); the search
 * records them.
 *
 * The basic mode reproduces Extra-P's basic single-parameter modeler for comparison: the
 * constant or a constant plus exactly one term, chosen by the SMAPE of leave-one-out
 * predictions, with no positivity check.
 */
#ifndef LADDER_MODEL_SEARCH_H
#define LADDER_MODEL_SEARCH_H

#include <stdbool.h>

#include "model/candidates.h"
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
	bool record;                 /* record the screened hypotheses (for intervals) */
};

void search_options_default(struct search_options *o);

/* Every hypothesis with a constant the search screened (exact least-squares updates) that
 * stays positive at the check points: what the posterior weighs (posterior.h). */
#define SEARCH_RECORDS 1024
struct search_record {
	unsigned nterms;                /* terms besides the constant */
	unsigned idx[PMNF_MAX_TERMS];   /* their candidate indices, ascending */
	double pred, var0;      /* prediction at the target, its variance / the noise variance */
	double rss, logdet;     /* weighted RSS, log det X^T W X */
	double share[PMNF_MAX_TERMS];   /* each term's coefficient times its peak: its largest
					   relative size over the points */
	double logpeak;         /* the sum of the logarithms of the peaks */
};

struct search_result {
	struct hypothesis best;                    /* the selected hypothesis */
	unsigned nstages;                          /* stage[k]: best with k terms, k < nstages */
	struct hypothesis stage[PMNF_MAX_TERMS + 1];
	unsigned ntop[PMNF_MAX_TERMS + 1];          /* the best few of every stage searched */
	struct hypothesis top[PMNF_MAX_TERMS + 1][SEARCH_KEEP];
	unsigned long tried;                       /* hypotheses fitted */
	unsigned nrecords;
	struct search_record record[SEARCH_RECORDS];
	double peak[CANDIDATES_MAX], logpeak[CANDIDATES_MAX];   /* of every candidate (search_record) */
};

/* 0 on success; -1 when not even the constant could be fitted */
int search_best(const struct fit_problem *p, const struct search_options *o, struct search_result *r,
		struct fit_work *w);

/* how many hypotheses of k terms ncand candidates make (beyond exhaustive_limit a stage is a beam) */
unsigned long search_count(unsigned long ncand, unsigned k);

/* Every hypothesis of k terms and a constant once: visit(base, arg) for every (k-1)-subset of the
 * candidates (indices ascending), the walk the exhaustive stages screen (each base extended by
 * the candidates after its last index). Stops when visit returns true, and returns true then. */
bool search_walk_bases(const struct fit_problem *p, unsigned k, bool (*visit)(const struct hypothesis *base, void *arg),
		       void *arg);

/* Would the search accept h (nterms and idx set) as it accepts a hypothesis of a stage: fitted
 * with a constant, or without one when the constant came out negative (as a pure c/p), and valid
 * (fit_hypothesis: no negligible term, no terms that cancel, positive at the check points)?
 * h receives the fit. */
bool search_admissible(const struct fit_problem *p, struct hypothesis *h, struct fit_work *w);
/* h's prediction at the target (the first check point) */
double search_prediction(const struct fit_problem *p, const struct hypothesis *h);

/* A rival of a selected model: a hypothesis the search would accept (search_admissible) whose
 * weighted RSS is at most rss_limit and whose prediction at the target lies more than `factor`
 * outside [lo, hi]. */
struct search_rival {
	double rss_limit, lo, hi, factor;
};
/* Is base + candidate c (x: its exact update, fit_screen.h) such a rival? The update screens;
 * only what passes is fitted. *pred receives its prediction when it is. */
bool search_rival_qualifies(const struct fit_problem *p, const struct hypothesis *base, const struct fit_extension *x,
			    unsigned c, const struct search_rival *rv, struct fit_work *w, double *pred);
/* Every hypothesis of k terms and a constant (a stage the search searched with its beam saw only
 * some), walked as the exhaustive stages are: the prediction of the first rival; NAN when none. */
double search_rival_of_size(const struct fit_problem *p, unsigned k, const struct search_rival *rv, struct fit_work *w);

/* The refinement rule, shared with the bootstrap: a larger hypothesis replaces the current
 * selection when the current one does not yet fit within the noise of the repetitions, and the
 * larger one raises the adjusted R^2, lowers the cross-validation error and fits significantly
 * better (fit_significant). */
bool search_accepts(const struct fit_problem *p, const struct hypothesis *current, const struct hypothesis *next);
/* The refinement over the best hypothesis of each stage (stage[k]: k terms; valid false when
 * the stage had none): from the smallest, move on to a later stage the rule accepts, looking at
 * most two stages past the current selection (the best single term of c/p^2 + d log p is worse
 * than the constant, the best pair exact). Returns the index of the selected stage. */
unsigned search_refine(const struct fit_problem *p, const struct hypothesis *stage, unsigned nstages);

#endif
