/*
 * figures — named figures, thresholds and the pass/fail verdict. See figures.h.
 */
#include "report/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void figures_add(struct figures *f, const char *name, long target, double value, const char *source)
{
	f->v = xrealloc(f->v, (f->n + 1) * sizeof *f->v);
	struct figure *g = &f->v[f->n++];
	memset(g, 0, sizeof *g);
	g->name = xstrdup(name);
	g->target = target;
	g->value = value;
	g->source = xstrdup(source ? source : "");
	g->held = true;
	g->trailing_median = NAN;
}

struct figure *figures_find(struct figures *f, const char *name, long target)
{
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, name) && f->v[i].target == target)
			return &f->v[i];
	return NULL;
}

void figures_free(struct figures *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].source);
	}
	free(f->v);
	memset(f, 0, sizeof *f);
}

void thresholds_init(struct thresholds *t)
{
	memset(t, 0, sizeof *t);
	t->margin = 0.05;
	t->window = 5;
}

bool thresholds_parse(const char *text, struct thresholds *t, char *why, size_t whylen)
{
	char *copy = xstrdup(text), *save = NULL;
	bool ok = true;
	for (char *item = strtok_r(copy, ",", &save); item && ok; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		char *end = NULL;
		bool none = eq && !strcmp(eq + 1, "none");
		double v = eq && !none ? strtod(eq + 1, &end) : NAN;
		if (!eq || eq == item || (!none && (end == eq + 1 || *end || !isfinite(v))) ||
		    (none && !strcmp(item, "margin=none"))) {
			snprintf(why, whylen, "'%s': expected NAME=NUMBER or NAME=none (e.g. time=0.9)", item);
			ok = false;
			break;
		}
		*eq = 0;
		if (!strcmp(item, "margin")) {
			t->margin = v;
			continue;
		}
		t->v = xrealloc(t->v, (t->n + 1) * sizeof *t->v);
		t->v[t->n++] = (struct threshold){xstrdup(item), v, false};
	}
	free(copy);
	return ok;
}

void thresholds_free(struct thresholds *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	memset(t, 0, sizeof *t);
}

static bool names_figure(const char *threshold, const struct figures *f, const char *figure)
{
	if (!strcmp(threshold, figure))
		return true;
	/* a metric alone means its model figure, unless a figure has that very name */
	if (strncmp(figure, "model_", 6) || strcmp(threshold, figure + 6))
		return false;
	for (size_t i = 0; i < f->n; i++)
		if (!strcmp(f->v[i].name, threshold))
			return false;
	return true;
}

double figure_default_threshold(const char *name)
{
	static const struct {
		const char *name;
		double min;
	} defaults[] = {{"events", 1}, {"counts", 1}, {"time", 0.9}, {"proxy", 0.9}, {"model_time", 0.5},
			{"interval", 0.8}, {"ranking", 0.5}, {"topk", 0.6}};
	for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
		if (!strcmp(name, defaults[i].name))
			return defaults[i].min;
	return 0.9;   /* model_METRIC of the count metrics */
}

void figures_apply_thresholds(struct figures *f, struct thresholds *t)
{
	for (size_t i = 0; i < f->n; i++) {
		struct figure *g = &f->v[i];
		g->has_threshold = g->default_threshold = true;
		g->no_rule = false;
		g->threshold = figure_default_threshold(g->name);
		for (size_t k = 0; k < t->n; k++) {
			if (!names_figure(t->v[k].name, f, g->name))
				continue;
			t->v[k].used = true;
			g->default_threshold = false;
			g->no_rule = isnan(t->v[k].min);
			g->has_threshold = !g->no_rule;
			g->threshold = t->v[k].min;
		}
		g->held = !g->has_threshold || isnan(g->value) || g->value >= g->threshold;
	}
}

enum report_state figures_state(const struct figures *f)
{
	enum report_state s = STATE_PASS;
	for (size_t i = 0; i < f->n; i++) {
		const struct figure *g = &f->v[i];
		if (g->regression || !g->held)
			return STATE_FAIL;
		if (isnan(g->value) || !g->has_threshold)
			s = STATE_NOT_VALIDATED;
	}
	return s;
}

const char *report_state_name(enum report_state s)
{
	return s == STATE_PASS ? "PASS" : s == STATE_FAIL ? "FAIL" : "NOT VALIDATED";
}

bool figures_pass(const struct figures *f, bool strict)
{
	for (size_t i = 0; i < f->n; i++) {
		const struct figure *g = &f->v[i];
		if (g->regression || !g->held)
			return false;
		if (strict && g->has_threshold && isnan(g->value))
			return false;
	}
	return true;
}
