/*
 * extra_p — Extra-P's file formats (extra-p/extrap, docs/file-formats.md), so measurements
 * can come from Extra-P users and results can be checked with Extra-P:
 *
 *   text        PARAMETER p [n]; POINTS (4) (8) ... or ( 4 100 ) ( 8 100 ) ...; then blocks of
 *               REGION <call path> / METRIC <name> followed by one DATA line (the repetitions)
 *               per point, in the order of POINTS; '#' comments
 *   JSON        {"parameters": [...], "measurements": {call path: {metric: [{"point": [...],
 *               "values": [...]}]}}}, and the older id-based form with "callpaths",
 *               "coordinates", "metrics", "measurements"
 *   JSON Lines  one {"params": {...}, "value": v or [...], "callpath": ..., "metric": ...} per line
 *
 * Readers build an experiment and refuse, with "FILE:LINE: ..." naming the call path, metric
 * and point, what the modeler could not use: NaN or negative values, points with the wrong
 * number of coordinates, DATA lines that do not match POINTS, duplicate points. A file without
 * METRIC lines gets the metric "<default>", as in Extra-P.
 */
#ifndef LADDER_MODEL_EXTRA_P_H
#define LADDER_MODEL_EXTRA_P_H

#include "model/error.h"
#include "model/experiment.h"
#include "model/modeler.h"

#define EXTRA_P_DEFAULT_METRIC "<default>"
#define EXTRA_P_DEFAULT_CALLPATH "<root>"
/* the longest line the readers take (an endless one, say from /dev/zero, is refused after it) */
#define EXTRA_P_MAX_LINE (1 << 24)

/* any of the formats, told apart by content */
struct experiment *extra_p_read(const char *path, struct model_error *err);
struct experiment *extra_p_read_text(const char *path, struct model_error *err);
/* JSON (either form) or JSON Lines */
struct experiment *extra_p_read_json(const char *path, struct model_error *err);

/* Write e as Extra-P's JSON input ("parameters" and "measurements", which Extra-P reads with
 * its --json reader); with res, ladder's models ride along under the key "ladder", which
 * Extra-P ignores. */
int extra_p_write_json(const char *path, const struct experiment *e, const struct model_results *res,
		      struct model_error *err);

#endif
