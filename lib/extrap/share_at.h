/*
 * share_at — lossy mode's count arrays by rule (run/share.h): a call whose count arrays have one
 * entry per rank and whose entries are data (an Alltoallv's bucket sizes: 2182 to 2291 keys per
 * peer at p9, no law of the grid) is kept when what every rank sends in all — the sum of its send
 * counts — is the same on every rank of every rung and a law of the grid sizes (a constant in weak
 * scaling, N/P in strong). At the target the total is split evenly over the peers by a rule both
 * sides of every pair evaluate alike, the displacements its prefix sums.
 *
 * Which arrays a function's rule covers comes from one table: Alltoallv's (and Ialltoallv's) send
 * counts and displacements by the rule "to", the receive side by "from", the total read from the
 * send counts; Reduce_scatter's receive counts, the same on every rank, by "even". Only calls over
 * MPI_COMM_WORLD are stated this way (the rule reads the world rank). Alltoallw (per-peer
 * datatypes), Gatherv, Scatterv and Allgatherv (whose partner is a scalar count on every other
 * rank) are not covered: lossy mode drops them as before, and says so.
 */
#ifndef LADDER_EXTRAP_SHARE_AT_H
#define LADDER_EXTRAP_SHARE_AT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/align.h"

/* does the table cover fn (by name)? */
bool share_covers(const char *fn);

/* The class's call at every rung i (signature sigs[i] of cr->runs[i]) with each covered array
 * group replaced by (SV_SHARED, n, total at that rung, rule): vals[i], all of *nvals values; the
 * total's law across the rungs evaluated at the target in *total. False with why (the call is
 * then dropped) when an array is not one entry per rank over MPI_COMM_WORLD, the ranks of a rung
 * send different totals, a value other than the arrays is streamed, or the total has no law. */
bool share_at_rungs(const struct class_rungs *cr, const uint32_t *sigs, const struct grid *target, int64_t **vals,
		    uint32_t *nvals, struct xval *total, char *why, size_t whylen);

#endif
