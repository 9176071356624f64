/*
 * handles — the replay's MPI objects by the symbolic ids the tracer gave them (Pilgrim
 * §2.3.3): predefined datatypes and ops by their fixed ids (mpi/predefined.h), everything
 * else created by replaying the call that created it in the application (split, dup, create,
 * cart, graph ... for communicators; the constructors for datatypes; MPI_Op_create with a
 * do-nothing function) and forgotten when the application freed it. Ids are small (the tracer
 * hands out the lowest free one), so each table is an array indexed by id.
 *
 * Communicators also keep how their ranks map to world ranks, since the trace records peers
 * relative to the caller in world ranks and roots as world ranks.
 */
#include <stdlib.h>
#include <string.h>

#include "mpi/predefined.h"
#include "mpi/fninfo.h"
#include "replay/issue.h"
#include "util/xalloc.h"

#define MAX_ID (1 << 24)

static MPI_Datatype predefined_type(int64_t id)
{
	int64_t i = 0;
#define X(n, meaning) \
	if (++i == id) \
		return n;
	LADDER_PREDEFINED_DTYPES(X)
#undef X
	return MPI_DATATYPE_NULL;
}

static MPI_Op predefined_op(int64_t id)
{
	int64_t i = 0;
#define X(n) \
	if (++i == id) \
		return n;
	LADDER_PREDEFINED_OPS(X)
#undef X
	return MPI_OP_NULL;
}

/* grow a table so that index id exists (zero-filled) */
static void *slot(void **table, size_t *n, size_t elem, int64_t id)
{
	if ((size_t)id >= *n) {
		size_t m = *n ? *n : 16;
		while (m <= (size_t)id)
			m *= 2;
		*table = xrealloc(*table, m * elem);
		memset((char *)*table + *n * elem, 0, (m - *n) * elem);
		*n = m;
	}
	return (char *)*table + (size_t)id * elem;
}
#define SLOT(tab, n, id) slot((void **)&(tab), &(n), sizeof *(tab), (id))

static bool valid_id(int64_t id) { return !sv_is_symbolic(id) && id >= 0 && id < MAX_ID; }

/* ---- communicators ---------------------------------------------------------------------------- */

static int *world_ranks(MPI_Group g, int n)
{
	MPI_Group wg;
	PMPI_Comm_group(MPI_COMM_WORLD, &wg);
	int *in = xmalloc((size_t)(n ? n : 1) * sizeof *in), *w = xmalloc((size_t)(n ? n : 1) * sizeof *w);
	for (int i = 0; i < n; i++)
		in[i] = i;
	PMPI_Group_translate_ranks(g, n, in, wg, w);
	PMPI_Group_free(&wg);
	free(in);
	return w;
}

static const int *sort_base;
static int by_world_cmp(const void *a, const void *b)
{
	int x = sort_base[*(const int *)a], y = sort_base[*(const int *)b];
	return (x > y) - (x < y);
}

static int *reverse(const int *w, int n)
{
	int *r = xmalloc((size_t)(n ? n : 1) * sizeof *r);
	for (int i = 0; i < n; i++)
		r[i] = i;
	sort_base = w;
	qsort(r, (size_t)n, sizeof *r, by_world_cmp);
	return r;
}

static void comm_clear(struct rp_comm *c)
{
	free(c->members);
	free(c->by_world);
	free(c->remote);
	free(c->remote_by_world);
	free(c->coords);
	memset(c, 0, sizeof *c);
}

static void comm_set(struct rp *x, int64_t id, MPI_Comm h)
{
	struct rp_comm *c = SLOT(x->hd.comms, x->hd.ncomms, id);
	comm_clear(c);
	c->h = h;
	c->set = true;
	int inter = 0;
	PMPI_Comm_test_inter(h, &inter);
	c->inter = inter;
	PMPI_Comm_size(h, &c->size);
	PMPI_Comm_rank(h, &c->rank);
	MPI_Group g;
	PMPI_Comm_group(h, &g);
	int *w = world_ranks(g, c->size);
	PMPI_Group_free(&g);
	bool contiguous = true;
	for (int i = 1; i < c->size && contiguous; i++)
		contiguous = w[i] == w[0] + i;
	if (contiguous) {
		c->world_offset = c->size ? w[0] : 0;
		free(w);
	} else {
		c->members = w;
		c->by_world = reverse(w, c->size);
	}
	if (inter) {
		PMPI_Comm_remote_size(h, &c->remote_size);
		PMPI_Comm_remote_group(h, &g);
		c->remote = world_ranks(g, c->remote_size);
		c->remote_by_world = reverse(c->remote, c->remote_size);
		PMPI_Group_free(&g);
		return;
	}
	int topo = MPI_UNDEFINED, weighted;
	PMPI_Topo_test(h, &topo);
	if (topo == MPI_CART) {
		PMPI_Cartdim_get(h, &c->ndims);
		c->coords = xcalloc((size_t)(c->ndims ? c->ndims : 1), sizeof *c->coords);
		if (c->ndims)
			PMPI_Cart_coords(h, c->rank, c->ndims, c->coords);
		c->indeg = c->outdeg = 2 * c->ndims;
	} else if (topo == MPI_GRAPH) {
		PMPI_Graph_neighbors_count(h, c->rank, &c->indeg);
		c->outdeg = c->indeg;
	} else if (topo == MPI_DIST_GRAPH) {
		PMPI_Dist_graph_neighbors_count(h, &c->indeg, &c->outdeg, &weighted);
	}
}

struct rp_comm *rp_comm_of(struct rp *x, int64_t id)
{
	if (!valid_id(id) || (size_t)id >= x->hd.ncomms || !x->hd.comms[id].set)
		return NULL;
	return &x->hd.comms[id];
}

int rp_world_to_rank(const struct rp_comm *c, int64_t world, bool remote)
{
	const int *w = remote ? c->remote : c->members, *order = remote ? c->remote_by_world : c->by_world;
	int n = remote ? c->remote_size : c->size;
	if (!w) {
		int64_t r = world - c->world_offset;
		return r >= 0 && r < n ? (int)r : -1;
	}
	int lo = 0, hi = n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (w[order[mid]] < world)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && w[order[lo]] == world ? order[lo] : -1;
}

bool rp_handles_init(struct rp *x)
{
	memset(&x->hd, 0, sizeof x->hd);
	comm_set(x, COMM_ID_WORLD, MPI_COMM_WORLD);
	comm_set(x, COMM_ID_SELF, MPI_COMM_SELF);
	PMPI_Info_create(&x->hd.info);
	return true;
}

void rp_handles_free(struct rp *x)
{
	for (size_t i = 0; i < x->hd.ncomms; i++)
		comm_clear(&x->hd.comms[i]);
	free(x->hd.comms);
	free(x->hd.types);
	free(x->hd.ops);
	free(x->hd.groups);
	free(x->hd.msgs);
	if (x->hd.info != MPI_INFO_NULL)
		PMPI_Info_free(&x->hd.info);
	memset(&x->hd, 0, sizeof x->hd);
}

/* ---- decoders ---------------------------------------------------------------------------------- */

MPI_Comm rp_comm(struct rp *x, struct rp_call *k, int p)
{
	int64_t id = k->v[p] ? k->v[p][0] : SV_IGNORE;
	if (id == SV_NULL || id == SV_IGNORE)
		return MPI_COMM_NULL;
	struct rp_comm *c = rp_comm_of(x, id);
	if (!c) {
		if (id == SV_UNKNOWN)
			rp_fail(k, "its communicator was created by a call the tracer did not record");
		else
			rp_fail(k, "communicator comm#%lld was never created (a run without the call that "
				   "created it?)", (long long)id);
		return MPI_COMM_WORLD;
	}
	return c->h;
}

MPI_Datatype rp_dtype(struct rp *x, struct rp_call *k, int p) { return rp_dtype_at(x, k, k->v[p]); }

MPI_Datatype rp_dtype_at(struct rp *x, struct rp_call *k, const int64_t *v)
{
	int64_t id = v ? v[0] : SV_IGNORE, size = v ? v[1] : 0;
	if (id == SV_NULL)
		return MPI_DATATYPE_NULL;
	if (id == SV_IGNORE)
		return MPI_BYTE;     /* not significant on this rank */
	if (valid_id(id) && id < DTYPE_ID_FIRST_USER) {
		MPI_Datatype t = predefined_type(id);
		if (t == MPI_DATATYPE_NULL)
			rp_fail(k, "datatype %s does not exist in this MPI",
				ladder_dtype_names[id] ? ladder_dtype_names[id] : "?");
		return t == MPI_DATATYPE_NULL ? MPI_BYTE : t;
	}
	if (valid_id(id) && (size_t)id < x->hd.ntypes && x->hd.types[id].set)
		return x->hd.types[id].h;
	if (id == SV_UNKNOWN)
		rp_fail(k, "its datatype (%lld bytes) was created by a call the tracer did not record",
			(long long)size);
	else
		rp_fail(k, "datatype type#%lld (%lld bytes) was never constructed (a run without its "
			   "constructor calls?)", (long long)id, (long long)size);
	return MPI_BYTE;
}

MPI_Op rp_op(struct rp *x, struct rp_call *k, int p)
{
	int64_t id = k->v[p] ? k->v[p][0] : SV_IGNORE;
	if (id == SV_NULL)
		return MPI_OP_NULL;
	if (id == SV_IGNORE)
		return MPI_SUM;
	if (valid_id(id) && id < OP_ID_FIRST_USER) {
		MPI_Op op = predefined_op(id);
		if (op == MPI_OP_NULL)
			rp_fail(k, "reduction op %s does not exist in this MPI",
				ladder_op_names[id] ? ladder_op_names[id] : "?");
		return op == MPI_OP_NULL ? MPI_SUM : op;
	}
	if (!valid_id(id)) {
		rp_fail(k, "its reduction op was created by a call the tracer did not record");
		return MPI_SUM;
	}
	MPI_Op *op = SLOT(x->hd.ops, x->hd.nops, id);
	if (*op == MPI_OP_NULL)   /* no MPI_Op_create in the run: a do-nothing commutative op */
		PMPI_Op_create(rp_user_function, 1, op);
	return *op;
}

MPI_Group rp_group(struct rp *x, struct rp_call *k, int p)
{
	int64_t id = k->v[p] ? k->v[p][0] : SV_IGNORE;
	if (id == SV_NULL || id == SV_IGNORE)
		return MPI_GROUP_NULL;
	if (id == 0)
		return MPI_GROUP_EMPTY;
	if (valid_id(id) && (size_t)id < x->hd.ngroups && x->hd.groups[id] != MPI_GROUP_NULL)
		return x->hd.groups[id];
	rp_fail(k, "group group#%lld was never created", (long long)id);
	return MPI_GROUP_EMPTY;
}

MPI_Info rp_info(struct rp *x, struct rp_call *k, int p)
{
	return k->v[p] && k->v[p][0] == 1 ? x->hd.info : MPI_INFO_NULL;
}

MPI_Message rp_msg(struct rp *x, struct rp_call *k, int p)
{
	int64_t id = k->v[p] ? k->v[p][0] : SV_IGNORE;
	if (id == SV_NULL || id == SV_IGNORE)
		return MPI_MESSAGE_NULL;
	if (id == 0)
		return MPI_MESSAGE_NO_PROC;
	if (valid_id(id) && (size_t)id < x->hd.nmsgs && x->hd.msgs[id] != MPI_MESSAGE_NULL)
		return x->hd.msgs[id];
	rp_fail(k, "matched-probe message msg#%lld was never probed", (long long)id);
	return MPI_MESSAGE_NULL;
}

int rp_size(struct rp *x, MPI_Comm c)
{
	int inter = 0, n = 0;
	if (c == MPI_COMM_NULL)
		return 0;
	PMPI_Comm_test_inter(c, &inter);
	if (inter)
		PMPI_Comm_remote_size(c, &n);
	else
		PMPI_Comm_size(c, &n);
	return n;
}

static void degrees(MPI_Comm c, int *in, int *out)
{
	int topo = MPI_UNDEFINED, rank, weighted, nd;
	*in = *out = 0;
	if (c == MPI_COMM_NULL)
		return;
	PMPI_Topo_test(c, &topo);
	if (topo == MPI_CART) {
		PMPI_Cartdim_get(c, &nd);
		*in = *out = 2 * nd;
	} else if (topo == MPI_GRAPH) {
		PMPI_Comm_rank(c, &rank);
		PMPI_Graph_neighbors_count(c, rank, in);
		*out = *in;
	} else if (topo == MPI_DIST_GRAPH) {
		PMPI_Dist_graph_neighbors_count(c, in, out, &weighted);
	}
}

int rp_indeg(struct rp *x, MPI_Comm c)
{
	int in, out;
	degrees(c, &in, &out);
	return in;
}

int rp_outdeg(struct rp *x, MPI_Comm c)
{
	int in, out;
	degrees(c, &in, &out);
	return out;
}

/* ---- outputs: new objects take the id the application's call got ---------------------------- */

static int64_t out_id(struct rp_call *k, int p) { return k->v[p] ? k->v[p][0] : SV_NULL; }

void rp_out_comm(struct rp *x, struct rp_call *k, int p, MPI_Comm h)
{
	int64_t id = out_id(k, p);
	if (valid_id(id) && h != MPI_COMM_NULL)
		comm_set(x, id, h);
}

void rp_out_dtype(struct rp *x, struct rp_call *k, int p, MPI_Datatype h)
{
	int64_t id = out_id(k, p);
	if (!valid_id(id) || h == MPI_DATATYPE_NULL)
		return;
	struct rp_type *t = SLOT(x->hd.types, x->hd.ntypes, id);
	t->h = h;
	t->set = true;
}

void rp_out_group(struct rp *x, struct rp_call *k, int p, MPI_Group h)
{
	int64_t id = out_id(k, p);
	if (valid_id(id) && id > 0)
		*(MPI_Group *)SLOT(x->hd.groups, x->hd.ngroups, id) = h;
}

void rp_out_op(struct rp *x, struct rp_call *k, int p, MPI_Op h)
{
	int64_t id = out_id(k, p);
	if (valid_id(id))
		*(MPI_Op *)SLOT(x->hd.ops, x->hd.nops, id) = h;
}

void rp_out_msg(struct rp *x, struct rp_call *k, int p, MPI_Message h)
{
	int64_t id = out_id(k, p);
	k->msg = h;
	if (valid_id(id) && id > 0)
		*(MPI_Message *)SLOT(x->hd.msgs, x->hd.nmsgs, id) = h;
}

void rp_msg_consumed(struct rp *x, struct rp_call *k, int p)
{
	int64_t id = out_id(k, p);
	if (valid_id(id) && (size_t)id < x->hd.nmsgs)
		x->hd.msgs[id] = MPI_MESSAGE_NULL;
}

/* after a call that frees one of its arguments (table flags free_comm, free_type ...) */
void rp_forget(struct rp *x, struct rp_call *k, uint32_t rpflags)
{
	for (uint32_t p = 0; p < k->d->nparams; p++) {
		int64_t id = k->v[p] ? k->v[p][0] : SV_NULL;
		if (!valid_id(id))
			continue;
		enum param_kind kind = k->d->params[p].kind;
		if (kind == PK_COMM && (rpflags & FNINFO_FREE_COMM) && id >= COMM_ID_FIRST_USER &&
		    (size_t)id < x->hd.ncomms)
			comm_clear(&x->hd.comms[id]);
		else if (kind == PK_DTYPE && (rpflags & FNINFO_FREE_TYPE) && (size_t)id < x->hd.ntypes)
			x->hd.types[id].set = false;
		else if (kind == PK_GROUP && (rpflags & FNINFO_FREE_GROUP) && (size_t)id < x->hd.ngroups)
			x->hd.groups[id] = MPI_GROUP_NULL;
		else if (kind == PK_OP && (rpflags & FNINFO_FREE_OP) && (size_t)id < x->hd.nops)
			x->hd.ops[id] = MPI_OP_NULL;
	}
}
