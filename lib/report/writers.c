/*
 * writers — what the three writers share: numbers and states as text, paths relative to the
 * campaign, and which model rows make the tables. See writers.h.
 */
#include "report/writers.h"

#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

const char *fmt_num(double x, char *buf, size_t len)
{
	if (isnan(x))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g", x);
	return buf;
}

const char *figure_state(const struct figure *g)
{
	if (g->regression)
		return "REGRESSED";
	if (!g->held)
		return "MISSED";
	if (isnan(g->value))
		return "not computed";
	return g->has_threshold ? "held" : "no rule";
}

char *campaign_dir(const struct report *r)
{
	char *copy = xstrdup(r->campaign);
	char *dir = xstrdup(dirname(copy));
	free(copy);
	return dir;
}

char *relative_paths(const struct report *r, const char *s)
{
	char *dir = campaign_dir(r);
	char *prefix = xasprintf("%s/", dir);
	size_t plen = strlen(prefix);
	char *out = xcalloc(strlen(s ? s : "") + 1, 1), *o = out;
	for (const char *p = s; p && *p;) {
		if (strcmp(dir, ".") && !strncmp(p, prefix, plen) && (p == s || p[-1] == ' ')) {
			p += plen;
			continue;
		}
		*o++ = *p++;
	}
	free(prefix);
	free(dir);
	return out;
}

static double size_at_target(const struct report_model *m)
{
	return m->measured_ok ? m->measured : isfinite(m->prediction) ? m->prediction : 0;
}

static int by_double_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x < y) - (x > y);
}

double model_topk_floor(const struct report *r)
{
	double *v = xcalloc(r->nmodels + 1, sizeof *v);
	size_t n = 0, k = r->k ? r->k : 5;
	for (size_t i = 0; i < r->nmodels; i++)
		if (!strcmp(r->models[i].metric, "time"))
			v[n++] = size_at_target(&r->models[i]);
	qsort(v, n, sizeof *v, by_double_desc);
	double cutoff = n == 0 ? INFINITY : v[(n < k ? n : k) - 1];
	free(v);
	return cutoff;
}

bool model_row_matters(const struct report_model *m, double cutoff)
{
	if (m->held == 0 || (!m->supported && isfinite(m->prediction) && m->prediction != 0))
		return true;
	double mine = size_at_target(m);
	return !strcmp(m->metric, "time") && mine >= cutoff && mine > 0;
}
