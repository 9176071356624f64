/*
 * yaml_spec — reading a YAML specification file (workflow, site) with libyaml, and checking its
 * values one field at a time. Every failure produces one message naming the file, the line and
 * the field, e.g.
 *
 *     workflows/x.yaml:7: field 'ladder.from': expected an integer >= 1, got 'four'
 *
 * Mappings are checked for unknown and duplicate keys (typos are errors, not silently ignored);
 * every string is checked for control characters (including NUL, tab and newline), which are
 * never allowed in a specification value. A plain empty value, '~' or 'null' counts as absent.
 */
#ifndef LADDER_CAMPAIGN_YAML_SPEC_H
#define LADDER_CAMPAIGN_YAML_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "campaign/campaign_error.h"
#include "campaign/template.h"

struct yaml_spec {
	const char *path;       /* as given, for messages */
	yaml_document_t doc;
	bool loaded;
	struct campaign_error *err;
};

/* Load PATH. On failure (cannot read, YAML syntax error, empty document) sets e. */
bool yaml_spec_load(struct yaml_spec *y, const char *path, struct campaign_error *e);
void yaml_spec_free(struct yaml_spec *y);
/* The top-level node; it must be a mapping (checked with the given allowed keys). */
yaml_node_t *yaml_spec_root(struct yaml_spec *y);

/* Record "PATH:LINE: field 'FIELD': MESSAGE" for node n (line of n, or 0). Returns false. */
bool yaml_spec_fail(struct yaml_spec *y, const yaml_node_t *n, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int yaml_spec_line(const yaml_node_t *n);

/* n must be a mapping whose keys are unique strings from allowed (NULL-terminated). */
bool yaml_spec_map(struct yaml_spec *y, yaml_node_t *n, const char *field, const char *const *allowed);
/* the value under key in a mapping, or NULL when absent or null */
yaml_node_t *yaml_spec_get(struct yaml_spec *y, yaml_node_t *map, const char *key);
/* the i-th key/value of a mapping (for free-form mappings such as env or vars) */
size_t yaml_spec_map_len(const yaml_node_t *map);
yaml_node_t *yaml_spec_map_key(struct yaml_spec *y, yaml_node_t *map, size_t i);
yaml_node_t *yaml_spec_map_value(struct yaml_spec *y, yaml_node_t *map, size_t i);

bool yaml_spec_is_seq(const yaml_node_t *n);
bool yaml_spec_is_map(const yaml_node_t *n);
bool yaml_spec_is_scalar(const yaml_node_t *n);
size_t yaml_spec_seq_len(const yaml_node_t *seq);
yaml_node_t *yaml_spec_seq_item(struct yaml_spec *y, yaml_node_t *seq, size_t i);

/* A scalar without control characters; *out points into the document. */
bool yaml_spec_scalar(struct yaml_spec *y, yaml_node_t *n, const char *field, const char **out);
/* the same, copied (xstrdup) */
bool yaml_spec_string(struct yaml_spec *y, yaml_node_t *n, const char *field, char **out);
/* a name: letters, digits, '_', '-' and '.', starting with a letter or digit, at most 64 bytes */
bool yaml_spec_name(struct yaml_spec *y, yaml_node_t *n, const char *field, char **out);
bool yaml_spec_long(struct yaml_spec *y, yaml_node_t *n, const char *field, long min, long max, long *out);
bool yaml_spec_double(struct yaml_spec *y, yaml_node_t *n, const char *field, double min, double max, double *out);
bool yaml_spec_bool(struct yaml_spec *y, yaml_node_t *n, const char *field, bool *out);
/* a string or a list of strings (each copied); *out is NULL-terminated */
bool yaml_spec_strings(struct yaml_spec *y, yaml_node_t *n, const char *field, char ***out, size_t *count);

/* ---- a mapping read from a table of its fields ------------------------------------------- */

enum spec_field_kind {
	SPEC_STRING,   /* any text (char *) */
	SPEC_NAME,     /* a name, as yaml_spec_name (char *) */
	SPEC_LONG,     /* an integer in [min, max] (long) */
	SPEC_STRINGS,  /* a string or a list of strings (char **, and its count) */
	SPEC_CUSTOM,   /* read by the field's function (given the value) */
	SPEC_CHECK,    /* no field: a check of what was read so far (given the mapping) */
};

struct spec_field {
	const char *key;              /* NULL for SPEC_CHECK */
	enum spec_field_kind kind;
	size_t offset, count_offset;  /* where the value (and its count) go in the target struct */
	long min, max;                /* SPEC_LONG */
	bool (*read)(struct yaml_spec *y, yaml_node_t *n, void *target);  /* SPEC_CUSTOM, SPEC_CHECK */
	const char *missing;          /* required fields: the hint in "missing (HINT)" */
	bool mark;                    /* the reader's own mark (sites: only for Slurm) */
};

/* Check that map has only the table's keys, then read its fields into target in table order;
 * false at the first failure. */
bool yaml_spec_read_fields(struct yaml_spec *y, yaml_node_t *map, const char *field, const struct spec_field *fields,
			   size_t nfields, void *target);

/* true when s holds no byte below 0x20 and no DEL; else *bad is the first such byte */
bool yaml_spec_text_ok(const char *s, size_t len, unsigned char *bad);

#endif
