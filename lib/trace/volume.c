/*
 * volume — bytes and messages each call moves, for the profile. The rules are the project's byte
 * accounting convention (workflows/apps/README.md, "Byte accounting"): bytes from the calling
 * rank's point of view, element sizes from MPI_Type_size, posted receive counts, nothing to or
 * from MPI_PROC_NULL, MPI_IN_PLACE never changing the accounting; messages count point-to-point
 * transfers only.
 */
#include "trace/tracer.h"

static uint64_t bytes(int count, MPI_Datatype t)
{
	if (count <= 0 || t == MPI_DATATYPE_NULL)
		return 0;
	return (uint64_t)count * (uint64_t)obj_type_size(t);
}

static uint64_t sum_bytes(const int *counts, int n, MPI_Datatype t)
{
	uint64_t s = 0;
	for (int i = 0; counts && i < n; i++)
		s += bytes(counts[i], t);
	return s;
}

static uint64_t sum_bytes_w(const int *counts, const MPI_Datatype *t, int n)
{
	uint64_t s = 0;
	for (int i = 0; counts && t && i < n; i++)
		s += bytes(counts[i], t[i]);
	return s;
}

static int size_of(MPI_Comm comm)
{
	struct comm_info *ci = obj_comm(comm);
	return ci ? (ci->inter ? ci->remote_size : ci->size) : 0;
}

static int rank_of(MPI_Comm comm)
{
	struct comm_info *ci = obj_comm(comm);
	return ci ? ci->rank : -1;
}

static bool is_root(MPI_Comm comm, int root)
{
	struct comm_info *ci = obj_comm(comm);
	if (!ci)
		return false;
	return ci->inter ? root == MPI_ROOT : root == ci->rank;
}

void vol_send(struct tcall *c, int count, MPI_Datatype t, int dest)
{
	if (dest == MPI_PROC_NULL)
		return;
	c->bytes_sent += bytes(count, t);
	c->msgs_sent++;
}

void vol_recv(struct tcall *c, int count, MPI_Datatype t, int source)
{
	if (source == MPI_PROC_NULL)
		return;
	c->bytes_recv += bytes(count, t);
	c->msgs_recv++;
}

void vol_sendrecv(struct tcall *c, int scount, MPI_Datatype st, int dest, int rcount,
		  MPI_Datatype rt, int source)
{
	vol_send(c, scount, st, dest);
	vol_recv(c, rcount, rt, source);
}

void vol_mrecv(struct tcall *c, int count, MPI_Datatype t, MPI_Message *msg)
{
	if (msg && *msg == MPI_MESSAGE_NO_PROC)
		return;
	c->bytes_recv += bytes(count, t);
	c->msgs_recv++;
}

void vol_bcast(struct tcall *c, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
	if (is_root(comm, root))
		c->bytes_sent += bytes(count, t);
	else if (root != MPI_PROC_NULL)
		c->bytes_recv += bytes(count, t);
}

void vol_reduce(struct tcall *c, int count, MPI_Datatype t, int root, MPI_Comm comm)
{
	c->bytes_sent += bytes(count, t);
	if (is_root(comm, root))
		c->bytes_recv += bytes(count, t);
}

void vol_allreduce(struct tcall *c, int count, MPI_Datatype t)
{
	c->bytes_sent += bytes(count, t);
	c->bytes_recv += bytes(count, t);
}

void vol_reduce_scatter(struct tcall *c, const int *rcounts, MPI_Datatype t, MPI_Comm comm)
{
	int me = rank_of(comm);
	c->bytes_sent += sum_bytes(rcounts, size_of(comm), t);
	if (me >= 0 && rcounts)
		c->bytes_recv += bytes(rcounts[me], t);
}

void vol_reduce_scatter_block(struct tcall *c, int rcount, MPI_Datatype t, MPI_Comm comm)
{
	c->bytes_sent += bytes(rcount, t) * (uint64_t)size_of(comm);
	c->bytes_recv += bytes(rcount, t);
}

void vol_gather(struct tcall *c, const void *sbuf, int scount, MPI_Datatype st, int rcount,
		MPI_Datatype rt, int root, MPI_Comm comm)
{
	bool r = is_root(comm, root);
	if (r && sbuf == MPI_IN_PLACE)
		c->bytes_sent += bytes(rcount, rt);
	else
		c->bytes_sent += bytes(scount, st);
	if (r)
		c->bytes_recv += bytes(rcount, rt) * (uint64_t)size_of(comm);
}

void vol_gatherv(struct tcall *c, const void *sbuf, int scount, MPI_Datatype st, const int *rcounts,
		 MPI_Datatype rt, int root, MPI_Comm comm)
{
	bool r = is_root(comm, root);
	int me = rank_of(comm);
	if (r && sbuf == MPI_IN_PLACE)
		c->bytes_sent += me >= 0 && rcounts ? bytes(rcounts[me], rt) : 0;
	else
		c->bytes_sent += bytes(scount, st);
	if (r)
		c->bytes_recv += sum_bytes(rcounts, size_of(comm), rt);
}

void vol_scatter(struct tcall *c, int scount, MPI_Datatype st, const void *rbuf, int rcount,
		 MPI_Datatype rt, int root, MPI_Comm comm)
{
	bool r = is_root(comm, root);
	if (r)
		c->bytes_sent += bytes(scount, st) * (uint64_t)size_of(comm);
	if (r && rbuf == MPI_IN_PLACE)
		c->bytes_recv += bytes(scount, st);
	else if (root != MPI_PROC_NULL && !(r && obj_comm(comm) && obj_comm(comm)->inter))
		c->bytes_recv += bytes(rcount, rt);
}

void vol_scatterv(struct tcall *c, const int *scounts, MPI_Datatype st, const void *rbuf,
		  int rcount, MPI_Datatype rt, int root, MPI_Comm comm)
{
	bool r = is_root(comm, root);
	int me = rank_of(comm);
	if (r)
		c->bytes_sent += sum_bytes(scounts, size_of(comm), st);
	if (r && rbuf == MPI_IN_PLACE)
		c->bytes_recv += me >= 0 && scounts ? bytes(scounts[me], st) : 0;
	else if (root != MPI_PROC_NULL && !(r && obj_comm(comm) && obj_comm(comm)->inter))
		c->bytes_recv += bytes(rcount, rt);
}

void vol_allgather(struct tcall *c, const void *sbuf, int scount, MPI_Datatype st, int rcount,
		   MPI_Datatype rt, MPI_Comm comm)
{
	c->bytes_sent += sbuf == MPI_IN_PLACE ? bytes(rcount, rt) : bytes(scount, st);
	c->bytes_recv += bytes(rcount, rt) * (uint64_t)size_of(comm);
}

void vol_allgatherv(struct tcall *c, const void *sbuf, int scount, MPI_Datatype st,
		    const int *rcounts, MPI_Datatype rt, MPI_Comm comm)
{
	int me = rank_of(comm);
	if (sbuf == MPI_IN_PLACE)
		c->bytes_sent += me >= 0 && rcounts ? bytes(rcounts[me], rt) : 0;
	else
		c->bytes_sent += bytes(scount, st);
	c->bytes_recv += sum_bytes(rcounts, size_of(comm), rt);
}

void vol_alltoall(struct tcall *c, const void *sbuf, int scount, MPI_Datatype st, int rcount,
		  MPI_Datatype rt, MPI_Comm comm)
{
	uint64_t p = (uint64_t)size_of(comm);
	c->bytes_sent += (sbuf == MPI_IN_PLACE ? bytes(rcount, rt) : bytes(scount, st)) * p;
	c->bytes_recv += bytes(rcount, rt) * p;
}

void vol_alltoallv(struct tcall *c, const void *sbuf, const int *scounts, MPI_Datatype st,
		   const int *rcounts, MPI_Datatype rt, MPI_Comm comm)
{
	int p = size_of(comm);
	c->bytes_sent += sbuf == MPI_IN_PLACE ? sum_bytes(rcounts, p, rt) : sum_bytes(scounts, p, st);
	c->bytes_recv += sum_bytes(rcounts, p, rt);
}

void vol_alltoallw(struct tcall *c, const void *sbuf, const int *scounts, const MPI_Datatype *st,
		   const int *rcounts, const MPI_Datatype *rt, MPI_Comm comm)
{
	int p = size_of(comm);
	c->bytes_sent += sbuf == MPI_IN_PLACE ? sum_bytes_w(rcounts, rt, p) : sum_bytes_w(scounts, st, p);
	c->bytes_recv += sum_bytes_w(rcounts, rt, p);
}

static void degrees(MPI_Comm comm, int *in, int *out)
{
	struct comm_info *ci = obj_comm(comm);
	*in = ci ? ci->indeg : 0;
	*out = ci ? ci->outdeg : 0;
}

void vol_nb_allgather(struct tcall *c, int scount, MPI_Datatype st, int rcount, MPI_Datatype rt,
		      MPI_Comm comm)
{
	int in, out;
	degrees(comm, &in, &out);
	c->bytes_sent += bytes(scount, st) * (uint64_t)out;
	c->bytes_recv += bytes(rcount, rt) * (uint64_t)in;
}

void vol_nb_allgatherv(struct tcall *c, int scount, MPI_Datatype st, const int *rcounts,
		       MPI_Datatype rt, MPI_Comm comm)
{
	int in, out;
	degrees(comm, &in, &out);
	c->bytes_sent += bytes(scount, st) * (uint64_t)out;
	c->bytes_recv += sum_bytes(rcounts, in, rt);
}

void vol_nb_alltoall(struct tcall *c, int scount, MPI_Datatype st, int rcount, MPI_Datatype rt,
		     MPI_Comm comm)
{
	vol_nb_allgather(c, scount, st, rcount, rt, comm);
}

void vol_nb_alltoallv(struct tcall *c, const int *scounts, MPI_Datatype st, const int *rcounts,
		      MPI_Datatype rt, MPI_Comm comm)
{
	int in, out;
	degrees(comm, &in, &out);
	c->bytes_sent += sum_bytes(scounts, out, st);
	c->bytes_recv += sum_bytes(rcounts, in, rt);
}

void vol_nb_alltoallw(struct tcall *c, const int *scounts, const MPI_Datatype *st,
		      const int *rcounts, const MPI_Datatype *rt, MPI_Comm comm)
{
	int in, out;
	degrees(comm, &in, &out);
	c->bytes_sent += sum_bytes_w(scounts, st, out);
	c->bytes_recv += sum_bytes_w(rcounts, rt, in);
}
