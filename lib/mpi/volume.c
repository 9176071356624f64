/*
 * volume — bytes and messages of one call from its encoded values, for the tracer's profile and
 * the replayer's statistics. See volume.h; the rules are those of workflows/apps/README.md.
 */
#include "mpi/volume.h"

#include "mpi/fninfo.h"
#include "mpi/signature.h"

/* count x element size; values: a count group and a datatype group (id, size) */
static uint64_t nbytes(int64_t count, const int64_t *type)
{
	if (!type || count <= 0 || sv_is_symbolic(count) || type[1] <= 0 || sv_is_symbolic(type[1]))
		return 0;
	return (uint64_t)count * (uint64_t)type[1];
}

static int64_t scalar(const int64_t *v) { return v ? v[0] : SV_IGNORE; }

/* element i of an array group, or 0 */
static int64_t elem(const int64_t *arr, int64_t i)
{
	if (!arr || sv_is_symbolic(arr[0]) || i < 0 || i >= arr[0])
		return 0;
	return arr[1 + i];
}

/* sum over the first n elements of counts of count x size (types: one type, or a dtypes array) */
static uint64_t sum(const int64_t *counts, int64_t n, const int64_t *type, bool per_elem_types)
{
	uint64_t s = 0;
	for (int64_t i = 0; i < n; i++) {
		const int64_t *t = type;
		if (per_elem_types)
			t = type && !sv_is_symbolic(type[0]) && i < type[0] ? type + 1 + 2 * i : NULL;
		s += nbytes(elem(counts, i), t);
	}
	return s;
}

static bool in_place(const int64_t *buf) { return buf && buf[0] == BUF_IN_PLACE; }

static bool is_root(const struct vol_ctx *q, const int64_t *root)
{
	int64_t r = scalar(root);
	return q->inter ? r == SV_ROOT : r == q->world_rank;
}

/* a root that sends to or receives from the others (not PROC_NULL, not the root of an intercomm) */
static bool receives_from_root(const struct vol_ctx *q, const int64_t *root)
{
	return scalar(root) != SV_PROC_NULL && !(q->inter && is_root(q, root));
}

/* point to point: counts, messages; nothing to or from MPI_PROC_NULL */
static void account_point_to_point(enum vol_class c, const int64_t *const *a, struct vol *o)
{
	switch (c) {
	case VOL_SEND:      /* count, type, dest */
		if (scalar(a[2]) != SV_PROC_NULL) {
			o->sent += nbytes(scalar(a[0]), a[1]);
			o->msgs_sent++;
		}
		return;
	case VOL_RECV:      /* count, type, source */
		if (scalar(a[2]) != SV_PROC_NULL) {
			o->recv += nbytes(scalar(a[0]), a[1]);
			o->msgs_recv++;
		}
		return;
	case VOL_SENDRECV:  /* scount, stype, dest, rcount, rtype, source */
		account_point_to_point(VOL_SEND, a, o);
		account_point_to_point(VOL_RECV, a + 3, o);
		return;
	case VOL_MRECV:     /* count, type, message */
		if (scalar(a[2]) != 0) { /* message id 0: MPI_MESSAGE_NO_PROC */
			o->recv += nbytes(scalar(a[0]), a[1]);
			o->msgs_recv++;
		}
		return;
	default:
		return;
	}
}

/* collectives with a root: what the root and the others send and receive */
static void account_rooted(enum vol_class c, const int64_t *const *a, const struct vol_ctx *q, struct vol *o)
{
	uint64_t p = q->size > 0 ? (uint64_t)q->size : 0;
	int64_t n = q->size;
	switch (c) {
	case VOL_BCAST:     /* count, type, root, comm */
		if (is_root(q, a[2]))
			o->sent += nbytes(scalar(a[0]), a[1]);
		else if (scalar(a[2]) != SV_PROC_NULL)
			o->recv += nbytes(scalar(a[0]), a[1]);
		return;
	case VOL_REDUCE:    /* count, type, root, comm */
		o->sent += nbytes(scalar(a[0]), a[1]);
		if (is_root(q, a[2]))
			o->recv += nbytes(scalar(a[0]), a[1]);
		return;
	case VOL_GATHER:    /* sbuf, scount, stype, rcount, rtype, root, comm */
		o->sent += in_place(a[0]) && is_root(q, a[5]) ? nbytes(scalar(a[3]), a[4])
							     : nbytes(scalar(a[1]), a[2]);
		if (is_root(q, a[5]))
			o->recv += nbytes(scalar(a[3]), a[4]) * p;
		return;
	case VOL_GATHERV:   /* sbuf, scount, stype, rcounts, rtype, root, comm */
		o->sent += in_place(a[0]) && is_root(q, a[5]) ? nbytes(elem(a[3], q->rank), a[4])
							     : nbytes(scalar(a[1]), a[2]);
		if (is_root(q, a[5]))
			o->recv += sum(a[3], n, a[4], false);
		return;
	case VOL_SCATTER:   /* scount, stype, rbuf, rcount, rtype, root, comm */
		if (is_root(q, a[5]))
			o->sent += nbytes(scalar(a[0]), a[1]) * p;
		if (is_root(q, a[5]) && in_place(a[2]))
			o->recv += nbytes(scalar(a[0]), a[1]);
		else if (receives_from_root(q, a[5]))
			o->recv += nbytes(scalar(a[3]), a[4]);
		return;
	case VOL_SCATTERV:  /* scounts, stype, rbuf, rcount, rtype, root, comm */
		if (is_root(q, a[5]))
			o->sent += sum(a[0], n, a[1], false);
		if (is_root(q, a[5]) && in_place(a[2]))
			o->recv += nbytes(elem(a[0], q->rank), a[1]);
		else if (receives_from_root(q, a[5]))
			o->recv += nbytes(scalar(a[3]), a[4]);
		return;
	default:
		return;
	}
}

/* collectives every rank of the communicator sends to and receives from */
static void account_all_to_all(enum vol_class c, const int64_t *const *a, const struct vol_ctx *q,
			       struct vol *o)
{
	uint64_t p = q->size > 0 ? (uint64_t)q->size : 0;
	int64_t n = q->size;
	switch (c) {
	case VOL_ALLREDUCE: /* count, type */
		o->sent += nbytes(scalar(a[0]), a[1]);
		o->recv += nbytes(scalar(a[0]), a[1]);
		return;
	case VOL_REDUCE_SCATTER:        /* recvcounts, type, comm */
		o->sent += sum(a[0], n, a[1], false);
		o->recv += nbytes(elem(a[0], q->rank), a[1]);
		return;
	case VOL_REDUCE_SCATTER_BLOCK:  /* recvcount, type, comm */
		o->sent += nbytes(scalar(a[0]), a[1]) * p;
		o->recv += nbytes(scalar(a[0]), a[1]);
		return;
	case VOL_ALLGATHER: /* sbuf, scount, stype, rcount, rtype, comm */
		o->sent += in_place(a[0]) ? nbytes(scalar(a[3]), a[4]) : nbytes(scalar(a[1]), a[2]);
		o->recv += nbytes(scalar(a[3]), a[4]) * p;
		return;
	case VOL_ALLGATHERV:   /* sbuf, scount, stype, rcounts, rtype, comm */
		o->sent += in_place(a[0]) ? nbytes(elem(a[3], q->rank), a[4]) : nbytes(scalar(a[1]), a[2]);
		o->recv += sum(a[3], n, a[4], false);
		return;
	case VOL_ALLTOALL:  /* sbuf, scount, stype, rcount, rtype, comm */
		o->sent += (in_place(a[0]) ? nbytes(scalar(a[3]), a[4]) : nbytes(scalar(a[1]), a[2])) * p;
		o->recv += nbytes(scalar(a[3]), a[4]) * p;
		return;
	case VOL_ALLTOALLV:    /* sbuf, scounts, stype, rcounts, rtype, comm */
	case VOL_ALLTOALLW: {  /* sbuf, scounts, stypes, rcounts, rtypes, comm */
		bool w = c == VOL_ALLTOALLW;
		o->sent += in_place(a[0]) ? sum(a[3], n, a[4], w) : sum(a[1], n, a[2], w);
		o->recv += sum(a[3], n, a[4], w);
		return;
	}
	default:
		return;
	}
}

/* neighbour collectives: to the out-neighbours, from the in-neighbours of a topology */
static void account_neighbours(enum vol_class c, const int64_t *const *a, const struct vol_ctx *q,
			       struct vol *o)
{
	int64_t in = q->indeg, out = q->outdeg;
	switch (c) {
	case VOL_NB_ALLGATHER: /* scount, stype, rcount, rtype, comm */
	case VOL_NB_ALLTOALL:
		o->sent += nbytes(scalar(a[0]), a[1]) * (uint64_t)(out > 0 ? out : 0);
		o->recv += nbytes(scalar(a[2]), a[3]) * (uint64_t)(in > 0 ? in : 0);
		return;
	case VOL_NB_ALLGATHERV: /* scount, stype, rcounts, rtype, comm */
		o->sent += nbytes(scalar(a[0]), a[1]) * (uint64_t)(out > 0 ? out : 0);
		o->recv += sum(a[2], in, a[3], false);
		return;
	case VOL_NB_ALLTOALLV:  /* scounts, stype, rcounts, rtype, comm */
	case VOL_NB_ALLTOALLW: {
		bool w = c == VOL_NB_ALLTOALLW;
		o->sent += sum(a[0], out, a[1], w);
		o->recv += sum(a[2], in, a[3], w);
		return;
	}
	default:
		return;
	}
}

void vol_account(enum vol_class c, const int64_t *const *a, const struct vol_ctx *q, struct vol *o)
{
	switch (c) {
	case VOL_SEND: case VOL_RECV: case VOL_SENDRECV: case VOL_MRECV:
		account_point_to_point(c, a, o);
		return;
	case VOL_BCAST: case VOL_REDUCE: case VOL_GATHER: case VOL_GATHERV: case VOL_SCATTER:
	case VOL_SCATTERV:
		account_rooted(c, a, q, o);
		return;
	case VOL_ALLREDUCE: case VOL_REDUCE_SCATTER: case VOL_REDUCE_SCATTER_BLOCK: case VOL_ALLGATHER:
	case VOL_ALLGATHERV: case VOL_ALLTOALL: case VOL_ALLTOALLV: case VOL_ALLTOALLW:
		account_all_to_all(c, a, q, o);
		return;
	case VOL_NB_ALLGATHER: case VOL_NB_ALLGATHERV: case VOL_NB_ALLTOALL: case VOL_NB_ALLTOALLV:
	case VOL_NB_ALLTOALLW:
		account_neighbours(c, a, q, o);
		return;
	case VOL_NONE: case VOL_NCLASSES:
		return;
	}
}

void vol_account_call(uint32_t fn, const int64_t *const *params, const struct vol_ctx *ctx,
		      struct vol *out)
{
	if (fn >= mpi_nfninfo || mpi_fninfo[fn].vol == VOL_NONE)
		return;
	const struct mpi_fninfo *info = &mpi_fninfo[fn];
	const int64_t *args[VOL_MAXARGS] = {0};
	for (int a = 0; a < VOL_MAXARGS && info->vol_args[a] >= 0; a++)
		args[a] = params[info->vol_args[a]];
	vol_account(info->vol, args, ctx, out);
}
