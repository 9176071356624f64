/*
 * partners — extrapolation of codes whose partners follow a law of the rank or its coordinates and
 * whose loops run log2 of a grid width times (issue 30, pattern 3): recursive doubling and halving,
 * butterflies, distance 2^k on a ring, mirrors, transposes. Such codes make a different number of
 * calls at each rung and every rank has its own peers, so the position classes of align.h do not
 * line up; ladder extrap tries this when they do not.
 *
 * Every rank's calls are read as runs: maximal stretches of calls at one call site (a loop over k),
 * or where those do not explain the ladder, loops whose body calls at up to 4 sites in turn
 * (Cannon's q steps: shift A, shift B). Rank 0 and the other ranks are read apart (a root's buffers
 * differ); where these two classes do not explain the ladder, the ranks whose coordinates are 0 in
 * the same dimensions (a code that skips a step on row 0 or column 0), each class a box of the
 * grid. Within each, every rank of every rung must show the same runs in the same order; each run's
 * length is a law of the grid across the ladder (law.h, or log2 of a dimension plus a constant),
 * and each value of its j-th call a law: the same for every call (a law of the grid), linear in k,
 * or a law of the grid halved or doubled k times, with k = j or k counting down; a peer that
 * differs from rank to rank, one of the partner families of partner_family.h. Every law must give
 * every value of every rung, and laws that fit but disagree at the target refuse. The target's runs
 * are evaluated: signatures are the target's calls, peers are value streams whose cells are the
 * families' laws of the rank, so the run's size depends on the loops' lengths, not on P; a skew's
 * partner (a shift by another coordinate) is a stream per piece of the class's box
 * (partner_pieces), their number a grid width.
 */
#ifndef LADDER_EXTRAP_PARTNERS_H
#define LADDER_EXTRAP_PARTNERS_H

#include <stdbool.h>
#include <stddef.h>

#include "extrap/extrap.h"
#include "extrap/law.h"
#include "run/run.h"

/* out: a header cloned from the largest rung, no signatures, groups or streams yet; fills them.
 * target: the target grid (in: from --target when ndims is set; out: the grid used); rule: how the
 * rungs' and target's grids were found; families: what the partners and loops were found to be
 * (label partner_families). False with why. */
bool partners_build(struct run *const *rungs, size_t n, const struct extrap_options *o, struct run *out,
		    struct grid *target, char *rule, size_t rulelen, char *families, size_t familieslen, char *why,
		    size_t whylen);

#endif
