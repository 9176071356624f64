/*
 * from_campaign — the experiment of a campaign container: every run's profile, one measurement
 * point per rung (rank count, and problem size when modeled), one repetition per run. Time is
 * reduced over ranks by a chosen statistic (max by default); counts (visits, bytes, messages)
 * likewise over the per-rank values.
 */
#ifndef LADDER_MODEL_FROM_CAMPAIGN_H
#define LADDER_MODEL_FROM_CAMPAIGN_H

#include <stdbool.h>

#include "model/error.h"
#include "model/experiment.h"

enum rank_reduction { REDUCE_MAX, REDUCE_MIN, REDUCE_MEAN, REDUCE_MEDIAN, REDUCE_SUM };

bool rank_reduction_parse(const char *s, enum rank_reduction *out);
const char *rank_reduction_name(enum rank_reduction r);

/* params: "p" (rank count) or "p,n" (rank count x the runs' numeric 'size' label). NULL and an
 * error naming the file and run when the campaign cannot be read or a run lacks what is needed. */
struct experiment *experiment_from_campaign(const char *path, const char *params, enum rank_reduction reduce,
					    struct model_error *err);

#endif
