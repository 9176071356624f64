/*
 * timing — the synthetic group's call durations and compute gaps at the target (ScalaExtrap §3.5),
 * by lib/model's PMNF search over the class's rungs: for each duration and gap histogram, the
 * mean per call at every rung is modeled as a function of p and predicted at the target; the
 * largest rung's histogram (every bin, min, max, sum of squares) is scaled to that mean. With
 * three rungs (fewer than the search needs) the constant, one power of p or the constant plus one
 * power is fitted instead (few_rungs.h, no interval); with fewer, or when no model fits, the
 * largest rung's values stay. The
 * models' predictions and their intervals (lib/model's bootstrap) become the synthetic run's
 * /extrap/intervals rows, and their sum a range of the modeled time in its labels
 * (hdf5-schema/run.yaml). A gap's CPU time is modeled as a series of its own when every rung
 * measured CPU times, and scaled by its model (else by the wall time's); where the scaled CPU time
 * exceeds the scaled wall time, the wall time is raised to it (the CPU time does not depend on how
 * many ranks shared a core at each rung; the wall time does).
 */
#ifndef LADDER_EXTRAP_TIMING_H
#define LADDER_EXTRAP_TIMING_H

#include <stdint.h>

#include "extrap/align.h"
#include "run/run.h"

struct timing_summary {
	uint32_t modeled, kept;    /* histograms scaled by a model / left as at the largest rung */
	uint32_t powers;           /* of the modeled, those by the law of three rungs (few_rungs.h) */
	uint32_t intervals;        /* modeled histograms whose model gave a prediction interval */
	double seconds, lo, hi;    /* sum over modeled histograms of count x predicted mean, and of
				      count x the ends of its prediction interval (the value where none) */
	struct run_interval *rows; /* one per modeled histogram */
	uint32_t nrows;
	size_t caprows;
};

/* g: the class's group at the target (group number gi), its signatures renumbered through occ_sig */
void timing_extrapolate(const struct aligned_class *a, const uint32_t *occ_sig, int64_t target, struct run_group *g,
			uint32_t gi, struct timing_summary *sum);

/* a gap's CPU times scaled by f at the target; wall times below them are raised to them */
void timing_scale_gap_cpu(struct run_gap *x, double f);

#endif
