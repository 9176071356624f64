/*
 * export — what every exporter takes and reports: which ranks and which time window to write,
 * and how much was written. The formats live beside it (chrome.h, otf2.h).
 */
#ifndef LADDER_EXPORT_EXPORT_H
#define LADDER_EXPORT_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

struct export_options {
	const bool *rank_selected;    /* nranks flags, or NULL for every rank */
	double from, to;              /* time window in seconds since the start; to < 0: no end */
	uint64_t max_events;          /* per rank; 0: no limit */
	const char *source;           /* the container's path, recorded in the output */
};

struct export_stats {
	uint64_t events;              /* calls written */
	uint32_t ranks;               /* ranks written */
	bool recorded_times;          /* every time written came from recorded timestamps */
};

bool export_rank_selected(const struct export_options *o, uint32_t rank);
/* whether a call from start to end (seconds) overlaps the window */
bool export_in_window(const struct export_options *o, double start, double end);
/* whether a call starting at start lies beyond the window (later calls do too) */
bool export_past_window(const struct export_options *o, double start);
/* whether a rank has written as many calls as it may */
bool export_rank_full(const struct export_options *o, uint64_t written);
/* What the timestamps are, for the output's provenance. */
const char *export_timestamps_kind(bool recorded);

#endif
