/*
 * timeline — one rank's calls with a start time and a duration each, in call order.
 *
 * A run traced in lossless mode (LADDER_TRACE_TIMESTAMPS=1) kept every call's start and duration:
 * the timeline gives those. Otherwise it synthesizes them from the run's timing, the same means a
 * replay uses: before each call the mean compute gap recorded for (previous signature, signature),
 * then the call's mean duration. Synthesized times keep the order and the typical spacing of the
 * calls, not their jitter; exporters say which kind they wrote.
 *
 * Times are seconds since the run's start. Memory: per signature, not per call.
 */
#ifndef LADDER_EXPORT_TIMELINE_H
#define LADDER_EXPORT_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "run/events.h"
#include "run/run.h"

struct timed_event {
	struct event ev;       /* one call: repeat is always 1 (failed-poll runs come one by one) */
	double start, dur;
};

struct gap_mean {
	uint32_t prev, sig;
	double mean;
};

struct timeline {
	struct event_iter it;
	double *dur_mean;              /* per signature */
	struct gap_mean *gaps;         /* sorted by (prev, sig) */
	uint32_t ngaps;
	const struct run_timestamps *ts;   /* this rank's recorded times, or NULL */
	uint64_t ts_next;
	struct event pending;          /* the current event while its repetitions are handed out */
	uint64_t repeat_left;
	uint32_t prev;
	double now;
	bool recorded;                 /* every time so far came from recorded timestamps */
};

/* the run must have passed run_check */
void timeline_init(struct timeline *t, const struct run *r, uint32_t rank);
void timeline_free(struct timeline *t);
/* false at the end, or on an inconsistent run (timeline_error then says why) */
bool timeline_next(struct timeline *t, struct timed_event *out);
const char *timeline_error(const struct timeline *t);
/* whether the run kept timestamps for this rank */
bool timeline_has_recorded_times(const struct run *r, uint32_t rank);

#endif
