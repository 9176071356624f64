/*
 * stream_at — a call's value stream at the target (issue 12: value streams by law). The ranks of a
 * position class read one stream for a signature at every rung (run/stream.h: a head, a period,
 * per-rank cells as laws of the rank). When its shape (cells in the head and the period, which
 * cells are laws, the laws' terms) is the same at every rung, each number of it — the length, every
 * cell, every law's base, coefficients, divisors, shifts and moduli — is decided across the ladder
 * as a constant or an exact integer law of the grid sizes (law.h) and evaluated at the target: an
 * MPI_Comm_split colour rank / d1 stays rank / d1 on the target's grid, a weak-scaling halo's
 * per-neighbour counts stay what they are. The stream is then stored once for the class's ranks,
 * in space independent of P.
 */
#ifndef LADDER_EXTRAP_STREAM_AT_H
#define LADDER_EXTRAP_STREAM_AT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/align.h"
#include "run/stream.h"

/* the stream of the class's ranks for signature sigs[i] at each rung i of cr, at the target (no
 * ranks yet, sig unset); false with why when the class's ranks read different streams at a rung,
 * the shapes differ across rungs, or a number has no law */
bool stream_at_target(uint32_t cls, const struct class_rungs *cr, const uint32_t *sigs, const struct grid *target,
		      struct run_stream *out, char *why, size_t whylen);

/* where the two sides of a composed class stand (compose.h): class cls, interior along dim, of
 * the grid their streams were evaluated on */
struct stream_sides {
	const struct grid *grid;
	uint32_t cls, dim;
};

/* a copy of a, when b reads the same values on the same ranks' positions (both sides of a composed
 * class), except that where one side's cell is MPI_PROC_NULL (no neighbour beyond its edge of
 * dimension sides->dim) the other's is a relative peer one move across that edge on sides->grid
 * (from the low side's MPI_PROC_NULL a move by -1 along dim, from the high side's by +1): the
 * interior reads that move (sides NULL: no such cells). NULL when they differ otherwise or either
 * is NULL. */
struct run_stream *stream_at_unite(const struct run_stream *a, const struct run_stream *b,
				   const struct stream_sides *sides);

#endif
