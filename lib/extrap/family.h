/*
 * family — the calls of one call site that differ only by the dimension they concern (the halo
 * faces of a stencil: one receive per neighbour, the same line of code in a loop over dimensions)
 * decide together what no single one of them can:
 *
 *  - counts: one law shared by the members, relative to each member's dimension (law.h). On a
 *    ladder where some dimensions never vary (3-D rungs 2x2x2, 3x2x2, 4x2x2) the face normal to
 *    dimension 0 is the same at every rung while those of dimensions 1 and 2 vary with d0; the
 *    shared law C d_k / P explains all of them and gives each face at the target. A member whose
 *    dimension is unknown in this class (its peer is MPI_PROC_NULL) takes the dimension whose law
 *    reproduces its own values.
 *  - directions: on a periodic dimension of 2 ranks the neighbours at -1 and +1 are the same rank;
 *    the members concerning a dimension whose moves are decided (their order of -1 and +1) show
 *    the pattern the members of an undecided dimension follow.
 *
 * A member's dimension is the one its peer moves along (geometry.h). What the family cannot
 * decide gets a law of its own, or is refused.
 */
#ifndef LADDER_EXTRAP_FAMILY_H
#define LADDER_EXTRAP_FAMILY_H

#include <stdbool.h>
#include <stddef.h>

#include "extrap/align.h"

/* Decide every XV_PENDING value of the class: counts by their family's law where one fits, the
 * rest by a law of their own. A law of its own that is not decided — two laws reproduce the
 * class's rungs and differ at the target, as a class seen at fewer rungs than another often has
 * (an interior is not at the smallest rung) — is decided by the law the same value of the same
 * call site has in another class (others, nothers of them), when that law reproduces every rung
 * of this one and every such law agrees at the target. False with why (class, call, parameter,
 * values, the law's trouble); in lossy mode the call is dropped instead. */
bool family_decide(struct aligned_class *a, const struct aligned_class *const *others, size_t nothers,
		   const struct grid *target, char *why, size_t whylen);
/* Decide the directions of moves that are undecided, from the pattern of their family. */
void family_orient(struct aligned_class *a, uint32_t ndims);

#endif
