/*
 * chrome — a run as Chrome trace-event JSON (the format Perfetto's UI and chrome://tracing open):
 * one complete ("X") event per call with its rank as the thread, metadata events naming the
 * process and every rank, and the run's provenance in "otherData". Streamed: memory does not
 * depend on the number of calls.
 */
#ifndef LADDER_EXPORT_CHROME_H
#define LADDER_EXPORT_CHROME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "export/export.h"
#include "run/run.h"

/* false with a message in why when the run is inconsistent or the output cannot be written */
bool export_chrome(const struct run *r, FILE *out, const struct export_options *o,
		   struct export_stats *st, char *why, size_t whylen);

#endif
