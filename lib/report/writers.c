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

bool model_row_matters(const struct report *r, const struct report_model *m)
{
	if (m->held == 0 || (!m->supported && isfinite(m->prediction) && m->prediction != 0))
		return true;
	if (strcmp(m->metric, "time"))
		return false;
	/* among the k largest time rows at the target */
	size_t k = r->k ? r->k : 5, larger = 0;
	double mine = size_at_target(m);
	for (size_t i = 0; i < r->nmodels && larger < k; i++) {
		const struct report_model *o = &r->models[i];
		if (o != m && !strcmp(o->metric, "time") && size_at_target(o) > mine)
			larger++;
	}
	return larger < k && mine > 0;
}
