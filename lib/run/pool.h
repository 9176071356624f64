/*
 * pool — a run's timing in the compact form the container stores (hdf5-schema/run.yaml, /timing).
 *
 * Every group keeps a histogram per compute gap (previous signature, signature) and statistics
 * per signature's durations, so the tables grow with the groups, and an SPMD code has more groups
 * at larger rank counts (a 3-D halo: 8 at 8 ranks, 27 from 27 ranks on). But the gap between two
 * calls is the code between two call sites: in every group, and for every signature those call
 * sites make, the same work, measured with the noise of each group's ranks (on a shared node,
 * mostly the time they waited for a core). So histograms are pooled: those of the same pair of
 * call sites (function, call site and flags of the previous call and of the call) are folded into
 * one entry of a dictionary when their means, wall and CPU, lie close enough together; each
 * group's gap keeps its own count and names its entry, and reads back as the entry scaled to its
 * count (pool_expand), with the entry's means. Durations pool the same way by the call's site.
 *
 * Close enough: the entry's mean moves no member's mean by more than the member's slack, the larger
 * of POOL_SPREAD of its mean and its share of an error budget: POOL_BUDGET of the time its group's
 * ranks spent in gaps and calls, spread evenly over the group's histograms. So a group's total
 * time read back is within POOL_BUDGET of the recorded one (plus POOL_SPREAD where a histogram is
 * a large part of it), the run's total time is kept exactly (an entry's sum is its members' sum),
 * and the many short gaps whose means the machine's noise scatters pool whatever the rank count,
 * while gaps that differ materially (ranks with more work) keep entries of their own.
 */
#ifndef LADDER_RUN_POOL_H
#define LADDER_RUN_POOL_H

#include <stdint.h>

#include "run/run.h"

/* the slack of a histogram's means: 2^(1/64) - 1 (1.1%) of them, or its share of 1% of its
 * group's time, whichever is larger */
#define POOL_SPREAD 1.0108892860517005
#define POOL_BUDGET 0.01

struct pool_use {          /* a group's gap (prev, sig) or duration (prev unused): its entry */
	uint32_t group, prev, sig;
	uint64_t count;
	uint32_t entry;
};

struct pool_entry {
	struct run_gap h;      /* pooled: prev and sig unused; a duration has no CPU time, no bins */
	uint32_t ranks;        /* ranks of the groups pooled into it (a gap seen at most once per rank
				  needs no bins) */
};

struct timing_pool {
	struct pool_entry *entries;   /* numbered by first use: gaps in group order, then durations */
	uint32_t nentries;
	struct pool_use *gaps, *durs; /* in group order, each group's in its own order */
	uint64_t ngaps, ndurs;
};

void timing_pool_build(const struct run *r, struct timing_pool *p);
void timing_pool_free(struct timing_pool *p);

/* a group's gap from its entry and count: bins' counts scaled to it (their means and ranges
 * kept), sums to count x the entry's means; out->bins allocated */
void pool_expand(const struct run_gap *entry, uint64_t count, struct run_gap *out);
/* a group's duration statistics likewise */
void pool_expand_dur(const struct run_gap *entry, uint64_t count, struct run_dur *out);

#endif
