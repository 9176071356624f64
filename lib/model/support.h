/*
 * support — does the ladder support a model's prediction at the target? Five tests, each of
 * which can say no:
 *
 *   - the rungs check the model: at least SUPPORT_MIN_CHECKS rungs beyond its coefficients, as
 *     an exact law of counts needs (exact.h: a law one rung checks could be luck among the many
 *     sets of terms; c + 806/p + a p^2 + b p^2 log2(p) through five rungs of 841/p +
 *     0.0034 p log2(p)^2 + 6.1e-06 p^3 at 2% noise, 23x low at 64x with an interval of 8x);
 *   - every term is constrained by the ladder: a term whose share of the prediction at the
 *     target is most of it, and far larger than its largest share of the model on any rung
 *     (SUPPORT_SHARE_RATIO times), was fitted where it hardly shows and rules where nobody
 *     measured (49.47 + 2.013 p + 2.261e-05 p^3 fitted to p + p log p: the p^3 term is 13% of
 *     the model at the largest rung and all of it at 64x);
 *   - the leave-one-out fits agree: the model's terms refitted without each rung in turn predict
 *     at the target within the width of the interval (a fit that interpolates its rungs, with
 *     as many coefficients as rungs but one, parts as soon as one rung is left out);
 *   - the interval spans at most MODEL_SUPPORT_SPAN (modeler.h);
 *   - (series.c, which has the search's hypotheses) no rival that fits the rungs as well predicts
 *     more than SUPPORT_RIVAL_FACTOR outside the interval; a rival is a hypothesis the search
 *     would accept (search_admissible); with several parameters the rivals include the model's
 *     neighbours in the whole space, which its search never saw (neighbours.h); with one, the
 *     largest tail of a faster term the noise cannot rule out widens a supported prediction's
 *     interval, which this span test then judges again.
 *
 *     struct support s;
 *     support_judge(&fn, pts, y, n, target, true, lo, hi, 0.95, NULL, &s);
 *     if (!s.supported) ... s.why ...
 */
#ifndef LADDER_MODEL_SUPPORT_H
#define LADDER_MODEL_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/pmnf.h"

/* a rival that fits the rungs as well (series.c) and predicts more than this factor outside the
 * interval makes the prediction unsupported */
#define SUPPORT_RIVAL_FACTOR 3.0
/* rungs beyond the coefficients a model needs to support a prediction (EXACT_MIN_CHECKS) */
#define SUPPORT_MIN_CHECKS 2
/* a term is most of the prediction at the target from this share on */
#define SUPPORT_SHARE_LEADS 0.5
/* and unconstrained when that is more than this many times its largest share on the ladder */
#define SUPPORT_SHARE_RATIO 3.0

struct support {
	bool supported;
	char why[200];            /* what is not supported, "" when supported */
	double loo_lo, loo_hi;    /* the leave-one-out predictions at the target (NAN when none) */
};

/* The term of fn that rules at target without showing on the ladder (pts: n x nparams), -1
 * when none; its shares at the target and at most on the ladder. */
int support_unconstrained_term(const struct pmnf *fn, const double *pts, size_t n, const double *target,
			       double *share_target, double *share_ladder);

/* The predictions at target of fn's terms (and constant when it has one) refitted, relative
 * weights, without each point in turn: their least and largest. false when a refit fails. */
bool support_loo_range(const struct pmnf *fn, const double *pts, const double *y, size_t n, const double *target,
		       double *lo, double *hi);

/* The tests but the rival's; lo, hi: the prediction interval at level (has_interval false: none);
 * loo: support_loo_range's {lo, hi} when the caller has them (NAN: a refit failed), or NULL. */
void support_judge(const struct pmnf *fn, const double *pts, const double *y, size_t n, const double *target,
		   bool has_interval, double lo, double hi, double level, const double *loo, struct support *out);

#endif
