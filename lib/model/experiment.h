/*
 * experiment — the input of the modeler, independent of where it came from (a campaign container,
 * or Extra-P's text or JSON files): parameter names, measurement points
 * (one value per parameter), call paths ("main/solve/MPI_Allreduce" or Extra-P's
 * "main->solve"), metrics ("time", "visits", "bytes_sent", ...) and, per call path, metric and
 * point, the values of every repetition.
 *
 * Build one with experiment_new, add the parameters first, then points, call paths, metrics and
 * values in any order (the *_intern functions find or add by name). A (call path, metric, point)
 * without values is a missing measurement; the modeler uses the points that have values.
 */
#ifndef LADDER_MODEL_EXPERIMENT_H
#define LADDER_MODEL_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/error.h"
#include "model/pmnf.h"

/* the repetition values of one (call path, metric, point) */
struct series {
	size_t n, cap;
	double *v;
};

struct name_index;     /* private: name -> index hash */

struct name_list {
	size_t n, cap;
	char **name;
	struct name_index *index;
};

struct experiment {
	size_t nparams;
	char *params[PMNF_MAX_PARAMS];
	size_t npoints, points_cap;
	double *points;            /* npoints x nparams, row-major */
	struct name_list callpaths;
	struct name_list metrics;
	/* values: [callpath][metric][point], capacity-strided so any dimension can grow */
	struct series *cells;
	size_t cap_cp, cap_m, cap_pt;
};

struct experiment *experiment_new(void);
void experiment_free(struct experiment *e);

/* Add a parameter; -1 (with err) when the name is taken, there are too many parameters, or
 * points already exist. Returns its index. */
int experiment_add_parameter(struct experiment *e, const char *name, struct model_error *err);
long experiment_find_parameter(const struct experiment *e, const char *name);

/* Find or add the point with these coordinates (nparams values). */
size_t experiment_intern_point(struct experiment *e, const double *coords);
long experiment_find_point(const struct experiment *e, const double *coords);
static inline const double *experiment_point(const struct experiment *e, size_t pt)
{
	return e->points + pt * e->nparams;
}

size_t experiment_intern_callpath(struct experiment *e, const char *name);
size_t experiment_intern_metric(struct experiment *e, const char *name);
long experiment_find_callpath(const struct experiment *e, const char *name);
long experiment_find_metric(const struct experiment *e, const char *name);
static inline const char *experiment_callpath(const struct experiment *e, size_t cp)
{
	return e->callpaths.name[cp];
}
static inline const char *experiment_metric(const struct experiment *e, size_t m)
{
	return e->metrics.name[m];
}

/* Append repetition values to (call path, metric, point). */
void experiment_add_values(struct experiment *e, size_t cp, size_t m, size_t pt, const double *v, size_t n);
/* The repetitions of (call path, metric, point); n == 0 when nothing was measured. */
const struct series *experiment_values(const struct experiment *e, size_t cp, size_t m, size_t pt);

/* The last element of a call path ("MPI_Allreduce" of "main/solve/MPI_Allreduce" or of
 * "main->solve->MPI_Allreduce"). */
const char *experiment_callpath_leaf(const char *callpath);

/* Check what every consumer relies on: at least one parameter, point, call path and metric;
 * finite, non-negative values; finite parameter values. The message names the call path,
 * metric and point. */
int experiment_check(const struct experiment *e, struct model_error *err);
/* "(p=64, n=1000)" */
void experiment_format_point(const struct experiment *e, size_t pt, char *buf, size_t len);

#endif
