/*
 * settings — reading the "k=v;k=v" settings string `ladder model` stores with the campaign's models
 * (the settings attribute of /models, hdf5-schema/campaign.yaml).
 */
#ifndef LADDER_REPORT_SETTINGS_H
#define LADDER_REPORT_SETTINGS_H

/* the value of key in "k=v;k=v" settings (fresh string), NULL when absent */
char *settings_value(const char *settings, const char *key);

#endif
