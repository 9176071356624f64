/*
 * volume — the one byte accounting of the project: the bytes and messages one call moves,
 * computed from its encoded values (counts and the datatype sizes stored with them) by the
 * convention of workflows/apps/README.md ("Byte accounting"): the calling rank's point of view,
 * posted receive counts, nothing to or from MPI_PROC_NULL, MPI_IN_PLACE never changing the
 * accounting; messages count point-to-point transfers only.
 *
 * The tracer accounts each call from the values it has just encoded (lib/trace/record.c), the
 * replayer each replayed call from the recorded values (lib/replay/engine.c); the apps' --expect
 * tables are checked against the tracer's profile, so all three agree by construction.
 *
 * Each traced function names its accounting class and the parameters the class reads in the
 * function table (lib/mpi/mpi-functions.tbl, vol=CLASS(args)); replaygen turns that into
 * mpi_fninfo[] (mpi/fninfo.h). The caller supplies what the values alone do not say: the size
 * of the call's communicator, the caller's rank in it and world rank, and its neighbour counts.
 */
#ifndef LADDER_MPI_VOLUME_H
#define LADDER_MPI_VOLUME_H

#include <stdbool.h>
#include <stdint.h>

/* X(enum suffix, table spelling) */
#define VOL_CLASSES(X) \
	X(NONE, "") X(SEND, "send") X(RECV, "recv") X(SENDRECV, "sendrecv") X(MRECV, "mrecv") \
	X(BCAST, "bcast") X(REDUCE, "reduce") X(ALLREDUCE, "allreduce") \
	X(REDUCE_SCATTER, "reduce_scatter") X(REDUCE_SCATTER_BLOCK, "reduce_scatter_block") \
	X(GATHER, "gather") X(GATHERV, "gatherv") X(SCATTER, "scatter") X(SCATTERV, "scatterv") \
	X(ALLGATHER, "allgather") X(ALLGATHERV, "allgatherv") X(ALLTOALL, "alltoall") \
	X(ALLTOALLV, "alltoallv") X(ALLTOALLW, "alltoallw") X(NB_ALLGATHER, "nb_allgather") \
	X(NB_ALLGATHERV, "nb_allgatherv") X(NB_ALLTOALL, "nb_alltoall") \
	X(NB_ALLTOALLV, "nb_alltoallv") X(NB_ALLTOALLW, "nb_alltoallw")

enum vol_class {
#define X(e, s) VOL_##e,
	VOL_CLASSES(X)
#undef X
	VOL_NCLASSES
};

#define VOL_MAXARGS 8

/* what the values do not say */
struct vol_ctx {
	int64_t size;          /* the communicator's size (remote size for an intercommunicator) */
	int64_t rank;          /* the caller's rank in it */
	int64_t world_rank;    /* the caller's world rank (recorded roots are world ranks) */
	int64_t indeg, outdeg; /* neighbours of a topology communicator */
	bool inter;
};

struct vol {
	uint64_t sent, recv;             /* bytes */
	uint32_t msgs_sent, msgs_recv;   /* point-to-point messages */
};

/* args[i]: the values of the class's i-th argument (as listed in the table); NULL when the
 * parameter was not recorded. Adds to *out. */
void vol_account(enum vol_class c, const int64_t *const *args, const struct vol_ctx *ctx,
		 struct vol *out);

/* the same for one call of traced function fn (an id of mpi/fnids.h): params[p] holds the values
 * of its p-th parameter, NULL when not recorded; the class and its arguments come from
 * mpi_fninfo[fn]. Adds to *out; nothing for functions that move no data. */
void vol_account_call(uint32_t fn, const int64_t *const *params, const struct vol_ctx *ctx,
		      struct vol *out);

#endif
