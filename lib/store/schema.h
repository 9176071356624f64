/*
 * schema — the container schemas of hdf5-schema/ (compiled into ladder): checking a file against
 * its schema, object by object, and rendering a schema for people.
 */
#ifndef LADDER_STORE_SCHEMA_H
#define LADDER_STORE_SCHEMA_H

#include <stdbool.h>

/* Check one file; every violation goes to report() as one line ("FILE: OBJECT: what").
 * Returns the number of violations (0: the file conforms). */
int schema_validate(const char *path, void (*report)(const char *line, void *arg), void *arg);

/* The schema text (YAML) of a kind ("run", "campaign"), or NULL. */
const char *schema_text(const char *kind);
/* The schema of a kind as Markdown (to be freed), NULL for an unknown kind. */
char *schema_markdown(const char *kind);

#endif
