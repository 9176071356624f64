/*
 * history — reading, judging and appending the nightly history. See history.h.
 */
#include "report/history.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/accuracy.h"
#include "util/xalloc.h"

static const struct h5_field night_fields[] = {
	FIELD(struct history_row, night, F_STR), FIELD(struct history_row, campaign, F_STR),
	FIELD(struct history_row, application, F_STR), FIELD(struct history_row, figure, F_STR),
	FIELD(struct history_row, target, F_U32), FIELD(struct history_row, value, F_F64),
	FIELD(struct history_row, threshold, F_F64), FIELD(struct history_row, held, F_U8),
	FIELD(struct history_row, regression, F_U8),
};
static const struct h5_table night_table = {"nights", sizeof(struct history_row), night_fields,
					    sizeof night_fields / sizeof night_fields[0]};

bool history_read(const char *path, struct history *h, struct h5_err *e)
{
	memset(h, 0, sizeof *h);
	if (access(path, F_OK) != 0 && errno == ENOENT)
		return true;
	hid_t f = h5_open(path, false, e);
	if (f < 0)
		return false;
	char *schema = h5_get_attr_str(f, "schema");
	bool ok = schema && !strcmp(schema, HISTORY_SCHEMA);
	if (!ok)
		h5_fail(e, path, "attribute 'schema' is '%s', expected '%s' (a history written by ladder report)",
			schema ? schema : "missing", HISTORY_SCHEMA);
	free(schema);
	if (ok && h5_exists(f, "/nights")) {
		h->rows = h5_read_table(f, "/nights", &night_table, &h->n, path, e);
		ok = h->rows || h->n == 0;
	}
	H5Fclose(f);
	return ok;
}

void history_free(struct history *h)
{
	if (h->rows)
		h5_free_table(&night_table, h->rows, h->n);
	memset(h, 0, sizeof *h);
}

void history_judge(const struct history *h, struct figures *f, size_t window, double margin)
{
	double *past = xcalloc(h->n + 1, sizeof *past);
	for (size_t i = 0; i < f->n; i++) {
		struct figure *g = &f->v[i];
		size_t n = 0;
		for (size_t k = 0; k < h->n; k++) /* rows are in night order */
			if (!strcmp(h->rows[k].figure, g->name) && (long)h->rows[k].target == g->target &&
			    isfinite(h->rows[k].value))
				past[n++] = h->rows[k].value;
		g->nights = n;
		size_t from = n > window ? n - window : 0;
		g->trailing_median = median_of(past + from, n - from);
		g->regression = isfinite(g->value) && isfinite(g->trailing_median) &&
				g->value < g->trailing_median - margin;
	}
	free(past);
}

bool history_append(const char *path, struct history *h, const struct figures *f, const char *night,
		    const char *campaign, const char *application, struct h5_err *e)
{
	size_t n = h->n + f->n;
	struct history_row *rows = xcalloc(n + 1, sizeof *rows);
	if (h->n)
		memcpy(rows, h->rows, h->n * sizeof *rows);
	for (size_t i = 0; i < f->n; i++) {
		const struct figure *g = &f->v[i];
		rows[h->n + i] = (struct history_row){(char *)night, (char *)campaign, (char *)application, g->name,
			(uint32_t)g->target, g->value, g->has_threshold ? g->threshold : NAN, g->held, g->regression};
	}
	char *tmp = xasprintf("%s.new", path);
	hid_t file = h5_create(tmp, e);
	bool ok = file >= 0;
	if (ok) {
		ok = h5_attr_str(file, "schema", HISTORY_SCHEMA) &&
		     h5_attr_str(file, "schema_version", HISTORY_SCHEMA_VERSION) &&
		     h5_attr_str(file, "tool_version", LADDER_VERSION) && h5_attr_str(file, "created", night) &&
		     h5_write_table(file, "nights", &night_table, rows, n);
		if (H5Fclose(file) < 0)
			ok = false;
		if (!ok)
			h5_fail(e, tmp, "cannot write the history");
	}
	if (ok && rename(tmp, path) != 0) {
		h5_fail(e, path, "cannot replace the history (%s)", strerror(errno));
		ok = false;
	}
	if (!ok)
		unlink(tmp);
	free(tmp);
	free(rows);
	return ok;
}

size_t history_nights(const struct history *h, char ***nights)
{
	char **v = xcalloc(h->n + 1, sizeof *v);
	size_t n = 0;
	for (size_t k = 0; k < h->n; k++)
		if (!n || strcmp(v[n - 1], h->rows[k].night))
			v[n++] = h->rows[k].night;
	*nights = v;
	return n;
}

double history_value(const struct history *h, const char *night, const char *figure, uint32_t target)
{
	for (size_t k = 0; k < h->n; k++)
		if (!strcmp(h->rows[k].night, night) && !strcmp(h->rows[k].figure, figure) && h->rows[k].target == target)
			return h->rows[k].value;
	return NAN;
}
