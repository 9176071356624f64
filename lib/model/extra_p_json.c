/*
 * extra_p_json — Extra-P's JSON input formats (current and id-based), JSON Lines, the writer of
 * the current format, and telling the formats apart. See extra_p.h.
 */
#include "model/extra_p.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_json.h"
#include "util/file.h"
#include "util/xalloc.h"

static void *fail(struct model_error *err, const char *path, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void *fail(struct model_error *err, const char *path, const char *fmt, ...)
{
	char msg[MODEL_ERRLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	model_error_set(err, "%s: %s", path, msg);
	return NULL;
}

/* a repetition value: a non-negative number */
static bool value_ok(const json_t *v, double *out, const char **why)
{
	if (!json_is_number(v)) {
		*why = "is not a number";
		return false;
	}
	*out = json_number_value(v);
	if (!isfinite(*out)) {
		*why = "is not finite";
		return false;
	}
	if (*out < 0) {
		*why = "is negative";
		return false;
	}
	return true;
}

/* one point: a number (one parameter) or an array with one number per parameter */
static bool point_ok(const struct experiment *e, const json_t *pt, double *c, const char **why)
{
	size_t n = json_is_array(pt) ? json_array_size(pt) : 1;
	if (n != e->nparams) {
		*why = "has a different number of coordinates than there are parameters";
		return false;
	}
	for (size_t k = 0; k < n; k++) {
		const json_t *v = json_is_array(pt) ? json_array_get(pt, k) : pt;
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			*why = "has a coordinate that is not a finite number";
			return false;
		}
		c[k] = json_number_value(v);
	}
	return true;
}

static bool add_parameters(struct experiment *e, const json_t *params, const char *path, struct model_error *err)
{
	if (!json_is_array(params) || !json_array_size(params)) {
		fail(err, path, "\"parameters\" must be a non-empty array");
		return false;
	}
	size_t k;
	const json_t *p;
	json_array_foreach(params, k, p) {
		const char *name = json_is_string(p) ? json_string_value(p) : json_is_object(p) ? json_string_value(json_object_get(p, "name")) : NULL;
		struct model_error e2;
		if (!name) {
			fail(err, path, "parameter %zu has no name", k + 1);
			return false;
		}
		if (experiment_add_parameter(e, name, &e2) < 0) {
			fail(err, path, "%s", e2.msg);
			return false;
		}
	}
	return true;
}

static bool add_values(struct experiment *e, const char *cp, const char *m, const double *c, const json_t *values,
		       const char *path, struct model_error *err)
{
	const json_t *vals = values;
	json_t *single = NULL;
	if (json_is_number(values))
		vals = single = json_pack("[O]", values);
	if (!json_is_array(vals) || !json_array_size(vals)) {
		fail(err, path, "call path '%s', metric '%s': \"values\" must be a non-empty array of numbers", cp, m);
		json_decref(single);
		return false;
	}
	size_t pt = experiment_intern_point(e, c), n = json_array_size(vals);
	double *v = xmalloc(n * sizeof *v);
	char pb[160];
	experiment_format_point(e, pt, pb, sizeof pb);
	for (size_t k = 0; k < n; k++) {
		const char *why;
		if (!value_ok(json_array_get(vals, k), &v[k], &why)) {
			fail(err, path, "call path '%s', metric '%s', point %s: value %zu %s", cp, m, pb, k + 1, why);
			free(v);
			json_decref(single);
			return false;
		}
	}
	experiment_add_values(e, experiment_intern_callpath(e, cp), experiment_intern_metric(e, m), pt, v, n);
	free(v);
	json_decref(single);
	return true;
}

/* {"parameters": [...], "measurements": {callpath: {metric: [{"point", "values"}]}}} */
static struct experiment *read_current(json_t *root, const char *path, struct model_error *err)
{
	struct experiment *e = experiment_new();
	json_t *meas = json_object_get(root, "measurements");
	if (!add_parameters(e, json_object_get(root, "parameters"), path, err))
		goto bad;
	if (!json_is_object(meas) || !json_object_size(meas)) {
		fail(err, path, "\"measurements\" must be a non-empty object of call paths");
		goto bad;
	}
	const char *cp, *m;
	json_t *bymetric, *list;
	json_object_foreach(meas, cp, bymetric) {
		if (!json_is_object(bymetric)) {
			fail(err, path, "call path '%s': expected an object of metrics", cp);
			goto bad;
		}
		json_object_foreach(bymetric, m, list) {
			if (!json_is_array(list)) {
				fail(err, path, "call path '%s', metric '%s': expected an array of measurements", cp, m);
				goto bad;
			}
			size_t k;
			json_t *entry;
			json_array_foreach(list, k, entry) {
				double c[PMNF_MAX_PARAMS];
				const char *why;
				json_t *pt = json_object_get(entry, "point");
				if (!pt) {
					fail(err, path, "call path '%s', metric '%s', measurement %zu has no \"point\"", cp, m, k + 1);
					goto bad;
				}
				if (!point_ok(e, pt, c, &why)) {
					fail(err, path, "call path '%s', metric '%s', measurement %zu: the point %s", cp, m, k + 1, why);
					goto bad;
				}
				if (!add_values(e, cp, m, c, json_object_get(entry, "values"), path, err))
					goto bad;
			}
		}
	}
	return e;
bad:
	experiment_free(e);
	return NULL;
}

/* the id of an element of an id-based list, or -1 */
static long find_by_id(const json_t *list, json_int_t id)
{
	size_t k;
	const json_t *x;
	json_array_foreach(list, k, x)
		if (json_integer_value(json_object_get(x, "id")) == id)
			return (long)k;
	return -1;
}

static const char *name_by_id(const json_t *list, json_int_t id)
{
	long k = find_by_id(list, id);
	return k < 0 ? NULL : json_string_value(json_object_get(json_array_get(list, (size_t)k), "name"));
}

/* the older format: callpaths, metrics, parameters, coordinates and measurements by id */
static struct experiment *read_legacy(json_t *root, const char *path, struct model_error *err)
{
	struct experiment *e = experiment_new();
	json_t *params = json_object_get(root, "parameters"), *cps = json_object_get(root, "callpaths"),
	       *metrics = json_object_get(root, "metrics"), *coords = json_object_get(root, "coordinates"),
	       *meas = json_object_get(root, "measurements");
	if (!json_is_array(cps) || !json_is_array(metrics) || !json_is_array(coords) || !json_is_array(meas)) {
		fail(err, path, "the id-based format needs arrays \"callpaths\", \"metrics\", \"coordinates\" and \"measurements\"");
		goto bad;
	}
	if (!add_parameters(e, params, path, err))
		goto bad;
	size_t k;
	json_t *x;
	json_array_foreach(meas, k, x) {
		json_int_t cid = json_integer_value(json_object_get(x, "callpath_id")),
			   mid = json_integer_value(json_object_get(x, "metric_id")),
			   pid = json_integer_value(json_object_get(x, "coordinate_id"));
		const char *cp = name_by_id(cps, cid), *m = name_by_id(metrics, mid);
		long coord = find_by_id(coords, pid);
		if (!cp || !m || coord < 0) {
			fail(err, path, "measurement %zu refers to an unknown %s id", k + 1, !cp ? "callpath" : !m ? "metric" : "coordinate");
			goto bad;
		}
		json_t *pairs = json_object_get(json_array_get(coords, (size_t)coord), "parameter_value_pairs");
		double c[PMNF_MAX_PARAMS];
		if (!json_is_array(pairs) || json_array_size(pairs) != e->nparams) {
			fail(err, path, "coordinate %" JSON_INTEGER_FORMAT " does not have one value per parameter (%zu)", pid, e->nparams);
			goto bad;
		}
		size_t j;
		json_t *pv;
		json_array_foreach(pairs, j, pv) {
			json_int_t par = json_integer_value(json_object_get(pv, "parameter_id"));
			const char *pname = name_by_id(params, par);
			long l = pname ? experiment_find_parameter(e, pname) : -1;
			json_t *val = json_object_get(pv, "parameter_value");
			if (l < 0 || !json_is_number(val)) {
				fail(err, path, "coordinate %" JSON_INTEGER_FORMAT ": bad parameter id or value", pid);
				goto bad;
			}
			c[l] = json_number_value(val);
		}
		if (!add_values(e, cp, m, c, json_object_get(x, "value"), path, err))
			goto bad;
	}
	return e;
bad:
	experiment_free(e);
	return NULL;
}

/* one {"params": {...}, "value": v or [...], "callpath": ..., "metric": ...} per line */
static struct experiment *read_lines(const char *path, struct model_error *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(err, path, "%s", strerror(errno));
	struct experiment *e = experiment_new();
	char *line = NULL;
	size_t cap = 0;
	long ln = 0;
	bool ok = true;
	ssize_t len;
	while (ok && (len = file_read_line(f, &line, &cap, EXTRA_P_MAX_LINE)) != -1) {
		ln++;
		if (len == FILE_LINE_TOO_LONG) {
			model_error_set(err, "%s:%ld: a line longer than %d bytes or holding a NUL byte", path, ln,
					EXTRA_P_MAX_LINE);
			ok = false;
			break;
		}
		if (strspn(line, " \t\r\n") == strlen(line))
			continue;
		json_error_t je;
		json_t *o = json_loads(line, 0, &je);
		json_t *params = o ? json_object_get(o, "params") : NULL;
		char where[64];
		snprintf(where, sizeof where, "%s:%ld", path, ln);
		if (!o) {
			fail(err, where, "%s", je.text);
			ok = false;
		} else if (!json_is_object(params) || !json_object_size(params)) {
			fail(err, where, "no \"params\" object");
			ok = false;
		} else {
			const char *cp = json_string_value(json_object_get(o, "callpath")),
				   *m = json_string_value(json_object_get(o, "metric"));
			double c[PMNF_MAX_PARAMS];
			const char *key;
			json_t *val;
			if (!e->nparams) {
				/* the first line names the parameters */
				json_object_foreach(params, key, val) {
					struct model_error pe;
					if (ok && experiment_add_parameter(e, key, &pe) < 0) {
						fail(err, where, "%s", pe.msg);
						ok = false;
					}
				}
			}
			if (ok && json_object_size(params) != e->nparams) {
				fail(err, where, "%zu parameters where the first line had %zu", json_object_size(params), e->nparams);
				ok = false;
			}
			json_object_foreach(params, key, val) {
				long l = experiment_find_parameter(e, key);
				if (!ok)
					break;
				if (l < 0 || !json_is_number(val) || !isfinite(json_number_value(val))) {
					fail(err, where, l < 0 ? "unknown parameter '%s'" : "parameter '%s' is not a finite number", key);
					ok = false;
				} else {
					c[l] = json_number_value(val);
				}
			}
			if (ok)
				ok = add_values(e, cp ? cp : EXTRA_P_DEFAULT_CALLPATH, m ? m : EXTRA_P_DEFAULT_METRIC, c,
						json_object_get(o, "value"), where, err);
		}
		json_decref(o);
	}
	free(line);
	fclose(f);
	if (ok && !e->callpaths.n) {
		fail(err, path, "no measurements");
		ok = false;
	}
	if (!ok) {
		experiment_free(e);
		return NULL;
	}
	return e;
}

struct experiment *extra_p_read_json(const char *path, struct model_error *err)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	if (!root) {
		/* several JSON objects, one per line, are JSON Lines */
		if (strstr(je.text, "end of file expected"))
			return read_lines(path, err);
		model_error_set(err, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		return NULL;
	}
	struct experiment *e;
	if (!json_is_object(root))
		e = fail(err, path, "expected a JSON object");
	else if (json_object_get(root, "callpaths"))
		e = read_legacy(root, path, err);
	else if (json_object_get(root, "params"))
		e = read_lines(path, err);
	else
		e = read_current(root, path, err);
	json_decref(root);
	return e;
}

struct experiment *extra_p_read(const char *path, struct model_error *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return fail(err, path, "%s", strerror(errno));
	int c;
	while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\r' || c == '\n')
		;
	fclose(f);
	if (c == EOF)
		return fail(err, path, "empty file");
	return c == '{' ? extra_p_read_json(path, err) : extra_p_read_text(path, err);
}

static json_t *measurements_json(const struct experiment *e)
{
	json_t *meas = json_object();
	for (size_t c = 0; c < e->callpaths.n; c++) {
		json_t *bymetric = json_object();
		for (size_t m = 0; m < e->metrics.n; m++) {
			json_t *list = json_array();
			for (size_t p = 0; p < e->npoints; p++) {
				const struct series *s = experiment_values(e, c, m, p);
				if (!s->n)
					continue;
				json_t *pt = json_array(), *vals = json_array();
				for (size_t l = 0; l < e->nparams; l++)
					json_array_append_new(pt, json_real(experiment_point(e, p)[l]));
				for (size_t r = 0; r < s->n; r++)
					json_array_append_new(vals, json_real(s->v[r]));
				json_array_append_new(list, json_pack("{s:o, s:o}", "point", pt, "values", vals));
			}
			if (json_array_size(list))
				json_object_set_new(bymetric, experiment_metric(e, m), list);
			else
				json_decref(list);
		}
		json_object_set_new(meas, experiment_callpath(e, c), bymetric);
	}
	return meas;
}

int extra_p_write_json(const char *path, const struct experiment *e, const struct model_results *res,
		      struct model_error *err)
{
	json_t *params = json_array();
	for (size_t l = 0; l < e->nparams; l++)
		json_array_append_new(params, json_string(e->params[l]));
	json_t *root = json_pack("{s:o, s:o}", "parameters", params, "measurements", measurements_json(e));
	if (res) {
		json_t *target = json_object(), *models = json_array();
		for (size_t l = 0; l < e->nparams; l++)
			json_object_set_new(target, e->params[l], json_real(res->target[l]));
		for (size_t c = 0; c < res->ncallpaths; c++)
			for (size_t m = 0; m < res->nmetrics; m++)
				json_array_append_new(models, model_result_json(res, c, m));
		json_object_set_new(root, "ladder", json_pack("{s:s, s:s, s:o, s:o}", "generator", "ladder " LADDER_VERSION,
							     "aggregate", model_aggregate_name(res->options.aggregate),
							     "target", target, "models", models));
	}
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	json_decref(root);
	char why[400] = "cannot format the JSON document";
	bool ok = text && write_file_atomic(path, text, 0644, why, sizeof why);
	free(text);
	if (!ok) {
		model_error_set(err, "%s", why);
		return -1;
	}
	return 0;
}
