/*
 * origin — where each class of the target comes from: aligned across the rungs that have it
 * (align.h), or, when no two rungs have it because one of its dimensions is never wider than 2 on
 * the ladder, composed from the classes at that dimension's low and high sides (compose.h) — once
 * the ladder has shown, along a dimension it does widen, that an interior is the union of its
 * sides. Classes are built once and kept.
 *
 * In lossy mode, when some class's call sequence has a different structure at different rungs,
 * every group's grammar is first pruned to what all of them share (lcs.h).
 */
#ifndef LADDER_EXTRAP_ORIGIN_H
#define LADDER_EXTRAP_ORIGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/align.h"
#include "extrap/lcs.h"
#include "run/run.h"

struct origins;

/* NULL with why when lossy alignment finds the rungs share nothing; coord: the laws of values in
 * the grid coordinates (alike.h), kept by the caller */
struct origins *origins_new(struct run *const *rungs, size_t n, const struct grid *grids, const bool *periodic,
			    const struct grid *target, const struct alike_laws *coord, bool lossy, char *why,
			    size_t whylen);
/* the class at the target; NULL with why (the class, the call, the reason, the rungs to add) */
struct aligned_class *origins_class(struct origins *o, uint32_t cls, char *why, size_t whylen);
/* lossy mode: ranks of the rungs left out of their class's laws (not in its dominant group) */
uint64_t origins_replaced(const struct origins *o);
/* lossy mode: per rung, the calls dropped because the rungs' call sequences differ in structure
 * (lcs.h); NULL when they did not */
const struct lcs_loss *origins_unaligned(const struct origins *o);
void origins_free(struct origins *o);

#endif
