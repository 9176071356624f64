/*
 * heldout — a second synthetic set for accuracy_model, held out from the tuning of the modeler:
 * other seeds, other ladders, other coefficient ranges, and functions just outside the default
 * exponent space, so that a change that only fits the first set shows up here.
 *
 *   ladders          5 rungs p = 8..128, 7 rungs p = 1..64 (p = 1: log terms vanish there), the
 *                    grid p = 4..64 x n = 8..128
 *   one term         c0 + c t(p): every term of the default space, and terms just outside it
 *                    (p^(1/4), p^(1/3), p^(2/3), p^(3/4), p^(5/4), p^(4/3), p^(7/4), p^(9/4), each
 *                    alone and times log2 p); the term's share at the largest rung 30-95%
 *   two terms        c0 + a t1(p) + b t2(p): every fifth pair of the default space from the third;
 *                    shares at the largest rung 10-45% (slower) and 30-70% (faster)
 *   strong scaling   c / p^i + d, c / p^i + d g(p) with and without a serial constant, decays
 *                    i = 1/3, 1/2, 3/4, 1, 3/2, 2 (1/3 and 3/4 outside the space)
 *   two parameters   c0 + a t(p) u(n) and c0 + a t(p) + b u(n), t and u from log, p^(1/2) log,
 *                    p, p^(3/4) (outside), p^(3/2)
 * The noise levels, repetitions and targets are those of the first set.
 */
#ifndef LADDER_TESTS_HELDOUT_H
#define LADDER_TESTS_HELDOUT_H

#include <gsl/gsl_rng.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/pmnf.h"
#include "synth.h"

/* the families of both sets, as accuracy_model reports them */
enum accuracy_family { F_ONE, F_TWO, F_STRONG, F_PARAMS, FAMILIES };

struct truth {
	struct pmnf f;
	enum accuracy_family family;
	bool in_space;     /* its leading terms are in the default exponent space: the leading term
			      can be right */
};

/* the ladders of the held-out set: 5 rungs, 7 rungs, the grid */
void heldout_ladders(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid);
/* the held-out functions measured on l (one or two parameters); returns how many (at most cap) */
size_t heldout_truths(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap);
/* are the leading terms of f in the default exponent space (of the modeler) */
bool heldout_leading_in_space(const struct pmnf *f);

#endif
