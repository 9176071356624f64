/*
 * waitstate — flag call paths whose time outgrows their requirements. See waitstate.h.
 */
#include "model/waitstate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/problem.h"

bool waitstate_is_requirement_metric(const char *name)
{
	static const char *const prefixes[] = {"bytes", "msgs", "messages", "visits"};
	for (size_t k = 0; k < sizeof prefixes / sizeof prefixes[0]; k++)
		if (!strncasecmp(name, prefixes[k], strlen(prefixes[k])))
			return true;
	return false;
}

bool waitstate_is_collective(const char *callpath)
{
	static const char *const parts[] = {"reduce", "bcast", "barrier", "gather", "scatter", "alltoall", "scan"};
	const char *leaf = experiment_callpath_leaf(callpath);
	if (strncasecmp(leaf, "MPI_", 4))
		return false;
	for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
		if (strcasestr(leaf + 4, parts[k]))
			return true;
	return false;
}

static void add_shape(struct candidates *c, const struct pmnf_term *t)
{
	for (size_t k = 0; k < c->n; k++)
		if (pmnf_term_same_shape(&c->term[k], t, c->nparams))
			return;
	if (c->n < CANDIDATES_MAX) {
		c->term[c->n] = *t;
		c->term[c->n++].coef = 1.0;
	}
}

/* some leading term of the time model is not covered by any requirement term */
static bool time_outgrows(const struct pmnf *time, const struct candidates *req)
{
	unsigned lead[PMNF_MAX_TERMS];
	unsigned nl = pmnf_leading_terms(time, lead);
	for (unsigned k = 0; k < nl; k++) {
		const struct pmnf_term *t = &time->term[lead[k]];
		bool covered = false;
		for (size_t r = 0; r < req->n && !covered; r++)
			covered = pmnf_term_same_shape(&req->term[r], t, time->nparams) ||
				  pmnf_term_dominates(&req->term[r], t, time->nparams);
		if (!covered)
			return true;
	}
	return false;
}

/* relative RMS cross-validation error of the requirement terms fitted to the time values */
static double requirement_fit_error(const struct model_result *t, const struct candidates *req,
				    const struct model_results *res, struct series_context *ctx)
{
	const struct experiment *e = res->e;
	size_t n = 0;
	for (size_t p = 0; p < e->npoints; p++) {
		if (!t->points[p].nreps)
			continue;
		memcpy(ctx->pts + n * e->nparams, experiment_point(e, p), e->nparams * sizeof(double));
		ctx->y[n++] = t->points[p].value;
	}
	if (n <= req->n + 2)
		return INFINITY;
	struct problem pr;
	struct problem_spec ps = {
		.points = ctx->pts, .y = ctx->y, .n = n, .cand = req, .target = res->target,
		.relative_weights = res->options.relative_weights, .cv = FIT_CV_LOO, .eps_contrib = 0,
	};
	problem_init(&pr, &ps);
	pr.fp.ncheck = 0;
	struct hypothesis h = {.constant = true, .nterms = (unsigned)req->n};
	for (unsigned k = 0; k < h.nterms; k++)
		h.idx[k] = k;
	double err = fit_hypothesis(&pr.fp, &h, ctx->w) ? sqrt(h.cv) : INFINITY;
	problem_free(&pr);
	return err;
}

static void check_callpath(struct model_results *res, size_t cp, size_t tm, struct series_context *ctx)
{
	const struct experiment *e = res->e;
	struct model_result *t = &res->r[model_index(res, cp, tm)];
	if (t->status != MODEL_OK)
		return;
	struct candidates req = {.nparams = (unsigned)e->nparams};
	bool any = false;
	for (size_t m = 0; m < res->nmetrics; m++) {
		const struct model_result *r = &res->r[model_index(res, cp, m)];
		if (m == tm || r->status != MODEL_OK || !waitstate_is_requirement_metric(experiment_metric(e, m)))
			continue;
		any = true;
		for (unsigned k = 0; k < r->fn.nterms; k++)
			add_shape(&req, &r->fn.term[k]);
	}
	if (!any)
		return;
	if (waitstate_is_collective(experiment_callpath(e, cp))) {
		struct pmnf_term logp = {.coef = 1};
		logp.f[model_rank_parameter(e)].j = 1;
		add_shape(&req, &logp);
	}
	struct pmnf shape = {.nparams = req.nparams, .constant = 1, .nterms = (unsigned)req.n};
	memcpy(shape.term, req.term, req.n * sizeof req.term[0]);
	pmnf_growth_class(&shape, (const char *const *)e->params, t->requirement_growth, sizeof t->requirement_growth);
	if (!time_outgrows(&t->fn, &req))
		return;
	double req_err = requirement_fit_error(t, &req, res, ctx);
	if (!(req_err > 2 * t->quality.cv_error && req_err > 0.02))
		return;
	t->wait_state = true;
	model_note(t, "time grows as %s but its requirements as %s: likely wait states", t->growth, t->requirement_growth);
}

void waitstate_flag(struct model_results *res, struct series_context *ctx)
{
	long tm = experiment_find_metric(res->e, res->options.time_metric ? res->options.time_metric : "time");
	if (tm < 0)
		return;
	for (size_t cp = 0; cp < res->ncallpaths; cp++)
		check_callpath(res, cp, (size_t)tm, ctx);
}
