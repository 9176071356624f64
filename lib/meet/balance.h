/*
 * balance — would a run's calls meet when replayed? Every message one rank sends must be received
 * by its peer, and every member of a communicator must make as many collective calls over it as
 * the others; a run where they do not (lossy extrapolation dropped a send without its receive)
 * hangs when replayed. Counted per communicator instance (meet/comms.h), pair of world ranks and
 * tag: sends and receives of each (sender, receiver, tag) agree, a receive of MPI_ANY_TAG counts
 * for any tag of its sender and one of MPI_ANY_SOURCE (its actual source unknown) for any sender.
 * Per-peer count arrays of collectives (an Alltoallv's send and receive counts) must agree too:
 * the bytes rank i sends rank j are the bytes j expects from i, summed over the calls, every pair.
 * Every request a nonblocking call makes must be completed by a Wait or Test that names it (or
 * freed) before its slot is taken again and before the rank's end.
 * Counts only: an order in which matched calls still deadlock is not detected.
 */
#ifndef LADDER_MEET_BALANCE_H
#define LADDER_MEET_BALANCE_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"

/* a call of the run: the rank that makes it and its signature */
struct meet_call {
	bool known;
	uint32_t rank, sig;
};

/* false with the first imbalance in why, as run_p2p_balanced, and in *call the first call on the
 * side that has no counterpart (known false when it is a per-peer count array's) */
bool run_calls_balanced(const struct run *r, struct meet_call *call, char *why, size_t whylen);

/* false with the first imbalance in why ("rank 3 sends 4 messages with tag 7 to rank 4 over
 * MPI_COMM_WORLD, which receives 3") when some call has no counterpart. Walks every rank. */
bool run_p2p_balanced(const struct run *r, char *why, size_t whylen);

/* run_replayable (meet/replayable.h, which refuses the label not_replayable), and for a synthetic run
 * of up to BALANCE_MAX_RANKS ranks that its calls meet (run_p2p_balanced, linear in all the ranks'
 * calls); a larger one is taken on its label, which lossy extrapolation sets. What `ladder replay`
 * and `ladder proxy` ask before anything is launched or generated. */
#define BALANCE_MAX_RANKS 4096
bool run_calls_meet(const struct run *r, char *why, size_t whylen);

#endif
