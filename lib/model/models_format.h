/*
 * models_format — the /models group of a campaign container (hdf5-schema/campaign.yaml), the one
 * owner of its meaning: one row per call path and metric (struct campaign_model, whose HDF5 table
 * store/campaign_h5.c lays out) with the model's formula as pmnf_format text, its quality, its
 * prediction at the target with the interval and whether the ladder supports it; and the
 * settings attribute "params=p;reduce=max;aggregate=median;target=p=64" saying how the models
 * were made.
 *
 * `ladder model` writes it (models_write), `ladder report` reads it back (models_read) and
 * evaluates a row's formula at other points (models_formula_eval, through pmnf_parse, the one
 * reader of formula text).
 */
#ifndef LADDER_MODEL_MODELS_FORMAT_H
#define LADDER_MODEL_MODELS_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/aggregate.h"
#include "model/error.h"
#include "model/from_campaign.h"
#include "model/modeler.h"
#include "store/campaign_h5.h"

/* The rows of res, one per (call path, metric) in model_index order (ncallpaths x nmetrics): the
 * formula as pmnf_format text over the experiment's parameters; target (len bytes) receives the
 * target's text ("p=64"), which the rows point at, as their other strings point into res. */
struct campaign_model *models_rows(const struct model_results *res, char *target, size_t len);
void models_rows_free(struct campaign_model *rows, size_t n);

/* Replace the campaign's /models with one row per (call path, metric) of res, in
 * model_index order. params is the parameter list the experiment was read with ("p", "p,n"),
 * reduce and aggregate how values were reduced over ranks and repetitions. False with err set
 * (the campaign unchanged) when the container cannot be written. */
bool models_write(const char *campaign, const struct model_results *res, const char *params,
		  enum rank_reduction reduce, enum model_aggregate aggregate, struct model_error *err);

/* What /models holds, read back. */
struct stored_models {
	struct campaign_model *row;   /* n rows, none when the campaign has no models yet */
	size_t n;
	char *settings;               /* the settings attribute, "" when none */
	char *reduce;                 /* its reduce=, NULL when absent */
	long target_ranks;            /* its target=p=N, 0 when absent or not a rank count */
};

/* false with err set when the container cannot be read */
bool models_read(const char *campaign, struct stored_models *m, struct model_error *err);
void stored_models_free(struct stored_models *m);

/* the value of key in "k=v;k=v" settings (fresh string), NULL when absent */
char *models_setting(const char *settings, const char *key);

/* The value of a stored formula (pmnf_format text over p and n) at p and n; false with why when
 * the text is not such a formula (an unmodeled row's is empty). */
bool models_formula_eval(const char *formula, double p, double n, double *value, char *why, size_t whylen);

#endif
