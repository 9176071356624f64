/*
 * yaml_spec — YAML specification files through libyaml's document API, with field-level errors
 * that name file and line. See yaml_spec.h.
 */
#include "campaign/yaml_spec.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "util/xalloc.h"

bool yaml_spec_text_ok(const char *s, size_t len, unsigned char *bad)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f) {
			if (bad)
				*bad = c;
			return false;
		}
	}
	return true;
}

int yaml_spec_line(const yaml_node_t *n)
{
	return n ? (int)n->start_mark.line + 1 : 0;
}

bool yaml_spec_fail(struct yaml_spec *y, const yaml_node_t *n, const char *field, const char *fmt, ...)
{
	char what[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	char where[600];
	if (n)
		snprintf(where, sizeof where, "%s:%d", y->path, yaml_spec_line(n));
	else
		snprintf(where, sizeof where, "%s", y->path);
	if (field && *field)
		campaign_error_set(y->err, "%s: field '%s': %s", where, field, what);
	else
		campaign_error_set(y->err, "%s: %s", where, what);
	return false;
}

/* does line n (1-based) of f hold "KEY: {" with a placeholder-like name after the brace? */
static bool line_starts_flow(FILE *f, size_t n)
{
	char buf[1024];
	rewind(f);
	for (size_t i = 1; fgets(buf, sizeof buf, f); i++) {
		if (i < n)
			continue;
		char *p = strstr(buf, ": {");
		return p && ((p[3] >= 'a' && p[3] <= 'z') || p[3] == '_') && strchr(p + 3, '}') &&
		       strcspn(p + 3, ":,") > strcspn(p + 3, "}");
	}
	return false;
}

bool yaml_spec_load(struct yaml_spec *y, const char *path, struct campaign_error *e)
{
	memset(y, 0, sizeof *y);
	y->path = path;
	y->err = e;
	FILE *f = fopen(path, "rb");
	if (!f)
		return campaign_error_set(e, "%s: cannot open: %s", path, strerror(errno));
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p)) {
		fclose(f);
		return campaign_error_set(e, "%s: cannot initialise the YAML parser", path);
	}
	yaml_parser_set_input_file(&p, f);
	bool ok = yaml_parser_load(&p, &y->doc);
	if (!ok) {
		const char *problem = p.problem ? p.problem : "malformed YAML";
		size_t line = p.problem_mark.line + 1;
		if (p.error == YAML_READER_ERROR) {
			/* reader errors (bad bytes) carry an offset, not a mark */
			line = 1;
			rewind(f);
			for (size_t i = 0; i < p.problem_offset; i++) {
				int ch = fgetc(f);
				if (ch == EOF)
					break;
				line += ch == '\n';
			}
		}
		char hint[128] = "";
		if (p.error != YAML_READER_ERROR && line_starts_flow(f, line))
			snprintf(hint, sizeof hint, "; a value that starts with '{' must be quoted");
		if (p.context && p.error != YAML_READER_ERROR)
			campaign_error_set(e, "%s:%zu: YAML syntax error: %s (%s, line %zu)%s", path, line, problem, p.context,
				 p.context_mark.line + 1, hint);
		else
			campaign_error_set(e, "%s:%zu: YAML syntax error: %s%s", path, line, problem, hint);
	}
	yaml_parser_delete(&p);
	fclose(f);
	if (!ok)
		return false;
	y->loaded = true;
	if (!yaml_document_get_root_node(&y->doc))
		return campaign_error_set(e, "%s: the file is empty; expected a mapping of fields", path);
	return true;
}

void yaml_spec_free(struct yaml_spec *y)
{
	if (y->loaded)
		yaml_document_delete(&y->doc);
	y->loaded = false;
}

yaml_node_t *yaml_spec_root(struct yaml_spec *y)
{
	return yaml_document_get_root_node(&y->doc);
}

bool yaml_spec_is_seq(const yaml_node_t *n) { return n && n->type == YAML_SEQUENCE_NODE; }
bool yaml_spec_is_map(const yaml_node_t *n) { return n && n->type == YAML_MAPPING_NODE; }
bool yaml_spec_is_scalar(const yaml_node_t *n) { return n && n->type == YAML_SCALAR_NODE; }

static const char *kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE: return "a single value";
	case YAML_SEQUENCE_NODE: return "a list";
	case YAML_MAPPING_NODE: return "a mapping";
	default: return "nothing";
	}
}

static bool is_null(const yaml_node_t *n)
{
	if (!n)
		return true;
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = (const char *)n->data.scalar.value;
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL");
}

size_t yaml_spec_seq_len(const yaml_node_t *seq)
{
	return (size_t)(seq->data.sequence.items.top - seq->data.sequence.items.start);
}

yaml_node_t *yaml_spec_seq_item(struct yaml_spec *y, yaml_node_t *seq, size_t i)
{
	return yaml_document_get_node(&y->doc, seq->data.sequence.items.start[i]);
}

size_t yaml_spec_map_len(const yaml_node_t *map)
{
	return (size_t)(map->data.mapping.pairs.top - map->data.mapping.pairs.start);
}

yaml_node_t *yaml_spec_map_key(struct yaml_spec *y, yaml_node_t *map, size_t i)
{
	return yaml_document_get_node(&y->doc, map->data.mapping.pairs.start[i].key);
}

yaml_node_t *yaml_spec_map_value(struct yaml_spec *y, yaml_node_t *map, size_t i)
{
	return yaml_document_get_node(&y->doc, map->data.mapping.pairs.start[i].value);
}

/* the keys of a mapping seen so far, by name (a hash: a mapping of N keys is checked in O(N)) */
struct seen_key {
	const char *key;
	const yaml_node_t *node;
	UT_hash_handle hh;
};

/* one key of a mapping: a name, without control characters, given once, and allowed */
static bool map_key_ok(struct yaml_spec *y, yaml_node_t *k, const char *field, const char *const *allowed,
		       struct seen_key **seen, struct seen_key *slot)
{
	char kf[256];
	if (!yaml_spec_is_scalar(k))
		return yaml_spec_fail(y, k, field, "a key must be a name, got %s", kind(k));
	const char *key = (const char *)k->data.scalar.value;
	snprintf(kf, sizeof kf, "%s%s%s", field && *field ? field : "", field && *field ? "." : "", key);
	if (!yaml_spec_text_ok(key, k->data.scalar.length, NULL))
		return yaml_spec_fail(y, k, field, "a key contains a control character");
	struct seen_key *first;
	HASH_FIND_STR(*seen, key, first);
	if (first)
		return yaml_spec_fail(y, k, kf, "given twice (first on line %d)", yaml_spec_line(first->node));
	*slot = (struct seen_key){.key = key, .node = k};
	HASH_ADD_KEYPTR(hh, *seen, slot->key, strlen(slot->key), slot);
	bool known = !allowed;
	for (const char *const *a = allowed; a && *a; a++)
		if (!strcmp(*a, key))
			known = true;
	if (known)
		return true;
	char list[512] = "";
	size_t off = 0;
	for (const char *const *a = allowed; *a && off < sizeof list - 70; a++)
		off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", a == allowed ? "" : ", ", *a);
	return yaml_spec_fail(y, k, kf, "unknown field (expected one of: %s)", list);
}

bool yaml_spec_map(struct yaml_spec *y, yaml_node_t *n, const char *field, const char *const *allowed)
{
	if (!yaml_spec_is_map(n))
		return yaml_spec_fail(y, n, field, "expected a mapping of fields, got %s", kind(n));
	size_t len = yaml_spec_map_len(n);
	struct seen_key *slots = xcalloc(len ? len : 1, sizeof *slots), *seen = NULL;
	bool ok = true;
	for (size_t i = 0; i < len && ok; i++)
		ok = map_key_ok(y, yaml_spec_map_key(y, n, i), field, allowed, &seen, &slots[i]);
	HASH_CLEAR(hh, seen);
	free(slots);
	return ok;
}

yaml_node_t *yaml_spec_get(struct yaml_spec *y, yaml_node_t *map, const char *key)
{
	size_t len = yaml_spec_map_len(map);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *k = yaml_spec_map_key(y, map, i);
		if (yaml_spec_is_scalar(k) && !strcmp((const char *)k->data.scalar.value, key)) {
			yaml_node_t *v = yaml_spec_map_value(y, map, i);
			return is_null(v) ? NULL : v;
		}
	}
	return NULL;
}

bool yaml_spec_scalar(struct yaml_spec *y, yaml_node_t *n, const char *field, const char **out)
{
	if (!yaml_spec_is_scalar(n)) {
		if (yaml_spec_is_map(n))
			return yaml_spec_fail(y, n, field, "expected a single value, got a mapping "
					  "(quote values that start with '{')");
		return yaml_spec_fail(y, n, field, "expected a single value, got %s", kind(n));
	}
	unsigned char bad;
	if (!yaml_spec_text_ok((const char *)n->data.scalar.value, n->data.scalar.length, &bad))
		return yaml_spec_fail(y, n, field, "contains the control character 0x%02x; control characters "
				  "(including NUL, tab and newline) are not allowed", bad);
	*out = (const char *)n->data.scalar.value;
	return true;
}

bool yaml_spec_string(struct yaml_spec *y, yaml_node_t *n, const char *field, char **out)
{
	const char *s;
	if (!yaml_spec_scalar(y, n, field, &s))
		return false;
	*out = xstrdup(s);
	return true;
}

bool yaml_spec_name(struct yaml_spec *y, yaml_node_t *n, const char *field, char **out)
{
	const char *s;
	if (!yaml_spec_scalar(y, n, field, &s))
		return false;
	size_t len = strlen(s);
	bool ok = len > 0 && len <= 64 && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') ||
					   (s[0] >= '0' && s[0] <= '9'));
	for (size_t i = 0; ok && i < len; i++)
		ok = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", s[i]) != NULL;
	if (!ok)
		return yaml_spec_fail(y, n, field, "'%s' is not a valid name (letters, digits, '_', '-', '.'; "
				  "starting with a letter or digit; at most 64 characters)", s);
	*out = xstrdup(s);
	return true;
}

bool yaml_spec_long(struct yaml_spec *y, yaml_node_t *n, const char *field, long min, long max, long *out)
{
	const char *s;
	if (!yaml_spec_scalar(y, n, field, &s))
		return false;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		if (max >= 1L << 40)
			return yaml_spec_fail(y, n, field, "expected an integer >= %ld, got '%s'", min, s);
		return yaml_spec_fail(y, n, field, "expected an integer from %ld to %ld, got '%s'", min, max, s);
	}
	*out = v;
	return true;
}

bool yaml_spec_double(struct yaml_spec *y, yaml_node_t *n, const char *field, double min, double max, double *out)
{
	const char *s;
	if (!yaml_spec_scalar(y, n, field, &s))
		return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
		return yaml_spec_fail(y, n, field, "expected a number from %g to %g, got '%s'", min, max, s);
	*out = v;
	return true;
}

bool yaml_spec_bool(struct yaml_spec *y, yaml_node_t *n, const char *field, bool *out)
{
	const char *s;
	if (!yaml_spec_scalar(y, n, field, &s))
		return false;
	static const char *const yes[] = {"true", "True", "TRUE", "yes", "Yes", "on", "On", NULL};
	static const char *const no[] = {"false", "False", "FALSE", "no", "No", "off", "Off", NULL};
	for (int i = 0; yes[i]; i++)
		if (!strcmp(s, yes[i])) {
			*out = true;
			return true;
		}
	for (int i = 0; no[i]; i++)
		if (!strcmp(s, no[i])) {
			*out = false;
			return true;
		}
	return yaml_spec_fail(y, n, field, "expected true or false, got '%s'", s);
}

bool yaml_spec_strings(struct yaml_spec *y, yaml_node_t *n, const char *field, char ***out, size_t *count)
{
	if (yaml_spec_is_scalar(n)) {
		char **v = xcalloc(2, sizeof *v);
		if (!yaml_spec_string(y, n, field, &v[0])) {
			free(v);
			return false;
		}
		*out = v;
		*count = 1;
		return true;
	}
	if (!yaml_spec_is_seq(n))
		return yaml_spec_fail(y, n, field, "expected a value or a list of values, got %s", kind(n));
	size_t len = yaml_spec_seq_len(n);
	char **v = xcalloc(len + 1, sizeof *v);
	for (size_t i = 0; i < len; i++) {
		char f[300];
		snprintf(f, sizeof f, "%s[%zu]", field, i);
		if (!yaml_spec_string(y, yaml_spec_seq_item(y, n, i), f, &v[i])) {
			strv_free(v);
			return false;
		}
	}
	*out = v;
	*count = len;
	return true;
}

/* read field f (map: the mapping it belongs to) into target */
static bool read_field(struct yaml_spec *y, yaml_node_t *map, const struct spec_field *f, void *target)
{
	if (f->kind == SPEC_CHECK)
		return f->read(y, map, target);
	yaml_node_t *n = yaml_spec_get(y, map, f->key);
	if (!n)
		return f->missing ? yaml_spec_fail(y, map, f->key, "missing (%s)", f->missing) : true;
	char *at = (char *)target + f->offset;
	switch (f->kind) {
	case SPEC_STRING: return yaml_spec_string(y, n, f->key, (char **)at);
	case SPEC_NAME: return yaml_spec_name(y, n, f->key, (char **)at);
	case SPEC_LONG: return yaml_spec_long(y, n, f->key, f->min, f->max, (long *)at);
	case SPEC_STRINGS:
		return yaml_spec_strings(y, n, f->key, (char ***)at, (size_t *)((char *)target + f->count_offset));
	default: return f->read(y, n, target);
	}
}

bool yaml_spec_read_fields(struct yaml_spec *y, yaml_node_t *map, const char *field, const struct spec_field *fields,
			   size_t nfields, void *target)
{
	const char **keys = xcalloc(nfields + 1, sizeof *keys);
	size_t nkeys = 0;
	for (size_t i = 0; i < nfields; i++)
		if (fields[i].key)
			keys[nkeys++] = fields[i].key;
	bool ok = yaml_spec_map(y, map, field, keys);
	free(keys);
	for (size_t i = 0; ok && i < nfields; i++)
		ok = read_field(y, map, &fields[i], target);
	return ok;
}
