/*
 * partner_family — the small library of partner laws that are not grid moves of +-1 but a law of
 * the rank's grid coordinates and of the index of the call in a loop (issue 30, pattern 3):
 *
 *     xor      the coordinate c_d XOR 2^k (recursive doubling and halving, butterflies)
 *     ring+    (c_d + 2^k) mod d_d, and ring- (c_d - 2^k) mod d_d (distance 2^k on a ring)
 *     next     (c_d + 1) mod d_d, and prev (c_d - 1) mod d_d (the neighbours of a periodic grid,
 *              in a loop that also calls one of the others)
 *     mirror   d_d - 1 - c_d
 *     transpose (c_1, c_0) on a q x q grid
 *     skew+    (c_d + c_e) mod d_d, and skew- (c_d - c_e) mod d_d: a shift by the rank's own
 *              coordinate in another dimension (the initial skew of Cannon's matrix product)
 *
 * where k is the call's index j in a loop of L calls (k = j) or counts down (k = L - 1 - j). The
 * grid is row-major, the last dimension fastest, as everywhere in extrap. A family explains a set
 * of observed relative peers when it gives every one of them; on the target grid it is a law of
 * the rank (run/rank_law.h), so a synthetic run states it in space independent of the rank count.
 * A skew is no such law (where c_d + c_e wraps depends on both coordinates): it is one relative
 * rank on each piece of partner_pieces, boxes of the grid that a synthetic run states as ranklists,
 * at most 3 per value of c_e.
 */
#ifndef LADDER_EXTRAP_PARTNER_FAMILY_H
#define LADDER_EXTRAP_PARTNER_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"
#include "run/rank_law.h"

#define PARTNER_MAX_DIMS LAW_MAX_DIMS

enum partner_kind {
	PARTNER_XOR, PARTNER_RING_UP, PARTNER_RING_DOWN, PARTNER_MIRROR, PARTNER_TRANSPOSE, PARTNER_SKEW_UP,
	PARTNER_SKEW_DOWN, PARTNER_NEXT, PARTNER_PREV
};

struct partner_family {
	uint8_t kind;     /* enum partner_kind */
	uint8_t dim;      /* the dimension it acts on (not transpose) */
	bool down;        /* k = L - 1 - j instead of k = j */
	uint8_t by;       /* skew: the dimension whose coordinate is the distance */
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

/* a skew: one relative partner per piece of partner_pieces, no law of the rank */
bool partner_is_piecewise(const struct partner_family *f);

struct partner_piece {
	int64_t lo[PARTNER_MAX_DIMS], hi[PARTNER_MAX_DIMS];   /* the coordinates it holds, per dimension */
};

/* the pieces of the box lo..hi of g (coordinates per dimension) on which each of the skews f[0..n)
 * gives every rank one relative partner: boxes into *out (freed by the caller); their number. 0
 * with why when the skews act on different dimensions. */
size_t partner_pieces(const struct partner_family *f, size_t n, const struct grid *g, const int64_t *lo,
		      const int64_t *hi, struct partner_piece **out, char *why, size_t whylen);

/* "xor 2^k in dimension 1 (k = j)" */
void partner_family_name(const struct partner_family *f, char *out, size_t outlen);

#endif
