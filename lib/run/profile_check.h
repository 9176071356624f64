/*
 * profile_check — a run's profile against its trace. Per rank and traced MPI function, the calls
 * the profile counts (summed over call paths) must equal the calls the rank's grammar and value
 * streams give (a run of identical failed polls counts its repeats). Functions the tracer only
 * counted (profile nodes of unknown functions) have no trace to compare with and are skipped.
 */
#ifndef LADDER_RUN_PROFILE_CHECK_H
#define LADDER_RUN_PROFILE_CHECK_H

#include <stdint.h>

#include "run/run.h"

/* The run must have passed run_check. Reports one line per (rank, function) that differs, at most
 * max_lines of them and then a line with how many more; returns the number of differences. A run
 * without a profile, or a synthetic one, has nothing to compare: 0. */
uint64_t run_check_profile(const struct run *r, uint32_t max_lines,
			   void (*report)(const char *what, void *arg), void *arg);

#endif
