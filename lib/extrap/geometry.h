/*
 * geometry — relative peers read as moves on the process grid: the neighbour at -1, 0 or +1
 * along each dimension of the rung's grid, periodic or not (ScalaExtrap §3.3 solves a peer's rank
 * distance as a law in the dimension sizes; on a grid the trace knows exactly, the move itself is
 * what stays the same across rungs, and it is re-evaluated on the target grid).
 *
 * A move is kept as the set of candidates per dimension that explain what was seen: on a
 * periodic dimension of size 2 the neighbour at +1 is also the one at -1, on a dimension of size 1
 * every move stays. Rungs narrow the candidates down (their sets meet); what is still undecided
 * where it matters at the target is decided by the calls' family (family.h) or refused.
 */
#ifndef LADDER_EXTRAP_GEOMETRY_H
#define LADDER_EXTRAP_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"

enum { STEP_NEG = 1, STEP_STAY = 2, STEP_POS = 4, STEP_ANY = 7 };

struct step {
	uint8_t mask[LAW_MAX_DIMS];   /* STEP_* candidates per dimension */
};

/* The move from the ranks of position class cls on grid g to the rank `offset` away; periodic[k]
 * says whether a move may wrap around dimension k. False when the peer is further than one step
 * in some dimension (or outside the grid). */
bool step_of_offset(const struct grid *g, const bool *periodic, uint32_t cls, int64_t offset, struct step *out);
/* keep a's candidates that b shares; false when a dimension has none left */
bool step_meet(struct step *a, const struct step *b, uint32_t ndims);
/* the one dimension the move goes along (its candidates exclude staying, every other dimension
 * may stay), or -1 */
int step_dim(const struct step *s, uint32_t ndims);
/* the single direction of a move along its dimension: -1, +1, or 0 when both are candidates */
int step_sign(const struct step *s, uint32_t dim);
/* The relative rank of the neighbour, on target grid t, of the ranks of class cls. False when
 * candidates that remain lead to different ranks there: *undecided is the dimension. */
bool step_offset(const struct step *s, const struct grid *t, uint32_t cls, int64_t *offset, uint32_t *undecided);
/* "(0,+1,0)", undecided candidates as "+-1" */
void step_format(const struct step *s, uint32_t ndims, char *out, size_t outlen);

#endif
