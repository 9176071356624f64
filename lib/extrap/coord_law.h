/*
 * coord_law — an integer that changes from rank to rank as a law of the rank's grid coordinates
 * c_j and the grid's dimension sizes d_i (ScalaExtrap §3.3 solves ranklists and parameters by
 * linear systems over the dimension sizes; here the coordinates join them):
 *
 *     v = sum a_ij d_i c_j + sum b_j c_j + sum e_i d_i + f
 *
 * fitted over the ranks of every rung at once: the smallest set of terms (at most
 * COORD_LAW_MAX_TERMS) whose least-squares coefficients (intfit.h), rounded, reproduce every point
 * exactly. Two equally small laws that differ at the target are ambiguous. The transpose partner
 * of a q x q grid, relative to the rank, (d0 - 1)(c1 - c0) = d0 c1 - c1 - d0 c0 + c0, is one.
 *
 * On a grid a law is a law of the rank (run/rank_law.h): the coefficient of coordinate j, which is
 * (rank / s_j) mod d_j with s_j the stride of dimension j, is sum_i a_ij d_i + b_j, the base
 * sum_i e_i d_i + f. That is how a synthetic run states it, in space independent of P.
 */
#ifndef LADDER_EXTRAP_COORD_LAW_H
#define LADDER_EXTRAP_COORD_LAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"
#include "run/rank_law.h"

#define COORD_LAW_MAX_TERMS 4

struct coord_term {
	uint8_t kind;      /* coord_law.c's enum: 1, d_i, c_j, d_i c_j */
	uint8_t d, c;      /* the dimension of d_i and of c_j */
};

struct coord_law {
	uint32_t nterms;   /* 0: the value is 0 */
	struct coord_term terms[COORD_LAW_MAX_TERMS];
	int64_t coef[COORD_LAW_MAX_TERMS];
	char text[128];    /* "d0*c1 - c1 - d0*c0 + c0", or why none fits */
};

/* value[i] seen at rank ranks[i] of grid grids[i] */
struct coord_points {
	const struct grid *grids;
	const int64_t *ranks, *values;
	size_t n;
};

/* the law of the points; false with text saying why (none of up to COORD_LAW_MAX_TERMS terms fits,
 * or two disagree at target) */
bool coord_law_fit(const struct coord_points *p, const struct grid *target, struct coord_law *out);
/* its value at a rank of grid g */
int64_t coord_law_eval(const struct coord_law *l, const struct grid *g, int64_t rank);
/* on grid g, as a law of the rank: one term per dimension of g, even of coefficient 0 */
void coord_law_at(const struct coord_law *l, const struct grid *g, struct rank_law *out);

#endif
