/*
 * rank_law — an integer as a function of the rank that reads it, in O(1) space whatever the rank
 * count: the values SPMD codes compute from their rank (the MPI_Comm_split colour and key of a
 * process grid's row or column, the world rank of a periodic neighbour relative to the caller's,
 * the rank itself):
 *
 *     law(rank) = base + sum over terms k of coef_k * x_k,  x_k = (rank / divisor_k + shift_k) mod modulus_k
 *
 * with integer division and modulus 0 meaning no modulo; a step term reads instead whether x_k is
 * below a threshold, coef_k * (x_k < below_k): the share of an uneven decomposition that deals N
 * items over the d coordinates of a dimension, floor(N/d) each and one more to the first N mod d,
 * is floor(N/d) + (c < N mod d), a base and one step term (extrap/remainder_law.h). On a row-major grid d_0 x ... x d_{n-1}
 * (the last dimension fastest, as MPI numbers a Cartesian grid) the coordinate of a rank in
 * dimension i is (rank / s_i) mod d_i, its stride s_i = d_{i+1} * ... * d_{n-1}; with a shift o,
 * (rank / s_i + o) mod d_i is the coordinate of the periodic neighbour o steps up. So:
 *
 *     the rank                          one term  (1, 1, 0, 0)
 *     a row's colour on an R x C grid   one term  (1, C, 0, 0)      rank / C
 *     a column's colour (or key)        one term  (1, 1, 0, C)      rank mod C
 *     the relative world rank of the    two terms per dimension:    s_i * ((c_i + 1) mod d_i) - s_i * c_i
 *     +1 neighbour on a periodic grid
 *
 * A law holds for any rank count its divisors and moduli make sense for: a synthetic run at a
 * million ranks states a split colour in a few numbers (the extrapolation rescales divisors and
 * moduli with the grid).
 *
 * A law is fitted to values observed on every rank 0..n-1 on a grid of the rank count: the values
 * must be a sum of one function per dimension, each linear in the coordinate or in a shifted
 * coordinate, or a step inside the dimension (one value on coordinates 0..b-1, another on b..d-1,
 * with 2 <= b <= d - 2: a step at an edge is the position class's, which extrapolation tells
 * apart already), and the law must reproduce every value exactly. rank_law_grids lists the grids of a
 * rank count in the order they are preferred — the most balanced first (2x2x2 before 4x2 before
 * 8), then fewer dimensions (4x4 before 4x2x2) — so that a caller fitting many values can choose
 * one grid for all of them (the run's process grid: laws that read alike, and extrapolate alike). On a dimension of 2, where a relative
 * neighbour's values [+s, -s] fit a linear law as well, the neighbour's form is taken: the law
 * then reads the same on every grid.
 */
#ifndef LADDER_RUN_RANK_LAW_H
#define LADDER_RUN_RANK_LAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/grid.h"

#define RANK_LAW_MAX_TERMS 8

struct rank_law_term {
	int64_t coef;
	uint64_t divisor;     /* >= 1 */
	uint64_t shift;
	uint64_t modulus;     /* 0: no modulo */
	uint64_t step;        /* 0: the term reads x; 1: it reads (x < below), 1 or 0 */
	uint64_t below;       /* a step term's threshold (0: never below); 0 for other terms */
};

struct rank_law {
	int64_t base;
	uint32_t nterms;
	struct rank_law_term terms[RANK_LAW_MAX_TERMS];
};

/* the law's value for a rank (two's complement wrap-around: a law that passed rank_law_check and
 * was fitted to values does not overflow on the ranks it was fitted to) */
int64_t rank_law_eval(const struct rank_law *l, uint64_t rank);

/* every grid of n ranks with 1 to 3 dimensions (each of at least 2 but the 1-D one), in the order
 * of preference; freed by the caller */
struct grid *rank_law_grids(uint64_t n, size_t *count);

/* a law of values v[q] observed on the ranks q = 0..n-1 on grid g (of n ranks): false when none of
 * up to RANK_LAW_MAX_TERMS terms reproduces them (symbolic values never follow a law) */
bool rank_law_fit_grid(const int64_t *v, uint64_t n, const struct grid *g, struct rank_law *out);
/* the same on the grid of rank_law_grids(n) with the law of fewest terms (the first such) */
bool rank_law_fit(const int64_t *v, uint64_t n, struct rank_law *out);

/* a step term: coef * (((rank / divisor) mod modulus) < below) */
struct rank_law_term rank_law_step(int64_t coef, uint64_t divisor, uint64_t modulus, uint64_t below);

/* nterms within bounds, divisors >= 1, step 0 or 1, a threshold only on a step term and never past
 * its modulus; false with what is wrong in why */
bool rank_law_check(const struct rank_law *l, char *why, size_t whylen);

/* "2 + 4*((rank/16+1)%4) - 4*(rank/16%4)" for people; a step term "+ 1*(rank/4%4 < 2)" */
void rank_law_format(const struct rank_law *l, char *out, size_t outlen);

#endif
