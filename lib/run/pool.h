/*
 * pool — a run's timing in the compact form the container stores (hdf5-schema/run.yaml, /timing).
 *
 * Every group keeps a histogram per compute gap (previous signature, signature) and statistics
 * per signature's durations, so the tables grow with the groups, and an SPMD code has more groups
 * at larger rank counts (a 3-D halo: 8 at 8 ranks, 27 from 27 ranks on). But the gap between two
 * calls is the code between two call sites: in every group, and for every signature those call
 * sites make, it is the same work, measured with the noise of each group's ranks. So histograms
 * are pooled: those of the same pair of call sites (function, call site and flags of the previous
 * call and of the call) whose mean wall and CPU times lie within POOL_SPREAD of the smallest are
 * folded into one entry of a dictionary; each group's gap keeps its own count and names its
 * entry. Durations are pooled the same way by the call's call site. A group's gap read back is
 * its entry scaled to its count (pool_expand): its mean is the entry's, within POOL_SPREAD of its
 * own, and the run's total time is kept (the entry's sum is its members' sum). Gaps whose means
 * differ more (ranks with more work, an imbalanced code) keep entries of their own.
 */
#ifndef LADDER_RUN_POOL_H
#define LADDER_RUN_POOL_H

#include <stdint.h>

#include "run/run.h"

/* the widest spread of means pooled together: a factor of 2^(1/32) (2.2%) */
#define POOL_SPREAD 1.0218971486541166

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
