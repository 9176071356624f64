/*
 * lookahead — where in the ring (request_ring.c) a new request should live. A tracer names the requests
 * of an array by the address each was created at (requests sharing a handle value, such as Open
 * MPI's small eager sends and requests to MPI_PROC_NULL, cannot be told apart otherwise), so the
 * replay must create a request where the array that later holds it will have it: at the array's
 * base plus its position. Applications often index request arrays by rank, leaving holes, so
 * creation order alone does not tell.
 *
 * A scout walks the rank's calls ahead of the replay (at most LOOKAHEAD calls ahead) and notes, for
 * each creation of a request name, the first call that uses it: an array (which call, which
 * position, how long) or a single request; and whether the application completes it with a poll
 * (Test*) or a blocking call (Wait*), which polls.c needs. When the replay creates the request, the array's base is
 * that of the array's requests already in the ring, or a run of free slots reserved for it until
 * the replay has passed the call. Memory is bounded by the window, not by the run.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "replay/issue.h"
#include "util/xalloc.h"

#define LOOKAHEAD 16384
#define NONE (-1)

struct inst {                  /* one creation of a name, seen by the scout */
	int64_t create, ref_ev;    /* events (0-based): the creation, its first use (NONE: unknown) */
	int32_t ref_pos;           /* position in the array of that use (NONE: a single request) */
	enum { ENDS_UNKNOWN, ENDS_BY_POLL, ENDS_BLOCKING } ends;   /* how the application completes it */
	struct inst *next;
};

struct name {
	struct {
		int64_t pool, slot;
	} key;
	struct inst *head, *tail;
	UT_hash_handle hh;
};

struct array {                 /* a call's request array that is the first use of some request */
	int64_t ev;
	uint32_t n;
	int64_t *names;            /* n (pool, slot) pairs */
	int64_t base;              /* ring slot of position 0 (NONE: not placed yet) */
	bool reserved;
	struct array *next;        /* in order of ev */
	UT_hash_handle hh;
};

struct rp_lookahead {
	struct event_iter it;
	int64_t seen;              /* events the scout has read */
	bool done;
	struct name *names;
	struct array *arrays, *first, *last;
	uint8_t *reserved;         /* ring slots kept for an array */
};

void rp_lookahead_init(struct rp *x)
{
	struct rp_lookahead *la = xcalloc(1, sizeof *la);
	event_iter_init(&la->it, x->r, (uint32_t)x->rank);
	la->reserved = xcalloc(x->ring.size, 1);
	x->la = la;
}

static struct name *name_get(struct rp_lookahead *la, int64_t pool, int64_t slot, bool add)
{
	struct name key, *n;
	memset(&key, 0, sizeof key);
	key.key.pool = pool;
	key.key.slot = slot;
	HASH_FIND(hh, la->names, &key.key, sizeof key.key, n);
	if (!n && add) {
		n = xcalloc(1, sizeof *n);
		n->key = key.key;
		HASH_ADD(hh, la->names, key, sizeof n->key, n);
	}
	return n;
}

static void unreserve(struct rp *x, struct array *a)
{
	if (a->reserved)
		for (uint32_t j = 0; j < a->n; j++) {
			assert(a->base >= 0 && a->base + j < x->ring.size && x->la->reserved[a->base + j]);
			x->la->reserved[a->base + j] = 0;
		}
	a->reserved = false;
}

static void array_free(struct rp *x, struct array *a)
{
	unreserve(x, a);
	HASH_DEL(x->la->arrays, a);
	free(a->names);
	free(a);
}

void rp_lookahead_free(struct rp *x)
{
	struct rp_lookahead *la = x->la;
	if (!la)
		return;
	while (la->first) {
		struct array *a = la->first;
		la->first = a->next;
		array_free(x, a);
	}
	struct name *n, *tmp;
	HASH_ITER(hh, la->names, n, tmp) {
		while (n->head) {
			struct inst *i = n->head;
			n->head = i->next;
			free(i);
		}
		HASH_DEL(la->names, n);
		free(n);
	}
	event_iter_free(&la->it);
	free(la->reserved);
	free(la);
	x->la = NULL;
}

/* the first use of the latest creation of a name, if not known yet */
static bool first_use(struct rp_lookahead *la, const int64_t *nm, int64_t ev, int32_t pos)
{
	if (sv_is_symbolic(nm[0]) || sv_is_symbolic(nm[1]))
		return false;
	struct name *n = name_get(la, nm[0], nm[1], false);
	if (!n || !n->tail || n->tail->ref_ev != NONE)
		return false;
	n->tail->ref_ev = ev;
	n->tail->ref_pos = pos;
	return true;
}

/* the latest creation of a name is completed by this call */
static void ended(struct rp_lookahead *la, const int64_t *nm, bool by_poll)
{
	if (sv_is_symbolic(nm[0]) || sv_is_symbolic(nm[1]))
		return;
	struct name *n = name_get(la, nm[0], nm[1], false);
	if (n && n->tail && n->tail->ends == ENDS_UNKNOWN)
		n->tail->ends = by_poll ? ENDS_BY_POLL : ENDS_BLOCKING;
}

/* which requests a completion call completed: all, the one at the index, those at the indices */
static void completions(struct rp_lookahead *la, const struct event *ev, const int64_t *req,
			const int64_t *reqs, const int64_t *flag, const int64_t *index, const int64_t *indices)
{
	uint32_t f = ev->fn->flags;
	bool poll = f & FNF_POLL;
	if (!(f & (FNF_COMPLETE | FNF_FREE)) || (ev->s->flags & SIGF_FAILED_POLL) || (flag && !flag[0]))
		return;
	if (req)
		ended(la, req, poll);
	int64_t n = reqs && !sv_is_symbolic(reqs[0]) ? reqs[0] : 0;
	if (index && !sv_is_symbolic(index[0]) && index[0] >= 0 && index[0] < n)
		ended(la, reqs + 1 + 2 * index[0], poll);
	for (int64_t q = 0; indices && !sv_is_symbolic(indices[0]) && q < indices[0]; q++)
		if (indices[1 + q] >= 0 && indices[1 + q] < n)
			ended(la, reqs + 1 + 2 * indices[1 + q], poll);
	for (int64_t j = 0; !index && !indices && j < n; j++)
		ended(la, reqs + 1 + 2 * j, poll);
}

/* the scout reads one more call */
static bool scout(struct rp *x)
{
	struct rp_lookahead *la = x->la;
	struct event ev;
	if (la->done || !event_next(&la->it, &ev)) {
		la->done = true;
		return false;
	}
	int64_t e = la->seen++;
	const int64_t *req = NULL, *reqs = NULL, *flag = NULL, *index = NULL, *indices = NULL;
	struct param_walk w = param_walk(ev.fn, ev.vals, ev.nvals);
	while (param_walk_next(&w)) {
		enum param_kind k = w.kind;
		const int64_t *v = w.v;
		if (k == PK_FLAG_OUT)
			flag = v;
		else if (k == PK_INDEX_OUT)
			index = v;
		else if (k == PK_INDICES_OUT)
			indices = v;
		if (k == PK_REQ) {
			req = v;
			first_use(la, v, e, NONE);
		} else if (k == PK_REQS && !sv_is_symbolic(v[0]) && v[0] > 0) {
			reqs = v;
			bool any = false;
			for (int64_t j = 0; j < v[0]; j++)
				any |= first_use(la, v + 1 + 2 * j, e, (int32_t)j);
			if (any) {
				struct array *a = xcalloc(1, sizeof *a);
				a->ev = e;
				a->n = (uint32_t)v[0];
				a->names = xmalloc(2 * a->n * sizeof *a->names);
				memcpy(a->names, v + 1, 2 * a->n * sizeof *a->names);
				a->base = NONE;
				HASH_ADD(hh, la->arrays, ev, sizeof a->ev, a);
				if (la->last)
					la->last->next = a;
				else
					la->first = a;
				la->last = a;
			}
		} else if (k == PK_REQ_OUT && !sv_is_symbolic(v[0])) {
			struct name *n = name_get(la, (int64_t)ev.req_key, v[0], true);
			struct inst *in = xcalloc(1, sizeof *in);
			in->create = e;
			in->ref_ev = in->ref_pos = NONE;
			in->ends = ENDS_UNKNOWN;
			if (n->tail)
				n->tail->next = in;
			else
				n->head = in;
			n->tail = in;
		}
	}
	if (!w.bad)
		completions(la, &ev, req, reqs, flag, index, indices);
	return true;
}

/* the main walk has reached event ev: arrays of earlier calls need no reservation any more */
void rp_lookahead_at(struct rp *x, int64_t ev)
{
	struct rp_lookahead *la = x->la;
	while (la->first && la->first->ev < ev) {
		struct array *a = la->first;
		la->first = a->next;
		if (!la->first)
			la->last = NULL;
		array_free(x, a);
	}
}

static bool slots_free(struct rp *x, int64_t base, uint32_t n)
{
	if (base < 0 || base + n > x->ring.size)
		return false;
	for (uint32_t j = 0; j < n; j++)
		if (x->ring.owner[base + j] || x->la->reserved[base + j])
			return false;
	return true;
}

/* where the array's position 0 is: next to its requests already in the ring, or a fresh run */
static int64_t place_array(struct rp *x, struct array *a)
{
	if (a->base != NONE)
		return a->base;
	for (uint32_t j = 0; j < a->n; j++) {
		MPI_Request *h = rp_request_lookup(x, a->names[2 * j], a->names[2 * j + 1]);
		if (h)
			return a->base = (int64_t)(h - x->ring.h) - j;
	}
	uint32_t size = x->ring.size;
	for (uint32_t t = 0; t < size; t++) {
		uint32_t base = (x->ring.next + t) % size;
		if (slots_free(x, base, a->n)) {
			assert(base + a->n <= size);   /* a reserved run never wraps around the ring */
			a->base = base;
			a->reserved = true;
			for (uint32_t j = 0; j < a->n; j++)
				x->la->reserved[base + j] = 1;
			return base;
		}
	}
	return NONE;
}

int64_t rp_lookahead_slot(struct rp *x, int64_t pool, int64_t slot, int64_t ev, bool *by_poll)
{
	*by_poll = false;
	struct rp_lookahead *la = x->la;
	while (la->seen <= ev && scout(x))
		;
	struct name *n = name_get(la, pool, slot, false);
	while (n && n->head && n->head->create < ev) {   /* creations the replay did not make */
		struct inst *old = n->head;
		n->head = old->next;
		free(old);
	}
	if (!n || !n->head || n->head->create != ev)
		return NONE;
	struct inst *in = n->head;
	while ((in->ref_ev == NONE || in->ends == ENDS_UNKNOWN) && la->seen < ev + LOOKAHEAD && scout(x))
		;
	*by_poll = in->ends == ENDS_BY_POLL;
	n->head = in->next;
	if (!n->head) {
		HASH_DEL(la->names, n);
		free(n);
	}
	int64_t ref = in->ref_ev, pos = in->ref_pos;
	free(in);
	if (ref == NONE || pos == NONE)
		return NONE;
	struct array *a;
	HASH_FIND(hh, la->arrays, &ref, sizeof ref, a);
	int64_t base = a ? place_array(x, a) : NONE;
	if (base == NONE || base + pos < 0 || base + pos >= (int64_t)x->ring.size)
		return NONE;
	uint32_t at = (uint32_t)(base + pos);
	assert(at < x->ring.size);
	return x->ring.owner[at] ? NONE : (int64_t)at;
}

bool rp_lookahead_reserved(const struct rp *x, uint32_t at) { return x->la && x->la->reserved[at]; }
