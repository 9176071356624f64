/*
 * range — the one bounds check for "COUNT items starting at OFFSET" inside a table of N items,
 * written so that neither the sum nor anything else can overflow. Readers of untrusted files use
 * it for every (offset, count) pair they follow.
 */
#ifndef LADDER_UTIL_RANGE_H
#define LADDER_UTIL_RANGE_H

#include <stdbool.h>
#include <stdint.h>

/* true when [offset, offset + count) lies within [0, n) */
static inline bool range_within(uint64_t offset, uint64_t count, uint64_t n)
{
	return offset <= n && count <= n - offset;
}

#endif
