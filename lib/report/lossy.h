/*
 * lossy — what a lossy extrapolation kept, read from the synthetic run's labels (hdf5-schema/
 * run.yaml, /labels): 'lossy_expected_calls' and 'lossy_expected_bytes' (all ranks at the target,
 * decimal integers), 'lossy_kept_calls_share' and 'lossy_kept_bytes_share' (fractions in [0, 1]),
 * 'lossy_kept_by_function' ("NAME kept_calls expected_calls kept_bytes expected_bytes" entries
 * joined by ';'). Any 'lossy_*' label makes the run lossy; the share labels are hostile input,
 * checked field by field, and a malformed one is named, never guessed.
 */
#ifndef LADDER_REPORT_LOSSY_H
#define LADDER_REPORT_LOSSY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

/* at most this many per-function entries are read */
#define LOSSY_MAX_FUNCTIONS 4096

struct lossy_function {
	char *name;
	uint64_t kept_calls, expected_calls, kept_bytes, expected_bytes;
};

struct lossy {
	bool lossy;                 /* the run has a lossy_* label */
	bool has_share;             /* the share labels are there and well formed */
	char *problem;              /* why the share is unknown (absent or malformed), NULL with it */
	uint64_t expected_calls, expected_bytes;
	double kept_calls_share, kept_bytes_share;
	struct lossy_function *fns;   /* as the label lists them */
	size_t nfns;
};

/* Read the labels of a run (labels, n); l is always filled (free with lossy_free). */
void lossy_from_labels(const struct run_label *labels, size_t n, struct lossy *l);
void lossy_free(struct lossy *l);

#endif
