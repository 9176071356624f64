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

/* Read a history; a file that does not exist is an empty history (true). A file that exists and
 * cannot be read, or whose /nights cannot, is false with e naming why: never an empty history
 * that the next append would write over. */
bool history_read(const char *path, struct history *h, struct h5_err *e);
void history_free(struct history *h);

/* For every figure: the earlier nights with a value, their trailing median over the last
 * `window`, and a regression when the value is below it by more than margin (never for a figure
 * without a rule, NAME=none: it is recorded, not judged). After figures_apply_thresholds. */
void history_judge(const struct history *h, struct figures *f, size_t window, double margin);

/* Hold the history (an exclusive flock of PATH.lock, a regular file, never through a symlink)
 * from before history_read to after history_append, so that two reports appending at once both
 * keep their nights. The lock's descriptor, or -1 with e set. */
int history_lock(const char *path, struct h5_err *e);
void history_unlock(int fd);

/* Append the night's figures and write the history: written in a fresh private directory next to
 * it (mkdtemp) and renamed over it, so that a crash leaves the old one and no planted name is
 * followed. */
bool history_append(const char *path, struct history *h, const struct figures *f, const char *night,
		    const char *campaign, const char *application, struct h5_err *e);

/* the values of (figure, target) on the last `last` nights (NaN where it has none), oldest
 * first, into values[] (and whether the night marked it a regression into regressed[], when not
 * NULL); returns how many nights (at most last). One pass over the rows. */
size_t history_series(const struct history *h, const char *figure, uint32_t target, size_t last, double *values,
		      bool *regressed);

/* the distinct nights, oldest first, and the value of (figure, target) on night k (NaN) */
size_t history_nights(const struct history *h, char ***nights);
double history_value(const struct history *h, const char *night, const char *figure, uint32_t target);

#endif
