/*
 * history — the nightly record of a campaign's figures (hdf5-schema/history.yaml): one row per
 * night, figure and target in /nights of an HDF5 file with schema 'ladder-history'. A report
 * reads the past nights, marks each figure with its trailing median and whether it regressed,
 * and appends the night (the file is rewritten next to itself and renamed, so a crash leaves the
 * old history).
 */
#ifndef LADDER_REPORT_HISTORY_H
#define LADDER_REPORT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/figures.h"
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

/* Read a history; a file that does not exist is an empty history (true). */
bool history_read(const char *path, struct history *h, struct h5_err *e);
void history_free(struct history *h);

/* For every figure: the earlier nights with a value, their trailing median over the last
 * `window`, and a regression when the value is below it by more than margin. */
void history_judge(const struct history *h, struct figures *f, size_t window, double margin);

/* Append the night's figures and write the history. */
bool history_append(const char *path, struct history *h, const struct figures *f, const char *night,
		    const char *campaign, const char *application, struct h5_err *e);

/* the distinct nights, oldest first, and the value of (figure, target) on night k (NaN) */
size_t history_nights(const struct history *h, char ***nights);
double history_value(const struct history *h, const char *night, const char *figure, uint32_t target);

#endif
