/*
 * waitstate — requirements models against time models (Calotoiu et al., SC13, §2.3). For each
 * call path, the terms of its requirement models (bytes and messages sent and received, visits;
 * plus log p for a collective) form a hypothesis that is fitted to the call path's time. When
 * the time grows faster than every requirement term and the requirement hypothesis cannot
 * explain the time (its cross-validation error is twice the time model's and above 2%), the time
 * is likely prolonged by wait states, and the time result says so.
 */
#ifndef LADDER_MODEL_WAITSTATE_H
#define LADDER_MODEL_WAITSTATE_H

#include <stdbool.h>

#include "model/modeler.h"
#include "model/series.h"

/* metric names that count requirements: bytes*, msgs*, messages*, visits */
bool waitstate_is_requirement_metric(const char *name);
/* MPI collectives, which cost at least log p */
bool waitstate_is_collective(const char *callpath);

void waitstate_flag(struct model_results *res, struct series_context *ctx);

#endif
