/*
 * objects — symbolic ids for MPI objects (Pilgrim §2.3.3): communicators (ids agreed by all
 * members, so that SPMD ranks record the same id), datatypes (with their size), reduction ops,
 * groups and matched-probe messages (lowest free id per process, so that processes creating them
 * in the same order agree). Handles the tracer never saw created are registered on first sight.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi/predefined.h"
#include "trace/tracer.h"
#include "util/idpool.h"
#include "util/xalloc.h"

struct comm_ent {
	struct comm_info info;
	UT_hash_handle hh;
};

struct obj_ent {               /* datatypes, ops, groups, messages */
	void *handle;
	int64_t id;
	int64_t size;              /* datatypes: bytes; messages: relative source */
	UT_hash_handle hh;
};

static struct comm_ent *comms;
static struct comm_info *world, *self;
static struct idpool comm_ids;
static struct obj_ent *dtypes, *ops, *groups, *msgs;
static struct idpool dtype_ids, op_ids, group_ids, msg_ids;
static struct obj_ent *last_dtype;   /* the last datatype looked up: loops reuse one again and again */

/* Open MPI's handles are pointers; other implementations may use integers. */
#define H(h) ((void *)(uintptr_t)(h))

static struct obj_ent *obj_find(struct obj_ent *table, void *h)
{
	struct obj_ent *e;
	HASH_FIND_PTR(table, &h, e);
	return e;
}

static struct obj_ent *obj_add(struct obj_ent **table, void *h, int64_t id, int64_t size)
{
	struct obj_ent *e = xcalloc(1, sizeof *e);
	e->handle = h;
	e->id = id;
	e->size = size;
	HASH_ADD_PTR(*table, handle, e);
	return e;
}

static void obj_remove(struct obj_ent **table, struct idpool *pool, void *h)
{
	struct obj_ent *e = obj_find(*table, h);
	if (!e)
		return;
	if (e == last_dtype)
		last_dtype = NULL;
	idpool_give(pool, e->id);
	HASH_DEL(*table, e);
	free(e);
}

static void table_free(struct obj_ent **table)
{
	struct obj_ent *e, *tmp;
	HASH_ITER(hh, *table, e, tmp) {
		HASH_DEL(*table, e);
		free(e);
	}
}

/* ---- communicators ---------------------------------------------------------------------------- */

static int *translate_group(MPI_Group g, int n)
{
	MPI_Group wg;
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	int *in = xmalloc((size_t)(n ? n : 1) * sizeof *in);
	int *outr = xmalloc((size_t)(n ? n : 1) * sizeof *outr);
	for (int i = 0; i < n; i++)
		in[i] = i;
	PMPI_Group_translate_ranks(g, n, in, wg, outr);
	PMPI_Group_free(&wg);
	free(in);
	return outr;
}

static void describe_comm(struct comm_info *ci, MPI_Comm comm)
{
	int inter = 0;
	ci->handle = comm;
	ci->topo = MPI_UNDEFINED;
	PMPI_Comm_test_inter(comm, &inter);
	ci->inter = inter;
	PMPI_Comm_size(comm, &ci->size);
	PMPI_Comm_rank(comm, &ci->rank);
	MPI_Group g;
	PMPI_Comm_group(comm, &g);
	int *w = translate_group(g, ci->size);
	PMPI_Group_free(&g);
	/* contiguous block of world ranks: store the offset only */
	bool contiguous = ci->size > 0;
	for (int i = 1; i < ci->size && contiguous; i++)
		contiguous = w[i] == w[0] + i;
	if (contiguous) {
		ci->world_offset = w[0];
		free(w);
	} else {
		ci->world = w;
	}
	if (inter) {
		PMPI_Comm_remote_size(comm, &ci->remote_size);
		MPI_Group rg;
		PMPI_Comm_remote_group(comm, &rg);
		ci->remote_world = translate_group(rg, ci->remote_size);
		PMPI_Group_free(&rg);
		return;
	}
	PMPI_Topo_test(comm, &ci->topo);
	if (ci->topo == MPI_CART) {
		PMPI_Cartdim_get(comm, &ci->ndims);
		ci->my_coords = xcalloc((size_t)(ci->ndims ? ci->ndims : 1), sizeof(int));
		if (ci->ndims)
			PMPI_Cart_coords(comm, ci->rank, ci->ndims, ci->my_coords);
		ci->indeg = ci->outdeg = 2 * ci->ndims;
	} else if (ci->topo == MPI_GRAPH) {
		int n = 0;
		PMPI_Graph_neighbors_count(comm, ci->rank, &n);
		ci->indeg = ci->outdeg = n;
	} else if (ci->topo == MPI_DIST_GRAPH) {
		int weighted;
		PMPI_Dist_graph_neighbors_count(comm, &ci->indeg, &ci->outdeg, &weighted);
	}
}

static struct comm_info *comm_add(MPI_Comm comm, int64_t id)
{
	struct comm_ent *e = xcalloc(1, sizeof *e);
	describe_comm(&e->info, comm);
	e->info.id = id;
	HASH_ADD(hh, comms, info.handle, sizeof(MPI_Comm), e);
	return &e->info;
}

struct comm_info *obj_comm(MPI_Comm comm)
{
	if (comm == MPI_COMM_WORLD)
		return world;
	if (comm == MPI_COMM_SELF)
		return self;
	struct comm_ent *e;
	HASH_FIND(hh, comms, &comm, sizeof(MPI_Comm), e);
	if (e)
		return &e->info;
	if (comm == MPI_COMM_NULL)
		return NULL;
	return comm_add(comm, SV_UNKNOWN);   /* created behind the tracer's back */
}

/* The lowest id free on every member of `on`: iterate max-of-lowest-free to a fixed point. */
static int64_t agree_id(MPI_Comm on)
{
	long long cand = COMM_ID_FIRST_USER;
	for (;;) {
		long long mine = idpool_lowest_free(&comm_ids, cand), next;
		PMPI_Allreduce(&mine, &next, 1, MPI_LONG_LONG, MPI_MAX, on);
		if (next == cand)
			return cand;
		cand = next;
	}
}

int64_t obj_comm_register(MPI_Comm comm, MPI_Comm parent, bool agree_on_parent)
{
	if (comm == MPI_COMM_NULL)
		return SV_NULL;
	int inter = 0;
	PMPI_Comm_test_inter(comm, &inter);
	MPI_Comm on = agree_on_parent || inter ? parent : comm;
	int64_t id = SV_UNKNOWN;
	if (on != MPI_COMM_NULL) {
		id = agree_id(on);
		idpool_mark(&comm_ids, id);
	}
	struct comm_ent *old;
	HASH_FIND(hh, comms, &comm, sizeof(MPI_Comm), old);
	if (old) {   /* a stale entry for a reused handle */
		HASH_DEL(comms, old);
		free(old->info.world);
		free(old->info.remote_world);
		free(old->info.my_coords);
		free(old);
	}
	comm_add(comm, id);
	return id;
}

int obj_comm_to_world(struct comm_info *ci, int rank)
{
	if (!ci)
		return -1;
	if (ci->inter)
		return obj_remote_to_world(ci, rank);
	if (rank < 0 || rank >= ci->size)
		return -1;
	return ci->world ? ci->world[rank] : ci->world_offset + rank;
}

int obj_remote_to_world(struct comm_info *ci, int rank)
{
	if (!ci || !ci->remote_world || rank < 0 || rank >= ci->remote_size)
		return -1;
	return ci->remote_world[rank];
}

static void comm_free_entry(struct comm_ent *e)
{
	free(e->info.world);
	free(e->info.remote_world);
	free(e->info.my_coords);
	free(e);
}

void obj_release_comm(struct tcall *c)
{
	struct comm_ent *e;
	HASH_FIND(hh, comms, &c->h_comm, sizeof(MPI_Comm), e);
	if (!e)
		return;
	if (!sv_is_symbolic(e->info.id))
		idpool_give(&comm_ids, e->info.id);
	HASH_DEL(comms, e);
	comm_free_entry(e);
}

/* ---- datatypes, ops, groups, messages --------------------------------------------------------- */

int64_t obj_dtype_id(MPI_Datatype t, int64_t *size)
{
	if (t == MPI_DATATYPE_NULL) {
		*size = 0;
		return SV_NULL;
	}
	if (last_dtype && last_dtype->handle == H(t) && last_dtype->size >= 0) {
		*size = last_dtype->size;
		return last_dtype->id;
	}
	struct obj_ent *e = obj_find(dtypes, H(t));
	if (!e) {
		obj_dtype_register(t);
		e = obj_find(dtypes, H(t));
	}
	if (e->size < 0) {     /* predefined: sized on first use */
		int s = 0;
		PMPI_Type_size(t, &s);
		e->size = s;
	}
	*size = e->size;
	last_dtype = e;
	return e->id;
}

int64_t obj_dtype_register(MPI_Datatype t)
{
	if (t == MPI_DATATYPE_NULL)
		return SV_NULL;
	obj_remove(&dtypes, &dtype_ids, H(t));
	int s = 0;
	PMPI_Type_size(t, &s);
	int64_t id = idpool_take(&dtype_ids, DTYPE_ID_FIRST_USER);
	obj_add(&dtypes, H(t), id, s);
	return id;
}

void obj_release_dtype(struct tcall *c) { obj_remove(&dtypes, &dtype_ids, H(c->h_dtype)); }

int64_t obj_op_id(MPI_Op op)
{
	if (op == MPI_OP_NULL)
		return SV_NULL;
	struct obj_ent *e = obj_find(ops, H(op));
	return e ? e->id : obj_op_register(op);
}

int64_t obj_op_register(MPI_Op op)
{
	if (op == MPI_OP_NULL)
		return SV_NULL;
	obj_remove(&ops, &op_ids, H(op));
	int64_t id = idpool_take(&op_ids, OP_ID_FIRST_USER);
	obj_add(&ops, H(op), id, 0);
	return id;
}

void obj_release_op(struct tcall *c) { obj_remove(&ops, &op_ids, H(c->h_op)); }

int64_t obj_group_id(MPI_Group g)
{
	if (g == MPI_GROUP_NULL)
		return SV_NULL;
	if (g == MPI_GROUP_EMPTY)
		return 0;
	struct obj_ent *e = obj_find(groups, H(g));
	return e ? e->id : obj_group_register(g);
}

int64_t obj_group_register(MPI_Group g)
{
	if (g == MPI_GROUP_NULL)
		return SV_NULL;
	if (g == MPI_GROUP_EMPTY)
		return 0;
	obj_remove(&groups, &group_ids, H(g));
	int64_t id = idpool_take(&group_ids, 1);
	obj_add(&groups, H(g), id, 0);
	return id;
}

void obj_release_group(struct tcall *c)
{
	if (c->h_group != MPI_GROUP_EMPTY)
		obj_remove(&groups, &group_ids, H(c->h_group));
}

int64_t obj_msg_id(MPI_Message m)
{
	if (m == MPI_MESSAGE_NULL)
		return SV_NULL;
	if (m == MPI_MESSAGE_NO_PROC)
		return 0;
	struct obj_ent *e = obj_find(msgs, H(m));
	return e ? e->id : SV_UNKNOWN;
}

int64_t obj_msg_register(MPI_Message m, int64_t source_rel)
{
	if (m == MPI_MESSAGE_NULL)
		return SV_NULL;
	if (m == MPI_MESSAGE_NO_PROC)
		return 0;
	obj_remove(&msgs, &msg_ids, H(m));
	int64_t id = idpool_take(&msg_ids, 1);
	obj_add(&msgs, H(m), id, source_rel);
	return id;
}

int64_t obj_msg_source(MPI_Message m)
{
	struct obj_ent *e = obj_find(msgs, H(m));
	return e ? e->size : SV_UNKNOWN;
}

void obj_release_msg(MPI_Message m) { obj_remove(&msgs, &msg_ids, H(m)); }

/* ---- lifetime --------------------------------------------------------------------------------- */

void obj_init(void)
{
	idpool_init(&comm_ids);
	idpool_mark(&comm_ids, COMM_ID_WORLD);
	idpool_mark(&comm_ids, COMM_ID_SELF);
	world = comm_add(MPI_COMM_WORLD, COMM_ID_WORLD);
	self = comm_add(MPI_COMM_SELF, COMM_ID_SELF);
	int64_t id = 0;
#define X(n, meaning) \
	id++; \
	if (n != MPI_DATATYPE_NULL && !obj_find(dtypes, H(n))) { \
		idpool_mark(&dtype_ids, id); \
		obj_add(&dtypes, H(n), id, -1); \
	}
	LADDER_PREDEFINED_DTYPES(X)
#undef X
	id = 0;
#define X(n) \
	id++; \
	if (n != MPI_OP_NULL && !obj_find(ops, H(n))) { \
		idpool_mark(&op_ids, id); \
		obj_add(&ops, H(n), id, 0); \
	}
	LADDER_PREDEFINED_OPS(X)
#undef X
}

void obj_fini(void)
{
	last_dtype = NULL;
	struct comm_ent *e, *tmp;
	HASH_ITER(hh, comms, e, tmp) {
		HASH_DEL(comms, e);
		comm_free_entry(e);
	}
	world = self = NULL;
	table_free(&dtypes);
	table_free(&ops);
	table_free(&groups);
	table_free(&msgs);
	idpool_free(&comm_ids);
	idpool_free(&dtype_ids);
	idpool_free(&op_ids);
	idpool_free(&group_ids);
	idpool_free(&msg_ids);
}
