/*
 * experiment — the in-memory experiment: names with hash lookup, points, and the repetition
 * values of every (call path, metric, point). See experiment.h.
 */
#include "model/experiment.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <uthash.h>

#include "util/xalloc.h"

struct name_index {
	const char *name;      /* points into name_list.name[] */
	size_t idx;
	UT_hash_handle hh;
};

static long names_find(const struct name_list *l, const char *name)
{
	struct name_index *h = NULL;
	HASH_FIND_STR(l->index, name, h);
	return h ? (long)h->idx : -1;
}

static size_t names_intern(struct name_list *l, const char *name, bool *added)
{
	long at = names_find(l, name);
	*added = at < 0;
	if (at >= 0)
		return (size_t)at;
	XGROW(l->name, l->cap, l->n + 1);
	l->name[l->n] = xstrdup(name);
	struct name_index *h = xmalloc(sizeof *h);
	h->name = l->name[l->n];
	h->idx = l->n;
	HASH_ADD_KEYPTR(hh, l->index, h->name, strlen(h->name), h);
	return l->n++;
}

static void names_free(struct name_list *l)
{
	struct name_index *h, *tmp;
	HASH_ITER(hh, l->index, h, tmp) {
		HASH_DEL(l->index, h);
		free(h);
	}
	for (size_t k = 0; k < l->n; k++)
		free(l->name[k]);
	free(l->name);
}

struct experiment *experiment_new(void)
{
	return xcalloc(1, sizeof(struct experiment));
}

void experiment_free(struct experiment *e)
{
	if (!e)
		return;
	for (size_t k = 0; k < e->cap_cp * e->cap_m * e->cap_pt; k++)
		free(e->cells[k].v);
	free(e->cells);
	names_free(&e->callpaths);
	names_free(&e->metrics);
	for (size_t k = 0; k < e->nparams; k++)
		free(e->params[k]);
	free(e->points);
	free(e);
}

int experiment_add_parameter(struct experiment *e, const char *name, struct model_error *err)
{
	if (e->npoints) {
		model_error_set(err, "parameter '%s' declared after measurement points", name);
		return -1;
	}
	if (!name[0]) {
		model_error_set(err, "empty parameter name");
		return -1;
	}
	if (experiment_find_parameter(e, name) >= 0) {
		model_error_set(err, "parameter '%s' declared twice", name);
		return -1;
	}
	if (e->nparams == PMNF_MAX_PARAMS) {
		model_error_set(err, "parameter '%s': at most %d parameters are supported", name, PMNF_MAX_PARAMS);
		return -1;
	}
	e->params[e->nparams] = xstrdup(name);
	return (int)e->nparams++;
}

long experiment_find_parameter(const struct experiment *e, const char *name)
{
	for (size_t k = 0; k < e->nparams; k++)
		if (!strcmp(e->params[k], name))
			return (long)k;
	return -1;
}

long experiment_find_point(const struct experiment *e, const double *coords)
{
	for (size_t p = 0; p < e->npoints; p++)
		if (!memcmp(experiment_point(e, p), coords, e->nparams * sizeof(double)))
			return (long)p;
	return -1;
}

/* Re-lay the value cells so that each dimension holds at least the asked count. */
static void cells_reserve(struct experiment *e, size_t ncp, size_t nm, size_t npt)
{
	if (ncp <= e->cap_cp && nm <= e->cap_m && npt <= e->cap_pt)
		return;
	size_t ccp = e->cap_cp ? e->cap_cp : 16, cm = e->cap_m ? e->cap_m : 4, cpt = e->cap_pt ? e->cap_pt : 8;
	while (ccp < ncp)
		ccp *= 2;
	while (cm < nm)
		cm *= 2;
	while (cpt < npt)
		cpt *= 2;
	struct series *cells = xcalloc(ccp * cm * cpt, sizeof *cells);
	for (size_t c = 0; c < e->cap_cp; c++)
		for (size_t m = 0; m < e->cap_m; m++)
			for (size_t p = 0; p < e->cap_pt; p++)
				cells[(c * cm + m) * cpt + p] = e->cells[(c * e->cap_m + m) * e->cap_pt + p];
	free(e->cells);
	e->cells = cells;
	e->cap_cp = ccp;
	e->cap_m = cm;
	e->cap_pt = cpt;
}

size_t experiment_intern_point(struct experiment *e, const double *coords)
{
	long at = experiment_find_point(e, coords);
	if (at >= 0)
		return (size_t)at;
	XGROW(e->points, e->points_cap, (e->npoints + 1) * (e->nparams ? e->nparams : 1));
	memcpy(e->points + e->npoints * e->nparams, coords, e->nparams * sizeof(double));
	return e->npoints++;
}

size_t experiment_intern_callpath(struct experiment *e, const char *name)
{
	bool added;
	return names_intern(&e->callpaths, name, &added);
}

size_t experiment_intern_metric(struct experiment *e, const char *name)
{
	bool added;
	return names_intern(&e->metrics, name, &added);
}

long experiment_find_callpath(const struct experiment *e, const char *name)
{
	return names_find(&e->callpaths, name);
}

long experiment_find_metric(const struct experiment *e, const char *name)
{
	return names_find(&e->metrics, name);
}

void experiment_add_values(struct experiment *e, size_t cp, size_t m, size_t pt, const double *v, size_t n)
{
	/* the cells are indexed by interned call paths, metrics and points only */
	assert(cp < e->callpaths.n && m < e->metrics.n && pt < e->npoints);
	cells_reserve(e, cp + 1, m + 1, pt + 1);
	struct series *s = &e->cells[(cp * e->cap_m + m) * e->cap_pt + pt];
	XGROW(s->v, s->cap, s->n + n);
	memcpy(s->v + s->n, v, n * sizeof(double));
	s->n += n;
}

const struct series *experiment_values(const struct experiment *e, size_t cp, size_t m, size_t pt)
{
	static const struct series none;
	if (cp >= e->cap_cp || m >= e->cap_m || pt >= e->cap_pt)
		return &none;
	return &e->cells[(cp * e->cap_m + m) * e->cap_pt + pt];
}

const char *experiment_callpath_leaf(const char *callpath)
{
	const char *leaf = callpath;
	for (const char *s = callpath; *s; s++) {
		if (*s == '/')
			leaf = s + 1;
		else if (s[0] == '-' && s[1] == '>')
			leaf = s + 2;
	}
	return leaf;
}

void experiment_format_point(const struct experiment *e, size_t pt, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t k = 0; k < e->nparams && used + 1 < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%g", k ? ", " : "(", e->params[k],
					 experiment_point(e, pt)[k]);
	if (used + 1 < len)
		snprintf(buf + used, len - used, ")");
}

int experiment_check(const struct experiment *e, struct model_error *err)
{
	if (!e->nparams) {
		model_error_set(err, "the experiment has no parameters");
		return -1;
	}
	if (!e->npoints) {
		model_error_set(err, "the experiment has no measurement points");
		return -1;
	}
	if (!e->callpaths.n) {
		model_error_set(err, "the experiment has no call paths");
		return -1;
	}
	if (!e->metrics.n) {
		model_error_set(err, "the experiment has no metrics");
		return -1;
	}
	char pb[160];
	for (size_t p = 0; p < e->npoints; p++)
		for (size_t k = 0; k < e->nparams; k++)
			if (!isfinite(experiment_point(e, p)[k])) {
				model_error_set(err, "parameter '%s' is not a finite number at point %zu", e->params[k], p + 1);
				return -1;
			}
	bool any = false;
	for (size_t c = 0; c < e->callpaths.n; c++)
		for (size_t m = 0; m < e->metrics.n; m++)
			for (size_t p = 0; p < e->npoints; p++) {
				const struct series *s = experiment_values(e, c, m, p);
				any |= s->n > 0;
				for (size_t r = 0; r < s->n; r++) {
					if (isfinite(s->v[r]) && s->v[r] >= 0)
						continue;
					experiment_format_point(e, p, pb, sizeof pb);
					model_error_set(err, "call path '%s', metric '%s', point %s: %s value (%g) in repetition %zu",
							experiment_callpath(e, c), experiment_metric(e, m), pb,
							isnan(s->v[r]) ? "NaN" : isinf(s->v[r]) ? "infinite" : "negative",
							s->v[r], r + 1);
					return -1;
				}
			}
	if (!any) {
		model_error_set(err, "the experiment has no measured values");
		return -1;
	}
	return 0;
}
