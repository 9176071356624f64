/*
 * profile — the synthetic run's profile (visits, bytes and messages per rank and call path),
 * counted from its trace by the project's one byte accounting (mpi/volume.h), as the tracer counts
 * a real run's calls: what the trace says the ranks call is what the profile says they call.
 * Exclusive times are the largest rung's means per call path (not extrapolated). Calls are placed
 * under the root region, so a ladder with user regions (MPI_Pcontrol) gets no profile; functions
 * the tracer only counted are not in the trace and not in the profile. The profile is per rank, so
 * its size grows with P: callers skip it for large targets.
 */
#ifndef LADDER_EXTRAP_PROFILE_H
#define LADDER_EXTRAP_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"

/* Fill out's nodes, counts and time_stats from its trace (out->nranks, groups and signatures
 * set); ref is the largest rung. False with why when it cannot; out's profile stays empty. */
bool extrap_profile(const struct run *ref, struct run *out, char *why, size_t whylen);

#endif
