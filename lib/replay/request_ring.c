/*
 * request_ring — the replay's requests by the names the tracer gave them: (pool, slot), where the pool
 * is the request pool key of the creating signature (Pilgrim §2.4.2, run_signature_req_key).
 *
 * Requests live in a ring of slots that are never moved. A call that creates a request writes it
 * straight into the next free slot, and consecutive creations get consecutive slots (the ring
 * restarts at 0 whenever no non-persistent request is outstanding, which is how loops behave).
 * A call on an array of requests then usually finds them side by side in the ring and gets a
 * pointer into it: MPI sees, and a tracer on the replay records, the very addresses the requests
 * were created at, as in the application (the tracer tells requests that share a handle value,
 * such as Open MPI's requests to MPI_PROC_NULL, apart by that address). Other arrays are copied
 * and written back.
 *
 * A call that forces completion (engine.c) keeps only the wanted positions of its array; the
 * others are hidden (set to MPI_REQUEST_NULL for the call and restored after it).
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "mpi/signature.h"
#include "replay/issue.h"
#include "util/xalloc.h"

#define RING_SIZE (1u << 16)
#define NO_SLOT UINT32_MAX

struct rp_request_entry {
	struct {
		int64_t pool, slot;
	} key;
	uint32_t at;               /* NO_SLOT once completed early */
	bool persistent, early;
	bool by_poll;              /* the application completes it with a poll: failed polls may see it */
	struct vol vol;            /* a persistent request's bytes, accounted at each start */
	UT_hash_handle hh;
};

/* An entry completed early has no slot; any other owns exactly its slot. */
static bool entry_placed(const struct rp_ring *g, const struct rp_request_entry *e)
{
	if (e->early)
		return e->at == NO_SLOT;
	return e->at < g->size && g->owner[e->at] == e;
}

struct keep {
	void **blocks;
	size_t n;
};

void rp_requests_init(struct rp *x)
{
	struct rp_ring *g = &x->ring;
	memset(g, 0, sizeof *g);
	g->size = RING_SIZE;
	g->h = xmalloc(g->size * sizeof *g->h);
	for (uint32_t i = 0; i < g->size; i++)
		g->h[i] = MPI_REQUEST_NULL;
	g->owner = xcalloc(g->size, sizeof *g->owner);
	g->keep = xcalloc(g->size, sizeof *g->keep);
}

static void keep_free(struct rp_ring *g, uint32_t at)
{
	struct keep *kp = g->keep[at];
	if (!kp)
		return;
	for (size_t i = 0; i < kp->n; i++)
		free(kp->blocks[i]);
	free(kp->blocks);
	free(kp);
	g->keep[at] = NULL;
}

/* the request is gone from MPI: free its slot; early: keep its name, completed */
static void vacate(struct rp *x, struct rp_request_entry *e, bool early)
{
	struct rp_ring *g = &x->ring;
	assert(entry_placed(g, e));
	if (e->at != NO_SLOT) {
		keep_free(g, e->at);
		g->owner[e->at] = NULL;
		assert(e->persistent || g->live > 0);   /* live counts the placed non-persistent entries */
		if (!e->persistent && g->live)
			g->live--;
		e->at = NO_SLOT;
	}
	e->early = early;
	if (!early) {
		HASH_DEL(g->map, e);
		free(e);
	}
}

static void release(struct rp *x, struct rp_request_entry *e) { vacate(x, e, false); }

void rp_requests_free(struct rp *x)
{
	struct rp_request_entry *e, *tmp;
	HASH_ITER(hh, x->ring.map, e, tmp)
		release(x, e);
	free(x->ring.h);
	free(x->ring.owner);
	free(x->ring.keep);
	memset(&x->ring, 0, sizeof x->ring);
}

static struct rp_request_entry *find(struct rp *x, int64_t pool, int64_t slot)
{
	struct rp_request_entry key, *e;
	memset(&key, 0, sizeof key);
	key.key.pool = pool;
	key.key.slot = slot;
	HASH_FIND(hh, x->ring.map, &key.key, sizeof key.key, e);
	assert(!e || entry_placed(&x->ring, e));
	return e;
}

MPI_Request *rp_request_lookup(struct rp *x, int64_t pool, int64_t slot)
{
	struct rp_request_entry *e = find(x, pool, slot);
	return e && !e->early ? &x->ring.h[e->at] : NULL;
}

MPI_Request *rp_request_pollable(struct rp *x, int64_t pool, int64_t slot)
{
	struct rp_request_entry *e = find(x, pool, slot);
	return e && !e->early && e->by_poll ? &x->ring.h[e->at] : NULL;
}

enum rp_req_state rp_request_state(struct rp *x, int64_t pool, int64_t slot)
{
	if (sv_is_symbolic(pool) || sv_is_symbolic(slot))
		return RP_REQ_NULL;
	struct rp_request_entry *e = find(x, pool, slot);
	return !e ? RP_REQ_UNKNOWN : e->early ? RP_REQ_EARLY : RP_REQ_LIVE;
}

void rp_request_forget(struct rp *x, int64_t pool, int64_t slot)
{
	struct rp_request_entry *e = find(x, pool, slot);
	if (e && e->early)
		release(x, e);
}

bool rp_request_done(MPI_Request *h)
{
	int flag = 1;
	if (*h != MPI_REQUEST_NULL)
		PMPI_Request_get_status(*h, &flag, MPI_STATUS_IGNORE);
	return flag != 0;
}

void rp_request_set_vol(struct rp *x, int64_t pool, int64_t slot, const struct vol *v)
{
	struct rp_request_entry *e = find(x, pool, slot);
	if (e)
		e->vol = *v;
}

struct vol rp_request_vol(struct rp *x, int64_t pool, int64_t slot)
{
	struct rp_request_entry *e = find(x, pool, slot);
	return e ? e->vol : (struct vol){0};
}

/* ---- decoders --------------------------------------------------------------------------------- */

/* the ring slot of a recorded name; NO_SLOT for a null request; fails the call for others */
static uint32_t slot_of(struct rp *x, struct rp_call *k, int p, const int64_t *name)
{
	if (name[0] == SV_NULL || name[1] == SV_NULL || name[0] == SV_IGNORE)
		return NO_SLOT;
	if (sv_is_symbolic(name[0]) || sv_is_symbolic(name[1])) {
		rp_fail(k, "%s names a request the tracer did not see created", k->d->params[p].name);
		return NO_SLOT;
	}
	struct rp_request_entry *e = find(x, name[0], name[1]);
	if (e && (e->early || (k->mode == RP_FAILED_POLL && !e->by_poll)))
		return NO_SLOT;   /* completed early, or one a failed poll must not complete (polls.c) */
	if (!e) {
		rp_fail(k, "%s names request %08x.%lld, which was never created", k->d->params[p].name,
			(uint32_t)((uint64_t)name[0] >> 32), (long long)name[1]);
		return NO_SLOT;
	}
	return e->at;
}

MPI_Request *rp_req(struct rp *x, struct rp_call *k, int p)
{
	k->nullreq = MPI_REQUEST_NULL;
	if (!k->v[p])
		return &k->nullreq;
	uint32_t at = slot_of(x, k, p, k->v[p]);
	return at == NO_SLOT ? &k->nullreq : &x->ring.h[at];
}

MPI_Request *rp_reqs(struct rp *x, struct rp_call *k, int p)
{
	const int64_t *v = k->v[p];
	int n = v && !sv_is_symbolic(v[0]) && v[0] > 0 ? (int)v[0] : 0;
	k->reqs_n = n;
	k->reqs_at = rp_alloc(k, (size_t)(n ? n : 1) * sizeof *k->reqs_at);
	k->reqs_saved = rp_alloc(k, (size_t)(n ? n : 1) * sizeof *k->reqs_saved);
	int64_t base = -1;
	bool contiguous = true;
	for (int j = 0; j < n; j++) {
		uint32_t at = slot_of(x, k, p, v + 1 + 2 * j);
		if (at != NO_SLOT && k->mode == RP_FORCE && !(k->want && k->want[j]))
			at = NO_SLOT;   /* hidden: this call must not complete it */
		k->reqs_at[j] = at;
		if (at == NO_SLOT)
			continue;
		if (base < 0)
			base = (int64_t)at - j;
		contiguous &= (int64_t)at == base + j;
	}
	contiguous &= base >= 0 && base + n <= (int64_t)x->ring.size;
	k->reqs_in_ring = contiguous;
	if (contiguous) {
		k->reqs_base = &x->ring.h[base];
		for (int j = 0; j < n; j++)
			if (k->reqs_at[j] == NO_SLOT) {   /* a slot between ours: hide it for the call */
				k->reqs_saved[j] = k->reqs_base[j];
				k->reqs_base[j] = MPI_REQUEST_NULL;
			}
		return k->reqs_base;
	}
	k->reqs_base = rp_alloc(k, (size_t)(n ? n : 1) * sizeof *k->reqs_base);
	for (int j = 0; j < n; j++)
		k->reqs_base[j] = k->reqs_at[j] == NO_SLOT ? MPI_REQUEST_NULL : x->ring.h[k->reqs_at[j]];
	return k->reqs_base;
}

MPI_Request *rp_req_new(struct rp *x, struct rp_call *k, int p)
{
	struct rp_ring *g = &x->ring;
	int64_t slot = k->v[p] ? k->v[p][0] : SV_NULL;
	k->new_by_poll = false;
	int64_t want = sv_is_symbolic(slot) ? -1
			: rp_lookahead_slot(x, (int64_t)k->ev->req_key, slot, x->nev, &k->new_by_poll);
	if (want >= 0) {    /* where the array that first uses it will have it */
		assert(want < (int64_t)g->size && !g->owner[want]);
		k->new_at = (uint32_t)want;
		g->h[want] = MPI_REQUEST_NULL;
		return &g->h[want];
	}
	if (!g->live)
		g->next = 0;
	for (uint32_t i = 0; i < g->size; i++) {
		uint32_t at = (g->next + i) % g->size;
		if (!g->owner[at] && !rp_lookahead_reserved(x, at)) {
			g->next = at + 1;
			k->new_at = at;
			g->h[at] = MPI_REQUEST_NULL;
			return &g->h[at];
		}
	}
	rp_fail(k, "more than %u requests are outstanding", g->size);
	k->new_at = NO_SLOT;
	k->nullreq = MPI_REQUEST_NULL;
	return &k->nullreq;
}

void rp_out_req(struct rp *x, struct rp_call *k, int p)
{
	int64_t slot = k->v[p] ? k->v[p][0] : SV_NULL;
	if (k->new_at == NO_SLOT || sv_is_symbolic(slot))
		return;
	struct rp_request_entry *e = find(x, (int64_t)k->ev->req_key, slot);
	if (e)   /* the name was reused: the old request is gone */
		release(x, e);
	assert(k->new_at < x->ring.size && !x->ring.owner[k->new_at]);   /* rp_req_new chose a free slot */
	e = xcalloc(1, sizeof *e);
	e->key.pool = (int64_t)k->ev->req_key;
	e->key.slot = slot;
	e->at = k->new_at;
	e->persistent = (k->d->flags & FNF_PERSISTENT) != 0;
	e->by_poll = k->new_by_poll && !e->persistent;
	HASH_ADD(hh, x->ring.map, key, sizeof e->key, e);
	x->ring.owner[e->at] = e;
	if (!e->persistent)
		x->ring.live++;
	if (k->nblocks) {   /* arrays a nonblocking collective reads until it completes */
		struct keep *kp = xmalloc(sizeof *kp);
		kp->blocks = k->blocks;
		kp->n = k->nblocks;
		x->ring.keep[e->at] = kp;
		k->blocks = NULL;
		k->nblocks = k->capblocks = 0;
	}
}

/* after the call: write arrays back, forget completed requests */
void rp_requests_after(struct rp *x, struct rp_call *k)
{
	struct rp_ring *g = &x->ring;
	for (int j = 0; j < k->reqs_n; j++) {
		uint32_t at = k->reqs_at[j];
		if (k->reqs_in_ring && at == NO_SLOT)
			k->reqs_base[j] = k->reqs_saved[j];
		else if (!k->reqs_in_ring && at != NO_SLOT)
			g->h[at] = k->reqs_base[j];
	}
	for (uint32_t p = 0; p < k->d->nparams; p++) {
		enum param_kind kind = k->d->params[p].kind;
		const int64_t *v = k->v[p];
		if (!v || (kind != PK_REQ && kind != PK_REQS))
			continue;
		int n = kind == PK_REQ ? 1 : sv_is_symbolic(v[0]) ? 0 : (int)v[0];
		const int64_t *names = kind == PK_REQ ? v : v + 1;
		for (int j = 0; j < n; j++) {
			if (kind == PK_REQS && k->mode == RP_FORCE && !(k->want && k->want[j]))
				continue;   /* hidden from this call */
			struct rp_request_entry *e = find(x, names[2 * j], names[2 * j + 1]);
			if (!e || (e->early && k->mode == RP_FAILED_POLL))
				continue;
			if (e->early || g->h[e->at] == MPI_REQUEST_NULL)
				vacate(x, e, k->mode == RP_FAILED_POLL);
		}
	}
	k->reqs_n = 0;
}
