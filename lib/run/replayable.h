/*
 * replayable — can a run be replayed faithfully at all? Asked by `ladder replay` before it
 * launches anything and by the replayer before MPI_Init.
 */
#ifndef LADDER_RUN_REPLAYABLE_H
#define LADDER_RUN_REPLAYABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"

/* false, with the reason in why, when a rank's calls exceed the walk bound (run/events.h), when the
 * run is labelled not_replayable (a synthetic run whose calls would not meet), or when
 * the run was recorded under MPI_THREAD_MULTIPLE with MPI
 * calls from several threads of a rank (the tracer's label mpi_threads): the trace does not hold
 * the order of calls across threads, and replaying them from one thread can deadlock. */
bool run_replayable(const struct run *r, char *why, size_t why_size);

#endif
