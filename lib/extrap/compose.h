/*
 * compose — a position class no rung has, composed from classes the rungs have: per-dimension
 * reasoning for ladders whose small rungs never show some dimension's interior (3-D rungs of 8, 12
 * and 16 ranks are 2x2x2, 3x2x2 and 4x2x2: dimensions 1 and 2 are never wider than 2).
 *
 * The interior of a dimension behaves as the union of its low and high sides: what both sides do
 * alike the interior does, and where one side calls MPI_PROC_NULL (no neighbour beyond the edge)
 * and the other its neighbour along that dimension, the interior calls that neighbour (in its
 * signature's values and in its value streams alike). The rule is
 * checked where the ladder does show an interior (compose_check) before it is used where it does
 * not.
 *
 * A rooted collective's root (rank 0, in the low corner) differs from the others in that call's
 * root-only parameters: when one side holds the root and the composed class does not, such calls
 * are as on the other side, whose timing the composed class takes too.
 */
#ifndef LADDER_EXTRAP_COMPOSE_H
#define LADDER_EXTRAP_COMPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/align.h"

/* class cls (interior along dim) from lo and hi, the classes with dim at its low and high side */
bool compose_union(const struct aligned_class *lo, const struct aligned_class *hi, uint32_t dim, uint32_t cls,
		   const struct grid *target, struct aligned_class *out, char *why, size_t whylen);
/* the same on grid target, where lo's and hi's streams were evaluated on grid streams_at (a class
 * one rung has, composed on that rung's grid from sides aligned for the extrapolation's target):
 * where one side streams MPI_PROC_NULL and the other a move across dim, the move (stream_at.h) */
bool compose_union_on(const struct aligned_class *lo, const struct aligned_class *hi, uint32_t dim, uint32_t cls,
		      const struct grid *target, const struct grid *streams_at, struct aligned_class *out, char *why,
		      size_t whylen);
/* does the union of lo and hi along dim give mid, the interior the ladder shows? */
bool compose_check(const struct aligned_class *lo, const struct aligned_class *mid, const struct aligned_class *hi,
		   uint32_t dim, const struct grid *target, char *why, size_t whylen);

#endif
