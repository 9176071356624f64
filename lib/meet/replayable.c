/*
 * replayable — the checks that decide whether a run can be replayed faithfully. See replayable.h.
 */
#include "meet/replayable.h"

#include "run/events.h"

#include <stdio.h>
#include <stdlib.h>

static bool share_of(const char *text, double *out)
{
	char *end;
	if (!text)
		return false;
	*out = strtod(text, &end);
	return end != text && !*end && *out >= 0 && *out <= 1;
}

bool run_kept_shares(const struct run *r, double *calls, double *bytes, bool *lossy)
{
	*lossy = r->synthetic && (run_label(r, "lossy_dropped_calls") || run_label(r, "lossy_unaligned") ||
				  run_label(r, "lossy_kept_calls_share"));
	return r->synthetic && share_of(run_label(r, "lossy_kept_calls_share"), calls) &&
	       share_of(run_label(r, "lossy_kept_bytes_share"), bytes);
}

void run_kept_text(const struct run *r, char *out, size_t outlen)
{
	double calls, bytes;
	bool lossy;
	if (run_kept_shares(r, &calls, &bytes, &lossy))
		snprintf(out, outlen, "a lossy extrapolation: it keeps a share %.4f of the calls (%.4f of the bytes) the "
			 "application is expected to make at %u ranks; not the application's calls", calls, bytes, r->nranks);
	else if (lossy)
		snprintf(out, outlen, "a lossy extrapolation: it leaves some of the application's calls at %u ranks out "
			 "(what share was not measured); not the application's calls", r->nranks);
	else
		snprintf(out, outlen, "%s", "");
}

bool run_replayable(const struct run *r, char *why, size_t why_size)
{
	if (!event_calls_bounded(r, why, why_size))
		return false;
	const char *unmet = run_label(r, "not_replayable");
	if (unmet) {
		snprintf(why, why_size, "not replayable: %s", unmet);
		return false;
	}
	const char *threads = run_label(r, "mpi_threads");
	long n = threads ? strtol(threads, NULL, 10) : 1;
	if (n <= 1)
		return true;
	snprintf(why, why_size, "recorded under MPI_THREAD_MULTIPLE with MPI calls from %ld threads of a rank; the "
		 "trace does not hold the order of calls across threads, so it cannot be replayed faithfully", n);
	return false;
}
