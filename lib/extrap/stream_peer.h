/*
 * stream_peer — a class's streamed relative peer read as a move on the process grid (geometry.h),
 * as a peer kept in a signature is (align.c): the value a cell of the class's stream holds at each
 * rung is the rank one move away on that rung's grid, the same move at every rung, and at the
 * target the rank that move reaches on the target grid. A 27-point halo's peers streamed at every
 * rung (26 variants: more than the tracer keeps literal) are then what they are kept literal:
 * d1*d2 + d2 + 1 at 2x2x2 and 3x3x3 is the move (+1, +1, +1), not a law of two unknowns that two
 * rungs cannot confirm.
 */
#ifndef LADDER_EXTRAP_STREAM_PEER_H
#define LADDER_EXTRAP_STREAM_PEER_H

#include <stdbool.h>
#include <stdint.h>

#include "extrap/align.h"
#include "run/stream.h"

/* Cell c of the class's streams at[i] of signature sigs[i] (rung i of cr), when it is a relative
 * peer (a streamed peer or source of a call that streams a fixed number of values) that is one
 * move at every rung — a cell given by a law of the rank when the law gives every rank of the
 * class one value — and no dimension may wrap: its value at the target in *out, the same for
 * every rank of the class (stream_at.c states a law cell so as a law without terms, where the
 * law's own terms do not read on the grid). False otherwise. */
bool stream_peer_at_target(uint32_t cls, const struct class_rungs *cr, const uint32_t *sigs,
			   const struct run_stream *const *at, uint64_t c, const struct grid *target, int64_t *out);

#endif
