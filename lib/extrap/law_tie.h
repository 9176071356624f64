/*
 * law_tie — two laws that reproduce every rung and differ at the target: the rung that would tell
 * them apart. A refusal for such a tie names it, so that the user knows which run to add: the
 * smallest rank count off the ladder, up to the target's, whose balanced grid (MPI_Dims_create's,
 * of the target's dimensionality; every dimension 3 wide or more when some such count exists, so
 * that every position class has ranks there) gives the two laws different integer values.
 */
#ifndef LADDER_EXTRAP_LAW_TIE_H
#define LADDER_EXTRAP_LAW_TIE_H

#include <stdbool.h>
#include <stddef.h>

#include "extrap/law.h"

/* the rung that tells a and b apart (pts: the points both reproduce, whose grids are the ladder's);
 * false when no rank count up to the target's does */
bool law_tie_rung(const struct law *a, const struct law *b, const struct law_points *pts, const struct grid *target,
		  struct grid *out);
/* the tie as text: "A or B: a rung of 36 ranks (6x6) would decide" */
void law_tie_text(const struct law *a, const char *b_text, const struct law *b, const struct law_points *pts,
		  const struct grid *target, char *out, size_t outlen);

#endif
