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
 * A synthetic run states it as a law of the rank (run/rank_law.h): a base a * floor(N / d_j) and
 * one step term a * (c_j < N mod d_j) reading coordinate j (remainder_law_at). Ranks that make the
 * same calls with such counts are united by alike.h, which fits this law where no linear law of
 * the coordinates explains every rank of every rung.
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
/* on grid g, as a law of the rank: base a * floor(N / d_j), one step term a * (c_j < N mod d_j)
 * (a threshold of 0 when d_j divides N: the same shape on every grid) */
void remainder_law_at(const struct remainder_law *l, const struct grid *g, struct rank_law *out);

#endif
