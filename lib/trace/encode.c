/*
 * encode — one encoder per parameter kind: turns an MPI argument into the values of its group so
 * that SPMD ranks agree (Pilgrim §2.3.3, §2.4): peers relative to the caller in world ranks,
 * roots as world ranks, handles as symbolic ids, requests as (pool, slot), Cartesian coordinates
 * relative to the caller's. Outputs are encoded after the call.
 */
#include <string.h>

#include "trace/tracer.h"
#include "util/hash.h"

static int64_t rel_world(struct tcall *c, int rank)
{
	if (rank == MPI_PROC_NULL)
		return SV_PROC_NULL;
	if (rank == MPI_ANY_SOURCE)
		return SV_ANY_SOURCE;
	if (rank == MPI_ROOT)
		return SV_ROOT;
	int w = obj_comm_to_world(c->ci, rank);
	return w < 0 ? SV_UNKNOWN : (int64_t)w - tracer.rank;
}

static int64_t *scalar(struct tcall *c, enum param_kind k, enum stream_mode m)
{
	return tcall_group(c, k, (uint32_t)param_kind_width(k), m);
}

static int64_t *array(struct tcall *c, enum param_kind k, int n, enum stream_mode m)
{
	if (n < 0)
		n = 0;
	int64_t *v = tcall_group(c, k, 1 + (uint32_t)param_kind_width(k) * (uint32_t)n, m);
	v[0] = n;
	return v + 1;
}

void enc_skip(struct tcall *c, enum param_kind k)
{
	if (param_kind_is_array(k)) {
		*tcall_group(c, k, 1, SM_NONE) = SV_IGNORE;
		return;
	}
	int64_t *v = scalar(c, k, SM_NONE);
	for (int i = 0; i < param_kind_width(k); i++)
		v[i] = SV_IGNORE;
}

void enc_buf(struct tcall *c, const void *buf)
{
	int64_t v = BUF_USER;
	if (buf == MPI_IN_PLACE)
		v = BUF_IN_PLACE;
	else if (buf == MPI_BOTTOM)
		v = BUF_BOTTOM;
	else if (!buf)
		v = BUF_NULL;
	*scalar(c, PK_BUF, SM_NONE) = v;
}

void enc_int(struct tcall *c, int v) { *scalar(c, PK_INT, SM_NONE) = v; }
void enc_count(struct tcall *c, int v) { *scalar(c, PK_COUNT, SM_ADAPTIVE) = v; }
void enc_aint(struct tcall *c, MPI_Aint v) { *scalar(c, PK_AINT, SM_NONE) = (int64_t)v; }

void enc_tag(struct tcall *c, int v)
{
	*scalar(c, PK_TAG, SM_ADAPTIVE) = v == MPI_ANY_TAG ? SV_ANY_TAG : v;
}

void enc_peer(struct tcall *c, int rank) { *scalar(c, PK_PEER, SM_ADAPTIVE) = rel_world(c, rank); }

void enc_src(struct tcall *c, int rank)
{
	bool replayed = trace_take_replay_any_source() && rank != MPI_ANY_SOURCE && rank != MPI_PROC_NULL;
	bool any = rank == MPI_ANY_SOURCE || replayed;
	c->src_group = (int32_t)c->ngroups;
	int64_t *v = scalar(c, PK_SRC, any ? SM_ALWAYS : SM_ADAPTIVE);
	v[0] = any ? SV_ANY_SOURCE : rel_world(c, rank);
	v[1] = replayed ? rel_world(c, rank) : any ? SV_UNKNOWN : v[0];
	if (any)
		c->need_status = true;
}

void enc_root(struct tcall *c, int root)
{
	int64_t v;
	if (root == MPI_ROOT)
		v = SV_ROOT;
	else if (root == MPI_PROC_NULL)
		v = SV_PROC_NULL;
	else if (c->ci && c->ci->inter)
		v = obj_remote_to_world(c->ci, root);
	else
		v = obj_comm_to_world(c->ci, root);
	*scalar(c, PK_ROOT, SM_NONE) = v < 0 && !sv_is_symbolic(v) ? SV_UNKNOWN : v;
}

void enc_comm(struct tcall *c, MPI_Comm comm)
{
	struct comm_info *ci = obj_comm(comm);
	*scalar(c, PK_COMM, SM_NONE) = ci ? ci->id : SV_NULL;
	if (c->h_comm == MPI_COMM_NULL)
		c->h_comm = comm;
}

void enc_dtype(struct tcall *c, MPI_Datatype t)
{
	int64_t *v = scalar(c, PK_DTYPE, SM_NONE);
	v[0] = obj_dtype_id(t, &v[1]);
	if (c->h_dtype == MPI_DATATYPE_NULL)
		c->h_dtype = t;
}

void enc_op(struct tcall *c, MPI_Op op)
{
	*scalar(c, PK_OP, SM_NONE) = obj_op_id(op);
	if (c->h_op == MPI_OP_NULL)
		c->h_op = op;
}

void enc_group(struct tcall *c, MPI_Group g)
{
	*scalar(c, PK_GROUP, SM_NONE) = obj_group_id(g);
	if (c->h_group == MPI_GROUP_NULL)
		c->h_group = g;
}

void enc_info(struct tcall *c, MPI_Info info) { *scalar(c, PK_INFO, SM_NONE) = info != MPI_INFO_NULL; }

void enc_color(struct tcall *c, int v)
{
	*scalar(c, PK_COLOR, SM_ALWAYS) = v == MPI_UNDEFINED ? SV_UNDEFINED : v;
}

void enc_key(struct tcall *c, int v) { *scalar(c, PK_KEY, SM_ALWAYS) = v; }

void enc_string(struct tcall *c, const char *s)
{
	*scalar(c, PK_STRING, SM_NONE) = s ? (int64_t)trace_intern(s) : SV_NULL;
}

static bool named_in_call(struct tcall *c, struct request_entry *e)
{
	for (uint32_t i = 0; i < c->nreqs; i++)
		if (c->reqs[i].e == e)
			return true;
	return false;
}

static void encode_req(struct tcall *c, MPI_Request *where, int64_t *v)
{
	MPI_Request h = where ? *where : MPI_REQUEST_NULL;
	struct request_entry *e = req_lookup(where, h);
	/* found by handle value only (not at its creation address): requests sharing a value, such as
	 * Open MPI's requests to MPI_PROC_NULL, get the oldest one this call has not named yet */
	if (e && e->where != where)
		while (e && named_in_call(c, e))
			e = e->next;
	if (h == MPI_REQUEST_NULL) {
		v[0] = v[1] = SV_NULL;
	} else if (!e) {
		v[0] = v[1] = SV_UNKNOWN;
	} else {
		v[0] = (int64_t)e->pool;
		v[1] = e->slot;
		if (e->wildcard)
			c->need_status = true;
	}
	if (c->nreqs == c->capreqs) {
		c->capreqs = c->capreqs ? 2 * c->capreqs : 16;
		c->reqs = trace_scratch_reqs(c->capreqs);
	}
	c->reqs[c->nreqs].where = where;
	c->reqs[c->nreqs].handle = h;
	c->reqs[c->nreqs].e = h == MPI_REQUEST_NULL ? NULL : e;
	c->nreqs++;
}

void enc_req(struct tcall *c, MPI_Request *r) { encode_req(c, r, scalar(c, PK_REQ, SM_NONE)); }

void enc_reqs(struct tcall *c, MPI_Request *r, int n)
{
	int64_t *v = array(c, PK_REQS, n, SM_NONE);
	uint32_t g = c->ngroups - 1;
	for (int i = 0; i < n; i++) {
		encode_req(c, r + i, v + 2 * i);
		v = c->vals + c->groups[g].start + 1;   /* scratch may have moved */
	}
}

void enc_msg(struct tcall *c, MPI_Message m)
{
	*scalar(c, PK_MSG, SM_NONE) = obj_msg_id(m);
	c->h_msg = m;
}

static void int_array(struct tcall *c, enum param_kind k, const int *v, int n, enum stream_mode m)
{
	int64_t *o = array(c, k, v ? n : 0, m);
	for (int i = 0; v && i < n; i++)
		o[i] = v[i];
}

void enc_ints(struct tcall *c, const int *v, int n) { int_array(c, PK_INTS, v, n, SM_NONE); }
void enc_counts(struct tcall *c, const int *v, int n) { int_array(c, PK_COUNTS, v, n, SM_ADAPTIVE); }
void enc_displs(struct tcall *c, const int *v, int n) { int_array(c, PK_DISPLS, v, n, SM_ADAPTIVE); }
void enc_ranks(struct tcall *c, const int *v, int n) { int_array(c, PK_RANKS, v, n, SM_ALWAYS); }

void enc_aints(struct tcall *c, const MPI_Aint *v, int n)
{
	int64_t *o = array(c, PK_AINTS, v ? n : 0, SM_NONE);
	for (int i = 0; v && i < n; i++)
		o[i] = (int64_t)v[i];
}

void enc_dtypes(struct tcall *c, const MPI_Datatype *v, int n)
{
	int64_t *o = array(c, PK_DTYPES, v ? n : 0, SM_NONE);
	for (int i = 0; v && i < n; i++)
		o[2 * i] = obj_dtype_id(v[i], &o[2 * i + 1]);
}

void enc_peers(struct tcall *c, const int *v, int n)
{
	int64_t *o = array(c, PK_PEERS, v ? n : 0, SM_ADAPTIVE);
	for (int i = 0; v && i < n; i++)
		o[i] = rel_world(c, v[i]);
}

void enc_coords(struct tcall *c, const int *v, int n)
{
	int64_t *o = array(c, PK_COORDS, v ? n : 0, SM_NONE);
	const int *mine = c->ci && c->ci->topo == MPI_CART && c->ci->ndims == n ? c->ci->my_coords : NULL;
	for (int i = 0; v && i < n; i++)
		o[i] = v[i] - (mine ? mine[i] : 0);
}

void enc_weights(struct tcall *c, const int *v, int n)
{
	if (v == MPI_UNWEIGHTED || v == MPI_WEIGHTS_EMPTY) {
		*tcall_group(c, PK_WEIGHTS, 1, SM_NONE) = v == MPI_UNWEIGHTED ? SV_UNWEIGHTED : SV_WEIGHTS_EMPTY;
		return;
	}
	int_array(c, PK_WEIGHTS, v, n, SM_NONE);
}

/* ---- outputs --------------------------------------------------------------------------------- */

void enc_int_out(struct tcall *c, const int *v) { *scalar(c, PK_INT_OUT, SM_NONE) = v ? *v : SV_NULL; }
void enc_size_out(struct tcall *c, const int *v) { *scalar(c, PK_SIZE_OUT, SM_NONE) = v ? *v : SV_NULL; }

void enc_self_out(struct tcall *c, const int *v)
{
	*scalar(c, PK_SELF_OUT, SM_NONE) = !v ? SV_NULL : *v == MPI_UNDEFINED ? SV_UNDEFINED : 0;
}

void enc_peer_out(struct tcall *c, const int *v)
{
	*scalar(c, PK_PEER_OUT, SM_NONE) = !v ? SV_NULL : *v == MPI_UNDEFINED ? SV_UNDEFINED : rel_world(c, *v);
}

void enc_flag_out(struct tcall *c, const int *v)
{
	c->flag = v ? *v : 0;
	c->has_flag = true;
	*scalar(c, PK_FLAG_OUT, SM_NONE) = c->flag != 0;
}

void enc_index_out(struct tcall *c, const int *v)
{
	c->index = v ? *v : MPI_UNDEFINED;
	c->has_index = true;
	*scalar(c, PK_INDEX_OUT, SM_ALWAYS) = c->index == MPI_UNDEFINED ? SV_UNDEFINED : c->index;
}

void enc_indices_out(struct tcall *c, const int *v, int n)
{
	c->has_indices = true;
	c->outcount = n;
	c->indices = v;
	if (n == MPI_UNDEFINED) {
		*tcall_group(c, PK_INDICES_OUT, 1, SM_ALWAYS) = SV_UNDEFINED;
		return;
	}
	int_array(c, PK_INDICES_OUT, v, n, SM_ALWAYS);
}

void enc_ints_out(struct tcall *c, const int *v, int n) { int_array(c, PK_INTS_OUT, v, n, SM_NONE); }

void enc_newcomm(struct tcall *c, MPI_Comm *newcomm)
{
	/* MPI_Comm_idup: the new communicator is not usable yet; members agree on its parent */
	bool on_parent = c->fn == FN_MPI_Comm_idup;
	*scalar(c, PK_NEWCOMM, SM_NONE) = newcomm ? obj_comm_register(*newcomm, c->comm, on_parent) : SV_NULL;
}

void enc_newtype(struct tcall *c, MPI_Datatype *t)
{
	*scalar(c, PK_NEWTYPE, SM_NONE) = t ? obj_dtype_register(*t) : SV_NULL;
}

void enc_newgroup(struct tcall *c, MPI_Group *g)
{
	*scalar(c, PK_NEWGROUP, SM_NONE) = g ? obj_group_register(*g) : SV_NULL;
}

void enc_newop(struct tcall *c, MPI_Op *op) { *scalar(c, PK_NEWOP, SM_NONE) = op ? obj_op_register(*op) : SV_NULL; }

void enc_req_out(struct tcall *c, MPI_Request *r)
{
	c->req_out = r;
	c->req_out_group = (int32_t)c->ngroups;
	c->req_persistent = (ladder_functions[c->fn].flags & FNF_PERSISTENT) != 0;
	*scalar(c, PK_REQ_OUT, SM_NONE) = SV_NULL;   /* the slot is taken in tcall_end */
}

void enc_msg_out(struct tcall *c, MPI_Message *m)
{
	int64_t src = SV_UNKNOWN;
	if (c->src_group >= 0)
		src = c->vals[c->groups[c->src_group].start + 1];
	*scalar(c, PK_MSG_OUT, SM_NONE) = m ? obj_msg_register(*m, src) : SV_NULL;
}

int trace_sum_ints(const int *v, int n)
{
	int s = 0;
	for (int i = 0; v && i < n; i++)
		s += v[i];
	return s;
}
