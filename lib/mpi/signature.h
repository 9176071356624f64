/*
 * signature — the vocabulary of call signatures (Pilgrim §2.1, §2.3.3, §2.4): what kind each
 * recorded MPI parameter is, how it is encoded so that SPMD ranks agree, the symbolic values, and
 * the descriptors of the MPI functions (generated from lib/mpi/mpi-functions.tbl).
 *
 * A signature is (function, call site, flags, values). Values are int64 and come in one group per
 * recorded parameter, in the parameter order of the function:
 *   scalars              1 value
 *   dtype                2 values: symbolic id, size in bytes
 *   req                  2 values: creator signature hash, slot in the creator's request pool
 *   src                  2 values: source (relative, or ANY_SOURCE), actual source (relative)
 *   arrays               1 + n values: n, then the elements (dtype arrays: n, then id,size pairs;
 *                        req arrays: n, then creator,slot pairs); a count or displacement array a
 *                        synthetic run states by rule: 4 values, SV_SHARED, n, total, rule (run/share.h)
 *   ignore               no value
 * A group whose values vary from call to call is moved to the signature's per-rank value stream:
 * in the signature a streamed scalar group keeps its width with every value SV_STREAMED, a streamed
 * array group is the single value SV_STREAMED; the stream holds the group's values (arrays with
 * their length first), call after call. A failed-poll signature (SIGF_FAILED_POLL) takes the
 * number of polls of each run from its stream first.
 */
#ifndef LADDER_MPI_SIGNATURE_H
#define LADDER_MPI_SIGNATURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdint.h>

#include "util/buf.h"

/* Symbolic values (never valid ranks, counts, tags or ids). */
#define SV_BASE        (INT64_MIN + 0x100)
#define SV_PROC_NULL   (SV_BASE + 1)
#define SV_ANY_SOURCE  (SV_BASE + 2)
#define SV_ANY_TAG     (SV_BASE + 3)
#define SV_STREAMED    (SV_BASE + 4)
#define SV_UNDEFINED   (SV_BASE + 5)
#define SV_ROOT        (SV_BASE + 6)
#define SV_UNKNOWN     (SV_BASE + 7)
#define SV_NULL        (SV_BASE + 8)   /* a null handle: MPI_COMM_NULL, MPI_REQUEST_NULL, ... */
#define SV_UNWEIGHTED  (SV_BASE + 9)
#define SV_WEIGHTS_EMPTY (SV_BASE + 10)
#define SV_IGNORE      (SV_BASE + 11)  /* MPI_STATUS_IGNORE etc. */
#define SV_SHARED      (SV_BASE + 12)  /* a count or displacement array given by a rule (run/share.h):
					  the group is SV_SHARED, length, total, rule */
static inline bool sv_is_symbolic(int64_t v) { return v > INT64_MIN && v <= SV_BASE + 0xff; }

/* Buffer encodings. */
enum { BUF_USER = 0, BUF_IN_PLACE = 1, BUF_BOTTOM = 2, BUF_NULL = 3 };

/* Well-known communicator ids. */
enum { COMM_ID_WORLD = 0, COMM_ID_SELF = 1, COMM_ID_FIRST_USER = 2 };

/* Parameter kinds. X(name, table spelling, how the stream treats it) */
#define PARAM_KINDS(X) \
	X(IGNORE,     "ignore")      /* not recorded */ \
	X(BUF,        "buf")         /* buffer: BUF_USER / IN_PLACE / BOTTOM / NULL */ \
	X(INT,        "int")         /* plain value */ \
	X(INT_OUT,    "int_out")     /* plain value returned by MPI */ \
	X(COUNT,      "count")       /* element count; streamed when it keeps changing */ \
	X(TAG,        "tag")         /* tag or ANY_TAG; streamed when it keeps changing */ \
	X(PEER,       "peer")        /* rank in the call's comm -> world rank minus caller's */ \
	X(SRC,        "src")         /* like peer, or ANY_SOURCE; plus the actual source */ \
	X(ROOT,       "root")        /* root rank -> absolute world rank */ \
	X(COMM,       "comm")        /* communicator id (agreed by all members) */ \
	X(DTYPE,      "dtype")       /* datatype id and size */ \
	X(OP,         "op")          /* reduction op id */ \
	X(GROUP,      "group")       /* group id */ \
	X(INFO,       "info")        /* 0 for MPI_INFO_NULL, 1 otherwise */ \
	X(COLOR,      "color")       /* always streamed (rank dependent) */ \
	X(KEY,        "key")         /* always streamed (rank dependent) */ \
	X(NEWCOMM,    "newcomm")     /* out: id of the new communicator */ \
	X(NEWTYPE,    "newtype")     /* out: id of the new datatype */ \
	X(NEWGROUP,   "newgroup")    /* out: id of the new group */ \
	X(NEWOP,      "newop")       /* out: id of the new op */ \
	X(REQ_OUT,    "req_out")     /* out: slot in the signature's request pool */ \
	X(REQ,        "req")         /* request to complete/start/free: creator, slot */ \
	X(REQS,       "reqs")        /* array of requests */ \
	X(FLAG_OUT,   "flag_out")    /* out: completion / probe flag */ \
	X(INDEX_OUT,  "index_out")   /* out: completed index; always streamed */ \
	X(INDICES_OUT,"indices_out") /* out: completed indices; always streamed */ \
	X(STATUS,     "status")      /* not recorded (wildcard sources are taken from it) */ \
	X(SELF_OUT,   "self_out")    /* out: the caller's rank in a comm (relative: 0) */ \
	X(SIZE_OUT,   "size_out")    /* out: a size */ \
	X(PEER_OUT,   "peer_out")    /* out: a rank, relative like peer */ \
	X(INTS,       "ints")        /* int array */ \
	X(INTS_OUT,   "ints_out")    /* out: int array */ \
	X(COUNTS,     "counts")      /* count array; streamed when it keeps changing */ \
	X(DISPLS,     "displs")      /* displacement array; streamed when it keeps changing */ \
	X(RANKS,      "ranks")       /* rank array of a group call; always streamed */ \
	X(AINT,       "aint")        /* MPI_Aint value */ \
	X(AINTS,      "aints")       /* MPI_Aint array */ \
	X(DTYPES,     "dtypes")      /* datatype array */ \
	X(PEERS,      "peers")       /* rank array -> relative world ranks */ \
	X(COORDS,     "coords")      /* Cartesian coordinates -> relative to the caller's */ \
	X(WEIGHTS,    "weights")     /* graph weights, or UNWEIGHTED / WEIGHTS_EMPTY */ \
	X(STRING,     "string")      /* interned string id */ \
	X(MSG_OUT,    "msg_out")     /* out: matched-probe message id */ \
	X(MSG,        "msg")         /* matched-probe message id */

enum param_kind {
#define X(n, s) PK_##n,
	PARAM_KINDS(X)
#undef X
	PK_COUNT_OF_KINDS
};

const char *param_kind_name(enum param_kind k);
int param_kind_from_name(const char *s);   /* -1 when unknown */
bool param_kind_is_output(enum param_kind k);
bool param_kind_adaptive(enum param_kind k);   /* streamed once its base keeps changing (the tracer's SM_ADAPTIVE) */
bool param_kind_always_streamed(enum param_kind k);

static inline bool param_kind_is_array(enum param_kind k)
{
	switch (k) {
	case PK_REQS: case PK_INDICES_OUT: case PK_INTS: case PK_INTS_OUT: case PK_COUNTS:
	case PK_DISPLS: case PK_RANKS: case PK_AINTS: case PK_DTYPES: case PK_PEERS: case PK_COORDS:
	case PK_WEIGHTS:
		return true;
	default:
		return false;
	}
}

/* values per element of an array kind / values of a scalar kind (0 for IGNORE/STATUS) */
static inline int param_kind_width(enum param_kind k)
{
	switch (k) {
	case PK_IGNORE: case PK_STATUS:
		return 0;
	case PK_DTYPE: case PK_REQ: case PK_SRC: case PK_DTYPES: case PK_REQS:
		return 2;
	default:
		return 1;
	}
}

/* Function flags. */
enum {
	FNF_COMPLETE   = 1 << 0,   /* completes requests (Wait*, Test*) */
	FNF_POLL       = 1 << 1,   /* may return "nothing yet"; such runs are compressed */
	FNF_START      = 1 << 2,   /* starts persistent requests */
	FNF_FREE       = 1 << 3,   /* frees a request */
	FNF_PERSISTENT = 1 << 4,   /* creates a persistent request */
	FNF_CUSTOM     = 1 << 5,   /* hand-written wrapper (Init, Finalize, Pcontrol, Abort) */
	FNF_COLLECTIVE = 1 << 6,
	FNF_P2P        = 1 << 7,
	FNF_CANCEL     = 1 << 8,
};

/* Signature flags. */
enum {
	SIGF_FAILED_POLL = 1 << 0,   /* a run of polls that found nothing; its length is streamed */
};

struct param_desc {
	const char *name;
	enum param_kind kind;
};

#define FN_MAXPARAMS 32   /* parameters of one traced function (the table reader's limit) */

struct fn_desc {
	const char *name;
	uint32_t flags;
	uint32_t nparams;
	const struct param_desc *params;
};

/* The compiled-in table (generated). ladder_functions[id] for id < ladder_nfunctions. */
extern const struct fn_desc ladder_functions[];
extern const uint32_t ladder_nfunctions;
int fn_lookup(const char *name);   /* id in the compiled-in table, or -1 */

/* Symbolic names of predefined datatypes and ops: id -> name ("MPI_DOUBLE"). Ids of derived
 * types start at DTYPE_ID_FIRST_USER, of user ops at OP_ID_FIRST_USER. */
#define DTYPE_ID_FIRST_USER 100
#define OP_ID_FIRST_USER 32
extern const char *const ladder_dtype_names[DTYPE_ID_FIRST_USER];

/* What a predefined datatype's values are, whatever the language that names it: types of the
 * same meaning and size (a datatype's signature group records both) are the same data —
 * MPI_DOUBLE, MPI_DOUBLE_PRECISION and MPI_REAL8 are 8-byte reals, MPI_INTEGER8 and MPI_INT64_T
 * 8-byte signed integers, MPI_2INT and MPI_2INTEGER pairs of integers. OWN: the type alone (MPI_BYTE,
 * MPI_PACKED, MPI_LOGICAL, MPI_C_BOOL, long double, the C value-index pairs). */
enum dtype_meaning { DTM_OWN, DTM_SIGNED, DTM_UNSIGNED, DTM_REAL, DTM_COMPLEX, DTM_CHARACTER, DTM_SIGNED_PAIR,
		     DTM_REAL_PAIR };
/* the id standing for every predefined type of the meaning of type id (the first of them); other
 * ids (derived types, OWN) unchanged */
int64_t dtype_meaning_id(int64_t id);
extern const char *const ladder_op_names[OP_ID_FIRST_USER];

/*
 * Formatting one event as a line of text, the same in the tracer's raw log and in `ladder decode`:
 *   MPI_Isend buf=user count=4 datatype=MPI_DOUBLE:8 dest=5 tag=0 comm=0 request=3f2a19c0.0
 * vals are the actual values (streamed groups already substituted); rank is the caller's world
 * rank (relative peers are printed as absolute ranks). strings resolves string ids (may be NULL).
 */
struct event_view {
	const struct fn_desc *fn;
	const int64_t *vals;
	uint32_t nvals;
	uint32_t rank;
	const char *const *strings;
	uint32_t nstrings;
	uint64_t req_key;    /* the signature's request pool key (names the requests it creates) */
};
void event_format(const struct event_view *ev, struct buf *out);
/* one stored value for a message: a symbolic value's name (STREAMED, SHARED, ...) or the number in
 * decimal, written to buf (at least 24 bytes) */
const char *sv_text(int64_t v, char *buf, size_t len);
/* For writers of other forms (JSON): the token of one scalar value of kind k as event_format
 * prints it (peers as absolute ranks, handles by name), whether that token is a name rather than
 * a number, the string an interned id stands for (NULL when unknown), and the kind of the
 * elements of an array kind. */
void event_token(const struct event_view *ev, enum param_kind k, const int64_t *v, struct buf *out);
bool event_token_is_name(enum param_kind k, int64_t first);
const char *event_string(const struct event_view *ev, int64_t id);
enum param_kind param_kind_element(enum param_kind k);

/* Number of values of the group starting at vals[i] for kind k (arrays read their length);
 * returns 0 and sets *bad when the values run out. */
uint32_t group_width(enum param_kind k, const int64_t *vals, uint32_t i, uint32_t n, bool *bad);

/* Walking a call's values (vals as events and signatures hold them: parameters in the order of
 * the fn_desc, ignored ones and statuses left out) parameter by parameter: each step gives the
 * parameter's index p in the fn_desc, its kind and name, its group v (vals + at) and the group's
 * width. When a group runs past nvals (or an array's length is negative) the walk stops there with
 * bad set, p and at naming that group; after a whole walk, at is the number of values the groups
 * took (a well-formed call: nvals) and p is nparams.
 *   PARAM_FOR (w, d, vals, nvals)
 *       if (w.kind == PK_COMM) ... w.v[0] ...
 * or, to look at bad and at afterwards, param_walk() and while (param_walk_next(&w)). */
struct param_walk {
	const struct fn_desc *d;
	const int64_t *vals;
	uint32_t nvals;
	uint32_t next;            /* the parameter to look at next */
	uint32_t p;               /* the parameter of this step */
	enum param_kind kind;
	const char *name;
	const int64_t *v;         /* its group: vals + at */
	uint32_t at, width;
	bool bad;
};
struct param_walk param_walk(const struct fn_desc *d, const int64_t *vals, uint32_t nvals);
bool param_walk_next(struct param_walk *w);
#define PARAM_FOR(w, d, vals, nvals) \
	for (struct param_walk w = param_walk((d), (vals), (nvals)); param_walk_next(&w);)
/* the parameter p and the element e within its group of value j of a call's values (vals as
 * above); false when the values end before j */
bool param_walk_value_at(const struct fn_desc *d, const int64_t *vals, uint32_t nvals, uint32_t j, uint32_t *p,
			 uint32_t *e);

/* The values of a call's first parameter of kind k (vals as events hold them: parameters in
 * order, ignored ones and statuses left out), or NULL when it has none or the values run out. */
const int64_t *group_of_kind(const struct fn_desc *d, const int64_t *vals, uint32_t n, enum param_kind k);

/* Width of the placeholder for a wildcard receive's actual source in the text format, so the
 * tracer can patch it in place once the receive completes. */
#define ACTUAL_SOURCE_WIDTH 8

#endif
