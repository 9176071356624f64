/*
 * layout — the tables that describe the run's layout once. See layout.h.
 */
#include "run/layout.h"

#include <assert.h>

#define NAME_OF(id, name, unit) name,
#define UNIT_OF(id, name, unit) unit,
const char *const run_count_names[RUN_PC_COUNT] = {RUN_PROFILE_COUNTS(NAME_OF)};
const char *const run_count_units[RUN_PC_COUNT] = {RUN_PROFILE_COUNTS(UNIT_OF)};
const char *const run_stat_names[RUN_STAT_COUNT] = {RUN_TIME_STATISTICS(NAME_OF)};
const char *const run_stat_units[RUN_STAT_COUNT] = {RUN_TIME_STATISTICS(UNIT_OF)};
#undef NAME_OF
#undef UNIT_OF

#define HEADER(attr, member, type, required) {attr, offsetof(struct run, member), type, required}

const struct run_header_field run_header_fields[RUN_HEADER_FIELDS] = {
	HEADER("ranks", nranks, RUN_VALUE_U32, true),
	HEADER("command", command, RUN_VALUE_STR, true),
	HEADER("host", host, RUN_VALUE_STR, true),
	HEADER("slurm_job_id", slurm_job_id, RUN_VALUE_STR, false),
	HEADER("tool_version", tool_version, RUN_VALUE_STR, true),
	HEADER("created", created, RUN_VALUE_STR, true),
	HEADER("tracer_options", options, RUN_VALUE_STR, false),
	HEADER("t_start", t_start, RUN_VALUE_F64, false),
	HEADER("t_end", t_end, RUN_VALUE_F64, false),
	HEADER("synthetic", synthetic, RUN_VALUE_BOOL, false),
};

/* tool_version, created, ranks, command, host, slurm_job_id, synthetic, t_start, t_end,
 * tracer_options */
const uint8_t run_header_attribute_order[RUN_HEADER_FIELDS] = {4, 5, 0, 1, 2, 3, 9, 7, 8, 6};

const struct run_array run_profile_arrays[RUN_PROFILE_ARRAYS] = {
	{"profile/counts", offsetof(struct run, counts), RUN_VALUE_U64, 3,
	 {RUN_EXTENT_RANKS, RUN_EXTENT_CALLPATHS, RUN_EXTENT_COUNT_METRICS}, false, false, "profile/metrics"},
	{"profile/time_stats", offsetof(struct run, time_stats), RUN_VALUE_F64, 2,
	 {RUN_EXTENT_CALLPATHS, RUN_EXTENT_TIME_STATISTICS}, false, true, "profile/statistics"},
	{"profile/time", offsetof(struct run, time), RUN_VALUE_F64, 2, {RUN_EXTENT_RANKS, RUN_EXTENT_CALLPATHS},
	 true, true, NULL},
};

uint64_t run_extent_size(const struct run *r, enum run_extent x)
{
	switch (x) {
	case RUN_EXTENT_RANKS: return r->nranks;
	case RUN_EXTENT_CALLPATHS: return r->nnodes;
	case RUN_EXTENT_COUNT_METRICS: return RUN_PC_COUNT;
	case RUN_EXTENT_TIME_STATISTICS: return RUN_STAT_COUNT;
	}
	assert(!"unknown extent");
	return 0;
}

const char *run_extent_name(enum run_extent x)
{
	static const char *const names[] = {"ranks", "callpaths", "metrics", "statistics"};
	assert((size_t)x < sizeof names / sizeof *names);
	return names[x];
}

const char *const *run_extent_names(enum run_extent x)
{
	return x == RUN_EXTENT_COUNT_METRICS ? run_count_names : x == RUN_EXTENT_TIME_STATISTICS ? run_stat_names : NULL;
}

const char *const *run_extent_units(enum run_extent x)
{
	return x == RUN_EXTENT_COUNT_METRICS ? run_count_units : x == RUN_EXTENT_TIME_STATISTICS ? run_stat_units : NULL;
}

uint64_t run_array_length(const struct run *r, const struct run_array *a)
{
	uint64_t n = 1;
	for (uint8_t d = 0; d < a->ndims; d++) {
		uint64_t x = run_extent_size(r, a->dims[d]);
		if (x && n > UINT64_MAX / x)
			return UINT64_MAX;
		n *= x;
	}
	return n;
}

void **run_array_slot(struct run *r, const struct run_array *a)
{
	return (void **)((char *)r + a->offset);
}

void *run_array_data(const struct run *r, const struct run_array *a)
{
	return *(void *const *)((const char *)r + a->offset);
}
