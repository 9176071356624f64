/*
 * payload — memory the replayed calls read and write. Payload is random and never looked at, so
 * every send buffer points into one send region and every receive buffer into one receive region,
 * each grown to the largest span a call needs (count x extent, v-displacements, the block per
 * member of gathers and all-to-alls). Outgrown regions are kept until the end: a pending
 * nonblocking operation may still use them. Memory is therefore bounded by the largest message,
 * not by the number of calls. MPI_Buffer_attach gets a buffer of its own.
 *
 * Also here: the per-call memory for decoded arrays, placeholders for arguments the trace does not
 * record (scratch space, statuses that reproduce the recorded MPI_Get_count), and the do-nothing
 * reduction function that stands in for user ops.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/issue.h"
#include "mpi/fnids.h"
#include "util/xalloc.h"

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rp_payload_init(struct rp *x)
{
	memset(&x->pl, 0, sizeof x->pl);
	x->pl.rng = x->opt.seed * 0x100000001b3ULL + (uint64_t)x->rank;
}

void rp_payload_free(struct rp *x)
{
	free(x->pl.send.p);
	free(x->pl.recv.p);
	for (size_t i = 0; i < x->pl.nretired; i++)
		free(x->pl.retired[i]);
	free(x->pl.retired);
	free(x->pl.attached);
	memset(&x->pl, 0, sizeof x->pl);
}

static char *region(struct rp *x, struct rp_region *g, size_t need)
{
	if (need <= g->cap && g->p)
		return g->p;
	if (g->p) {
		XGROW(x->pl.retired, x->pl.capretired, x->pl.nretired + 1);
		x->pl.retired[x->pl.nretired++] = g->p;
	}
	size_t cap = g->cap ? 2 * g->cap : 4096;
	while (cap < need)
		cap *= 2;
	g->p = xmalloc(cap);
	g->cap = cap;
	for (size_t i = 0; i + 8 <= cap; i += 8) {
		uint64_t r = splitmix(&x->pl.rng);
		memcpy(g->p + i, &r, 8);
	}
	return g->p;
}

void *rp_buf(struct rp *x, struct rp_call *k, int p, enum rp_region_kind kind, size_t need)
{
	size_t lead = x->pl.lead;
	x->pl.lead = 0;
	int64_t enc = k->v[p] ? k->v[p][0] : SV_IGNORE;
	if (enc == BUF_IN_PLACE)
		return MPI_IN_PLACE;
	if (enc == BUF_NULL)
		return NULL;
	if (enc == BUF_BOTTOM) {
		rp_fail(k, "%s is MPI_BOTTOM: absolute addresses of the application cannot be replayed",
			k->d->params[p].name);
		return NULL;
	}
	if (kind == RP_ATTACHED) {
		free(x->pl.attached);
		x->pl.attached = xcalloc(need ? need : 1, 1);
		return x->pl.attached;
	}
	struct rp_region *g = kind == RP_SEND ? &x->pl.send : &x->pl.recv;
	return region(x, g, lead + need + 64) + lead;
}

void rp_buffer_detached(struct rp *x)
{
	free(x->pl.attached);
	x->pl.attached = NULL;
}

/* the bytes from the buffer address that `count` elements of t may touch; the part before the
 * address (a negative lower bound) goes to *before */
static size_t span(MPI_Aint at, int64_t count, MPI_Datatype t, MPI_Aint *lo, MPI_Aint *hi)
{
	if (count <= 0 || t == MPI_DATATYPE_NULL)
		return 0;
	MPI_Aint lb, extent, tlb, textent;
	PMPI_Type_get_extent(t, &lb, &extent);
	PMPI_Type_get_true_extent(t, &tlb, &textent);
	MPI_Aint a = at + tlb, b = at + tlb + (MPI_Aint)(count - 1) * extent;
	MPI_Aint first = a < b ? a : b, last = (a > b ? a : b) + textent;
	if (first < *lo)
		*lo = first;
	if (last > *hi)
		*hi = last;
	return 1;
}

static size_t need_of(struct rp *x, MPI_Aint lo, MPI_Aint hi)
{
	x->pl.lead = lo < 0 ? (size_t)-lo : 0;
	return hi > 0 ? (size_t)hi : 0;
}

size_t rp_need(struct rp *x, int count, MPI_Datatype t, int mult)
{
	MPI_Aint lo = 0, hi = 0;
	span(0, (int64_t)count * (mult > 0 ? mult : 1), t, &lo, &hi);
	return need_of(x, lo, hi);
}

static int64_t array_len(struct rp_call *k, int p)
{
	int64_t n = k->v[p] ? k->v[p][0] : -1;
	return sv_is_symbolic(n) ? -1 : n;
}

size_t rp_need_v(struct rp *x, struct rp_call *k, int p, const int *counts, const int *displs,
		 MPI_Datatype t)
{
	MPI_Aint lo = 0, hi = 0, lb, extent;
	int64_t n = array_len(k, p), at = 0;
	if (!counts || n <= 0 || t == MPI_DATATYPE_NULL)
		return need_of(x, 0, 0);
	PMPI_Type_get_extent(t, &lb, &extent);
	for (int64_t i = 0; i < n; i++) {
		/* without displacements (MPI_Reduce_scatter) the blocks follow one another */
		MPI_Aint where = displs ? (MPI_Aint)displs[i] * extent : (MPI_Aint)at * extent;
		span(where, counts[i], t, &lo, &hi);
		at += counts[i] > 0 ? counts[i] : 0;
	}
	return need_of(x, lo, hi);
}

size_t rp_need_w(struct rp *x, struct rp_call *k, int p, const int *counts, const int *displs,
		 const MPI_Aint *adispls, const MPI_Datatype *t)
{
	MPI_Aint lo = 0, hi = 0;
	int64_t n = array_len(k, p);
	for (int64_t i = 0; counts && t && i < n; i++)
		span(displs ? displs[i] : adispls ? adispls[i] : 0, counts[i], t[i], &lo, &hi);
	return need_of(x, lo, hi);
}

size_t rp_need_bytes(int n) { return n > 0 ? (size_t)n : 0; }

/* ---- per-call memory ---------------------------------------------------------------------------- */

void *rp_alloc(struct rp_call *k, size_t n)
{
	XGROW(k->blocks, k->capblocks, k->nblocks + 1);
	return k->blocks[k->nblocks++] = xcalloc(n ? n : 1, 1);
}

void rp_call_blocks_free(struct rp_call *k)
{
	for (size_t i = 0; i < k->nblocks; i++)
		free(k->blocks[i]);
	k->nblocks = 0;
}

/* for outputs the trace does not record: zeroed, large enough for arrays of the call's sizes */
void *rp_scratch(struct rp *x, struct rp_call *k)
{
	int64_t most = 0;
	for (uint32_t p = 0; p < k->d->nparams; p++) {
		enum param_kind kind = k->d->params[p].kind;
		if ((kind == PK_INT || kind == PK_COUNT) && k->v[p] && !sv_is_symbolic(k->v[p][0]) &&
		    k->v[p][0] > most)
			most = k->v[p][0];
	}
	size_t n = 65536 + (size_t)most * 16;
	return rp_alloc(k, n);
}

/* A status for the functions that read one: MPI_Get_count and MPI_Get_elements find the count
 * they returned in the application, MPI_Test_cancelled its flag. */
MPI_Status *rp_status(struct rp *x, struct rp_call *k)
{
	memset(&k->status, 0, sizeof k->status);
	int64_t out = SV_NULL;
	for (uint32_t p = 0; p < k->d->nparams; p++) {
		enum param_kind kind = k->d->params[p].kind;
		if ((kind == PK_INT_OUT || kind == PK_FLAG_OUT) && k->v[p])
			out = k->v[p][0];
	}
	if (sv_is_symbolic(out))
		return &k->status;
	if (k->fn == FN_MPI_Test_cancelled) {
		PMPI_Status_set_cancelled(&k->status, out != 0);
		return &k->status;
	}
	MPI_Datatype t = rp_dtype(x, k, 1);
	int size = 0;
	if (t == MPI_DATATYPE_NULL)
		return &k->status;
	PMPI_Type_size(t, &size);
	if (k->fn == FN_MPI_Get_elements)
		PMPI_Status_set_elements(&k->status, t, (int)out);
	else if (out == MPI_UNDEFINED)    /* not a whole number of elements */
		PMPI_Status_set_elements(&k->status, MPI_BYTE, size > 1 ? 1 : 0);
	else
		PMPI_Status_set_elements(&k->status, MPI_BYTE, (int)out * size);
	return &k->status;
}

void rp_user_function(void *in, void *inout, int *len, MPI_Datatype *t)
{
	(void)in;
	(void)inout;
	(void)len;
	(void)t;
}
