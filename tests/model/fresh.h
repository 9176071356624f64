/*
 * fresh — a third synthetic set for accuracy_model, written after the support tests of the modeler
 * were chosen and never used to choose them: another seed, other ladders, and shapes drawn at
 * random rather than walked in order, among them the shapes whose supported predictions were off
 * by more than 10x on a set outside this repository.
 *
 *   ladders          5 rungs p = 6..96, 7 rungs p = 3..192, the grid p = 3..48 x n = 32..512
 *   one term         c0 + c t(p), 24 terms drawn from the default space, share 20-90%
 *   two terms        c0 + a t1(p) + b t2(p), 24 pairs drawn from the default space, shares of
 *                    the slower 10-50% and the faster 5-60% at the largest rung
 *   named shapes     p + p log p, c/p + d log p, c + a p^(1/2) + b p^2, c/p^(1/2) + d p^(1/2),
 *                    c + a log p + b p log p, c/p^2 + d
 *   two parameters   c0 + a t(p) u(n), t and u drawn from the default space
 */
#ifndef LADDER_TESTS_FRESH_H
#define LADDER_TESTS_FRESH_H

#include <gsl/gsl_rng.h>
#include <stddef.h>

#include "heldout.h"
#include "synth.h"

void fresh_ladders(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid);
size_t fresh_truths(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap);

#endif
