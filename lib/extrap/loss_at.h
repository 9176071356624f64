/*
 * loss_at — loss measured at the target (issue 29): what the application is expected to make at P
 * ranks, function by function, projected from the rungs with every call they made (the parts
 * lossy alignment left out included), and what the lossy synthetic run keeps of it. Stored in the
 * run's labels (hdf5-schema/run.yaml):
 *
 *   lossy_expected_calls, lossy_expected_bytes   the projected totals over all ranks at P
 *                                                (bytes: sent plus received)
 *   lossy_kept_calls_share, lossy_kept_bytes_share   the synthetic run's totals over them,
 *                                                "%.4f", at most 1
 *   lossy_kept_by_function   "NAME kept_calls expected_calls kept_bytes expected_bytes" per
 *                            function of the MPI table, joined by ';'
 *
 * A projection is an exact law of the grid sizes when the rungs' totals follow one (law.h), else
 * the per-rank mean as a power of P through the rungs: an estimate, said as one.
 */
#ifndef LADDER_EXTRAP_LOSS_AT_H
#define LADDER_EXTRAP_LOSS_AT_H

#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"
#include "run/run.h"

struct loss_at {
	uint64_t expected_calls, expected_bytes, kept_calls, kept_bytes;
	double calls_share, bytes_share;
};

/* rungs[i] on grids[i], the synthetic run out at target: the labels set on out, the totals in *sum.
 * Walks every rank of every rung and of out. */
void loss_at_record(struct run *const *rungs, const struct grid *grids, size_t n, const struct grid *target,
		    struct run *out, struct loss_at *sum);

#endif
