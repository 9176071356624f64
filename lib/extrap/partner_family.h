/*
 * partner_family — the small library of partner laws that are not grid moves of +-1 but a law of
 * the rank's grid coordinates and of the index of the call in a loop (issue 30, pattern 3):
 *
 *     xor      the coordinate c_d XOR 2^k (recursive doubling and halving, butterflies)
 *     ring+    (c_d + 2^k) mod d_d, and ring- (c_d - 2^k) mod d_d (distance 2^k on a ring)
 *     mirror   d_d - 1 - c_d
 *     transpose (c_1, c_0) on a q x q grid
 *
 * where k is the call's index j in a loop of L calls (k = j) or counts down (k = L - 1 - j). The
 * grid is row-major, the last dimension fastest, as everywhere in extrap. A family explains a set
 * of observed relative peers when it gives every one of them; on the target grid it is a law of
 * the rank (run/rank_law.h), so a synthetic run states it in space independent of the rank count.
 */
#ifndef LADDER_EXTRAP_PARTNER_FAMILY_H
#define LADDER_EXTRAP_PARTNER_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"
#include "run/rank_law.h"

enum partner_kind { PARTNER_XOR, PARTNER_RING_UP, PARTNER_RING_DOWN, PARTNER_MIRROR, PARTNER_TRANSPOSE };

struct partner_family {
	uint8_t kind;     /* enum partner_kind */
	uint8_t dim;      /* the dimension it acts on (not transpose) */
	bool down;        /* k = L - 1 - j instead of k = j */
};

/* the families of a grid of ndims dimensions, in the order they are tried */
uint32_t partner_family_count(uint32_t ndims);
void partner_family_nth(uint32_t ndims, uint32_t i, struct partner_family *out);

/* the world rank rank's partner on g for call j of a loop of L; -1 where the family gives none (a
 * coordinate off the grid, a transpose of a grid that is not square) */
int64_t partner_of(const struct partner_family *f, const struct grid *g, int64_t rank, uint64_t j, uint64_t L);

/* the relative partner (partner - rank) of every rank of g as a law of the rank; false with why
 * when the family is no such law there (an XOR of a bit the dimension does not hold) */
bool partner_rank_law(const struct partner_family *f, const struct grid *g, uint64_t j, uint64_t L,
		      struct rank_law *out, char *why, size_t whylen);

/* "xor 2^k in dimension 1 (k = j)" */
void partner_family_name(const struct partner_family *f, char *out, size_t outlen);

#endif
