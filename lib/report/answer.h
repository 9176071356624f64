/*
 * answer — what the user asked, in words: at P ranks the application is predicted to make N calls
 * and move B bytes per rank (the leading functions), to take T seconds (with its interval), with
 * the kernels that will dominate; then, where the real run was measured, how far each prediction
 * was from it, one sentence per figure. And the verdict with its reasons. The writers put these
 * first; every sentence is plain text that still goes through the writer's escaping function.
 */
#ifndef LADDER_REPORT_ANSWER_H
#define LADDER_REPORT_ANSWER_H

#include <stdbool.h>
#include <stddef.h>

#include "report/figures.h"
#include "report/report.h"

#define ANSWER_FUNCTIONS 3
#define ANSWER_KERNELS 3

struct answer_count {
	const char *name;      /* the MPI function (borrowed from the report) */
	double calls, bytes;   /* per rank */
};

struct answer {
	long ranks;                         /* the target, 0 when the report has none */
	const struct report_target *target; /* its validation, NULL when none */
	bool counts_from_trace;             /* the counts are the extrapolated trace's (else the models') */
	double calls, bytes;                /* per rank (NaN when neither says) */
	struct answer_count fns[ANSWER_FUNCTIONS];
	size_t nfns;
	double time, lower, upper;          /* the sum of the time models at the target; NaN without */
	bool time_supported;                /* every time model in the sum is supported */
	const struct report_model *kernels[ANSWER_KERNELS];   /* largest predicted time first */
	size_t nkernels;
};

void answer_of(const struct report *r, struct answer *a);

/* The prediction as sentences (fresh strings, one per element, NULL-terminated array). */
char **answer_prediction(const struct report *r, const struct answer *a);
/* How far each prediction was from the real run: one sentence per figure that was computed, or
 * why it was not (fresh, NULL-terminated). */
char **answer_accuracy(const struct report *r);
/* The kept share of a lossy extrapolation in one sentence (fresh), NULL when not lossy. */
char *answer_lossy(const struct report_target *t);
/* The state of the report: the figures' (figures_state), FAIL when events or counts differ at a
 * target, NOT VALIDATED when an extrapolation is lossy; the reasons as sentences (fresh,
 * NULL-terminated). */
enum report_state report_judge(const struct report *r, char ***reasons);
void strings_free(char **v);

/* 12.3 k, 4.56 M: a count in words-sized units (into buf) */
const char *fmt_count(double x, char *buf, size_t len);
/* 1.2 KiB, 3.4 MiB */
const char *fmt_bytes(double x, char *buf, size_t len);

#endif
