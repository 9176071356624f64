/*
 * decode — scalar and array parameters back from their recorded values (mpi/signature.h):
 * symbolic values to MPI constants, peers (relative world ranks) and roots (world ranks) to ranks
 * of the call's communicator, Cartesian coordinates (relative to the caller's) to absolute ones,
 * string ids to the strings of the run. Arrays live in the call's memory (rp_alloc).
 */
#include <limits.h>
#include <string.h>

#include "replay/issue.h"
#include "mpi/pcontrol.h"
#include "util/hash.h"

static int64_t first(struct rp_call *k, int p) { return k->v[p] ? k->v[p][0] : SV_IGNORE; }

static int to_int(struct rp_call *k, int p, int64_t v)
{
	switch (v) {
	case SV_ANY_TAG: return MPI_ANY_TAG;
	case SV_UNDEFINED: return MPI_UNDEFINED;
	case SV_PROC_NULL: return MPI_PROC_NULL;
	case SV_ANY_SOURCE: return MPI_ANY_SOURCE;
	case SV_ROOT: return MPI_ROOT;
	case SV_IGNORE: case SV_NULL: return 0;
	default: break;
	}
	if (sv_is_symbolic(v) || v < INT_MIN || v > INT_MAX) {
		rp_fail(k, "parameter %s has no usable value", k->d->params[p].name);
		return 0;
	}
	return (int)v;
}

int rp_int(struct rp *x, struct rp_call *k, int p) { return to_int(k, p, first(k, p)); }

MPI_Aint rp_aint(struct rp *x, struct rp_call *k, int p)
{
	int64_t v = first(k, p);
	return sv_is_symbolic(v) ? 0 : (MPI_Aint)v;
}

/* a rank of the call's communicator from a world rank */
static int rank_of_world(struct rp_call *k, int p, int64_t world, bool remote)
{
	if (!k->ci) {
		rp_fail(k, "%s names a rank but the call has no communicator", k->d->params[p].name);
		return 0;
	}
	int r = rp_world_to_rank(k->ci, world, remote);
	if (r < 0)
		rp_fail(k, "%s: world rank %lld is not a member of the communicator", k->d->params[p].name,
			(long long)world);
	return r < 0 ? 0 : r;
}

/* a peer recorded relative to the caller (world ranks) */
static int peer(struct rp *x, struct rp_call *k, int p, int64_t rel)
{
	if (rel == SV_UNKNOWN) {
		rp_fail(k, "%s was recorded as UNKNOWN (not a member of the communicator)", k->d->params[p].name);
		return 0;
	}
	if (sv_is_symbolic(rel))
		return to_int(k, p, rel);
	return rank_of_world(k, p, x->rank + rel, k->ci && k->ci->inter);
}

int rp_peer(struct rp *x, struct rp_call *k, int p) { return peer(x, k, p, first(k, p)); }

int rp_src(struct rp *x, struct rp_call *k, int p)
{
	const int64_t *v = k->v[p];
	if (!v)
		return MPI_ANY_SOURCE;
	if (v[0] == SV_ANY_SOURCE && !sv_is_symbolic(v[1])) {
		k->any_source = true;   /* post the recorded source; the tracer records ANY_SOURCE */
		return peer(x, k, p, v[1]);
	}
	return peer(x, k, p, v[0]);
}

int rp_root(struct rp *x, struct rp_call *k, int p)
{
	int64_t v = first(k, p);
	if (v == SV_UNKNOWN) {
		rp_fail(k, "its root was recorded as UNKNOWN");
		return 0;
	}
	if (sv_is_symbolic(v))
		return to_int(k, p, v);
	return rank_of_world(k, p, v, k->ci && k->ci->inter);
}

const char *rp_string(struct rp *x, struct rp_call *k, int p)
{
	int64_t id = first(k, p);
	if (sv_is_symbolic(id))
		return NULL;
	for (uint32_t i = 0; i < x->r->nstrings; i++) {
		const char *s = x->r->strings[i];
		if ((int64_t)(hash_bytes(s, strlen(s), 0) & INT64_MAX) == id)
			return s;
	}
	rp_fail(k, "string#%lld is not in the run's string table", (long long)id);
	return "";
}

/* ---- arrays ---------------------------------------------------------------------------------- */

/* the length of an array parameter, or -1 when it was not recorded (NULL, IGNORE ...) */
static int64_t length(struct rp_call *k, int p)
{
	int64_t n = first(k, p);
	return sv_is_symbolic(n) || n < 0 ? -1 : n;
}

static int *int_array(struct rp_call *k, int p, int64_t n)
{
	return rp_alloc(k, (size_t)(n > 0 ? n : 1) * sizeof(int));
}

int *rp_ints(struct rp *x, struct rp_call *k, int p)
{
	int64_t n = length(k, p);
	if (n < 0)
		return NULL;
	int *a = int_array(k, p, n);
	for (int64_t i = 0; i < n; i++)
		a[i] = to_int(k, p, k->v[p][1 + i]);
	return a;
}

int *rp_peers(struct rp *x, struct rp_call *k, int p)
{
	int64_t n = length(k, p);
	if (n < 0)
		return NULL;
	int *a = int_array(k, p, n);
	for (int64_t i = 0; i < n; i++)
		a[i] = peer(x, k, p, k->v[p][1 + i]);
	return a;
}

int *rp_coords(struct rp *x, struct rp_call *k, int p)
{
	int64_t n = length(k, p);
	if (n < 0)
		return NULL;
	int *a = int_array(k, p, n);
	const int *mine = k->ci && k->ci->coords && k->ci->ndims == n ? k->ci->coords : NULL;
	for (int64_t i = 0; i < n; i++)
		a[i] = to_int(k, p, k->v[p][1 + i] + (mine ? mine[i] : 0));
	return a;
}

int *rp_weights(struct rp *x, struct rp_call *k, int p)
{
	int64_t v = first(k, p);
	if (v == SV_UNWEIGHTED)
		return MPI_UNWEIGHTED;
	if (v == SV_WEIGHTS_EMPTY)
		return MPI_WEIGHTS_EMPTY;
	return rp_ints(x, k, p);
}

MPI_Aint *rp_aints(struct rp *x, struct rp_call *k, int p)
{
	int64_t n = length(k, p);
	if (n < 0)
		return NULL;
	MPI_Aint *a = rp_alloc(k, (size_t)(n > 0 ? n : 1) * sizeof *a);
	for (int64_t i = 0; i < n; i++)
		a[i] = (MPI_Aint)k->v[p][1 + i];
	return a;
}

MPI_Datatype *rp_dtypes(struct rp *x, struct rp_call *k, int p)
{
	int64_t n = length(k, p);
	if (n < 0)
		return NULL;
	MPI_Datatype *a = rp_alloc(k, (size_t)(n > 0 ? n : 1) * sizeof *a);
	for (int64_t i = 0; i < n; i++)
		a[i] = rp_dtype_at(x, k, k->v[p] + 1 + 2 * i);
	return a;
}

int *rp_ints_out(struct rp *x, struct rp_call *k, int p)
{
	int64_t n = length(k, p);
	return int_array(k, p, n > 0 ? n : 1);
}

/* room for every request of the call (Waitsome/Testsome: incount) */
int *rp_indices_out(struct rp *x, struct rp_call *k, int p)
{
	int64_t n = length(k, p);
	for (uint32_t q = 0; q < k->d->nparams; q++)
		if (k->d->params[q].kind == PK_REQS && length(k, (int)q) > n)
			n = length(k, (int)q);
	return int_array(k, p, n > 0 ? n : 1);
}

/* ---- the moment of the call and its outputs ------------------------------------------------------ */

bool rp_ready(struct rp *x, struct rp_call *k)
{
	if (k->err[0])
		return false;
	if (k->deadline > 0)       /* the compute gap; decoding time is part of it */
		rp_wait_gap(x, k->deadline);
	k->t_start = rp_now();
	if (k->any_source)
		MPI_Pcontrol(LADDER_PCONTROL_REPLAY_ANY_SOURCE);
	return true;
}

void rp_out_flag(struct rp *x, struct rp_call *k, int p, int v) { k->flag = v; }
void rp_out_index(struct rp *x, struct rp_call *k, int p, int v) { k->index = v; }
void rp_out_outcount(struct rp *x, struct rp_call *k, int p, int v) { k->outcount = v; }
