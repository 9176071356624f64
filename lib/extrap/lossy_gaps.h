/*
 * lossy_gaps — a lossy class's gap histograms at the target, made by walking its reference rung's
 * call sequence beside its aligned occurrences: pairs map position by position, and the gap
 * before a kept call that followed dropped ones holds the reference's gaps along the way.
 */
#ifndef LADDER_EXTRAP_LOSSY_GAPS_H
#define LADDER_EXTRAP_LOSSY_GAPS_H

#include <stdbool.h>
#include <stdint.h>

#include "extrap/align.h"
#include "run/run.h"

/* occ_sig: the class's occurrences -> the synthetic run's signatures (UINT32_MAX: dropped); g: the
 * synthetic group, whose gap table (empty or not) gets the walk's gaps, sorted by run_gap_order.
 * False, g untouched, when a repetition count cannot be evaluated at the reference rung or the
 * occurrences are not a subsequence of the reference rung's calls (the caller maps by signature). */
bool lossy_gaps_build(const struct aligned_class *a, const uint32_t *occ_sig, struct run_group *g, uint32_t maxbins);

#endif
