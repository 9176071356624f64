/*
 * modeler — the entry point of lib/model: fit a PMNF model to every (call path, metric) of an
 * experiment, predict each at a target with a prediction interval, name its growth class, flag
 * call paths whose time grows faster than their requirements (likely wait states, SC13 §2.3),
 * and rank the call paths at the target.
 *
 *     struct model_options o;
 *     model_options_init(&o);
 *     o.has_target = true; o.target[0] = 4096;
 *     struct model_results *res = model_experiment(e, &o, &err);   // NULL on error, err says why
 *     size_t order[res->ncallpaths]; model_rank(res, metric, order);
 *     ... res->r[model_index(res, cp, metric)] ...
 *     model_results_free(res);
 *
 * How: series.c (aggregate, check the noise, select, refit, predict), search.h (the hypothesis
 * search and its refinement rule), posterior.h (which hypothesis is selected), interval.h and
 * average.h (the prediction interval).
 *
 * The results are plain data (no pointers into the experiment except res->e) so a store layer
 * can persist them.
 */
#ifndef LADDER_MODEL_MODELER_H
#define LADDER_MODEL_MODELER_H

#include <stdbool.h>
#include <stddef.h>

#include "model/aggregate.h"
#include "model/error.h"
#include "model/experiment.h"
#include "model/exponents.h"
#include "model/fit.h"
#include "model/pmnf.h"
#include "model/search.h"

#define MODEL_MIN_POINTS SEARCH_MIN_POINTS
/* One parameter measured at fewer points than MODEL_MIN_POINTS, but at least this many (a code
 * that runs on cubes only: 1, 8, 27), is modeled from a restricted space: an exact integer law
 * (counts), else the constant or a constant and one term; its interval and support say how
 * little three rungs tell, and --advise names the fourth rung that helps most. */
#define MODEL_MIN_POINTS_RESTRICTED 3

struct model_options {
	enum model_aggregate aggregate;   /* per-point value from the repetitions (median); the terms
					     may be chosen with the mean (aggregate_for_selection) */
	struct exponent_set exponents;    /* candidate terms per parameter (the paper's and the
					     strong-scaling terms: exponents_model_default) */
	unsigned max_terms;               /* terms besides the constant (5, capped by the points) */
	enum fit_cv cv;                   /* leave-one-out (default) or k-fold */
	unsigned kfold;                   /* folds for k-fold (5) */
	bool relative_weights;            /* fit relative residuals (default true) */
	bool basic;                       /* Extra-P's basic modeler (one term + constant), for comparison */
	bool has_target;
	double target[PMNF_MAX_PARAMS];   /* where to predict; default: the largest measured point */
	unsigned bootstrap;               /* replicates for the prediction interval (200; 0: none) */
	double level;                     /* of the prediction interval (0.95) */
	double noise_limit;               /* repetitions spreading more than this (0.25 = 25%) with no
					     significant difference between points: too noisy */
	unsigned long seed;               /* of the bootstrap's random numbers */
	const char *time_metric;          /* the time metric for the wait-state check ("time") */
	bool progress;                    /* progress lines on stderr for large experiments */
};

void model_options_init(struct model_options *o);

enum model_status {
	MODEL_OK,           /* a model was fitted */
	MODEL_NOISY,        /* repetitions vary more than the points differ: not fitted */
	MODEL_FEW_POINTS,   /* this call path was measured at too few points */
	MODEL_NO_DATA,      /* this (call path, metric) was never measured */
	MODEL_FAILED,       /* no hypothesis could be fitted */
	MODEL_POOR,         /* fitted, but the model misses the measured values by more than
			       MODEL_POOR_SMAPE percent on average: not to be trusted */
};
const char *model_status_name(enum model_status s);
#define MODEL_STATUSES 6
/* a model misses its data when the SMAPE of the per-point values exceeds this (%): by a
 * third on average, which no measurement noise the noise test lets through explains */
#define MODEL_POOR_SMAPE 33.0
/* the result has a function (a model, or the level of a noisy series) and a prediction */
static inline bool model_status_has_function(enum model_status s)
{
	return s == MODEL_OK || s == MODEL_NOISY || s == MODEL_POOR;
}

struct model_quality {
	size_t npoints;      /* points the model was fitted to */
	double rss;          /* residual sum of squares of the per-point values */
	double ar2;          /* adjusted R^2 of the per-point values */
	double smape;        /* symmetric mean absolute percentage error, % */
	double cv_error;     /* root mean squared relative cross-validation error */
};

/* A prediction whose interval spans more than this factor (hi / lo) is not supported by the
 * ladder: the hypotheses that fit the measured rungs part that far at the target, and the model
 * says so in its note. The other reasons a prediction is not supported are in support.h. */
#define MODEL_SUPPORT_SPAN 10.0

struct model_prediction {
	double value;        /* at the target: the median over the most probable hypotheses
				(average.h), the model's own value when the data is reproduced
				exactly or with --basic */
	bool has_interval;
	double lo, hi;       /* prediction interval of the per-point value measured at the target */
	double level;
	bool supported;      /* the ladder constrains every term at the target, the leave-one-out
				fits agree within the interval, and it spans at most
				MODEL_SUPPORT_SPAN (support.h) */
};

struct model_result {
	size_t callpath, metric;
	enum model_status status;
	char note[256];                    /* why not modeled, or what to look at */
	struct pmnf fn;                    /* the model (status OK; the median level when NOISY) */
	char growth[96];                   /* growth class of the leading terms */
	struct model_quality quality;
	struct model_prediction prediction;
	struct noise_verdict noise;
	struct point_stats *points;        /* one per experiment point; nreps == 0 where not measured */
	bool wait_state;                   /* time grows faster than the requirement metrics */
	char requirement_growth[96];       /* growth class of the requirement models (time metric) */
	unsigned long hypotheses;          /* hypotheses tried */
	bool exact;                        /* a count modeled by an exact integer law (exact.h): fn is
					      its asymptotic shape, law the law itself */
	char law[128];
};

/* Append to r->note (after "; " when it says something already). */
void model_note(struct model_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct model_results {
	const struct experiment *e;        /* not owned */
	size_t ncallpaths, nmetrics;
	struct model_result *r;            /* ncallpaths x nmetrics, see model_index */
	double target[PMNF_MAX_PARAMS];    /* where predictions are made */
	bool target_given;
	struct model_options options;
	double seconds;                    /* wall time of model_experiment */
};

static inline size_t model_index(const struct model_results *res, size_t cp, size_t metric)
{
	return cp * res->nmetrics + metric;
}

/* Model every (call path, metric). NULL on an error that concerns the whole experiment (too few
 * points, non-positive parameter values where logarithms are needed, inconsistent parameters,
 * NaN or negative values), with err naming what is wrong. */
struct model_results *model_experiment(const struct experiment *e, const struct model_options *o,
				       struct model_error *err);
void model_results_free(struct model_results *res);

/* Call path indices ordered for the ranking of one metric: by predicted value at the target,
 * or by growth class then value when no target was given; unmodeled call paths last. */
void model_rank(const struct model_results *res, size_t metric, size_t *order);

/* Index of the rank-count parameter: named p, np, procs, nprocs, ranks or processes, else 0. */
size_t model_rank_parameter(const struct experiment *e);

#endif
