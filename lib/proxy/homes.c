/*
 * homes — where the program keeps the requests it creates. A tracer tells requests that share a
 * handle value (Open MPI's small eager sends, sends to MPI_PROC_NULL) apart by the address each
 * was created at, which is where the application's array that later holds it has it; and
 * applications index such arrays by rank, leaving holes, so creation order does not tell where
 * (the replay looks ahead at run time for the same reason, lib/replay/lookahead.c).
 *
 * For each group, the walk of its first rank's calls finds, for every signature that creates
 * requests, the array call that first takes them and at which position. A signature whose
 * requests always land at the same position of the same array signature gets a home: a fixed
 * slot in the part of the program's request ring kept for that array signature. The program
 * creates its requests there (new_request_at) and the array call finds them side by side.
 * Signatures without a home get the ring's next free slot, as before.
 */
#include <stdlib.h>
#include <uthash.h>

#include "proxy/proxy.h"
#include "run/events.h"
#include "util/xalloc.h"

/* calls walked per group: the homes are learnt from the first ones of a very long run */
#define HOMES_WALK_BUDGET (1u << 22)
#define UNSET (-1)
#define CONFLICT (-2)

struct pending {              /* a request created and not yet taken by an array */
	struct {
		int64_t pool, slot;
	} key;
	uint32_t creator;         /* its creating signature */
	UT_hash_handle hh;
};

struct walk {
	struct pending *pending;
	int32_t *array_of, *position;   /* per creating signature: its array signature and position */
	uint32_t *length;               /* per array signature: its longest array */
};

static void created(struct walk *w, const struct event *ev, int64_t slot)
{
	struct pending key = {0}, *e;
	key.key.pool = (int64_t)ev->req_key;
	key.key.slot = slot;
	HASH_FIND(hh, w->pending, &key.key, sizeof key.key, e);
	if (!e) {
		e = xcalloc(1, sizeof *e);
		e->key = key.key;
		HASH_ADD(hh, w->pending, key, sizeof e->key, e);
	}
	e->creator = ev->sig;
}

/* the array of requests v (length, then pool and slot of each) of a call */
static void taken(struct walk *w, const struct event *ev, const int64_t *v)
{
	int64_t n = v[0];
	if ((uint64_t)n > w->length[ev->sig])
		w->length[ev->sig] = (uint32_t)n;
	for (int64_t j = 0; j < n; j++) {
		struct pending key = {0}, *e;
		key.key.pool = v[1 + 2 * j];
		key.key.slot = v[2 + 2 * j];
		if (sv_is_symbolic(key.key.pool) || sv_is_symbolic(key.key.slot))
			continue;
		HASH_FIND(hh, w->pending, &key.key, sizeof key.key, e);
		if (!e)
			continue;
		uint32_t c = e->creator;
		if (w->array_of[c] == UNSET) {
			w->array_of[c] = (int32_t)ev->sig;
			w->position[c] = (int32_t)j;
		} else if (w->array_of[c] != (int32_t)ev->sig || w->position[c] != (int32_t)j)
			w->array_of[c] = CONFLICT;
		HASH_DEL(w->pending, e);
		free(e);
	}
}

/* the first rank's calls: which array, at which position, takes each signature's requests */
static void walk_group(const struct proxy_gen *g, struct walk *w)
{
	const struct run_group *grp = &g->r->groups[g->group];
	struct event_iter it;
	struct event ev;
	event_iter_init(&it, g->r, grp->nranks ? ranklist_first(&grp->ranks) : 0);
	for (uint32_t calls = 0; calls < HOMES_WALK_BUDGET && event_next(&it, &ev); calls++) {
		if (ev.s->flags & SIGF_FAILED_POLL)
			continue;   /* left out of the program */
		const int64_t *reqs = group_of_kind(ev.fn, ev.vals, ev.nvals, PK_REQS);
		const int64_t *slot = group_of_kind(ev.fn, ev.vals, ev.nvals, PK_REQ_OUT);
		if (reqs && !sv_is_symbolic(reqs[0]))
			taken(w, &ev, reqs);
		if (slot && !sv_is_symbolic(slot[0]))
			created(w, &ev, slot[0]);
	}
	event_iter_free(&it);
	struct pending *e, *tmp;
	HASH_ITER(hh, w->pending, e, tmp) {
		HASH_DEL(w->pending, e);
		free(e);
	}
}

/* each array signature some creator lives in gets its part of the ring, in signature order */
static void assign_homes(struct proxy_gen *g, const struct walk *w, uint32_t n)
{
	uint32_t *base = xmalloc(n * sizeof *base);
	for (uint32_t s = 0; s < n; s++)
		base[s] = UINT32_MAX;
	free(g->home);
	g->home = xmalloc(n * sizeof *g->home);
	g->homes = 0;
	for (uint32_t s = 0; s < n; s++) {
		g->home[s] = -1;
		int32_t a = w->array_of[s];
		if (a < 0)
			continue;
		if (base[a] == UINT32_MAX && g->homes + w->length[a] <= PROXY_RING_HOMES) {
			base[a] = g->homes;
			g->homes += w->length[a];
		}
		if (base[a] != UINT32_MAX)
			g->home[s] = (int64_t)base[a] + w->position[s];
	}
	free(base);
}

/* the group's homes: g->home[sig] (ring slot, -1 none); g->homes, the slots they take */
void px_homes_build(struct proxy_gen *g)
{
	uint32_t n = g->r->nsigs ? g->r->nsigs : 1;
	struct walk w = {.array_of = xmalloc(n * sizeof *w.array_of), .position = xcalloc(n, sizeof *w.position),
			 .length = xcalloc(n, sizeof *w.length)};
	for (uint32_t s = 0; s < n; s++)
		w.array_of[s] = UNSET;
	walk_group(g, &w);
	assign_homes(g, &w, n);
	free(w.array_of);
	free(w.position);
	free(w.length);
}
