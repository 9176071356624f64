/*
 * model_json — results as JSON. See model_json.h.
 */
#include "model/model_json.h"

#include <math.h>

/* JSON has no NaN or infinity: those become null */
static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *model_pmnf_json(const struct pmnf *f, const char *const *names)
{
	char buf[1024];
	pmnf_format(f, names, buf, sizeof buf);
	json_t *terms = json_array();
	for (unsigned k = 0; k < f->nterms; k++) {
		json_t *factors = json_array();
		for (unsigned l = 0; l < f->nparams; l++) {
			if (pmnf_factor_is_one(f->term[k].f[l]))
				continue;
			json_array_append_new(factors, json_pack("{s:s, s:o, s:o}", "parameter", names[l], "exponent",
								 number(f->term[k].f[l].i), "log_exponent",
								 number(f->term[k].f[l].j)));
		}
		json_array_append_new(terms, json_pack("{s:o, s:o}", "coefficient", number(f->term[k].coef), "factors", factors));
	}
	return json_pack("{s:s, s:o, s:o}", "formula", buf, "constant", number(f->constant), "terms", terms);
}

json_t *model_result_json(const struct model_results *res, size_t cp, size_t metric)
{
	const struct experiment *e = res->e;
	const struct model_result *r = &res->r[model_index(res, cp, metric)];
	const char *const *names = (const char *const *)e->params;
	json_t *o = json_pack("{s:s, s:s, s:s}", "callpath", experiment_callpath(e, cp), "metric",
			      experiment_metric(e, metric), "status", model_status_name(r->status));
	if (r->note[0])
		json_object_set_new(o, "note", json_string(r->note));
	if (model_status_has_function(r->status)) {
		json_object_set_new(o, "model", model_pmnf_json(&r->fn, names));
		json_object_set_new(o, "growth", json_string(r->growth));
		if (r->exact)
			json_object_set_new(o, "exact_law", json_string(r->law));
		json_object_set_new(o, "quality", json_pack("{s:I, s:o, s:o, s:o, s:o}", "points", (json_int_t)r->quality.npoints,
							   "rss", number(r->quality.rss), "adjusted_r2", number(r->quality.ar2),
							   "smape", number(r->quality.smape), "cv_error",
							   number(r->quality.cv_error)));
		json_t *pred = json_pack("{s:o}", "value", number(r->prediction.value));
		if (r->prediction.has_interval) {
			json_object_set_new(pred, "lo", number(r->prediction.lo));
			json_object_set_new(pred, "hi", number(r->prediction.hi));
			json_object_set_new(pred, "level", number(r->prediction.level));
		}
		json_object_set_new(pred, "supported", json_boolean(r->prediction.supported));
		json_object_set_new(o, "prediction", pred);
	}
	if (r->noise.tested)
		json_object_set_new(o, "noise", json_pack("{s:o, s:o, s:o}", "spread", number(r->noise.spread), "between",
							  number(r->noise.between), "p_value", number(r->noise.p_value)));
	if (r->requirement_growth[0]) {
		json_object_set_new(o, "requirement_growth", json_string(r->requirement_growth));
		json_object_set_new(o, "wait_states", json_boolean(r->wait_state));
	}
	json_t *pts = json_array();
	for (size_t p = 0; r->points && p < e->npoints; p++) {
		const struct point_stats *s = &r->points[p];
		if (!s->nreps)
			continue;
		json_t *coord = json_array();
		for (size_t l = 0; l < e->nparams; l++)
			json_array_append_new(coord, number(experiment_point(e, p)[l]));
		json_array_append_new(pts, json_pack("{s:o, s:o, s:o, s:o, s:o, s:I}", "point", coord, "value", number(s->value),
						     "min", number(s->min), "max", number(s->max), "sd", number(s->sd),
						     "repetitions", (json_int_t)s->nreps));
	}
	json_object_set_new(o, "points", pts);
	return o;
}

json_t *model_results_json(const struct model_results *res, size_t metric, const size_t *order)
{
	const struct experiment *e = res->e;
	json_t *target = json_object();
	for (size_t l = 0; l < e->nparams; l++)
		json_object_set_new(target, e->params[l], number(res->target[l]));
	json_t *ranking = json_array(), *models = json_array();
	for (size_t k = 0; k < res->ncallpaths; k++) {
		json_t *rec = model_result_json(res, order[k], metric);
		json_object_set_new(rec, "rank", json_integer((json_int_t)k + 1));
		json_array_append_new(ranking, rec);
	}
	for (size_t c = 0; c < res->ncallpaths; c++)
		for (size_t m = 0; m < res->nmetrics; m++)
			json_array_append_new(models, model_result_json(res, c, m));
	const struct model_options *o = &res->options;
	json_t *opts = json_pack("{s:s, s:I, s:s, s:I, s:o, s:I}", "aggregate", model_aggregate_name(o->aggregate), "terms",
				 (json_int_t)o->max_terms, "cv", o->cv == FIT_CV_LOO ? "loo" : "k-fold", "k",
				 (json_int_t)(o->cv == FIT_CV_LOO ? 0 : o->kfold), "level", number(o->level), "bootstrap",
				 (json_int_t)o->bootstrap);
	return json_pack("{s:o, s:b, s:s, s:o, s:o, s:o}", "target", target, "target_given", res->target_given, "metric",
			 experiment_metric(e, metric), "options", opts, "ranking", ranking, "models", models);
}
