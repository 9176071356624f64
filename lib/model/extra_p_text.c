/*
 * extra_p_text — the reader of Extra-P's text input format. See extra_p.h.
 */
#include "model/extra_p.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"

struct text_reader {
	const char *path;
	long line;
	struct experiment *e;
	long callpath, metric;       /* current block, -1 before the first */
	size_t data_lines;           /* DATA lines in the current block */
	long block_line;             /* where the current block started */
	struct model_error *err;
};

static int fail(struct text_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct text_reader *r, const char *fmt, ...)
{
	char msg[MODEL_ERRLEN];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	model_error_set(r->err, "%s:%ld: %s", r->path, r->line, msg);
	return -1;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
		s[--n] = 0;
	return s;
}

static bool parse_number(const char *tok, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(tok, &end);
	return end != tok && !*end && errno != ERANGE;
}

static int on_parameter(struct text_reader *r, char *rest)
{
	if (!*rest)
		return fail(r, "PARAMETER needs at least one name");
	for (char *save = NULL, *tok = strtok_r(rest, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		struct model_error e;
		if (experiment_add_parameter(r->e, tok, &e) < 0)
			return fail(r, "%s", e.msg);
	}
	return 0;
}

static int add_point(struct text_reader *r, const double *c, size_t nc, const char *text)
{
	size_t np = r->e->nparams;
	if (nc != np)
		return fail(r, "point (%s) has %zu value%s but there %s %zu parameter%s", text, nc, nc == 1 ? "" : "s",
			    np == 1 ? "is" : "are", np, np == 1 ? "" : "s");
	for (size_t k = 0; k < nc; k++)
		if (!isfinite(c[k]))
			return fail(r, "point (%s): parameter '%s' is not a finite number", text, r->e->params[k]);
	if (experiment_find_point(r->e, c) >= 0)
		return fail(r, "point (%s) is listed twice", text);
	experiment_intern_point(r->e, c);
	return 0;
}

/* "(4 100) (8 100)" or, for one parameter, "4 8 16" */
static int on_points(struct text_reader *r, char *rest)
{
	if (!r->e->nparams)
		return fail(r, "POINTS before any PARAMETER");
	if (!*rest)
		return fail(r, "POINTS needs at least one point");
	char *s = rest;
	if (!strchr(s, '(')) {
		if (r->e->nparams != 1)
			return fail(r, "with %zu parameters, POINTS must group coordinates in parentheses: (4 100) (8 100)",
				    r->e->nparams);
		for (char *save = NULL, *tok = strtok_r(s, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
			double v;
			if (!parse_number(tok, &v))
				return fail(r, "POINTS: '%s' is not a number", tok);
			if (add_point(r, &v, 1, tok))
				return -1;
		}
		return 0;
	}
	while (*s) {
		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		if (*s != '(')
			return fail(r, "POINTS: expected '(' at '%s'", s);
		char *close = strchr(s, ')');
		if (!close)
			return fail(r, "POINTS: '(' without ')' at '%s'", s);
		*close = 0;
		char text[256];
		snprintf(text, sizeof text, "%s", trim(s + 1));
		double c[PMNF_MAX_PARAMS + 1];
		size_t nc = 0;
		for (char *save = NULL, *tok = strtok_r(s + 1, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
			double v;
			if (!parse_number(tok, &v))
				return fail(r, "POINTS: '%s' in point (%s) is not a number", tok, text);
			if (nc <= PMNF_MAX_PARAMS)
				c[nc] = v;
			nc++;
		}
		if (add_point(r, c, nc, text))
			return -1;
		s = close + 1;
	}
	return 0;
}

/* the block that ends here must have one DATA line per point (or none) */
static int end_block(struct text_reader *r)
{
	if (r->callpath < 0 || !r->data_lines || r->data_lines == r->e->npoints)
		return 0;
	long here = r->line;
	r->line = r->block_line;
	fail(r, "region '%s', metric '%s' has %zu DATA line%s for %zu POINTS", experiment_callpath(r->e, (size_t)r->callpath),
	     r->metric >= 0 ? experiment_metric(r->e, (size_t)r->metric) : EXTRA_P_DEFAULT_METRIC, r->data_lines,
	     r->data_lines == 1 ? "" : "s", r->e->npoints);
	r->line = here;
	return -1;
}

/* REGION or METRIC: a new block starts; the previous one must be complete */
static int on_block(struct text_reader *r, char *rest, bool region)
{
	if (end_block(r))
		return -1;
	if (!*rest)
		return fail(r, region ? "REGION needs a call path" : "METRIC needs a name");
	if (region)
		r->callpath = (long)experiment_intern_callpath(r->e, rest);
	else
		r->metric = (long)experiment_intern_metric(r->e, rest);
	r->data_lines = 0;
	r->block_line = r->line;
	return 0;
}

static int on_data(struct text_reader *r, char *rest)
{
	if (!r->e->npoints)
		return fail(r, "DATA before POINTS");
	if (r->callpath < 0)
		return fail(r, "DATA before any REGION");
	if (r->metric < 0)
		r->metric = (long)experiment_intern_metric(r->e, EXTRA_P_DEFAULT_METRIC);
	const char *cp = experiment_callpath(r->e, (size_t)r->callpath), *m = experiment_metric(r->e, (size_t)r->metric);
	if (r->data_lines >= r->e->npoints)
		return fail(r, "region '%s', metric '%s': more DATA lines than the %zu POINTS", cp, m, r->e->npoints);
	size_t pt = r->data_lines;
	char pb[160];
	experiment_format_point(r->e, pt, pb, sizeof pb);
	double v[256];
	size_t n = 0;
	for (char *save = NULL, *tok = strtok_r(rest, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		double x;
		if (!parse_number(tok, &x))
			return fail(r, "region '%s', metric '%s', point %s: '%s' is not a number", cp, m, pb, tok);
		if (isnan(x) || isinf(x))
			return fail(r, "region '%s', metric '%s', point %s: %s value", cp, m, pb, isnan(x) ? "NaN" : "infinite");
		if (x < 0)
			return fail(r, "region '%s', metric '%s', point %s: negative value %g", cp, m, pb, x);
		v[n++] = x;
		if (n == sizeof v / sizeof v[0]) {
			experiment_add_values(r->e, (size_t)r->callpath, (size_t)r->metric, pt, v, n);
			n = 0;
		}
	}
	if (!n && !experiment_values(r->e, (size_t)r->callpath, (size_t)r->metric, pt)->n)
		return fail(r, "region '%s', metric '%s', point %s: DATA without values", cp, m, pb);
	experiment_add_values(r->e, (size_t)r->callpath, (size_t)r->metric, pt, v, n);
	r->data_lines++;
	return 0;
}

static int parse_line(struct text_reader *r, char *line)
{
	char *s = trim(line);
	if (!*s || *s == '#')
		return 0;
	char *sp = s + strcspn(s, " \t");
	char *rest = *sp ? trim(sp + 1) : sp;
	*sp = 0;
	if (!strcmp(s, "PARAMETER"))
		return r->e->npoints ? fail(r, "PARAMETER after POINTS") : on_parameter(r, rest);
	if (!strcmp(s, "POINTS"))
		return on_points(r, rest);
	if (!strcmp(s, "REGION") || !strcmp(s, "METRIC"))
		return on_block(r, rest, s[0] == 'R');
	if (!strcmp(s, "DATA"))
		return on_data(r, rest);
	return fail(r, "unknown line '%s' (expected PARAMETER, POINTS, REGION, METRIC, DATA or a # comment)", s);
}

struct experiment *extra_p_read_text(const char *path, struct model_error *err)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		model_error_set(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct text_reader r = {.path = path, .e = experiment_new(), .callpath = -1, .metric = -1, .err = err};
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;
	ssize_t len;
	while (!rc && (len = file_read_line(f, &line, &cap, EXTRA_P_MAX_LINE)) != -1) {
		r.line++;
		rc = len == FILE_LINE_TOO_LONG ? fail(&r, "a line longer than %d bytes or holding a NUL byte", EXTRA_P_MAX_LINE)
					      : parse_line(&r, line);
	}
	free(line);
	fclose(f);
	if (!rc)
		rc = end_block(&r);
	if (!rc && !r.e->nparams)
		rc = fail(&r, "no PARAMETER line");
	if (!rc && !r.e->npoints)
		rc = fail(&r, "no POINTS line");
	if (!rc && !r.e->callpaths.n)
		rc = fail(&r, "no REGION with DATA");
	if (rc) {
		experiment_free(r.e);
		return NULL;
	}
	return r.e;
}
