/*
 * history — the nightly record of a campaign's figures: one row per night, figure and target
 * (its file: store/history_h5.h). A report reads the past nights, marks each figure with its
 * trailing median and whether it regressed, and appends the night.
 */
#ifndef LADDER_REPORT_HISTORY_H
#define LADDER_REPORT_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/figures.h"
#include "store/h5.h"
#include "store/history_h5.h"

/* For every figure: the earlier nights with a value, their trailing median over the last
 * `window`, and a regression when the value is below it by more than margin (never for a figure
 * without a rule, NAME=none: it is recorded, not judged). After figures_apply_thresholds. */
void history_judge(const struct history *h, struct figures *f, size_t window, double margin);

/* Hold the history (an exclusive flock of PATH.lock, a regular file, never through a symlink)
 * from before history_read to after history_append, so that two reports appending at once both
 * keep their nights. The lock's descriptor, or -1 with e set. */
int history_lock(const char *path, struct h5_err *e);
void history_unlock(int fd);

/* Append the night's figures to h's rows and write the history (history_write). */
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
