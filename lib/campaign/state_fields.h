/*
 * state_fields — the fields of the campaign state file (campaign/statefile.h) as one table per
 * JSON object: the campaign, its site, its counters and each job. Each row names the key, the
 * type of the value, where it lives in struct campaign or struct campaign_job, whether it may be
 * missing or null, and how a string is checked. The writer and the reader both walk these tables,
 * so a field is added, renamed or checked in one place.
 */
#ifndef LADDER_CAMPAIGN_STATE_FIELDS_H
#define LADDER_CAMPAIGN_STATE_FIELDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "campaign/campaign_error.h"

enum state_type {
	SF_STRING,    /* char *: a string (null too when not required) */
	SF_HASH,      /* char[17]: a string, cut to 16 characters */
	SF_LONG,      /* long: an integer */
	SF_LLONG,     /* long long: an integer */
	SF_INT,       /* int: an integer */
	SF_U32,       /* uint32_t: an integer */
	SF_REAL,      /* double: written as a real, read from any number */
	SF_FLAG,      /* bool: true or false */
	SF_SCHED,     /* enum scheduler: "slurm" or "local" */
	SF_SUBMIT,    /* bool (use sbatch): "sbatch" or "libslurm" */
	SF_KIND,      /* enum job_kind by its name (job_kind_name) */
	SF_STATE,     /* enum job_state by its name (job_state_name) */
	SF_EXIT,      /* int exit_code and the bool has_exit after it: an integer, or null if unknown */
	SF_DEPS,      /* char **deps, size_t ndeps: a list of job names */
	SF_DIR,       /* char *dir: written as is; read, a value other than the campaign's directory
			 is kept in moved_from (the campaign was moved or copied) */
};

struct state_field {
	const char *key;
	enum state_type type;
	size_t offset;                      /* into struct campaign or struct campaign_job */
	bool required;                      /* false: missing or null reads as unset */
	bool (*valid)(const char *text);    /* a string's check, NULL when any string does */
	const char *expected;               /* what valid() wants, for the error */
};

struct state_table {
	const char *key;                    /* the object's key at the top level ("jobs[]": each of the list) */
	const struct state_field *fields;
	size_t nfields;
};

extern const struct state_table state_campaign_table, state_site_table, state_counters_table, state_job_table;

/* The fields of table as a JSON object, read from the structure at base. */
json_t *state_fields_write(const struct state_table *t, const void *base);

/* The fields of table from object o into the structure at base; where names the object in the
 * error ("campaign", "jobs[3]"), path the file. False with e naming the file, the object, the field
 * and what was expected. A string field is freed before it is replaced. */
bool state_fields_read(const struct state_table *t, json_t *o, void *base, const char *path, const char *where,
		       struct campaign_error *e);

#endif
