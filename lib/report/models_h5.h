/*
 * models_h5 — reading a campaign's scaling models back (/models/callpaths and the settings
 * attribute of /models, hdf5-schema/campaign.yaml), as `ladder model` stored them.
 */
#ifndef LADDER_REPORT_MODELS_H5_H
#define LADDER_REPORT_MODELS_H5_H

#include <stdbool.h>
#include <stddef.h>

#include "store/campaign_h5.h"

/* The models (none when the campaign has no /models/callpaths yet: *n = 0, true) and the
 * settings attribute ("" when none); false with e set when the file cannot be read. */
bool models_read(const char *campaign, struct campaign_model **models, size_t *n, char **settings,
		 struct h5_err *e);
void models_free(struct campaign_model *models, size_t n);

/* the value of key in "k=v;k=v" settings (fresh string), NULL when absent */
char *settings_value(const char *settings, const char *key);

#endif
