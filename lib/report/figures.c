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
		double v = eq ? strtod(eq + 1, &end) : NAN;
		if (!eq || eq == item || end == eq + 1 || *end || !isfinite(v)) {
			snprintf(why, whylen, "'%s': expected NAME=NUMBER (e.g. time=0.9)", item);
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

void figures_apply_thresholds(struct figures *f, struct thresholds *t)
{
	for (size_t k = 0; k < t->n; k++)
		for (size_t i = 0; i < f->n; i++) {
			struct figure *g = &f->v[i];
			if (!names_figure(t->v[k].name, f, g->name))
				continue;
			t->v[k].used = true;
			g->has_threshold = true;
			g->threshold = t->v[k].min;
			g->held = isnan(g->value) || g->value >= t->v[k].min;
		}
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
