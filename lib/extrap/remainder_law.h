/*
 * remainder_law — the count of a rank in an uneven decomposition that deals N items over the d_j
 * coordinates of dimension j, floor(N / d_j) each and one more to the first N mod d_j (issue 30,
 * pattern 4):
 *
 *     v = a * (floor(N / d_j) + (c_j < N mod d_j)) = a * ceil((N - c_j) / d_j)
 *
 * a law of the rank's coordinate c_j, not of its position class alone: 50 cells over 6 give
 * coordinates 0 and 1 nine each and 2 to 5 eight, so the interior of a 6-wide dimension holds
 * both. Fitted exactly over every rank of every rung, as rounded_law.h fits its quotients: each
 * point bounds N to an interval, (q - 1) d_j + c_j < N <= q d_j + c_j with q = v / a, and the law
 * holds when the intervals meet.
 *
 * A synthetic run cannot state it yet: it states values that differ inside a position class as
 * laws of the rank (run/rank_law.h), sums of coordinates shifted and wrapped, and (c_j < r) is
 * none of them; a term for it there (and in the store, the replay and the proxy) comes first.
 * Until then the class is refused as not SPMD over the grid, and the refusal names this law when
 * it explains the value its ranks differ in at every rung (classes.h).
 */
#ifndef LADDER_EXTRAP_REMAINDER_LAW_H
#define LADDER_EXTRAP_REMAINDER_LAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/coord_law.h"
#include "extrap/law.h"

struct remainder_law {
	uint32_t dim;         /* j */
	int64_t a;            /* the multiple */
	int64_t lo, hi;       /* every N in lo..hi reproduces the points */
	char text[96];        /* "2*(floor(50/d1) + (c1 < 50 mod d1))" */
};

/* the law of the points (all values positive; three at least); false when none fits. The first
 * dimension and the smallest multiple that fit are taken. */
bool remainder_law_fit(const struct coord_points *p, struct remainder_law *out);
/* its value at a rank of grid g, for N = l->lo */
int64_t remainder_law_eval(const struct remainder_law *l, const struct grid *g, int64_t rank);

#endif
