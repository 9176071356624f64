/*
 * proxy — `ladder proxy`: a run (measured or extrapolated) becomes a readable C+MPI program that
 * makes the same MPI calls (ScalaBenchGen §3, §5; Pilgrim §3). The program is small because it is
 * written from the compressed trace, never from the expanded call sequence:
 *
 *   rules.c     one C function per grammar rule of each group, `for` loops for repetition counts,
 *               main() choosing a group by its ranklist (never a per-rank switch)
 *   call.c      one recorded call -> one MPI call statement, with arguments from the signature's
 *               values (emitters driven by the generated function shapes, shapes.h)
 *   values.c    recorded values -> C expressions: symbolic values, ranks, handles, requests
 *   homes.c     where requests live: fixed slots of the request ring for those an array takes
 *   streams.c   values that change from call to call as run-length-encoded tables per rank set
 *   gaps.c      compute gaps from the timing histograms (calibrated CPU work)
 *   placement.c ranks bound to cores by their recorded compute, for runs whose wildcard receives
 *               took sends (the split of the work among the senders is the recorded one)
 *   emit.c      the text: printf into a buffer, names and comments from call sites
 *   generate.c  the checks that refuse what cannot be expressed, and the files: proxy.c,
 *               proxy.h (the support code, runtime.inc) and a Makefile
 *   proxygen.c  a build tool: the function shapes (shapes.h) from mpi-functions.tbl and mpi.h
 *   runtime.inc the generated program's support code, embedded at build time
 */
#ifndef LADDER_PROXY_PROXY_H
#define LADDER_PROXY_PROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/run.h"
#include "util/buf.h"

struct proxy_options {
	const char *source;      /* the container's path, for the header comment */
};

/* Write DIR/proxy.c, DIR/proxy.h and DIR/Makefile (DIR is created). False with a one-line reason
 * in why ("rank R, call N (MPI_X): reason" when a call cannot be expressed). The run must have
 * passed run_check. */
bool proxy_generate(const struct run *r, const struct proxy_options *o, const char *dir,
		    char *why, size_t whylen);

/* ---- shared between the generator's files ---- */

struct proxy_pool {           /* a request pool of the trace (the requests of one signature) */
	uint64_t key;
	uint32_t slots, base;     /* slots in use; where they start in the program's request table */
	uint32_t sig;             /* a signature creating them */
};

#define PROXY_RING_HOMES 32768    /* ring slots that may be homes (runtime.inc: RING_SIZE / 2) */
#define PROXY_MAX_COMMS 256       /* the program's tables (runtime.inc: MAX_COMMS, MAX_HANDLES) */
#define PROXY_MAX_HANDLES 1024
enum { PX_COMM, PX_TYPE, PX_GROUP, PX_OP };

struct proxy_gen {
	const struct run *r;
	struct buf text;          /* proxy.c being written */
	uint32_t *fn_of;          /* run function index -> compiled id (UINT32_MAX: unknown) */
	struct proxy_pool *pools;
	uint32_t npools, nrequests;
	bool *streamed;           /* per signature: some of its values come from streams */
	uint32_t group;           /* the group being written */
	uint32_t init_sig;        /* MPI_Init or MPI_Init_thread */
	bool uses_pool_keys;      /* streamed request names: the program needs the pool keys */
	bool created[4][PROXY_MAX_HANDLES];   /* comm, type, group, op ids some call creates */
	int64_t *home;            /* per signature: the ring slot its requests live in, -1 none */
	uint32_t homes, most_homes;   /* ring slots the group's homes take, most over the groups */
	bool placed;              /* wildcard receives took sends: the program places its ranks */
	char *why;
	size_t whylen;
};

void px_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void px_puts(struct buf *b, const char *s);
/* false with why = "rank R, MPI_X from SITE: REASON" */
bool px_refuse(struct proxy_gen *g, uint32_t sig, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "MPI_Isend from halo_exchange (stencil.c+0x1a2)": the function's name from ladder's table, the
 * call site's symbol and module through c_comment_put (util/escape.h), so the text is fit for a
 * comment and a message as it is */
void px_callsite_text(const struct proxy_gen *g, uint32_t sig, struct buf *b);
/* ladder's own descriptor of a signature's function (names, parameters: every identifier the
 * program holds comes from it, never from the file), NULL when ladder's table does not know it */
const struct fn_desc *px_function(const struct proxy_gen *g, uint32_t sig);

/* values.c: the values of a signature (groups of parameter p; NULL when not recorded) */
const int64_t *px_group_values(const struct proxy_gen *g, uint32_t sig, uint32_t p, uint32_t *width);
struct proxy_pool *px_pool_of(struct proxy_gen *g, uint64_t key);
bool px_pools_build(struct proxy_gen *g);
/* which communicator, datatype, group and op ids the run's calls create */
void px_created_build(struct proxy_gen *g);

/* homes.c: g->home and g->homes for the group being written */
void px_homes_build(struct proxy_gen *g);

/* call.c: the statement(s) of one terminal; false with why set */
bool px_emit_call(struct proxy_gen *g, uint32_t sig, int indent);
bool px_check_call(struct proxy_gen *g, uint32_t sig);

/* rules.c */
bool px_emit_groups(struct proxy_gen *g);
void px_emit_main(struct proxy_gen *g);

/* streams.c */
bool px_emit_streams(struct proxy_gen *g);

/* gaps.c: the compute statement before a call of sig in the current group */
void px_emit_gap(struct proxy_gen *g, uint32_t sig, int indent);
void px_emit_gap_tables(struct proxy_gen *g);

/* placement.c: whether the program places its ranks (g->placed; a note on stderr when that cannot
 * be known); PROXY_PLACED before proxy.h is included; the CPU seconds a rank of a group computed */
void px_find_placed(struct proxy_gen *g);
void px_emit_placement_define(struct proxy_gen *g);
double px_group_compute(const struct proxy_gen *g, uint32_t group);

extern const char proxy_runtime_text[];

#endif
