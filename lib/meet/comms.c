/*
 * comms — communicator instances from the communicator-creating calls. See comms.h.
 */
#include "meet/comms.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "mpi/signature.h"
#include "util/xalloc.h"

/* a signature that creates a communicator */
struct creation {
	uint32_t sig;
	int64_t id, parent;
	bool colored;           /* Comm_split-like: the color (streamed) partitions the parent */
};

/* hashed by its bytes, so it has no padding: every byte is a member's */
struct instance_key {
	int64_t id;
	int64_t color;
	uint32_t parent;
	uint32_t zero;
};
_Static_assert(sizeof(struct instance_key) == 2 * sizeof(int64_t) + 2 * sizeof(uint32_t),
	       "struct instance_key has padding");

struct instance_entry {
	struct instance_key key;
	uint32_t index;
	UT_hash_handle hh;
};

struct builder {
	struct comm_table *t;
	uint32_t cap;
	struct instance_entry *by_key;
	struct rank_comm *pairs;     /* of the rank being built */
	uint32_t npairs, cappairs;
};

static int compare_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static int compare_rank_comm(const void *a, const void *b)
{
	const struct rank_comm *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int compare_creation(const void *a, const void *b)
{
	const struct creation *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* the creation a signature makes, if any */
static bool creation_of(const struct run *r, uint32_t sig, struct creation *c)
{
	const struct run_signature *s = &r->sigs[sig];
	const struct fn_desc *d = &r->fns[s->fn];
	const int64_t *v = r->sigvals + s->voff;
	*c = (struct creation){sig, -1, COMM_ID_WORLD, false};
	PARAM_FOR (w, d, v, s->nvals) {
		int64_t x = w.v[0];
		if (w.kind == PK_COMM && !sv_is_symbolic(x))
			c->parent = x;
		else if (w.kind == PK_COLOR)
			c->colored = true;
		else if (w.kind == PK_NEWCOMM && !sv_is_symbolic(x) && x >= COMM_ID_FIRST_USER)
			c->id = x;
	}
	return c->id >= 0;
}

/* the creations of a group's grammar, by id (parents before children: ids grow with creation) */
static struct creation *group_creations(const struct run *r, const struct run_group *g, uint32_t *n)
{
	bool *seen = xcalloc(r->nsigs ? r->nsigs : 1, sizeof *seen);
	struct creation *out = NULL;
	uint32_t cap = 0;
	*n = 0;
	for (uint64_t k = 0; k < g->g.nsyms; k++) {
		int64_t val = g->g.syms[k].val;
		struct creation c;
		if (val < 0 || (uint64_t)val >= r->nsigs || seen[val])
			continue;
		seen[val] = true;
		if (!creation_of(r, (uint32_t)val, &c))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 8;
			out = xrealloc(out, cap * sizeof *out);
		}
		out[(*n)++] = c;
	}
	free(seen);
	if (*n)   /* out is NULL when the group creates no communicator */
		qsort(out, *n, sizeof *out, compare_creation);
	return out;
}

/* a rank's color in a Comm_split-like creation: the first value of its stream for the signature */
static int64_t color_of(const struct run *r, uint32_t rank, uint32_t sig)
{
	const struct run_stream *s = run_stream_of(r, rank, sig);
	return s && s->length ? run_stream_value(s, rank, 0) : 0;
}

static struct instance_key instance_key_of(int64_t id, uint32_t parent, int64_t color)
{
	return (struct instance_key){.id = id, .color = color, .parent = parent, .zero = 0};
}

static uint32_t instance_for(struct builder *b, struct instance_key key)
{
	struct instance_entry *e = NULL;
	HASH_FIND(hh, b->by_key, &key, sizeof key, e);
	if (e)
		return e->index;
	struct comm_table *t = b->t;
	if (t->ninstances == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 8;
		t->instances = xrealloc(t->instances, b->cap * sizeof *t->instances);
	}
	t->instances[t->ninstances] = (struct comm_instance){key.id, 0, NULL};
	e = xcalloc(1, sizeof *e);
	e->key = key;
	e->index = t->ninstances++;
	HASH_ADD(hh, b->by_key, key, sizeof e->key, e);
	return e->index;
}

static void add_member(struct comm_instance *in, uint32_t rank)
{
	in->ranks = xrealloc(in->ranks, ((size_t)in->n + 1) * sizeof *in->ranks);
	in->ranks[in->n++] = rank;
}

static int64_t pair_lookup(const struct rank_comm *pairs, uint32_t n, int64_t id)
{
	struct rank_comm key = {id, 0};
	const struct rank_comm *hit = bsearch(&key, pairs, n, sizeof *pairs, compare_rank_comm);
	return hit ? (int64_t)hit->instance : -1;
}

static void add_pair(struct builder *b, int64_t id, uint32_t instance)
{
	if (b->npairs == b->cappairs) {
		b->cappairs = b->cappairs ? 2 * b->cappairs : 8;
		b->pairs = xrealloc(b->pairs, b->cappairs * sizeof *b->pairs);
	}
	b->pairs[b->npairs++] = (struct rank_comm){id, instance};
}

/* one rank: the instance of every id it created, in creation order */
static void build_rank(struct builder *b, const struct run *r, uint32_t q, const struct creation *cs,
		       uint32_t ncs)
{
	b->npairs = 0;
	add_pair(b, COMM_ID_WORLD, 0);
	for (uint32_t i = 0; i < ncs; i++) {
		int64_t parent = cs[i].parent == COMM_ID_WORLD ? 0 : pair_lookup(b->pairs, b->npairs, cs[i].parent);
		struct instance_key key = instance_key_of(cs[i].id, parent < 0 ? UINT32_MAX : (uint32_t)parent,
							  cs[i].colored ? color_of(r, q, cs[i].sig) : 0);
		uint32_t in = instance_for(b, key);
		if (pair_lookup(b->pairs, b->npairs, key.id) < 0) {
			add_member(&b->t->instances[in], q);
			add_pair(b, key.id, in);
			qsort(b->pairs, b->npairs, sizeof *b->pairs, compare_rank_comm);
		}
	}
	struct comm_table *t = b->t;
	t->by_rank = xrealloc(t->by_rank, ((size_t)t->first[q] + b->npairs) * sizeof *t->by_rank);
	memcpy(t->by_rank + t->first[q], b->pairs, b->npairs * sizeof *b->pairs);
	t->first[q + 1] = t->first[q] + b->npairs;
}

void comm_table_build(struct comm_table *t, const struct run *r)
{
	memset(t, 0, sizeof *t);
	t->nranks = r->nranks;
	t->first = xcalloc((size_t)r->nranks + 1, sizeof *t->first);
	struct builder b = {t, 0, NULL, NULL, 0, 0};
	instance_for(&b, instance_key_of(COMM_ID_WORLD, UINT32_MAX, 0));
	t->instances[0].n = r->nranks;
	struct creation **creations = xcalloc(r->ngroups ? r->ngroups : 1, sizeof *creations);
	uint32_t *ncreations = xcalloc(r->ngroups ? r->ngroups : 1, sizeof *ncreations);
	for (uint32_t g = 0; g < r->ngroups; g++)
		creations[g] = group_creations(r, &r->groups[g], &ncreations[g]);
	uint32_t *group_of = run_group_index(r);
	for (uint32_t q = 0; q < r->nranks; q++)
		build_rank(&b, r, q, creations[group_of[q]], ncreations[group_of[q]]);
	free(group_of);
	for (uint32_t g = 0; g < r->ngroups; g++)
		free(creations[g]);
	free(creations);
	free(ncreations);
	free(b.pairs);
	struct instance_entry *e, *tmp;
	HASH_ITER(hh, b.by_key, e, tmp) {
		HASH_DEL(b.by_key, e);
		free(e);
	}
	for (uint32_t i = 1; i < t->ninstances; i++)
		qsort(t->instances[i].ranks, t->instances[i].n, sizeof *t->instances[i].ranks, compare_u32);
}

void comm_table_free(struct comm_table *t)
{
	for (uint32_t i = 0; i < t->ninstances; i++)
		free(t->instances[i].ranks);
	free(t->instances);
	free(t->first);
	free(t->by_rank);
	memset(t, 0, sizeof *t);
}

int64_t comm_instance_of(const struct comm_table *t, uint32_t rank, int64_t id)
{
	if (rank >= t->nranks || id == COMM_ID_SELF)
		return -1;
	return pair_lookup(t->by_rank + t->first[rank], t->first[rank + 1] - t->first[rank], id);
}

uint32_t comm_size(const struct comm_table *t, uint32_t caller, int64_t id)
{
	if (id == COMM_ID_SELF)
		return 1;
	int64_t in = comm_instance_of(t, caller, id);
	return in < 0 ? 0 : t->instances[in].n;
}

int64_t comm_rank_of(const struct comm_table *t, uint32_t caller, int64_t id, uint32_t world_rank)
{
	if (id == COMM_ID_SELF)
		return world_rank == caller ? 0 : -1;
	int64_t in = comm_instance_of(t, caller, id);
	if (in < 0)
		return -1;
	const struct comm_instance *c = &t->instances[in];
	if (!c->ranks)
		return world_rank < c->n ? (int64_t)world_rank : -1;
	const uint32_t *hit = bsearch(&world_rank, c->ranks, c->n, sizeof *c->ranks, compare_u32);
	return hit ? hit - c->ranks : -1;
}
