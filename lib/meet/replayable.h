/*
 * replayable — can a run be replayed faithfully at all? Asked by `ladder replay` before it
 * launches anything and by the replayer before MPI_Init.
 */
#ifndef LADDER_MEET_REPLAYABLE_H
#define LADDER_MEET_REPLAYABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "run/run.h"

/* false, with the reason in why, when a rank's calls exceed the walk bound (run/events.h), when the
 * run is labelled not_replayable (a synthetic run whose calls would not meet), or when
 * the run was recorded under MPI_THREAD_MULTIPLE with MPI
 * calls from several threads of a rank (the tracer's label mpi_threads): the trace does not hold
 * the order of calls across threads, and replaying them from one thread can deadlock. */
bool run_replayable(const struct run *r, char *why, size_t why_size);

/* a lossy synthetic run's shares of the calls and bytes the application is expected to make at its
 * scale (labels lossy_kept_calls_share and lossy_kept_bytes_share, numbers in [0, 1]): false when
 * the run states none (a traced run, an exact extrapolation) or states one that is no such number;
 * *lossy true when the run left calls out at all (then a share is said, or said to be unknown) */
bool run_kept_shares(const struct run *r, double *calls, double *bytes, bool *lossy);

/* "" for a run that left nothing out, else what a lossy synthetic run's calls are ("a lossy
 * extrapolation: it keeps a share 0.0940 of the calls (0.0512 of the bytes) the application is
 * expected to make at 64 ranks; not the application's calls"), for replay and proxy to say */
void run_kept_text(const struct run *r, char *out, size_t outlen);

#endif
