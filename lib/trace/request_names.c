/*
 * request_names — tracking outstanding MPI requests and naming them symbolically.
 *
 * A request is named (pool, slot): the pool is the request pool key of the call signature that
 * created it (the signature without its request, Pilgrim §2.4.2), the slot the lowest free
 * slot in that pool. Completion order then does not perturb the names.
 *
 * Handles are not unique: Open MPI can return the same handle value for different outstanding
 * requests (small eager sends). Entries are therefore found by the address of the application's
 * request variable first and by handle value second (oldest first), and several entries may
 * share one handle value. An unknown handle is named UNKNOWN, never an error.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/tracer.h"
#include "util/idpool.h"
#include "util/xalloc.h"

struct bucket {                /* entries sharing a handle value, oldest first */
	MPI_Request handle;
	struct request_entry *first;
	UT_hash_handle hh;
};

struct pool {
	uint64_t key;
	struct idpool ids;
	UT_hash_handle hh;
};

static struct bucket *buckets;
static struct pool *pools;
static size_t outstanding;

void req_init(void) {}

size_t req_outstanding(void) { return outstanding; }

static struct pool *pool_get(uint64_t key)
{
	struct pool *p;
	HASH_FIND(hh, pools, &key, sizeof key, p);
	if (!p) {
		p = xcalloc(1, sizeof *p);
		p->key = key;
		idpool_init(&p->ids);
		HASH_ADD(hh, pools, key, sizeof p->key, p);
	}
	return p;
}

void *req_pool(uint64_t key) { return pool_get(key); }

uint32_t req_pool_take(void *pool) { return (uint32_t)idpool_take(&((struct pool *)pool)->ids, 0); }

/* entries and buckets are recycled: requests come and go at every call of a loop */
static struct request_entry *free_entries;
static struct bucket *free_buckets;

static struct bucket *bucket_find(MPI_Request h)
{
	struct bucket *b;
	HASH_FIND(hh, buckets, &h, sizeof h, b);
	return b;
}

struct request_entry *req_lookup(MPI_Request *where, MPI_Request handle)
{
	if (handle == MPI_REQUEST_NULL)
		return NULL;
	struct bucket *b = bucket_find(handle);
	if (!b)
		return NULL;
	for (struct request_entry *e = b->first; e; e = e->next)
		if (e->where == where)
			return e;
	return b->first;
}

struct request_entry *req_add(MPI_Request *where, MPI_Request handle, uint64_t key, void *pool, uint32_t slot)
{
	struct request_entry *e = free_entries;
	if (e)
		free_entries = e->next;
	else
		e = xmalloc(sizeof *e);
	memset(e, 0, sizeof *e);
	e->handle = handle;
	e->where = where;
	e->pool = key;
	e->pool_ptr = pool;
	e->slot = slot;
	e->active = true;
	e->raw_offset = -1;
	struct bucket *b = bucket_find(handle);
	if (!b) {
		b = free_buckets;
		if (b)
			free_buckets = (struct bucket *)b->first;
		else
			b = xmalloc(sizeof *b);
		memset(b, 0, sizeof *b);
		b->handle = handle;
		HASH_ADD(hh, buckets, handle, sizeof b->handle, b);
	}
	struct request_entry **tail = &b->first;
	while (*tail)
		tail = &(*tail)->next;
	*tail = e;
	outstanding++;
	return e;
}

static void unlink_entry(struct request_entry *e)
{
	struct bucket *b = bucket_find(e->handle);
	if (!b)
		return;
	for (struct request_entry **p = &b->first; *p; p = &(*p)->next)
		if (*p == e) {
			*p = e->next;
			break;
		}
	if (!b->first) {
		HASH_DEL(buckets, b);
		b->first = (struct request_entry *)free_buckets;
		free_buckets = b;
	}
}

void req_free(struct request_entry *e)
{
	unlink_entry(e);
	idpool_give(&((struct pool *)e->pool_ptr)->ids, e->slot);
	outstanding--;
	e->next = free_entries;
	free_entries = e;
}

void req_fini(void)
{
	struct bucket *b, *btmp;
	HASH_ITER(hh, buckets, b, btmp) {
		while (b->first) {
			struct request_entry *e = b->first;
			b->first = e->next;
			free(e);
		}
		HASH_DEL(buckets, b);
		free(b);
	}
	while (free_entries) {
		struct request_entry *e = free_entries;
		free_entries = e->next;
		free(e);
	}
	while (free_buckets) {
		struct bucket *fb = free_buckets;
		free_buckets = (struct bucket *)fb->first;
		free(fb);
	}
	struct pool *p, *ptmp;
	HASH_ITER(hh, pools, p, ptmp) {
		idpool_free(&p->ids);
		HASH_DEL(pools, p);
		free(p);
	}
	outstanding = 0;
}

void req_complete(struct request_entry *e, const MPI_Status *st)
{
	if (e->wildcard && st)
		trace_patch_source(e, st);
	if (e->persistent) {
		e->active = false;
		return;
	}
	req_free(e);
}
