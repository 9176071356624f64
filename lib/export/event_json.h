/*
 * event_json — one event as a JSON object (jansson), with the same content as its text line
 * (event_format): the function, then every recorded parameter by name — numbers as numbers, names
 * (handles, symbolic values, buffer kinds) as strings, arrays as arrays, a wildcard receive as
 * {"any": true, "actual": RANK}. jansson escapes every string, so any name or path stays valid JSON.
 */
#ifndef LADDER_EXPORT_EVENT_JSON_H
#define LADDER_EXPORT_EVENT_JSON_H

#include <jansson.h>

#include "mpi/signature.h"

/* a new reference */
json_t *event_json(const struct event_view *ev);

#endif
