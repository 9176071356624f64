/*
 * model_report — the ranked table `ladder model` prints: one row per call path for one metric,
 * in ranking order, with the prediction at the target and its interval, the growth class, the
 * fit quality and the model; notes (too noisy, too few points, likely wait states) on an
 * indented line below their row.
 */
#ifndef LADDER_MODEL_MODEL_REPORT_H
#define LADDER_MODEL_MODEL_REPORT_H

#include <stdio.h>

#include "model/modeler.h"

/* limit: at most this many rows (0: all) */
void model_print_table(FILE *out, const struct model_results *res, size_t metric, const size_t *order, size_t limit);
/* "p=2048, n=1e+06" */
void model_format_target(const struct model_results *res, char *buf, size_t len);

#endif
