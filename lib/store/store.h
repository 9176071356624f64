/*
 * store — the only code that touches HDF5: reading and writing every container (run, campaign),
 * checking what a file is before trusting it, and validating files against hdf5-schema/.
 *
 * Every function reports failure through struct h5_err as one line: "FILE: what is wrong".
 */
#ifndef LADDER_STORE_STORE_H
#define LADDER_STORE_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "run/run.h"
#include "store/h5.h"

#define RUN_SCHEMA "ladder-run"
#define RUN_SCHEMA_MAJOR 2
#define RUN_SCHEMA_MINOR 2
/* still read: 1.x, one literal value stream per rank and per-group timing tables of wall times
 * (hdf5-schema/run-1.yaml) */
#define RUN_SCHEMA_OLDEST_MAJOR 1
#define CAMPAIGN_SCHEMA "ladder-campaign"
#define CAMPAIGN_SCHEMA_MAJOR 1
#define CAMPAIGN_SCHEMA_MINOR 0
#define HISTORY_SCHEMA_NAME "ladder-history"     /* store/history_h5.c writes it */

/* What a file claims to be: its schema name and version (from the root attributes). */
struct store_identity {
	char kind[64];        /* "run", "campaign", or "" when not a ladder container */
	char schema[64];
	int major, minor;
};

/* Open and identify. Fails for missing, empty, non-HDF5, damaged files and for HDF5 files that
 * are not ladder containers. */
bool store_identify(const char *path, struct store_identity *id, struct h5_err *e);
/* Refuse a wrong kind or a major version this ladder does not read, naming what was found and
 * expected. Run containers are read from RUN_SCHEMA_OLDEST_MAJOR to RUN_SCHEMA_MAJOR. */
bool store_expect(const char *path, const struct store_identity *id, const char *kind, struct h5_err *e);

bool store_write_run(const char *path, const struct run *r, struct h5_err *e);
/* The run container at path, replaced as a whole or not at all: refused when the run's function
 * table is not ladder's (run/fn_check.h; import and extrap write through here), when path is a device,
 * FIFO, socket or directory, or names one of the inputs (whatever the names); written to
 * PATH.part, flushed to disk and renamed over path, the part removed on any failure (a full disk). */
bool store_replace_run(const char *path, const struct run *r, char *const *inputs, int ninputs,
		       struct h5_err *e);
/* Reads, checks the kind and version, refuses a function table other than ladder's (its names and
 * parameter names would reach decode's text, replay's issuers and proxy sources), and validates
 * cross-references (run_check). Every command reads runs through it. */
bool store_read_run(const char *path, struct run *r, struct h5_err *e);
/* The same without the function-table check: for validate, which lists every difference itself,
 * and for tests of the format with tables of their own */
bool store_read_run_as_written(const char *path, struct run *r, struct h5_err *e);

#endif
