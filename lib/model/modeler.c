/*
 * modeler — checks an experiment against what the search needs, then models every
 * (call path, metric). See modeler.h.
 */
#include "model/modeler.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/critical.h"
#include "model/multiparam.h"
#include "model/series.h"
#include "model/waitstate.h"
#include "util/log.h"
#include "util/xalloc.h"

/* experiments with more models than this report progress on stderr */
#define PROGRESS_MIN_MODELS 2000

void model_options_init(struct model_options *o)
{
	memset(o, 0, sizeof *o);
	o->aggregate = MODEL_AGG_MEDIAN;
	exponents_model_default(&o->exponents);
	o->max_terms = 5;
	o->cv = FIT_CV_LOO;
	o->kfold = 5;
	o->relative_weights = true;
	o->bootstrap = 200;
	o->level = 0.95;
	o->noise_limit = 0.25;
	o->seed = 20130101;
	o->time_metric = "time";
}

const char *model_status_name(enum model_status s)
{
	static const char *const names[] = {"ok", "noisy", "too few points", "no data", "failed", "poor fit"};
	return names[s];
}

void model_note(struct model_result *r, const char *fmt, ...)
{
	size_t used = strlen(r->note);
	if (used && used + 2 < sizeof r->note) {
		memcpy(r->note + used, "; ", 3);
		used += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->note + used, sizeof r->note - used, fmt, ap);
	va_end(ap);
}

size_t model_rank_parameter(const struct experiment *e)
{
	static const char *const names[] = {"p", "np", "procs", "nprocs", "ranks", "processes"};
	for (size_t k = 0; k < e->nparams; k++)
		for (size_t n = 0; n < sizeof names / sizeof names[0]; n++)
			if (!strcasecmp(e->params[k], names[n]))
				return k;
	return 0;
}

/* parameter values the candidate terms cannot take */
static int check_parameter_values(const struct experiment *e, const struct model_options *o, struct model_error *err)
{
	bool need_pos = exponents_need_positive(&o->exponents), need_one = exponents_need_log_nonnegative(&o->exponents);
	for (size_t l = 0; l < e->nparams; l++) {
		for (size_t p = 0; p <= e->npoints; p++) {
			bool is_target = p == e->npoints;
			if (is_target && !o->has_target)
				continue;
			double v = is_target ? o->target[l] : experiment_point(e, p)[l];
			char where[160];
			if (is_target)
				snprintf(where, sizeof where, "at the target");
			else
				experiment_format_point(e, p, where, sizeof where);
			if (need_pos && !(v > 0)) {
				model_error_set(err, "parameter '%s' is %g %s%s; the candidate terms use logarithms or "
						"negative or fractional powers, which need values > 0",
						e->params[l], v, is_target ? "" : "at point ", where);
				return -1;
			}
			if (need_one && !(v >= 1)) {
				model_error_set(err, "parameter '%s' is %g %s%s; fractional powers of log2 need values >= 1",
						e->params[l], v, is_target ? "" : "at point ", where);
				return -1;
			}
		}
	}
	return 0;
}

/* enough points with data, and for several parameters enough values along each */
static int check_point_count(const struct experiment *e, struct model_error *err)
{
	double *pts = xmalloc((e->npoints ? e->npoints : 1) * e->nparams * sizeof(double));
	size_t n = 0;
	for (size_t p = 0; p < e->npoints; p++) {
		bool measured = false;
		for (size_t c = 0; c < e->callpaths.n && !measured; c++)
			for (size_t m = 0; m < e->metrics.n && !measured; m++)
				measured = experiment_values(e, c, m, p)->n > 0;
		if (measured)
			memcpy(pts + n++ * e->nparams, experiment_point(e, p), e->nparams * sizeof(double));
	}
	int rc = 0;
	size_t least = e->nparams == 1 ? MODEL_MIN_POINTS_RESTRICTED : MODEL_MIN_POINTS;
	if (n < least) {
		model_error_set(err, "the experiment has %zu measurement point%s; the model search needs at least %zu",
				n, n == 1 ? "" : "s", least);
		rc = -1;
	}
	for (unsigned l = 0; !rc && e->nparams > 1 && l < e->nparams; l++) {
		size_t len = multiparam_line_length(pts, n, (unsigned)e->nparams, l);
		if (len < MODEL_MIN_POINTS) {
			model_error_set(err, "parameter '%s' takes only %zu value%s along its longest line of points (the "
					"others fixed); the model search needs at least %d",
					e->params[l], len, len == 1 ? "" : "s", MODEL_MIN_POINTS);
			rc = -1;
		}
	}
	free(pts);
	return rc;
}

static int check_options(const struct model_options *o, struct model_error *err)
{
	if (o->max_terms < 1 || o->max_terms > PMNF_MAX_TERMS) {
		model_error_set(err, "the number of terms must be between 1 and %d", PMNF_MAX_TERMS);
		return -1;
	}
	if (o->cv == FIT_CV_KFOLD && o->kfold < 2) {
		model_error_set(err, "k-fold cross-validation needs k >= 2");
		return -1;
	}
	if (!(o->level > 0 && o->level < 1)) {
		model_error_set(err, "the interval level must be between 0 and 1");
		return -1;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct model_results *model_experiment(const struct experiment *e, const struct model_options *o,
				       struct model_error *err)
{
	double t0 = now();
	critical_gsl_quiet();   /* GSL errors are checked return values, never an abort */
	if (check_options(o, err) || experiment_check(e, err) || check_parameter_values(e, o, err) ||
	    check_point_count(e, err))
		return NULL;
	struct model_results *res = xcalloc(1, sizeof *res);
	res->e = e;
	res->ncallpaths = e->callpaths.n;
	res->nmetrics = e->metrics.n;
	res->options = *o;
	res->target_given = o->has_target;
	for (size_t l = 0; l < e->nparams; l++) {
		double most = 0;
		for (size_t p = 0; p < e->npoints; p++)
			most = fmax(most, experiment_point(e, p)[l]);
		res->target[l] = o->has_target ? o->target[l] : most;
	}
	size_t total = res->ncallpaths * res->nmetrics;
	res->r = xcalloc(total ? total : 1, sizeof *res->r);
	struct series_context ctx;
	series_context_init(&ctx, e, o, res->target);
	bool progress = o->progress && total >= PROGRESS_MIN_MODELS;
	for (size_t c = 0; c < res->ncallpaths; c++) {
		for (size_t m = 0; m < res->nmetrics; m++)
			model_series(&ctx, c, m, &res->r[model_index(res, c, m)]);
		if (progress)
			progress_update("modeling", (long)((c + 1) * res->nmetrics), (long)total);
	}
	if (progress)
		progress_end();
	waitstate_flag(res, &ctx);
	series_context_free(&ctx);
	res->seconds = now() - t0;
	return res;
}

void model_results_free(struct model_results *res)
{
	if (!res)
		return;
	for (size_t k = 0; k < res->ncallpaths * res->nmetrics; k++)
		free(res->r[k].points);
	free(res->r);
	free(res);
}
