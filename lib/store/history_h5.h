/*
 * history_h5 — the file of the nightly history (hdf5-schema/history.yaml): one row per night,
 * figure and target in /nights of an HDF5 file with schema 'ladder-history'. Read whole; written
 * whole, next to itself, and renamed over it, so a crash leaves the old history. What the rows
 * mean and how a night is judged is report/history.h.
 */
#ifndef LADDER_STORE_HISTORY_H5_H
#define LADDER_STORE_HISTORY_H5_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/h5.h"
#include "store/store.h"

#define HISTORY_SCHEMA HISTORY_SCHEMA_NAME
#define HISTORY_SCHEMA_VERSION "1.0"

struct history_row {
	char *night;          /* when the report was made, UTC, ISO 8601 */
	char *campaign;       /* the campaign container */
	char *application;
	char *figure;
	uint32_t target;
	double value;         /* NaN: not computed that night */
	double threshold;     /* NaN: none */
	uint8_t held, regression;
};

struct history {
	struct history_row *rows;
	size_t n;
};

/* Read a history; a file that does not exist is an empty history (true). A file that exists and
 * cannot be read, or whose /nights cannot, is false with e naming why: never an empty history
 * that the next append would write over. */
bool history_read(const char *path, struct history *h, struct h5_err *e);
void history_free(struct history *h);

/* Write the n rows as the history at path, created at `night`: written in a fresh private
 * directory next to it (mkdtemp) and renamed over it, so that a crash leaves the old one and no
 * planted name is followed. */
bool history_write(const char *path, const struct history_row *rows, size_t n, const char *night,
		   struct h5_err *e);

#endif
