/*
 * comms — the communicators of a run and their members, for whatever must name a message's
 * partner by its rank in the call's communicator and define every communicator.
 *
 * The trace names communicators by symbolic ids that SPMD ranks agree on: every row communicator
 * of a Comm_split has the same id on every rank. An *instance* is one actual communicator: the
 * ranks that created the same id from the same parent instance with the same color (Comm_split's
 * color comes from the rank's value stream; Comm_dup, Cart_create and the like inherit the
 * parent's partition). Members are listed in world-rank order, and a member's rank in the
 * communicator is its position in that list — exact for communicators that keep the world order
 * (Comm_dup, Cart_create without reordering, Comm_split with the world rank as key) and consistent
 * within an export otherwise. Instance 0 is MPI_COMM_WORLD.
 */
#ifndef LADDER_MEET_COMMS_H
#define LADDER_MEET_COMMS_H

#include <stdint.h>

#include "run/run.h"

struct comm_instance {
	int64_t id;            /* the symbolic id */
	uint32_t n;
	uint32_t *ranks;       /* world ranks, ascending; NULL for WORLD (all ranks) */
};

struct rank_comm {          /* which instance an id is on one rank */
	int64_t id;
	uint32_t instance;
};

struct comm_table {
	uint32_t nranks;
	uint32_t ninstances;
	struct comm_instance *instances;
	uint32_t *first;             /* nranks + 1: rank q's ids are by_rank[first[q] .. first[q+1]) */
	struct rank_comm *by_rank;   /* sorted by id within a rank */
};

void comm_table_build(struct comm_table *t, const struct run *r);
void comm_table_free(struct comm_table *t);
/* the instance an id is on a rank, or -1 (SELF and unknown ids have none) */
int64_t comm_instance_of(const struct comm_table *t, uint32_t rank, int64_t id);
/* the communicator's size as the caller sees it (1 for SELF), 0 when unknown */
uint32_t comm_size(const struct comm_table *t, uint32_t caller, int64_t id);
/* the rank of a world rank in the caller's communicator, -1 when it is not a member */
int64_t comm_rank_of(const struct comm_table *t, uint32_t caller, int64_t id, uint32_t world_rank);

#endif
