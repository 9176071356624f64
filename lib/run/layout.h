/*
 * layout — the run's layout, described once: the header fields (their order in the raw format,
 * their attribute names and order in the container, which ones a container must have) and the
 * dense profile arrays (their datasets, element types and extents). The raw format (raw.c), the
 * container (store/run_h5.c) and run_check all read and write these parts from the tables below.
 *
 * The nested sections (functions, call sites, signatures, groups with their grammars and timing,
 * value streams, timestamps) are encoded differently in the two formats — varint-nested records
 * in the raw format, flat tables joined by (offset, count) in the container — so each format has
 * one function per section; hdf5-schema/run.yaml documents the container's side.
 */
#ifndef LADDER_RUN_LAYOUT_H
#define LADDER_RUN_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

enum run_value_type {
	RUN_VALUE_STR,    /* char *; raw: varint length + bytes */
	RUN_VALUE_U32,    /* uint32_t; raw: varint (a count, at most RUN_MAX_RANKS) */
	RUN_VALUE_BOOL,   /* bool; raw: one byte; container: a uint32 attribute */
	RUN_VALUE_F64,    /* double; raw: 8 bytes little endian */
	RUN_VALUE_U64,    /* uint64_t (array elements); raw: varint */
};

#define RUN_MAX_RANKS (1u << 30)

struct run_header_field {
	const char *attribute;        /* the container's root attribute */
	size_t offset;                /* the member of struct run */
	enum run_value_type type;
	bool required;                /* a container without it is refused; else "" or 0 */
};

#define RUN_HEADER_FIELDS 10
/* in the order of the raw format */
extern const struct run_header_field run_header_fields[RUN_HEADER_FIELDS];
/* the order in which the container's root attributes are written (indexes of the above) */
extern const uint8_t run_header_attribute_order[RUN_HEADER_FIELDS];

enum run_extent {
	RUN_EXTENT_RANKS,
	RUN_EXTENT_CALLPATHS,
	RUN_EXTENT_COUNT_METRICS,     /* RUN_PC_COUNT */
	RUN_EXTENT_TIME_STATISTICS,   /* RUN_STAT_COUNT */
};

/* A dense array of the profile, row-major over its extents. */
struct run_array {
	const char *dataset;          /* its path in the container */
	size_t offset;                /* the pointer member of struct run */
	enum run_value_type type;     /* RUN_VALUE_U64 or RUN_VALUE_F64 */
	uint8_t ndims;
	enum run_extent dims[3];
	bool optional;                /* NULL when absent; raw: a presence byte first */
	bool timing;                  /* seconds: stored rounded (container), finite, >= 0 */
	const char *legend;           /* dataset naming the last extent's entries, or NULL */
};

#define RUN_PROFILE_ARRAYS 3
extern const struct run_array run_profile_arrays[RUN_PROFILE_ARRAYS];

/* the size of an extent of r */
uint64_t run_extent_size(const struct run *r, enum run_extent x);
/* what an extent is, for messages ("ranks", "callpaths", ...) */
const char *run_extent_name(enum run_extent x);
/* elements of the array in r (UINT64_MAX when the product overflows) */
uint64_t run_array_length(const struct run *r, const struct run_array *a);
/* the array's storage in r: a pointer to the member (uint64_t ** or double **) */
void **run_array_slot(struct run *r, const struct run_array *a);
void *run_array_data(const struct run *r, const struct run_array *a);
/* names and units of the entries of a legend (the last extent of an array), or NULL */
const char *const *run_extent_names(enum run_extent x);
const char *const *run_extent_units(enum run_extent x);

#endif
