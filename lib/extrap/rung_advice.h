/*
 * rung_advice — which rank counts to add to a ladder so that a position class shows.
 *
 * A class exists at a rank count when the grid the code lays there has it (a dimension 3 wide or
 * more for an interior, say). Which grid that is depends on the code's rule of grids
 * (grid_rule.h): under each rule the rungs' grids still allow, the smallest rank counts not on the
 * ladder whose grid has the class, with those grids.
 */
#ifndef LADDER_EXTRAP_RUNG_ADVICE_H
#define LADDER_EXTRAP_RUNG_ADVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"

#define RUNG_ADVICE_COUNTS 3
#define RUNG_ADVICE_RULES 6   /* the orders of three balanced factors */

/* one rule (or several that give the same grids there) and the counts it advises */
struct rung_advice_rule {
	char rule[360];                          /* its name, "A or B" when several */
	size_t n;                                /* 0: no count up to the bound has the class */
	int64_t nranks[RUNG_ADVICE_COUNTS];
	struct grid grids[RUNG_ADVICE_COUNTS];   /* the rule's grid at each count */
};

struct rung_advice {
	int64_t bound;   /* the largest rank count looked at */
	size_t nrules;
	struct rung_advice_rule rules[RUNG_ADVICE_RULES];
};

/* The advice for class cls given the rungs' grids (n of them, one dimensionality, the class part
 * of grids[0]): the rules of grid_rule.h that give every rung's grid (MPI_Dims_create's alone
 * when it is one of them and dims_create_called); without one, a single dimension that grows
 * while the others stay as at every rung, else MPI_Dims_create's order. Rank counts from 2 to
 * 4 times the largest rung plus 64. */
void rung_advice_find(uint32_t cls, const struct grid *grids, size_t n, bool dims_create_called,
		      struct rung_advice *out);
/* "add rungs whose grid has it: 36 ranks (3x3x4), 45 (3x3x5) or 48 (3x4x4) under balanced factors,
 * largest last (...)", the rules in play joined by "; "; "no rank count up to 172 gives a grid that
 * has it under ..." for a rule (or all) without one */
void rung_advice_text(const struct rung_advice *a, char *out, size_t outlen);

#endif
