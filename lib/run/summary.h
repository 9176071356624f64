/*
 * summary — what people and tests want to know about a run at a glance: calls and bytes per MPI
 * function and rank (from the profile), grammar sizes, calls per group, the compute gaps' totals.
 */
#ifndef LADDER_RUN_SUMMARY_H
#define LADDER_RUN_SUMMARY_H

#include <stdint.h>

#include "run/run.h"

struct fn_count {
	const char *name;
	double calls, bytes_sent, bytes_recv;
};

/* Per function, summed over call paths, for one rank (rank >= 0) or all ranks (rank < 0).
 * Returns the number of entries, sorted by name; *out is allocated. Unknown (untraced MPI
 * functions) are included with their calls. */
uint32_t run_function_counts(const struct run *r, int64_t rank, struct fn_count **out);

/* Total calls recorded (all ranks), from the profile. */
double run_total_calls(const struct run *r);

/* The compute gaps of all ranks: their number, total wall and total CPU time (seconds). */
void run_gap_totals(const struct run *r, uint64_t *gaps, double *wall, double *cpu);
/* The same over the ranks of one group. */
void run_group_gap_totals(const struct run_group *g, uint64_t *gaps, double *wall, double *cpu);

/* The MPI calls the profile counts for one rank (visits of its MPI function call paths; counted
 * only functions aside), saturating at UINT64_MAX; 0 for a run without a profile. */
uint64_t run_rank_calls(const struct run *r, uint32_t rank);

/* Rules and symbols over all groups. */
void run_grammar_size(const struct run *r, uint64_t *rules, uint64_t *symbols);

#endif
