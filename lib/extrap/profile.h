/*
 * profile — the synthetic run's profile (visits, bytes and messages per rank and call path):
 * per position class, every count is an integer law in the grid's dimension sizes, like the
 * trace's values; exclusive times are those of the largest rung's class members (not
 * extrapolated). The profile is per rank, so its size grows with P: callers skip it for large
 * targets.
 */
#ifndef LADDER_EXTRAP_PROFILE_H
#define LADDER_EXTRAP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "extrap/law.h"
#include "run/run.h"

/* Fill out's nodes, counts and time_stats (out->nranks and the target grid given). False with why
 * when a count has no law or ranks of one class counted differently; out's profile stays empty. */
bool extrap_profile(struct run *const *rungs, const struct grid *grids, size_t n, const struct grid *target,
		    struct run *out, char *why, size_t whylen);

#endif
