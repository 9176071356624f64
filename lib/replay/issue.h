/*
 * issue — what the generated issuers (replaygen) call: one decoder per parameter kind turning the
 * recorded values of parameter p into an argument, buffer sizing, and the hand-back of outputs.
 * A decoder that cannot produce a valid argument records why (rp_fail) and returns a harmless
 * value; rp_ready then refuses the call.
 */
#ifndef LADDER_REPLAY_ISSUE_H
#define LADDER_REPLAY_ISSUE_H

#include <mpi.h>
#include <stddef.h>

#include "replay/replay.h"

typedef int (*rp_issuer)(struct rp *x, struct rp_call *k);
extern const rp_issuer rp_issuers[];   /* by compiled function id; NULL: cannot be issued */
extern const uint32_t rp_nissuers;

#define RP_CANNOT (-1)                 /* an issuer's result when a decoder failed */

enum rp_region_kind { RP_SEND, RP_RECV, RP_ATTACHED };

/* scalars (decode.c) */
int rp_int(struct rp *x, struct rp_call *k, int p);
MPI_Aint rp_aint(struct rp *x, struct rp_call *k, int p);
int rp_peer(struct rp *x, struct rp_call *k, int p);
int rp_src(struct rp *x, struct rp_call *k, int p);
int rp_root(struct rp *x, struct rp_call *k, int p);
const char *rp_string(struct rp *x, struct rp_call *k, int p);
/* arrays, in the call's memory (decode.c) */
int *rp_ints(struct rp *x, struct rp_call *k, int p);
int *rp_peers(struct rp *x, struct rp_call *k, int p);
int *rp_coords(struct rp *x, struct rp_call *k, int p);
int *rp_weights(struct rp *x, struct rp_call *k, int p);
MPI_Aint *rp_aints(struct rp *x, struct rp_call *k, int p);
MPI_Datatype *rp_dtypes(struct rp *x, struct rp_call *k, int p);
int *rp_ints_out(struct rp *x, struct rp_call *k, int p);
int *rp_indices_out(struct rp *x, struct rp_call *k, int p);
/* handles (handles.c) */
MPI_Comm rp_comm(struct rp *x, struct rp_call *k, int p);
MPI_Datatype rp_dtype(struct rp *x, struct rp_call *k, int p);
MPI_Op rp_op(struct rp *x, struct rp_call *k, int p);
MPI_Group rp_group(struct rp *x, struct rp_call *k, int p);
MPI_Info rp_info(struct rp *x, struct rp_call *k, int p);
MPI_Message rp_msg(struct rp *x, struct rp_call *k, int p);
int rp_size(struct rp *x, MPI_Comm c);
int rp_indeg(struct rp *x, MPI_Comm c);
int rp_outdeg(struct rp *x, MPI_Comm c);
/* requests (request_ring.c) */
MPI_Request *rp_req(struct rp *x, struct rp_call *k, int p);
MPI_Request *rp_reqs(struct rp *x, struct rp_call *k, int p);
MPI_Request *rp_req_new(struct rp *x, struct rp_call *k, int p);
/* buffers and placeholders (payload.c) */
void *rp_buf(struct rp *x, struct rp_call *k, int p, enum rp_region_kind region, size_t need);
size_t rp_need(struct rp *x, int count, MPI_Datatype t, int mult);
size_t rp_need_v(struct rp *x, struct rp_call *k, int p, const int *counts, const int *displs,
		 MPI_Datatype t);
size_t rp_need_w(struct rp *x, struct rp_call *k, int p, const int *counts, const int *displs,
		 const MPI_Aint *adispls, const MPI_Datatype *t);
size_t rp_need_bytes(int n);
void *rp_scratch(struct rp *x, struct rp_call *k);
MPI_Status *rp_status(struct rp *x, struct rp_call *k);
void rp_user_function(void *in, void *inout, int *len, MPI_Datatype *t);
void rp_buffer_detached(struct rp *x);

/* right before the MPI call: false when a decoder failed; hints the tracer about a wildcard */
bool rp_ready(struct rp *x, struct rp_call *k);

/* outputs */
void rp_out_flag(struct rp *x, struct rp_call *k, int p, int v);
void rp_out_index(struct rp *x, struct rp_call *k, int p, int v);
void rp_out_outcount(struct rp *x, struct rp_call *k, int p, int v);
void rp_out_comm(struct rp *x, struct rp_call *k, int p, MPI_Comm h);
void rp_out_dtype(struct rp *x, struct rp_call *k, int p, MPI_Datatype h);
void rp_out_group(struct rp *x, struct rp_call *k, int p, MPI_Group h);
void rp_out_op(struct rp *x, struct rp_call *k, int p, MPI_Op h);
void rp_out_msg(struct rp *x, struct rp_call *k, int p, MPI_Message h);
void rp_out_req(struct rp *x, struct rp_call *k, int p);
void rp_msg_consumed(struct rp *x, struct rp_call *k, int p);

#endif
