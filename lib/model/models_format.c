/*
 * models_format — building, writing and reading back the /models group of a campaign container.
 * See models_format.h.
 */
#include "model/models_format.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/pmnf.h"
#include "util/xalloc.h"

/* the names of the parameters a stored formula is written over */
static const char *const formula_params[] = {"p", "n"};

/* one row: the model of call path cp and metric m */
static void model_row(const struct model_results *res, size_t cp, size_t m, const char *const *names,
		      const char *target, struct campaign_model *row)
{
	assert(cp < res->ncallpaths && m < res->nmetrics && res->e->nparams <= PMNF_MAX_PARAMS);
	const struct model_result *r = &res->r[model_index(res, cp, m)];
	char formula[512] = "";
	if (model_status_has_function(r->status))
		pmnf_format(&r->fn, names, formula, sizeof formula);
	row->callpath = (char *)experiment_callpath(res->e, cp);
	row->metric = (char *)experiment_metric(res->e, m);
	row->status = (char *)model_status_name(r->status);
	row->model = xstrdup(formula);
	row->growth = (char *)r->growth;
	row->note = (char *)r->note;
	row->target = (char *)target;
	row->points = (uint32_t)r->quality.npoints;
	row->ar2 = r->quality.ar2;
	row->smape = r->quality.smape;
	row->rss = r->quality.rss;
	row->cv_error = r->quality.cv_error;
	row->prediction = r->prediction.value;
	row->lower = r->prediction.has_interval ? r->prediction.lo : NAN;
	row->upper = r->prediction.has_interval ? r->prediction.hi : NAN;
	row->level = r->prediction.level;
	row->wait_state = r->wait_state;
	row->supported = model_status_has_function(r->status) && r->prediction.supported;
}

struct campaign_model *models_rows(const struct model_results *res, char *target, size_t len)
{
	const struct experiment *e = res->e;
	size_t n = res->ncallpaths * res->nmetrics;
	struct campaign_model *rows = xcalloc(n + 1, sizeof *rows);
	const char *names[PMNF_MAX_PARAMS];
	target[0] = 0;
	for (size_t l = 0; l < e->nparams && l < PMNF_MAX_PARAMS; l++) {
		names[l] = e->params[l];
		size_t used = strlen(target);
		snprintf(target + used, len - used, "%s%s=%g", l ? "," : "", names[l], res->target[l]);
	}
	for (size_t cp = 0; cp < res->ncallpaths; cp++)
		for (size_t m = 0; m < res->nmetrics; m++)
			model_row(res, cp, m, names, target, &rows[model_index(res, cp, m)]);
	return rows;
}

void models_rows_free(struct campaign_model *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(rows[i].model);
	free(rows);
}

bool models_write(const char *campaign, const struct model_results *res, const char *params,
		  enum rank_reduction reduce, enum model_aggregate aggregate, struct model_error *err)
{
	size_t n = res->ncallpaths * res->nmetrics;
	char target[128];
	struct campaign_model *rows = models_rows(res, target, sizeof target);
	char *settings = xasprintf("params=%s;reduce=%s;aggregate=%s;target=%s", params, rank_reduction_name(reduce),
				   model_aggregate_name(aggregate), target);
	struct h5_err he;
	bool ok = campaign_write_models(campaign, rows, (uint32_t)n, settings, &he);
	if (!ok)
		model_error_set(err, "%s", he.msg);
	models_rows_free(rows, n);
	free(settings);
	return ok;
}

char *models_setting(const char *settings, const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = settings; p && *p;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return xasprintf("%.*s", (int)(len - klen - 1), p + klen + 1);
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

bool models_read(const char *campaign, struct stored_models *m, struct model_error *err)
{
	memset(m, 0, sizeof *m);
	struct h5_err he;
	if (!campaign_read_models(campaign, &m->row, &m->n, &m->settings, &he)) {
		model_error_set(err, "%s", he.msg);
		return false;
	}
	m->reduce = models_setting(m->settings, "reduce");
	char *target = models_setting(m->settings, "target");
	if (target && !strncmp(target, "p=", 2))
		m->target_ranks = strtol(target + 2, NULL, 10);
	free(target);
	return true;
}

void stored_models_free(struct stored_models *m)
{
	campaign_models_free(m->row, m->n);
	free(m->settings);
	free(m->reduce);
	memset(m, 0, sizeof *m);
}

bool models_formula_eval(const char *formula, double p, double n, double *value, char *why, size_t whylen)
{
	struct pmnf f;
	if (!pmnf_parse(formula, formula_params, 2, &f, why, whylen))
		return false;
	const double x[2] = {p, n};
	*value = pmnf_eval(&f, x);
	return true;
}
