/*
 * pace — compute before the sends a wildcard receive took, paced by the recorded order. A receiver
 * that takes messages from MPI_ANY_SOURCE (a master handing out tasks to whichever worker asks
 * first) recorded one run's split of the messages among the senders, shaped by which sender
 * shared a core with whom. A replay that posts the recorded sources in order must keep that
 * split, so a sender's compute before such a send is given as many turns as the receiver took
 * messages from the others (by wildcard or by name) since this sender's previous one (none for a
 * sender's first message of a round: a run of wildcard receives with the same tag and
 * communicator), one length of a turn for all senders of a receiver, so that their paced compute
 * adds up to their recorded compute (the mean gap before each of these sends, summed). A proxy
 * places its ranks on cores instead (proxy/placement.c) where this pairing finds such sends.
 *
 * Paired are the j-th send of a sender to the receiver and the receiver's j-th wildcard receive
 * that matched it. Left alone (their gaps stay the histograms'): senders the receiver also
 * receives from by name, whose sends and wildcard receives do not pair one to one, or that
 * another receiver paces already. Building walks every rank's calls, so it is bounded.
 */
#ifndef LADDER_RUN_PACE_H
#define LADDER_RUN_PACE_H

#include <stdbool.h>
#include <stdint.h>

#include "run/run.h"

#define PACE_MAX_CALLS UINT64_C(20000000)   /* the most calls run_pace_build walks over all ranks */

struct pace_rank {
	int32_t *turns;           /* per call of a paced signature of the rank's group, in order: the
				     turns its gap takes, or -1 (not paired: the histogram's gap) */
	uint32_t n;
	double wall, cpu;         /* seconds of one turn */
	uint32_t receiver;        /* the rank whose wildcard receives pace it */
};

struct run_pace {
	uint32_t nranks, nsigs;
	bool *paced;              /* [group * nsigs + sig]: the gaps before its calls are paced */
	struct pace_rank *ranks;  /* per rank; NULL when nothing is paced (no wildcard receive) */
	uint32_t npaced;          /* ranks with a paired send */
};

/* Fills p (nothing paced when the run has no wildcard receive). False, with nothing paced and the
 * reason in why, when the walk would pass PACE_MAX_CALLS calls or the calls cannot be walked. */
bool run_pace_build(const struct run *r, struct run_pace *p, char *why, size_t whylen);
void run_pace_free(struct run_pace *p);
/* is the gap before sig in group paced? */
bool run_pace_is_paced(const struct run_pace *p, uint32_t group, uint32_t sig);
/* the mean recorded gap before sig in a group, whatever call came before (seconds) */
void run_gap_mean(const struct run_group *g, uint32_t sig, double *wall, double *cpu);

#endif
