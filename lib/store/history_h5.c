/*
 * history_h5 — the nightly history's file: reading /nights, and writing it next to itself and
 * renaming it over. See history_h5.h.
 */
#include "store/history_h5.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
		ok = h->rows != NULL;   /* a table that cannot be read is an error, never an empty history */
		if (!ok)
			h->n = 0;
	}
	for (size_t k = 0; ok && k < h->n; k++)
		if (!h->rows[k].night || !h->rows[k].figure || !h->rows[k].campaign || !h->rows[k].application) {
			h5_fail(e, path, "/nights row %zu: a string field is missing", k);
			ok = false;
		}
	H5Fclose(f);
	if (!ok)
		history_free(h);
	return ok;
}

void history_free(struct history *h)
{
	if (h->rows)
		h5_free_table(&night_table, h->rows, h->n);
	memset(h, 0, sizeof *h);
}

bool history_write(const char *path, const struct history_row *rows, size_t n, const char *night,
		   struct h5_err *e)
{
	/* written in a fresh private directory next to the history (a name nobody else can have
	 * planted: no symlink or FIFO is followed), then renamed over it */
	char *copy = xstrdup(path);
	char *dir = xasprintf("%s/.history.XXXXXX", dirname(copy));
	free(copy);
	if (!mkdtemp(dir)) {
		h5_fail(e, path, "cannot create a temporary directory next to the history (%s)", strerror(errno));
		free(dir);
		return false;
	}
	char *tmp = xasprintf("%s/history.h5", dir);
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
	rmdir(dir);
	free(tmp);
	free(dir);
	return ok;
}

