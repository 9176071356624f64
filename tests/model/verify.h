/*
 * verify — a fourth synthetic set for accuracy_model, written before the support judgement was
 * revised for the fresh set's misses and run only once that revision was done, to check it: its
 * own seed, ladders that start at odd rank counts, and functions drawn at random in shapes none
 * of the other sets walks in order.
 *
 *   ladders          5 rungs p = 12..192, 7 rungs p = 5..320, the grid p = 6..96 x n = 10..160
 *   one term         c0 + c t(p), 18 terms drawn from the default space, share 25-95%
 *   two terms        c0 + a t1(p) + b t2(p), 18 pairs drawn, shares 10-40% and 20-65%
 *   three terms      c/p^i + a t1(p) + b t2(p): a decay drawn from 1/2, 1, 3/2, 2 and a pair
 *                    drawn from the default space, 10 functions
 *   strong scaling   c/p^i + d t(p) + e, 10 functions, the decay and the growth drawn
 *   two parameters   c0 + a t(p) u(n) (8), c0 + a t(p) + b u(n) (4), c0 + a t(p) u(n) + b v(p)
 *                    (4), every factor drawn from the default space
 */
#ifndef LADDER_TESTS_VERIFY_H
#define LADDER_TESTS_VERIFY_H

#include <gsl/gsl_rng.h>
#include <stddef.h>

#include "heldout.h"
#include "synth.h"

void verify_ladders(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid);
/* the ladders of a second draw, run after the support tests were revised for what the first draw
 * showed (one more revision followed from it): 5 rungs p = 10..160, 7 rungs p = 6..384, the grid p = 5..80 x n = 12..192 */
void verify_ladders_second(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid);
/* the ladders of a third draw, run once after the last revision of the support tests and never
 * before: 5 rungs p = 7..112, 7 rungs p = 9..576, the grid p = 7..112 x n = 6..96 */
void verify_ladders_third(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid);
size_t verify_truths(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap);

#endif
