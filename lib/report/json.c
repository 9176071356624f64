/*
 * json — the report for machines, built with jansson. Numbers that could not be computed are
 * null. See writers.h.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/writers.h"
#include "util/log.h"

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *tri(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

static json_t *str(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *figures_json(const struct figures *f)
{
	json_t *a = json_array();
	for (size_t i = 0; i < f->n; i++) {
		const struct figure *g = &f->v[i];
		json_array_append_new(a, json_pack("{s:s, s:I, s:o, s:s, s:o, s:b, s:b, s:I, s:o, s:b, s:s}", "name", g->name,
			"target", (json_int_t)g->target, "value", num(g->value), "source", g->source, "threshold",
			g->has_threshold ? json_real(g->threshold) : json_null(), "default_threshold", g->default_threshold,
			"held", g->held, "nights", (json_int_t)g->nights, "trailing_median", num(g->trailing_median),
			"regression", g->regression, "state", figure_state(g)));
	}
	return a;
}

/* what a lossy extrapolation kept; null when it is not lossy */
static json_t *lossy_json(const struct report_target *t)
{
	const struct lossy *l = &t->lossy;
	if (!l->lossy)
		return json_null();
	if (!l->has_share)
		return json_pack("{s:b, s:o}", "lossy", 1, "problem", str(l->problem));
	json_t *fns = json_array();
	for (size_t i = 0; i < l->nfns; i++) {
		const struct lossy_function *f = &l->fns[i];
		json_array_append_new(fns, json_pack("{s:s, s:I, s:I, s:I, s:I, s:o, s:o}", "name", f->name, "kept_calls",
			(json_int_t)f->kept_calls, "expected_calls", (json_int_t)f->expected_calls, "kept_bytes",
			(json_int_t)f->kept_bytes, "expected_bytes", (json_int_t)f->expected_bytes, "kept_calls_share",
			f->expected_calls ? json_real((double)f->kept_calls / (double)f->expected_calls) : json_null(),
			"kept_bytes_share",
			f->expected_bytes ? json_real((double)f->kept_bytes / (double)f->expected_bytes) : json_null()));
	}
	char *sentence = answer_lossy(t);
	json_t *o = json_pack("{s:b, s:I, s:I, s:f, s:f, s:o, s:s}", "lossy", 1, "expected_calls",
		(json_int_t)l->expected_calls, "expected_bytes", (json_int_t)l->expected_bytes, "kept_calls_share",
		l->kept_calls_share, "kept_bytes_share", l->kept_bytes_share, "by_function", fns, "sentence", sentence);
	free(sentence);
	return o;
}

static json_t *target_json(const struct report_target *t)
{
	json_t *truth = json_array(), *timed = json_array();
	for (size_t i = 0; i < t->ntruth; i++)
		json_array_append_new(truth, json_string(t->truth[i]));
	for (size_t i = 0; i < t->ntimed; i++)
		json_array_append_new(timed, json_string(t->timed[i]));
	const char *from = t->ntimed ? "untraced" : t->ntruth ? "traced" : NULL;
	json_t *whatif = json_array();
	for (size_t k = 0; k < t->nwhatif; k++)
		json_array_append_new(whatif, json_pack("{s:s, s:f, s:f, s:o, s:o}", "replay", t->whatif[k].replay,
			"compute_scale", t->whatif[k].compute_scale, "message_scale", t->whatif[k].message_scale,
			"time", num(t->whatif[k].time), "ratio", num(t->whatif[k].time / t->replay_time)));
	json_t *proxy = json_pack("{s:o, s:o, s:o, s:o}", "run", str(t->proxy), "time", num(t->proxy_time), "accuracy",
		num(t->proxy_accuracy), "vs_replay", num(t->proxy_time / t->replay_time));
	json_t *o = json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:o, s:I, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o}",
		"ranks", (json_int_t)t->ranks, "truth", truth, "timed", timed, "app_time", num(t->app_time),
		"app_time_from", str(from), "traced_time", num(t->traced_time), "extrap", str(t->extrap),
		"extrap_synthetic", t->extrap_synthetic, "extrap_note", str(t->extrap_note), "events_equal",
		tri(t->events_equal), "events_ranks_differ", (json_int_t)t->events_ranks_differ, "first_difference",
		str(t->events_first_diff), "counts_equal", tri(t->counts_equal), "counts_differ",
		(json_int_t)t->counts_differ, "replay", str(t->replay), "replay_time", num(t->replay_time),
		"time_accuracy", num(t->time_accuracy), "whatif", whatif, "proxy", proxy);
	json_object_set_new(o, "lossy", lossy_json(t));
	json_object_set_new(o, "extrap_calls_per_rank", num(t->extrap_calls));
	json_object_set_new(o, "extrap_bytes_per_rank", num(t->extrap_bytes));
	return o;
}

static json_t *strings_json(char **v)
{
	json_t *a = json_array();
	for (size_t i = 0; v && v[i]; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

/* the answer: the prediction at the target and how far each figure was from the real run */
static json_t *answer_json(const struct report *r)
{
	struct answer a;
	answer_of(r, &a);
	json_t *fns = json_array(), *kernels = json_array();
	for (size_t i = 0; i < a.nfns; i++)
		json_array_append_new(fns, json_pack("{s:s, s:o, s:o}", "name", a.fns[i].name, "calls", num(a.fns[i].calls),
						     "bytes", num(a.fns[i].bytes)));
	for (size_t i = 0; i < a.nkernels; i++)
		json_array_append_new(kernels, json_pack("{s:s, s:o, s:b}", "callpath", a.kernels[i]->callpath, "time",
							 num(a.kernels[i]->prediction), "supported", a.kernels[i]->supported));
	char **pred = answer_prediction(r, &a), **acc = answer_accuracy(r);
	json_t *o = json_pack("{s:I, s:s, s:o, s:o, s:o, s:{s:o, s:o, s:o, s:b}, s:o, s:o, s:o}", "ranks", (json_int_t)a.ranks,
		"counts_from", a.counts_from_trace ? "extrapolated trace" : "models", "calls_per_rank", num(a.calls),
		"bytes_per_rank", num(a.bytes), "functions", fns, "time", "value", num(a.time), "lower", num(a.lower),
		"upper", num(a.upper), "supported", a.time_supported, "kernels", kernels, "prediction", strings_json(pred),
		"accuracy", strings_json(acc));
	strings_free(pred);
	strings_free(acc);
	return o;
}

static json_t *model_json(const struct report_model *m)
{
	return json_pack("{s:s, s:s, s:b, s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "callpath", m->callpath,
		"note", m->note, "supported", m->supported,
		"metric", m->metric, "status", m->status, "model", m->model, "growth", m->growth, "prediction",
		num(m->prediction), "lower", num(m->lower), "upper", num(m->upper), "level", num(m->level),
		"measured", num(m->measured), "accuracy", num(m->accuracy), "interval_held", tri(m->held));
}

bool report_write_json(const struct report *r, const struct verdict *v, FILE *out)
{
	json_t *targets = json_array(), *models = json_array(), *unused = json_array();
	for (size_t i = 0; i < r->ntargets; i++)
		json_array_append_new(targets, target_json(&r->targets[i]));
	for (size_t i = 0; i < r->nmodels; i++)
		json_array_append_new(models, model_json(&r->models[i]));
	for (size_t i = 0; v->thresholds && i < v->thresholds->n; i++)
		if (!v->thresholds->v[i].used)
			json_array_append_new(unused, json_string(v->thresholds->v[i].name));
	json_t *root = json_pack("{s:s, s:s, s:s, s:s, s:I, s:b, s:o, s:o, s:o, s:{s:I, s:o, s:I, s:o}, s:o, s:o}",
		"campaign", r->campaign, "application", r->application, "created", r->created ? r->created : "",
		"model_settings", r->settings, "model_target", (json_int_t)r->model_target, "pass", v->pass,
		"unknown_thresholds", unused, "figures", figures_json(&r->figs), "targets", targets, "ranking",
		"callpaths", (json_int_t)r->ranked, "spearman", num(r->spearman), "k", (json_int_t)r->k, "topk",
		num(r->topk), "models", models, "history",
		v->history_path ? json_pack("{s:s, s:I}", "file", v->history_path, "earlier_rows",
					    (json_int_t)(v->history ? v->history->n : 0))
				: json_null());
	if (!root)
		return false;
	json_object_set_new(root, "state", json_string(report_state_name(v->state)));
	json_object_set_new(root, "state_reasons", strings_json(v->reasons));
	json_object_set_new(root, "answer", answer_json(r));
	json_t *lossy = json_array();
	for (size_t i = 0; i < r->ntargets; i++) {
		char *s = answer_lossy(&r->targets[i]);
		if (s)
			json_array_append_new(lossy, json_string(s));
		free(s);
	}
	json_object_set_new(root, "lossy", lossy);
	bool ok = json_dumpf(root, out, JSON_INDENT(2)) == 0 && fputc('\n', out) != EOF;
	json_decref(root);
	return ok;
}
