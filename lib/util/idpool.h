/*
 * idpool — a set of small non-negative ids handing out the lowest free one, so that processes
 * that create and free objects in the same order get the same ids (Pilgrim §2.3.3).
 */
#ifndef LADDER_UTIL_IDPOOL_H
#define LADDER_UTIL_IDPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct idpool {
	uint64_t *bits;
	size_t nwords;
	size_t used;
};

void idpool_init(struct idpool *p);
void idpool_free(struct idpool *p);
/* lowest free id >= from */
int64_t idpool_lowest_free(const struct idpool *p, int64_t from);
int64_t idpool_take(struct idpool *p, int64_t from);
void idpool_mark(struct idpool *p, int64_t id);
void idpool_give(struct idpool *p, int64_t id);
bool idpool_in_use(const struct idpool *p, int64_t id);

#endif
