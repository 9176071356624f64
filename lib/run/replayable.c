/*
 * replayable — the checks that decide whether a run can be replayed faithfully. See replayable.h.
 */
#include "run/replayable.h"

#include "run/events.h"

#include <stdio.h>
#include <stdlib.h>

bool run_replayable(const struct run *r, char *why, size_t why_size)
{
	if (!event_calls_bounded(r, why, why_size))
		return false;
	const char *unmet = run_attr(r, "not_replayable");
	if (unmet) {
		snprintf(why, why_size, "not replayable: %s", unmet);
		return false;
	}
	const char *threads = run_attr(r, "mpi_threads");
	long n = threads ? strtol(threads, NULL, 10) : 1;
	if (n <= 1)
		return true;
	snprintf(why, why_size, "recorded under MPI_THREAD_MULTIPLE with MPI calls from %ld threads of a rank; the "
		 "trace does not hold the order of calls across threads, so it cannot be replayed faithfully", n);
	return false;
}
