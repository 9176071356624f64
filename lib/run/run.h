/*
 * run — one traced run in memory: everything a run container holds (hdf5-schema/run.yaml).
 *
 * The tracer assembles it at MPI_Finalize and serializes it (run_serialize, raw.c: the raw
 * format that `ladder import` reads); the store reads and writes it as HDF5; decode, replay,
 * compare and extrapolation work on it. run_check (check.c) validates every cross-reference, so
 * tools can trust a run that passed it. layout.h describes the parts all of them share.
 */
#ifndef LADDER_RUN_RUN_H
#define LADDER_RUN_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "grammar/grammar.h"
#include "mpi/signature.h"
#include "run/ranklist.h"
#include "run/stream.h"
#include "util/buf.h"

#define RUN_RAW_MAGIC "LADDERRAW"
#define RUN_RAW_VERSION 2   /* 1 is still read (run_parse) */

struct run_frame {
	char *module;
	uint64_t offset;
	char *symbol;          /* may be empty */
};

struct run_callsite {
	uint64_t id;           /* hash of (module, offset) frames: equal across ranks */
	uint32_t nframes;
	struct run_frame *frames;
};

struct run_signature {
	uint32_t fn;           /* index into run->fns */
	uint64_t callsite;     /* callsite id */
	uint32_t flags;        /* SIGF_* */
	uint32_t nvals;
	uint64_t voff;         /* offset into run->sigvals */
};

struct run_dur {           /* duration of a signature's calls, seconds */
	uint32_t sig;
	uint64_t count;
	double sum, sumsq, min, max;
};

struct run_cpu {           /* the thread's CPU time in some gaps: total, shortest, longest (s) */
	double sum, min, max;
};

struct run_bin {           /* one histogram bin: gaps in [2^(bin/4), 2^((bin+1)/4)) ns */
	int32_t bin;
	uint64_t count;
	double sum, min, max;  /* seconds of wall time */
	struct run_cpu cpu;    /* the same gaps' CPU time */
};

#define RUN_NO_PREV UINT32_MAX   /* the gap before a rank's first recorded call */

struct run_gap {           /* compute time before a call, given the call before it */
	uint32_t prev, sig;
	uint64_t count;
	double sum, sumsq, min, max;
	struct run_cpu cpu;
	uint32_t nbins;
	struct run_bin *bins;
};

struct run_group {         /* ranks whose call sequences are identical */
	struct grammar g;
	uint32_t nranks;       /* ranklist_count of ranks */
	struct ranklist ranks; /* in the encoding ranklist_from_ranks gives (run_check) */
	uint32_t ndurs;
	struct run_dur *durs;
	uint32_t ngaps;
	struct run_gap *gaps;
	uint64_t length;       /* derived by run_check (not stored): terminals the grammar expands
				  to, UINT64_MAX when 2^64 or more */
};

enum run_pnode_kind { PNODE_REGION = 0, PNODE_FUNCTION = 1, PNODE_UNKNOWN = 2 };

struct run_pnode {
	int32_t parent;        /* -1 for the root region */
	uint8_t kind;
	char *name;
};

/* The profile's metrics, each listed once, in storage order: X(ID, name, unit).
 * Counts: per rank and call path, integers, exact. */
#define RUN_PROFILE_COUNTS(X)                                                                      \
	X(VISITS, "visits", "calls") X(BYTES_SENT, "bytes_sent", "B") X(BYTES_RECV, "bytes_recv", "B") \
	X(MSGS_SENT, "msgs_sent", "messages") X(MSGS_RECV, "msgs_recv", "messages")
/* Time statistics: exclusive time per call path, over the ranks that visited it. */
#define RUN_TIME_STATISTICS(X)                                                                     \
	X(RANKS, "ranks", "ranks") X(SUM, "sum", "s") X(MIN, "min", "s") X(MAX, "max", "s")           \
	X(MEAN, "mean", "s") X(MEDIAN, "median", "s") X(STDDEV, "stddev", "s")                        \
	X(ARGMIN, "argmin", "rank") X(ARGMAX, "argmax", "rank")

#define RUN_COUNT_ENUM(id, name, unit) RUN_PC_##id,
#define RUN_STAT_ENUM(id, name, unit) RUN_STAT_##id,
enum { RUN_PROFILE_COUNTS(RUN_COUNT_ENUM) RUN_PC_COUNT };
enum { RUN_TIME_STATISTICS(RUN_STAT_ENUM) RUN_STAT_COUNT };
#undef RUN_COUNT_ENUM
#undef RUN_STAT_ENUM
extern const char *const run_count_names[RUN_PC_COUNT];
extern const char *const run_count_units[RUN_PC_COUNT];
extern const char *const run_stat_names[RUN_STAT_COUNT];
extern const char *const run_stat_units[RUN_STAT_COUNT];

struct run_timestamps {    /* lossless mode: every call's start and duration, seconds */
	uint32_t rank;
	uint64_t n;
	double *start, *dur;
};

struct run_label {
	char *key, *value;
};

/* What the CPU times of a run's gaps are (hdf5-schema/run.yaml, /timing cpu_time). */
enum run_cpu_time {
	RUN_CPU_NONE,     /* not recorded (older and some synthetic runs): copies of the wall times */
	RUN_CPU_LONG,     /* measured for gaps after calls followed by long gaps, the others taken as all CPU */
	RUN_CPU_EVERY,    /* measured for every gap */
};
extern const char *const run_cpu_time_names[3];

enum { RUN_INTERVAL_DURATION = 0, RUN_INTERVAL_GAP = 1 };

struct run_interval {      /* a synthetic run's prediction of one timing histogram (/extrap/intervals) */
	uint32_t group;
	uint8_t kind;          /* RUN_INTERVAL_DURATION (of sig's calls) or RUN_INTERVAL_GAP (before sig, after prev) */
	uint8_t has_interval;  /* the model gave a prediction interval; otherwise lo = hi = value */
	uint32_t prev, sig;    /* prev: RUN_NO_PREV for durations and a rank's first gap */
	uint64_t count;        /* the histogram's count */
	double value, lo, hi;  /* predicted seconds per call or gap, and the 95% prediction interval */
};

struct run {
	/* header */
	uint32_t nranks;
	char *command, *host, *slurm_job_id, *tool_version, *created, *options;
	double t_start, t_end;     /* unix seconds */
	bool synthetic;
	uint32_t nlabels;
	struct run_label *labels;  /* labels set by campaigns: rung, repetition, size ... */
	/* vocabulary */
	uint32_t nfns;
	struct fn_desc *fns;       /* as recorded; strings owned by the run */
	uint32_t nstrings;
	char **strings;
	uint32_t ncallsites;
	struct run_callsite *callsites;
	/* the trace */
	uint32_t nsigs;
	struct run_signature *sigs;
	uint64_t nsigvals;
	int64_t *sigvals;
	uint32_t ngroups;
	struct run_group *groups;
	uint32_t nstreams;
	struct run_stream *streams;    /* value streams (run/stream.h); run_check sorts them by signature */
	uint8_t cpu_time;              /* enum run_cpu_time: what the gaps' CPU times are */
	/* profile: counts[(rank * nnodes + node) * RUN_PC_COUNT + metric]; exclusive time as
	 * time_stats[node * RUN_STAT_COUNT + stat], and per rank time[rank * nnodes + node] when the
	 * run kept it (LADDER_TRACE_PROFILE=ranks), else NULL */
	uint32_t nnodes;
	struct run_pnode *nodes;
	uint64_t *counts;
	double *time_stats;
	double *time;
	/* lossless timestamps (optional) */
	uint32_t ntimestamps;
	struct run_timestamps *timestamps;
	/* synthetic runs: the timing predictions behind the modeled histograms (optional) */
	uint32_t nintervals;
	struct run_interval *intervals;
};

void run_init(struct run *r);
void run_free(struct run *r);
const char *run_label(const struct run *r, const char *key);
void run_set_label(struct run *r, const char *key, const char *value);

void run_serialize(const struct run *r, struct buf *b);
/* in the raw format of an older version this ladder reads (1: literal streams, no CPU times), as
 * an older ladder's tracer wrote it */
void run_serialize_version(const struct run *r, uint32_t version, struct buf *b);
/* one group (grammar, ranks, durations, gap histograms): the unit the tracer's merge exchanges */
void run_group_serialize(const struct run_group *g, struct buf *b);
bool run_group_parse(struct run_group *g, struct reader *rd);
void run_group_free(struct run_group *g);
/* false with a message in why when the bytes are not a run */
bool run_parse(struct run *r, const void *data, size_t len, char *why, size_t whylen);

/* Validate every count and cross-reference: every rank in exactly one group, in at most one
 * stream per signature; groups' and streams' ranklists in the encoding ranklist_from_ranks gives;
 * streams sorted by signature. Work and memory follow the ranklists' boxes, not the rank count. */
bool run_check(struct run *r, char *why, size_t whylen);

/* The group of rank (a run that passed run_check): a scan of the groups' boxes. */
uint32_t run_rank_group(const struct run *r, uint32_t rank);
/* The group of every rank, as an array of r->nranks for readers that visit every rank (export,
 * the pacing of wildcard receives); the caller frees it. */
uint32_t *run_group_index(const struct run *r);

/* Fill time_stats from per-rank times ([rank][node]) and the counts (which ranks visited). */
void run_time_stats(struct run *r, const double *time);

/* The values of signature s's first parameter of kind k (named `name`, unless NULL), or NULL when
 * it has none or its values do not parse; *width (may be NULL) is their number. */
const int64_t *run_param(const struct run *r, const struct run_signature *s, enum param_kind k, const char *name,
			 uint32_t *width);

/* Request pool key of a signature: the hash of everything but its req_out group. Equal to what
 * the tracer computed when it recorded the call. by_base (runs whose tracer options say
 * req_pools=base, run_req_pools_by_base): the values that stream once they keep changing
 * (param_kind_adaptive) are left out, so the calls of one base (call site, function and the
 * other values) share one pool whether their values are literal or streamed. */
uint64_t run_signature_req_key(bool by_base, uint32_t fn, uint64_t callsite, uint32_t flags,
			       const struct fn_desc *d, const int64_t *vals, uint32_t nvals);
/* the tracer keyed r's request pools by base (options req_pools=base); older runs by signature */
bool run_req_pools_by_base(const struct run *r);

/* total number of calls (expanded events, failed polls counted one by one) is only known by
 * walking; the number of grammar terminals per group is grammar_expanded_length. */

#endif
