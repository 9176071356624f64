/*
 * yamlspec — reading a YAML specification file (workflow, site) with libyaml, and checking its
 * values one field at a time. Every failure produces one message naming the file, the line and
 * the field, e.g.
 *
 *     workflows/x.yaml:7: field 'ladder.from': expected an integer >= 1, got 'four'
 *
 * Mappings are checked for unknown and duplicate keys (typos are errors, not silently ignored);
 * every string is checked for control characters (including NUL, tab and newline), which are
 * never allowed in a specification value. A plain empty value, '~' or 'null' counts as absent.
 */
#ifndef LADDER_CAMPAIGN_YAMLSPEC_H
#define LADDER_CAMPAIGN_YAMLSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "campaign/cerr.h"
#include "campaign/template.h"

struct yspec {
	const char *path;       /* as given, for messages */
	yaml_document_t doc;
	bool loaded;
	struct cerr *err;
};

/* Load PATH. On failure (cannot read, YAML syntax error, empty document) sets e. */
bool yspec_load(struct yspec *y, const char *path, struct cerr *e);
void yspec_free(struct yspec *y);
/* The top-level node; it must be a mapping (checked with the given allowed keys). */
yaml_node_t *yspec_root(struct yspec *y);

/* Record "PATH:LINE: field 'FIELD': MESSAGE" for node n (line of n, or 0). Returns false. */
bool yspec_fail(struct yspec *y, const yaml_node_t *n, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int yspec_line(const yaml_node_t *n);

/* n must be a mapping whose keys are unique strings from allowed (NULL-terminated). */
bool yspec_map(struct yspec *y, yaml_node_t *n, const char *field, const char *const *allowed);
/* the value under key in a mapping, or NULL when absent or null */
yaml_node_t *yspec_get(struct yspec *y, yaml_node_t *map, const char *key);
/* the i-th key/value of a mapping (for free-form mappings such as env or vars) */
size_t yspec_map_len(const yaml_node_t *map);
yaml_node_t *yspec_map_key(struct yspec *y, yaml_node_t *map, size_t i);
yaml_node_t *yspec_map_value(struct yspec *y, yaml_node_t *map, size_t i);

bool yspec_is_seq(const yaml_node_t *n);
bool yspec_is_map(const yaml_node_t *n);
bool yspec_is_scalar(const yaml_node_t *n);
size_t yspec_seq_len(const yaml_node_t *seq);
yaml_node_t *yspec_seq_item(struct yspec *y, yaml_node_t *seq, size_t i);

/* A scalar without control characters; *out points into the document. */
bool yspec_scalar(struct yspec *y, yaml_node_t *n, const char *field, const char **out);
/* the same, copied (xstrdup) */
bool yspec_string(struct yspec *y, yaml_node_t *n, const char *field, char **out);
/* a name: letters, digits, '_', '-' and '.', starting with a letter or digit, at most 64 bytes */
bool yspec_name(struct yspec *y, yaml_node_t *n, const char *field, char **out);
bool yspec_long(struct yspec *y, yaml_node_t *n, const char *field, long min, long max, long *out);
bool yspec_double(struct yspec *y, yaml_node_t *n, const char *field, double min, double max, double *out);
bool yspec_bool(struct yspec *y, yaml_node_t *n, const char *field, bool *out);
/* a string or a list of strings (each copied); *out is NULL-terminated */
bool yspec_strings(struct yspec *y, yaml_node_t *n, const char *field, char ***out, size_t *count);

/* true when s holds no byte below 0x20 and no DEL; else *bad is the first such byte */
bool yspec_text_ok(const char *s, size_t len, unsigned char *bad);

#endif
