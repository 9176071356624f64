/*
 * run_timing — the /timing group of a run container (hdf5-schema/run.yaml): durations and compute
 * gaps, written in the pooled layout of schema 2.0 (run/pool.h: a dictionary of histograms that
 * groups share, with CPU times), read in it and in the per-group tables of 1.x (no CPU times).
 * Lossless timestamps stay with run_h5.c.
 */
#ifndef LADDER_STORE_RUN_TIMING_H
#define LADDER_STORE_RUN_TIMING_H

#include <stdbool.h>

#include "run/run.h"
#include "store/h5.h"

/* Timing statistics are stored with STORE_TIME_BITS significant bits (relative precision 2.4e-4,
 * far below the noise of any clock): the low mantissa bytes become zero and compress away, so
 * the container's size does not wander with the randomness of the measurements. */
#define STORE_TIME_BITS 10
double store_round_time(double x);
/* A stored histogram keeps the bins holding at least half an even share of its bound of bins
 * (1/(STORE_RARE_SHARE x 8) of its samples by default): detail below the histogram's resolution.
 * Rarer bins fold into their neighbours (hist_fold_rare), so a longer run, which meets rarer
 * gaps, stores as many bins as a shorter one of the same shape. */
#define STORE_RARE_SHARE 2

struct source;   /* store/run_source.h */

bool store_write_timing(hid_t timing, const struct run *r);
/* the timing of r's groups (read before), in the layout of the file's schema version */
bool store_read_timing(const struct source *src, struct run *r);

#endif
