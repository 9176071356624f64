/*
 * synth — the synthetic test set: ground-truth PMNF functions and measurements of them with
 * controlled multiplicative noise, for the unit tests, the CLI fixtures and the benchmark.
 *
 * Families (single parameter p on a ladder, two parameters p x n on a grid):
 *   SYNTH_ONE_TERM        c0 + c * t(p) for every term t of the default exponent set
 *   SYNTH_ONE_TERM_PURE   c * t(p), no constant
 *   SYNTH_TWO_TERMS       c0 + a * t1(p) + b * t2(p) for every pair t1 < t2 of the default set
 *                         (sums of two growing terms)
 *   SYNTH_STRONG          strong scaling: c / p^i + d, c / p + d log p, c / p + d p^(1/2), ...
 *   SYNTH_TWO_PARAMS      c0 + a t(p) t(n), c0 + a t(p) + b t(n) and c0 + a t(p) t(n) + b t(p)
 * Coefficients are drawn so that every term matters: its share of f at the largest point (or,
 * for decaying terms, at the smallest) is drawn from a fixed range, never below 20%.
 *
 * Noise: every repetition is f(x) * (1 + eps), eps ~ U(-eta, eta) or N(0, eta).
 */
#ifndef LADDER_TESTS_SYNTH_H
#define LADDER_TESTS_SYNTH_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/experiment.h"
#include "model/pmnf.h"

enum synth_family { SYNTH_ONE_TERM, SYNTH_ONE_TERM_PURE, SYNTH_TWO_TERMS, SYNTH_STRONG, SYNTH_TWO_PARAMS };
enum synth_noise { SYNTH_UNIFORM, SYNTH_GAUSSIAN };

#define SYNTH_MAX_POINTS 64

struct synth_ladder {
	unsigned nparams;
	size_t npoints;
	double x[SYNTH_MAX_POINTS * 2];    /* npoints x nparams */
};

/* p = first, first*factor, ... (n rungs) */
void synth_ladder_geometric(struct synth_ladder *l, double first, double factor, size_t n);
/* the grid of two geometric ladders */
void synth_ladder_grid(struct synth_ladder *l, double p0, double pf, size_t np, double n0, double nf, size_t nn);
/* the default single-parameter ladder: p = 2, 4, ..., 128; the grid: p = 2..32 x n = 16..256 */
void synth_ladder_default(struct synth_ladder *l, unsigned nparams);

/* The point where the shares of terms are set: every parameter at its largest, or its smallest
 * (for decaying terms). */
void synth_reference_point(const struct synth_ladder *l, bool smallest, double *x);

/* The ground truths of a family on a ladder; returns how many (at most cap). */
size_t synth_family_truths(enum synth_family fam, const struct synth_ladder *l, gsl_rng *rng,
			   struct pmnf *out, size_t cap);
const char *synth_family_name(enum synth_family fam);

/* Add reps noisy measurements of f at every ladder point to (cp, metric) of e. The
 * experiment must have the ladder's parameters. */
void synth_measure(const struct pmnf *f, const struct synth_ladder *l, size_t reps, double noise,
		   enum synth_noise kind, gsl_rng *rng, struct experiment *e, size_t cp, size_t metric);

/* An experiment with parameters "p" (and "n") and the ladder's points. */
struct experiment *synth_experiment(const struct synth_ladder *l);

/* A family measured on the default ladder: one call path "f<k>" per ground truth, metric "time"
 * (index 0), reps repetitions with the given noise, drawn from seed. truths receives the
 * functions (at most cap), *n their number. */
struct experiment *synth_family_experiment(enum synth_family fam, unsigned nparams, unsigned long seed, size_t reps,
					   double noise, enum synth_noise kind, struct pmnf *truths, size_t cap, size_t *n);
/* factor times the largest rank count, the other parameters at their largest */
void synth_target(const struct synth_ladder *l, double factor, double *target);

#endif
