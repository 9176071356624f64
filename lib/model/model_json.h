/*
 * model_json — the results as JSON (jansson): one record per (call path, metric) with the model
 * (formula, constant, terms with their exponents per parameter), quality, prediction and
 * interval, growth class, status and notes. Used by `ladder model --format json` and by the
 * Extra-P export; the shape is what a store layer can persist.
 */
#ifndef LADDER_MODEL_MODEL_JSON_H
#define LADDER_MODEL_MODEL_JSON_H

#include <jansson.h>

#include "model/modeler.h"

json_t *model_pmnf_json(const struct pmnf *f, const char *const *names);
json_t *model_result_json(const struct model_results *res, size_t cp, size_t metric);
/* {"target": {...}, "metric": ..., "options": {...}, "ranking": [records in order],
 *  "models": [every record]} */
json_t *model_results_json(const struct model_results *res, size_t metric, const size_t *order);

#endif
