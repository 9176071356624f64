/*
 * idpool — lowest-free id allocation over a bitset. See idpool.h.
 */
#include "util/idpool.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void idpool_init(struct idpool *p) { memset(p, 0, sizeof *p); }

void idpool_free(struct idpool *p)
{
	free(p->bits);
	idpool_init(p);
}

bool idpool_in_use(const struct idpool *p, int64_t id)
{
	size_t w = (size_t)id / 64;
	return id >= 0 && w < p->nwords && (p->bits[w] >> (id % 64) & 1);
}

int64_t idpool_lowest_free(const struct idpool *p, int64_t from)
{
	if (from < 0)
		from = 0;
	size_t w = (size_t)from / 64;
	if (w >= p->nwords)
		return from;
	uint64_t word = ~p->bits[w] & (~0ULL << (from % 64));
	while (!word) {
		if (++w >= p->nwords)
			return (int64_t)(w * 64);
		word = ~p->bits[w];
	}
	return (int64_t)(w * 64) + __builtin_ctzll(word);
}

void idpool_mark(struct idpool *p, int64_t id)
{
	size_t w = (size_t)id / 64;
	if (w >= p->nwords) {
		size_t n = p->nwords ? p->nwords : 1;
		while (n <= w)
			n *= 2;
		p->bits = xrealloc(p->bits, n * sizeof *p->bits);
		memset(p->bits + p->nwords, 0, (n - p->nwords) * sizeof *p->bits);
		p->nwords = n;
	}
	if (!(p->bits[w] >> (id % 64) & 1)) {
		p->bits[w] |= 1ULL << (id % 64);
		p->used++;
	}
}

int64_t idpool_take(struct idpool *p, int64_t from)
{
	int64_t id = idpool_lowest_free(p, from);
	idpool_mark(p, id);
	return id;
}

void idpool_give(struct idpool *p, int64_t id)
{
	if (idpool_in_use(p, id)) {
		p->bits[id / 64] &= ~(1ULL << (id % 64));
		p->used--;
	}
}
