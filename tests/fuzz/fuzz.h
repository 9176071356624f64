/*
 * fuzz — what the fuzz targets share: the input as a file for readers that take a path, and the
 * walk every reader of a run makes (each rank's calls, bounded, formatted as decode prints them,
 * and the checks validate makes against the profile and ladder's function table).
 */
#ifndef LADDER_TESTS_FUZZ_H
#define LADDER_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

/* the input written to a file of this process in $TMPDIR (the same path every time); NULL when it
 * cannot be */
const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix);

/* walk a run that passed run_check: at most 64 ranks, at most FUZZ_MAX_CALLS calls each */
#define FUZZ_MAX_CALLS 100000
void fuzz_walk(const struct run *r);

#endif
