/*
 * tracer — the internals of libladder-trace.so: the per-process recording state and the calls
 * the generated PMPI wrappers make. Nothing here is exported from the library except the MPI
 * functions themselves (everything is built with -fvisibility=hidden).
 *
 * One intercepted call goes through:
 *   tcall_begin      decide whether to record; take the entry timestamp
 *   enc_*            encode each input parameter into the call's value groups
 *   tcall_invoke     timestamp, then the PMPI call
 *   tcall_returned   timestamp
 *   enc_* (outputs), tcall_statuses_done, tcall_requests_done, obj_release_*
 *   tcall_end        bytes and messages (lib/mpi/volume.c, from the encoded values), streams,
 *                    call signature table, grammar, timing, profile, raw log
 */
#ifndef LADDER_TRACE_TRACER_H
#define LADDER_TRACE_TRACER_H

#include <mpi.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* uthash with a fast hash: keys here are handles, hashes and small structs */
#define HASH_FUNCTION(keyptr, keylen, hashv) ((hashv) = trace_hash_key((keyptr), (keylen)))
#include <uthash.h>
#include <string.h>

static inline unsigned trace_hash_key(const void *key, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ len;
	const unsigned char *p = key;
	for (; len >= 8; len -= 8, p += 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	for (; len; len--, p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	return (unsigned)(h ^ h >> 29);
}

#include "run/histogram.h"
#include "run/run.h"
#include "grammar/sequitur.h"
#include "mpi/signature.h"
#include "mpi/fnids.h"
#include "util/buf.h"

#define LADDER_EXPORT __attribute__((visibility("default")))

/* ---- one call in flight -------------------------------------------------------------------- */

enum stream_mode { SM_NONE, SM_ADAPTIVE, SM_ALWAYS };

struct tgroup {
	uint32_t start, width;
	uint8_t kind, mode;
};

struct request_entry;

struct reqref {
	MPI_Request *where;     /* the application's variable */
	MPI_Request handle;     /* its value before the call */
	struct request_entry *e;       /* our record of it, or NULL when unknown / null */
};

struct comm_info;

struct tcall {
	uint16_t fn;
	bool record;                 /* false while tracing is paused: bookkeeping only */
	void *ret_addr;
	double t_begin, t_invoke, t_returned;
	double cpu_begin;            /* the thread's CPU time at t_begin, NaN when not measured */
	MPI_Comm comm;
	struct comm_info *ci;
	/* values and their groups, in the thread's scratch space */
	int64_t *vals;
	uint32_t nvals, capvals;
	struct tgroup *groups;
	uint32_t ngroups, capgroups;
	/* accounting */
	uint64_t bytes_sent, bytes_recv;
	uint32_t msgs_sent, msgs_recv;
	/* requests */
	MPI_Request *req_out;
	int32_t req_out_group;
	bool req_persistent;
	struct reqref *reqs;
	uint32_t nreqs, capreqs;
	int flag, index, outcount;
	const int *indices;
	bool has_flag, has_index, has_indices;
	bool need_status;
	MPI_Status *statuses;
	int32_t src_group;           /* value group of a src parameter, or -1 */
	MPI_Message *msg_out;
	/* handles released after the call */
	MPI_Comm h_comm;
	MPI_Datatype h_dtype;
	MPI_Group h_group;
	MPI_Op h_op;
	MPI_Message h_msg;
	/* set by tcall_end */
	uint32_t terminal;
	uint64_t req_key;
};

bool tcall_begin(struct tcall *c, int fn, void *ret_addr);
void tcall_set_comm(struct tcall *c, MPI_Comm comm);
void tcall_invoke(struct tcall *c);
void tcall_returned(struct tcall *c);
void tcall_end(struct tcall *c);
bool tcall_is_root(struct tcall *c, int root);
int tcall_comm_size(struct tcall *c);
int tcall_indegree(struct tcall *c);
int tcall_outdegree(struct tcall *c);
int tcall_cartdims(struct tcall *c);
MPI_Status *tcall_statuses(struct tcall *c, MPI_Status *app, int n);
void tcall_statuses_done(struct tcall *c, MPI_Status *st);
void tcall_requests_done(struct tcall *c);
int trace_sum_ints(const int *v, int n);

/* value groups: append one, return its values (valid until the next append) */
void tcall_grow(struct tcall *c, uint32_t width);
static inline int64_t *tcall_group(struct tcall *c, enum param_kind k, uint32_t width, enum stream_mode mode)
{
	if (c->nvals + width > c->capvals || c->ngroups == c->capgroups)
		tcall_grow(c, width);
	struct tgroup *g = &c->groups[c->ngroups++];
	g->start = c->nvals;
	g->width = width;
	g->kind = (uint8_t)k;
	g->mode = (uint8_t)mode;
	c->nvals += width;
	return c->vals + g->start;
}
/* the thread's scratch space for stashed request references */
struct reqref *trace_scratch_reqs(uint32_t n);

/* ---- encoders (encode.c): one per parameter kind ------------------------------------------- */
void enc_skip(struct tcall *c, enum param_kind k);
void enc_buf(struct tcall *c, const void *buf);
void enc_int(struct tcall *c, int v);
void enc_count(struct tcall *c, int v);
void enc_tag(struct tcall *c, int v);
void enc_peer(struct tcall *c, int rank);
void enc_src(struct tcall *c, int rank);
void enc_root(struct tcall *c, int root);
void enc_comm(struct tcall *c, MPI_Comm comm);
void enc_dtype(struct tcall *c, MPI_Datatype t);
void enc_op(struct tcall *c, MPI_Op op);
void enc_group(struct tcall *c, MPI_Group g);
void enc_info(struct tcall *c, MPI_Info info);
void enc_color(struct tcall *c, int v);
void enc_key(struct tcall *c, int v);
void enc_aint(struct tcall *c, MPI_Aint v);
void enc_string(struct tcall *c, const char *s);
void enc_req(struct tcall *c, MPI_Request *r);
void enc_reqs(struct tcall *c, MPI_Request *r, int n);
void enc_msg(struct tcall *c, MPI_Message m);
void enc_ints(struct tcall *c, const int *v, int n);
void enc_counts(struct tcall *c, const int *v, int n);
void enc_displs(struct tcall *c, const int *v, int n);
void enc_ranks(struct tcall *c, const int *v, int n);
void enc_aints(struct tcall *c, const MPI_Aint *v, int n);
void enc_dtypes(struct tcall *c, const MPI_Datatype *v, int n);
void enc_peers(struct tcall *c, const int *v, int n);
void enc_coords(struct tcall *c, const int *v, int n);
void enc_weights(struct tcall *c, const int *v, int n);
/* outputs */
void enc_int_out(struct tcall *c, const int *v);
void enc_size_out(struct tcall *c, const int *v);
void enc_self_out(struct tcall *c, const int *v);
void enc_peer_out(struct tcall *c, const int *v);
void enc_flag_out(struct tcall *c, const int *v);
void enc_index_out(struct tcall *c, const int *v);
void enc_indices_out(struct tcall *c, const int *v, int n);
void enc_ints_out(struct tcall *c, const int *v, int n);
void enc_newcomm(struct tcall *c, MPI_Comm *newcomm);
void enc_newtype(struct tcall *c, MPI_Datatype *t);
void enc_newgroup(struct tcall *c, MPI_Group *g);
void enc_newop(struct tcall *c, MPI_Op *op);
void enc_req_out(struct tcall *c, MPI_Request *r);
void enc_msg_out(struct tcall *c, MPI_Message *m);

/* ---- MPI objects and their symbolic ids (objects.c) ----------------------------------------- */
struct comm_info {
	MPI_Comm handle;
	int64_t id;
	int size, rank;
	int *world;              /* world rank of each comm rank; NULL when the comm is world-like */
	int world_offset;        /* world rank = comm rank + offset when world == NULL */
	bool inter;
	int remote_size;
	int *remote_world;
	int topo;                /* MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH or MPI_UNDEFINED */
	int ndims;
	int *my_coords;
	int indeg, outdeg;
};
void obj_init(void);
void obj_fini(void);
struct comm_info *obj_comm(MPI_Comm comm);       /* never NULL for a valid handle */
int64_t obj_comm_register(MPI_Comm comm, MPI_Comm parent, bool agree_on_parent);
int obj_comm_to_world(struct comm_info *ci, int rank);   /* -1 when out of range */
int obj_remote_to_world(struct comm_info *ci, int rank);
int64_t obj_dtype_id(MPI_Datatype t, int64_t *size);
int64_t obj_dtype_register(MPI_Datatype t);
int64_t obj_op_id(MPI_Op op);
int64_t obj_op_register(MPI_Op op);
int64_t obj_group_id(MPI_Group g);
int64_t obj_group_register(MPI_Group g);
int64_t obj_msg_id(MPI_Message m);
int64_t obj_msg_register(MPI_Message m, int64_t source_rel);
int64_t obj_msg_source(MPI_Message m);
void obj_release_comm(struct tcall *c);
void obj_release_dtype(struct tcall *c);
void obj_release_group(struct tcall *c);
void obj_release_op(struct tcall *c);
void obj_release_msg(MPI_Message m);

/* ---- requests (request_names.c) ------------------------------------------------------------------ */
struct request_entry {
	MPI_Request handle;
	MPI_Request *where;
	uint64_t pool;           /* the creating signature's request pool key */
	void *pool_ptr;
	uint32_t slot;
	bool persistent, active;
	bool wildcard;           /* a receive from ANY_SOURCE: its actual source is patched in */
	uint32_t patch_term;
	uint64_t patch_index;
	long raw_offset;         /* raw log position of the actual-source placeholder, or -1 */
	struct comm_info *ci;
	uint64_t bytes_sent, bytes_recv;   /* persistent requests: accounted at each start */
	uint32_t msgs_sent, msgs_recv;
	struct request_entry *next;     /* entries sharing a handle value */
};
void req_init(void);
void req_fini(void);
struct request_entry *req_lookup(MPI_Request *where, MPI_Request handle);
void *req_pool(uint64_t key);                 /* the pool of a request pool key */
uint32_t req_pool_take(void *pool);
struct request_entry *req_add(MPI_Request *where, MPI_Request handle, uint64_t key, void *pool,
			      uint32_t slot);
void req_complete(struct request_entry *e, const MPI_Status *st);
void req_free(struct request_entry *e);
size_t req_outstanding(void);
/* a completed receive from ANY_SOURCE: record where it came from (record.c) */
void trace_patch_source(struct request_entry *e, const MPI_Status *st);

/* ---- call sites (callsite.c) ---------------------------------------------------------------- */
void callsite_init(int depth);
uint64_t callsite_of(void *ret_addr);
void callsite_fini(void);

/* ---- the recording state (lifecycle.c, record.c) -------------------------------------------------- */
struct tstream {
	int64_t *v;
	uint64_t n, cap;
	/* a stream refolded at MPI_Finalize (refold.c) may end in a period held once: v[0..n) is
	 * its head (fold_head values) and one period, followed by `more` values that repeat it */
	uint64_t fold_head, more;
};

struct dur_stats {
	uint64_t count;
	double sum, sumsq, min, max;
};

/* compute gaps before a call, by (previous terminal, terminal) */
struct gaphist {
	uint64_t key;                /* prev << 32 | term; prev = RUN_NO_PREV for the first call */
	struct dur_stats s;
	struct run_cpu cpu;          /* their CPU time */
	struct hist h;
	UT_hash_handle hh;
};

struct base;

/* an entry of the call signature table: one terminal of the grammar */
struct call_signature {
	uint64_t hash;
	uint32_t fn, flags;
	uint64_t callsite;
	uint32_t nvals;
	int64_t *vals;
	uint32_t term;
	struct base *base;           /* the signature with its data-dependent values masked, or NULL */
	bool literal;                /* made while its base kept those values in signatures */
	uint32_t folded_into;        /* refold.c: the terminal that took its calls, or UINT32_MAX */
	bool folds;                  /* refold.c: a literal signature whose calls move */
	struct call_signature *collide;        /* another signature with the same hash */
	uint32_t gap_prev;           /* the gap histogram of the last (previous call, this call) */
	struct gaphist *gap;
	UT_hash_handle hh;
};

struct tracer {
	int state;                   /* 0 before MPI_Init, 1 tracing, 2 after MPI_Finalize */
	int rank, size;
	MPI_Comm comm;               /* the tracer's own duplicate of MPI_COMM_WORLD */
	bool paused, disabled, multithreaded;
	bool timed;                  /* LADDER_TRACE_TIME: untraced, only the run's time measured */
	pthread_mutex_t lock;
	int mpi_threads;             /* threads of this rank that called MPI (traced calls) */
	double t0;                   /* MPI_Init returned to the application, after the tracer's own
	                                start-up: the start of the run's wall time */
	double own_time;             /* since t0, in the wrappers around the MPI calls (recording,
	                                a new communicator's id agreed on, ...) */
	double app_time;             /* at MPI_Finalize: the application's time since t0, without
	                                own_time (the longest of the ranks' is the run's wall time;
	                                the merge after MPI_Finalize is the tracer's too) */
	/* options */
	char *out_path;              /* the run container to produce */
	bool raw, timestamps, keep_raw, convert;
	int callsite_depth, stream_after, hist_bins;
	bool profile_ranks;          /* keep every rank's exclusive times, not only statistics */
	/* signature table */
	struct call_signature **sigs;          /* by terminal */
	uint32_t nsigs, capsigs;
	struct call_signature *sig_index;      /* hash index (uthash head) */
	struct sequitur *grammar;
	struct tstream *streams;     /* by terminal */
	struct dur_stats *durs;      /* by terminal */
	/* last recorded event */
	struct gaphist *gaps;
	uint32_t last_term;          /* last terminal appended to the grammar */
	uint32_t prev_call;          /* terminal of the previous call (merged polls included) */
	bool have_last, last_failed_poll;
	double last_end;
	double cpu_last_end;         /* the thread's CPU time at last_end, NaN when not measured */
	uint64_t last_poll_index;    /* stream index of the last failed poll's repeat count */
	int64_t *last_poll_vals;
	uint32_t last_poll_nvals, last_poll_cap;
	uint64_t events;
	/* raw log */
	FILE *raw_log;
	/* lossless timestamps: start (since ts_origin, MPI_Init's start) and duration in ns, as varints */
	struct buf ts_buf;
	double ts_origin;
	double ts_last_start;
	/* output problems found at init, reported once */
	bool output_broken;
};

extern struct tracer tracer;

void trace_count_unknown(int idx);
extern const char *const trace_unknown_names[];

double trace_now(void);
/* the next src parameter replays an MPI_ANY_SOURCE (record.c) */
void trace_replay_any_source(void);
bool trace_take_replay_any_source(void);
/* strings (region and communicator names) are named by a 63-bit hash, equal on every rank */
uint64_t trace_intern(const char *s);
const char *trace_string(int64_t id);
int64_t trace_rel_world(struct comm_info *ci, int rank);

/* Fortran calls (fortran.c, generated entry points): a Fortran entry point announces its function
 * and the Fortran call site; Open MPI's binding then calls PMPI_<name>, which hands the announced
 * call to the C wrapper; the wrapper's tcall_begin takes the Fortran call site */
enum { FORTRAN_IDLE, FORTRAN_ANNOUNCED, FORTRAN_IN_WRAPPER, FORTRAN_TAKEN };
struct fortran_call {
	int fn;          /* the generated index of the announced function */
	int stage;       /* FORTRAN_* */
	void *caller;    /* the return address in the Fortran code */
};
extern __thread __attribute__((tls_model("initial-exec"))) struct fortran_call trace_fortran;
void *fortran_real(const char *symbol);
bool fortran_enter(int fn, void *caller);
void fortran_leave(bool owner);

/* profile (profile.c); a call site remembers its call path for the next call */
struct profile_hint {
	uint32_t region, node;
	bool valid;
};
void profile_start(double now);
void trace_profile_call(struct tcall *c, double dur, struct profile_hint *hint);
void profile_overhead(double t);
void profile_unknown(int idx);
void profile_region_begin(uint64_t name, double now);
void profile_region_end(uint64_t name, double now);
void profile_stop(double now);
uint32_t profile_nodes(void);
void profile_node(uint32_t i, int32_t *parent, uint8_t *kind, const char **name, const double **m);
void profile_fini(void);
void trace_finalize_output(void);   /* merge across ranks, write, convert (finalize.c) */

/* the CPU time of compute gaps (cputime.c): the run's kind of CPU times from LADDER_TRACE_CPUTIME;
 * the thread's CPU time where a gap starts (after the call of terminal term) and where it ends, NaN
 * when the gap is not measured; what the tracer learns of the gaps after each terminal; a gap's
 * CPU time from its ends (its wall time when not measured), within [0, wall] */
enum run_cpu_time cputime_init(bool speak);
enum run_cpu_time cputime_mode(void);
void cputime_fini(void);
double cputime_gap_start(double wall, uint32_t term);
double cputime_gap_end(double wall);
void cputime_learn(uint32_t prev, double wall_gap);
double cputime_of_gap(double cpu_begin, double cpu_end, double wall_gap);
void trace_startup(double t_init);
void trace_state_fini(void);

/* the call signature table (record.c): a signature's entry, added when new; whether a base has
 * switched to streaming its data-dependent values */
struct call_signature *trace_signature(uint32_t fn, uint32_t flags, uint64_t callsite, const int64_t *v,
				       uint32_t n);
bool trace_base_streaming(const struct base *b);
uint64_t trace_base_id(const struct base *b);     /* equal on every rank */
/* refold.c, at MPI_Finalize, collective: the bases that switched and made most of their calls
 * streaming, on every rank that has them; their literal calls moved into their streaming signatures */
void trace_refold(void);
/* finalize.c: a binomial-tree reduction to rank 0's accumulator; a broadcast from rank 0 */
struct reader;
void trace_tree_reduce(void *acc, void (*ser)(void *acc, struct buf *b),
		       void (*merge)(void *acc, struct reader *rd));
void trace_bcast_buf(struct buf *b);

/* a profile node's metrics on this rank: the run's counts, indexed by RUN_PC_* (the one list,
 * RUN_PROFILE_COUNTS in run/run.h), then its exclusive time */
enum { PM_TIME = RUN_PC_COUNT, PM_COUNT };

#endif
