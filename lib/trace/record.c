/*
 * record — what happens to one intercepted call: its values become a call signature (streamed
 * groups moved to the rank's value streams, requests named by pool and slot), the signature gets
 * a terminal in the call signature table, the terminal is appended to the Sequitur grammar
 * (Pilgrim §2.2), and the call's duration, the compute gap before it (a histogram per
 * preceding call, ScalaExtrap §3.5, in wall time and in the thread's CPU time, cputime.c) and its
 * profile metrics are accounted.
 *
 * Data-dependent parameters (counts, tags, peers) stay in the signature until a signature
 * "base" (the signature with those parameters masked) has shown more than stream_after variants;
 * from then on they go to the value stream, so the grammar keeps its shape. With stream_after 0
 * they are streamed from a base's first call. At MPI_Finalize, refold.c moves the calls a
 * streaming base made before it switched into its streaming signatures. A call's requests are
 * named in the pool of its base (run_signature_req_key by base), the same before and after.
 *
 * A run of identical polls that find nothing (Test, Iprobe ... with flag 0) is one grammar symbol
 * whose repeat count goes to the stream.
 */
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "run/histogram.h"
#include "mpi/fninfo.h"
#include "mpi/volume.h"
#include "trace/tracer.h"
#include "util/hash.h"
#include "util/xalloc.h"

struct tracer tracer;

/* per-thread scratch space: a call's values, groups, request references and statuses. The
 * library is preloaded, so its thread-local storage is in the static block (initial exec). */
static __thread __attribute__((tls_model("initial-exec"))) struct {
	int64_t *vals;
	uint32_t capvals;
	struct tgroup *groups;
	uint32_t capgroups;
	struct reqref *reqs;
	uint32_t capreqs;
	MPI_Status *st;
	int capst;
	int64_t *sig;
	uint32_t capsig;
	int in_call;
	bool replay_any_source;
	bool counted;   /* this thread is in tracer.mpi_threads */
} scratch;

void trace_replay_any_source(void) { scratch.replay_any_source = true; }

bool trace_take_replay_any_source(void)
{
	bool v = scratch.replay_any_source;
	scratch.replay_any_source = false;
	return v;
}

struct base {
	uint64_t hash;
	uint32_t variants;
	bool streaming;
	UT_hash_handle hh;
};
static struct base *bases;

/*
 * A call site's last call. Most calls repeat exactly what their call site did last time; then
 * the hashing and lookups of the signature's base, its request pool key and the signature itself
 * are skipped. Direct mapped by (call site, function).
 */
struct site_cache {
	uint64_t callsite;
	uint32_t fn, flags, nvals, capvals;
	bool valid, streaming;
	int64_t *vals;          /* the call's values, request slot not yet filled in */
	struct base *b;
	uint64_t req_key;
	void *pool;
	struct call_signature *last;      /* its last signature */
	struct profile_hint hint;
};
#define SITE_CACHE 1024
static struct site_cache site_cache[SITE_CACHE];

struct string_ent {
	uint64_t id;
	char *s;
	UT_hash_handle hh;
};
static struct string_ent *strings;

double trace_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t trace_intern(const char *s)
{
	uint64_t id = hash_bytes(s, strlen(s), 0) & (uint64_t)INT64_MAX;
	struct string_ent *e;
	HASH_FIND(hh, strings, &id, sizeof id, e);
	if (!e) {
		e = xcalloc(1, sizeof *e);
		e->id = id;
		e->s = xstrdup(s);
		HASH_ADD(hh, strings, id, sizeof e->id, e);
	}
	return id;
}

const char *trace_string(int64_t id)
{
	uint64_t k = (uint64_t)id;
	struct string_ent *e;
	HASH_FIND(hh, strings, &k, sizeof k, e);
	return e ? e->s : "?";
}

/* all interned strings, for the run's string table */
void trace_each_string(void (*fn)(const char *s, void *arg), void *arg)
{
	struct string_ent *e, *tmp;
	HASH_ITER(hh, strings, e, tmp)
		fn(e->s, arg);
}

int64_t trace_rel_world(struct comm_info *ci, int rank)
{
	if (rank == MPI_PROC_NULL)
		return SV_PROC_NULL;
	if (rank == MPI_ANY_SOURCE)
		return SV_ANY_SOURCE;
	int w = obj_comm_to_world(ci, rank);
	return w < 0 ? SV_UNKNOWN : (int64_t)w - tracer.rank;
}

/* ---- the call in flight ------------------------------------------------------------------------ */

bool tcall_begin(struct tcall *c, int fn, void *ret_addr)
{
	if (__builtin_expect(trace_fortran.stage == FORTRAN_IN_WRAPPER, 0)) {   /* called from Fortran */
		ret_addr = trace_fortran.caller;
		trace_fortran.stage = FORTRAN_TAKEN;
	}
	if (tracer.state != 1 || tracer.disabled || scratch.in_call)
		return false;
	scratch.in_call = 1;
	if (tracer.multithreaded)
		pthread_mutex_lock(&tracer.lock);
	if (!scratch.counted) {
		scratch.counted = true;
		tracer.mpi_threads++;
	}
	memset(c, 0, sizeof *c);
	c->fn = (uint16_t)fn;
	c->record = !tracer.paused;
	c->ret_addr = ret_addr;
	c->vals = scratch.vals;
	c->capvals = scratch.capvals;
	c->groups = scratch.groups;
	c->capgroups = scratch.capgroups;
	c->reqs = scratch.reqs;
	c->capreqs = scratch.capreqs;
	c->src_group = c->req_out_group = -1;
	c->comm = MPI_COMM_NULL;
	c->h_comm = MPI_COMM_NULL;
	c->h_dtype = MPI_DATATYPE_NULL;
	c->h_group = MPI_GROUP_NULL;
	c->h_op = MPI_OP_NULL;
	c->h_msg = MPI_MESSAGE_NULL;
	c->t_begin = trace_now();
	c->cpu_begin = cputime_gap_end(c->t_begin);
	return true;
}

void tcall_set_comm(struct tcall *c, MPI_Comm comm)
{
	c->comm = comm;
	c->ci = obj_comm(comm);
}

void tcall_grow(struct tcall *c, uint32_t width)
{
	if (c->nvals + width > c->capvals) {
		uint32_t n = c->capvals ? c->capvals : 64;
		while (n < c->nvals + width)
			n *= 2;
		c->vals = scratch.vals = xrealloc(scratch.vals, n * sizeof *scratch.vals);
		c->capvals = scratch.capvals = n;
	}
	if (c->ngroups == c->capgroups) {
		c->capgroups = scratch.capgroups = c->capgroups ? 2 * c->capgroups : 16;
		c->groups = scratch.groups = xrealloc(scratch.groups, c->capgroups * sizeof *scratch.groups);
	}
}

struct reqref *trace_scratch_reqs(uint32_t n)
{
	if (n > scratch.capreqs) {
		scratch.reqs = xrealloc(scratch.reqs, n * sizeof *scratch.reqs);
		scratch.capreqs = n;
	}
	return scratch.reqs;
}

void tcall_invoke(struct tcall *c)
{
	c->t_invoke = trace_now();
	if (tracer.multithreaded)
		pthread_mutex_unlock(&tracer.lock);
}

void tcall_returned(struct tcall *c)
{
	c->t_returned = trace_now();
	if (tracer.multithreaded)
		pthread_mutex_lock(&tracer.lock);
}

bool tcall_is_root(struct tcall *c, int root)
{
	if (!c->ci)
		return false;
	return c->ci->inter ? root == MPI_ROOT : root == c->ci->rank;
}

int tcall_comm_size(struct tcall *c) { return c->ci ? (c->ci->inter ? c->ci->remote_size : c->ci->size) : 0; }
int tcall_indegree(struct tcall *c) { return c->ci ? c->ci->indeg : 0; }
int tcall_outdegree(struct tcall *c) { return c->ci ? c->ci->outdeg : 0; }
int tcall_cartdims(struct tcall *c) { return c->ci && c->ci->topo == MPI_CART ? c->ci->ndims : 0; }

MPI_Status *tcall_statuses(struct tcall *c, MPI_Status *app, int n)
{
	if (!c->need_status || (app != MPI_STATUS_IGNORE && app != MPI_STATUSES_IGNORE))
		return app;
	if (n < 1)
		n = 1;
	if (n > scratch.capst) {
		scratch.st = xrealloc(scratch.st, (size_t)n * sizeof *scratch.st);
		scratch.capst = n;
	}
	return scratch.st;
}

void tcall_statuses_done(struct tcall *c, MPI_Status *st)
{
	c->statuses = st == MPI_STATUS_IGNORE || st == MPI_STATUSES_IGNORE ? NULL : st;
	if (c->src_group < 0)
		return;
	int64_t *v = c->vals + c->groups[c->src_group].start;
	if (v[0] != SV_ANY_SOURCE)
		return;
	if (c->has_flag && !c->flag)
		v[1] = SV_UNDEFINED;
	else if (c->statuses)
		v[1] = trace_rel_world(c->ci, c->statuses[0].MPI_SOURCE);
}

static const MPI_Status *status_at(struct tcall *c, int i) { return c->statuses ? &c->statuses[i] : NULL; }

void tcall_requests_done(struct tcall *c)
{
	uint32_t flags = ladder_functions[c->fn].flags;
	if (flags & FNF_START) {
		for (uint32_t i = 0; i < c->nreqs; i++) {
			struct request_entry *e = c->reqs[i].e;
			if (!e)
				continue;
			e->active = true;
			c->bytes_sent += e->bytes_sent;
			c->bytes_recv += e->bytes_recv;
			c->msgs_sent += e->msgs_sent;
			c->msgs_recv += e->msgs_recv;
		}
		return;
	}
	if (flags & FNF_FREE) {
		for (uint32_t i = 0; i < c->nreqs; i++)
			if (c->reqs[i].e)
				req_free(c->reqs[i].e);
		return;
	}
	if (!(flags & FNF_COMPLETE))
		return;
	if (c->has_indices) {                         /* Waitsome, Testsome */
		for (int k = 0; k < c->outcount && c->indices; k++) {
			int i = c->indices[k];
			if (i >= 0 && (uint32_t)i < c->nreqs && c->reqs[i].e)
				req_complete(c->reqs[i].e, status_at(c, k));
		}
	} else if (c->has_index) {                    /* Waitany, Testany */
		if ((!c->has_flag || c->flag) && c->index >= 0 && (uint32_t)c->index < c->nreqs &&
		    c->reqs[c->index].e)
			req_complete(c->reqs[c->index].e, status_at(c, 0));
	} else if (!c->has_flag || c->flag) {         /* Wait, Waitall, Test, Testall */
		for (uint32_t i = 0; i < c->nreqs; i++)
			if (c->reqs[i].e)
				req_complete(c->reqs[i].e, status_at(c, (int)i));
	}
}

/* ---- signatures ------------------------------------------------------------------------------- */

static uint64_t hash_values(uint64_t h, const int64_t *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		h = hash_combine(h, (uint64_t)v[i]);
	return h;
}

static struct call_signature *sig_find(uint64_t h, uint32_t fn, uint32_t flags, uint64_t callsite,
			     const int64_t *v, uint32_t n)
{
	struct call_signature *s;
	HASH_FIND(hh, tracer.sig_index, &h, sizeof h, s);
	for (; s; s = s->collide)
		if (s->fn == fn && s->flags == flags && s->callsite == callsite && s->nvals == n &&
		    !memcmp(s->vals, v, n * sizeof *v))
			return s;
	return NULL;
}

static struct call_signature *sig_add(uint64_t h, uint32_t fn, uint32_t flags, uint64_t callsite,
			    const int64_t *v, uint32_t n)
{
	struct call_signature *s = xcalloc(1, sizeof *s);
	s->folded_into = UINT32_MAX;
	s->hash = h;
	s->fn = fn;
	s->flags = flags;
	s->callsite = callsite;
	s->nvals = n;
	s->vals = xmalloc((n ? n : 1) * sizeof *v);
	memcpy(s->vals, v, n * sizeof *v);
	s->term = tracer.nsigs;
	struct call_signature *first;
	HASH_FIND(hh, tracer.sig_index, &h, sizeof h, first);
	if (first) {
		s->collide = first->collide;
		first->collide = s;
	} else {
		HASH_ADD(hh, tracer.sig_index, hash, sizeof s->hash, s);
	}
	if (tracer.nsigs == tracer.capsigs) {
		tracer.capsigs = tracer.capsigs ? 2 * tracer.capsigs : 64;
		tracer.sigs = xrealloc(tracer.sigs, tracer.capsigs * sizeof *tracer.sigs);
		tracer.streams = xrealloc(tracer.streams, tracer.capsigs * sizeof *tracer.streams);
		tracer.durs = xrealloc(tracer.durs, tracer.capsigs * sizeof *tracer.durs);
	}
	tracer.sigs[tracer.nsigs] = s;
	memset(&tracer.streams[tracer.nsigs], 0, sizeof tracer.streams[0]);
	memset(&tracer.durs[tracer.nsigs], 0, sizeof tracer.durs[0]);
	tracer.nsigs++;
	return s;
}

static uint64_t stream_push(uint32_t term, int64_t v)
{
	struct tstream *s = &tracer.streams[term];
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
	s->v[s->n] = v;
	return s->n++;
}

static void stats_add(struct dur_stats *d, double x)
{
	if (!d->count || x < d->min)
		d->min = x;
	if (!d->count || x > d->max)
		d->max = x;
	d->count++;
	d->sum += x;
	d->sumsq += x * x;
}

static void gap_add(uint32_t prev, struct call_signature *s, double gap, double cpu)
{
	if (gap < 0)
		gap = 0;
	struct gaphist *g = s->gap;
	if (g && s->gap_prev == prev)
		goto add;
	uint64_t key = (uint64_t)prev << 32 | s->term;
	HASH_FIND(hh, tracer.gaps, &key, sizeof key, g);
	if (!g) {
		g = xcalloc(1, sizeof *g);
		g->key = key;
		HASH_ADD(hh, tracer.gaps, key, sizeof g->key, g);
	}
	s->gap = g;
	s->gap_prev = prev;
add:
	run_cpu_add(&g->cpu, g->s.count, cpu);
	stats_add(&g->s, gap);
	hist_add(&g->h, gap, cpu, (uint32_t)tracer.hist_bins);
}

/* ---- the raw log: every call as text, for checking the compressed trace ----------------------- */

static void raw_log(struct tcall *c, struct request_entry *wildcard)
{
	static struct buf line;
	struct event_view ev = {
		.fn = &ladder_functions[c->fn],
		.vals = c->vals,
		.nvals = c->nvals,
		.rank = (uint32_t)tracer.rank,
		.req_key = c->req_key,
	};
	buf_reset(&line);
	/* strings are printed by name: give the formatter this process's string table */
	const char *names[64];
	uint32_t nnames = 0;
	for (uint32_t g = 0; g < c->ngroups; g++)
		if (c->groups[g].kind == PK_STRING && nnames < 64)
			names[nnames++] = trace_string(c->vals[c->groups[g].start]);
	ev.strings = names;
	ev.nstrings = nnames;
	event_format(&ev, &line);
	long at = ftell(tracer.raw_log);
	if (wildcard && at >= 0) {
		const char *p = memmem(line.data, line.len, "ANY_SOURCE@", 11);
		wildcard->raw_offset = p ? at + (long)(p - (const char *)line.data) + 11 : -1;
	}
	buf_put_u8(&line, '\n');
	fwrite(line.data, 1, line.len, tracer.raw_log);
}

void trace_patch_source(struct request_entry *e, const MPI_Status *st)
{
	int64_t rel = trace_rel_world(e->ci, st->MPI_SOURCE);
	if (e->patch_term < tracer.nsigs && e->patch_index < tracer.streams[e->patch_term].n)
		tracer.streams[e->patch_term].v[e->patch_index] = rel;
	if (tracer.raw_log && e->raw_offset >= 0) {
		char tmp[32];
		snprintf(tmp, sizeof tmp, "%-*lld", ACTUAL_SOURCE_WIDTH, (long long)(rel + tracer.rank));
		long end = ftell(tracer.raw_log);
		fseek(tracer.raw_log, e->raw_offset, SEEK_SET);
		fwrite(tmp, 1, ACTUAL_SOURCE_WIDTH, tracer.raw_log);
		fseek(tracer.raw_log, end, SEEK_SET);
	}
}

/* ---- the end of a call ------------------------------------------------------------------------ */

static struct base *base_of(struct tcall *c, uint64_t callsite, uint32_t flags)
{
	uint64_t h = hash_combine(hash_combine(hash_mix64(c->fn + 1), callsite), flags);
	bool any = false;
	for (uint32_t g = 0; g < c->ngroups; g++) {
		struct tgroup *gr = &c->groups[g];
		if (gr->mode == SM_ADAPTIVE) {
			any = true;
			h = hash_combine(h, 0x5eed);
		} else if (gr->mode == SM_NONE) {
			h = hash_values(h, c->vals + gr->start, gr->width);
		}
	}
	if (!any)
		return NULL;
	struct base *b;
	HASH_FIND(hh, bases, &h, sizeof h, b);
	if (!b) {
		b = xcalloc(1, sizeof *b);
		b->hash = h;
		b->streaming = tracer.stream_after == 0;
		HASH_ADD(hh, bases, hash, sizeof b->hash, b);
	}
	return b;
}

static bool same_as_last_poll(struct tcall *c)
{
	return tracer.last_poll_nvals == c->nvals &&
	       !memcmp(tracer.last_poll_vals, c->vals, c->nvals * sizeof *c->vals);
}

static void remember_poll(struct tcall *c)
{
	if (c->nvals > tracer.last_poll_cap) {
		tracer.last_poll_cap = c->nvals;
		tracer.last_poll_vals = xrealloc(tracer.last_poll_vals, c->nvals * sizeof *c->vals);
	}
	memcpy(tracer.last_poll_vals, c->vals, c->nvals * sizeof *c->vals);
	tracer.last_poll_nvals = c->nvals;
}

static struct site_cache *site_of_call(uint64_t callsite, uint32_t fn)
{
	return &site_cache[hash_combine(callsite, fn) & (SITE_CACHE - 1)];
}

static bool site_hit(const struct site_cache *sc, const struct tcall *c, uint64_t callsite, uint32_t flags)
{
	if (!sc->valid || sc->callsite != callsite || sc->fn != c->fn || sc->flags != flags ||
	    sc->nvals != c->nvals || memcmp(sc->vals, c->vals, c->nvals * sizeof *c->vals))
		return false;
	return (sc->b && sc->b->streaming) == sc->streaming;
}

static void site_remember(struct site_cache *sc, const struct tcall *c, uint64_t callsite, uint32_t flags,
			  struct base *b)
{
	if (c->nvals > sc->capvals) {
		sc->capvals = c->nvals;
		sc->vals = xrealloc(sc->vals, sc->capvals * sizeof *sc->vals);
	}
	memcpy(sc->vals, c->vals, c->nvals * sizeof *c->vals);
	/* the profile entry belongs to the function: another function taking the slot over must
	 * not account its calls to the one that had it */
	if (!sc->valid || sc->fn != c->fn)
		sc->hint.valid = false;
	sc->callsite = callsite;
	sc->fn = c->fn;
	sc->flags = flags;
	sc->nvals = c->nvals;
	sc->b = b;
	sc->streaming = b && b->streaming;
	sc->last = NULL;
	sc->pool = NULL;
	sc->valid = true;
}

/* the call's signature in scratch.sig: its values with streamed groups replaced by SV_STREAMED (an
 * array by one marker). Marks each group SM_ALWAYS (goes to the stream) or SM_NONE; returns the
 * signature's length and sets *any_streamed. */
static uint32_t build_signature(struct tcall *c, bool stream_adaptive, bool *any_streamed)
{
	if (c->nvals > scratch.capsig) {
		scratch.capsig = c->nvals * 2;
		scratch.sig = xrealloc(scratch.sig, scratch.capsig * sizeof *scratch.sig);
	}
	uint32_t n = 0;
	*any_streamed = false;
	for (uint32_t g = 0; g < c->ngroups; g++) {
		struct tgroup *gr = &c->groups[g];
		bool streamed = gr->mode == SM_ALWAYS || (gr->mode == SM_ADAPTIVE && stream_adaptive);
		if (!streamed) {
			if (gr->width == 1)
				scratch.sig[n] = c->vals[gr->start];
			else
				memcpy(scratch.sig + n, c->vals + gr->start, gr->width * sizeof *scratch.sig);
			n += gr->width;
		} else if (param_kind_is_array(gr->kind)) {
			scratch.sig[n++] = SV_STREAMED;
		} else {
			for (uint32_t i = 0; i < gr->width; i++)
				scratch.sig[n++] = SV_STREAMED;
		}
		gr->mode = streamed ? SM_ALWAYS : SM_NONE;
		*any_streamed |= streamed;
	}
	return n;
}

/* a call that creates a request: its pool is the signature without the request; the request's
 * slot in that pool goes into the values and the signature. Returns the slot (0 when no request
 * was made). */
static uint32_t name_created_request(struct tcall *c, struct site_cache *sc, bool hit, uint64_t callsite,
				     uint32_t flags, uint32_t n, bool made_request)
{
	if (!hit || !sc->pool) {
		sc->req_key = run_signature_req_key(true, c->fn, callsite, flags, &ladder_functions[c->fn],
						    scratch.sig, n);
		sc->pool = req_pool(sc->req_key);
	}
	c->req_key = sc->req_key;
	uint32_t slot = 0;
	int64_t v = SV_NULL;
	if (made_request) {
		slot = req_pool_take(sc->pool);
		v = slot;
	}
	c->vals[c->groups[c->req_out_group].start] = v;
	/* the same position in the signature: req_out is never streamed */
	uint32_t pos = 0;
	for (int32_t g = 0; g < c->req_out_group; g++)
		pos += c->groups[g].mode == SM_ALWAYS && param_kind_is_array(c->groups[g].kind) ? 1 : c->groups[g].width;
	scratch.sig[pos] = v;
	return slot;
}

static uint64_t sig_hash(uint32_t fn, uint64_t callsite, uint32_t flags, const int64_t *v, uint32_t n)
{
	return hash_values(hash_combine(hash_combine(hash_mix64(fn + 1), callsite), flags), v, n);
}

struct call_signature *trace_signature(uint32_t fn, uint32_t flags, uint64_t callsite, const int64_t *v,
				       uint32_t n)
{
	uint64_t h = sig_hash(fn, callsite, flags, v, n);
	struct call_signature *s = sig_find(h, fn, flags, callsite, v, n);
	return s ? s : sig_add(h, fn, flags, callsite, v, n);
}

bool trace_base_streaming(const struct base *b) { return b && b->streaming; }
uint64_t trace_base_id(const struct base *b) { return b->hash; }

/* the signature's entry in the call signature table, added when new; a new variant of a base
 * may switch the base to streaming (its signatures so far stay literal until refold.c) */
static struct call_signature *signature_entry(struct tcall *c, struct site_cache *sc, struct base *b,
					      uint64_t callsite, uint32_t flags, uint32_t n)
{
	struct call_signature *s = sc->last;
	if (s && s->nvals == n && !memcmp(s->vals, scratch.sig, n * sizeof *scratch.sig))
		return s;
	uint64_t h = sig_hash(c->fn, callsite, flags, scratch.sig, n);
	s = sig_find(h, c->fn, flags, callsite, scratch.sig, n);
	if (!s) {
		s = sig_add(h, c->fn, flags, callsite, scratch.sig, n);
		s->base = b;
		s->literal = b && !b->streaming;
		if (b && !b->streaming && ++b->variants > (uint32_t)tracer.stream_after)
			b->streaming = true;
	}
	sc->last = s;
	return s;
}

/* the request the call created: a persistent one carries the call's bytes to each MPI_Start, a
 * receive from ANY_SOURCE gets its actual source patched in at completion (returned) */
static struct request_entry *register_request(struct tcall *c, struct site_cache *sc, uint32_t slot)
{
	struct request_entry *e = req_add(c->req_out, *c->req_out, c->req_key, sc->pool, slot);
	e->persistent = c->req_persistent;
	e->ci = c->ci;
	if (e->persistent) {   /* accounted at each MPI_Start */
		e->bytes_sent = c->bytes_sent;
		e->bytes_recv = c->bytes_recv;
		e->msgs_sent = c->msgs_sent;
		e->msgs_recv = c->msgs_recv;
		c->bytes_sent = c->bytes_recv = 0;
		c->msgs_sent = c->msgs_recv = 0;
		return NULL;
	}
	if (c->src_group >= 0 && c->vals[c->groups[c->src_group].start] == SV_ANY_SOURCE) {
		e->wildcard = true;
		return e;
	}
	return NULL;
}

/* the streamed groups' values to the terminal's stream; a wildcard receive remembers where its
 * actual source went */
static void push_streamed_values(struct tcall *c, uint32_t term, struct request_entry *wildcard)
{
	for (uint32_t g = 0; g < c->ngroups; g++) {
		struct tgroup *gr = &c->groups[g];
		if (gr->mode != SM_ALWAYS)
			continue;
		for (uint32_t i = 0; i < gr->width; i++) {
			uint64_t at = stream_push(term, c->vals[gr->start + i]);
			if (wildcard && (int32_t)g == c->src_group && i == 1) {
				wildcard->patch_term = term;
				wildcard->patch_index = at;
			}
		}
	}
}

/* value streams and the grammar; a repeat of the last failed poll only counts up its run */
static void append_to_grammar(struct tcall *c, uint32_t term, bool failed_poll, bool any_streamed,
			      struct request_entry *wildcard)
{
	if (failed_poll && tracer.have_last && tracer.last_failed_poll && tracer.last_term == term &&
	    same_as_last_poll(c)) {
		tracer.streams[term].v[tracer.last_poll_index]++;
		return;
	}
	if (failed_poll) {
		tracer.last_poll_index = stream_push(term, 1);
		remember_poll(c);
	}
	if (any_streamed)
		push_streamed_values(c, term, wildcard);
	sequitur_append(tracer.grammar, term);
	tracer.last_term = term;
	tracer.have_last = true;
	tracer.last_failed_poll = failed_poll;
}

/* duration, the compute gap before the call, profile, timestamps and the raw log */
static void account_time(struct tcall *c, struct call_signature *s, struct site_cache *sc,
			 struct request_entry *wildcard)
{
	uint32_t term = s->term;
	double dur = c->t_returned - c->t_invoke;
	stats_add(&tracer.durs[term], dur);
	if (tracer.events == 0) {
		gap_add(RUN_NO_PREV, s, 0, 0);
	} else {
		double gap = c->t_begin - tracer.last_end;
		gap_add(tracer.prev_call, s, gap, cputime_of_gap(tracer.cpu_last_end, c->cpu_begin, gap));
		cputime_learn(tracer.prev_call, gap);
	}
	tracer.prev_call = term;
	trace_profile_call(c, dur, &sc->hint);
	if (tracer.timestamps) {
		double since_origin = c->t_invoke - tracer.ts_origin;
		uint64_t start = since_origin > 0 ? (uint64_t)(since_origin * 1e9) : 0;
		uint64_t last = (uint64_t)(tracer.ts_last_start * 1e9);
		buf_put_uv(&tracer.ts_buf, start >= last ? start - last : 0);
		buf_put_uv(&tracer.ts_buf, (uint64_t)(dur * 1e9));
		tracer.ts_last_start = (double)start * 1e-9;
	}
	if (tracer.raw_log)
		raw_log(c, wildcard);
	tracer.events++;
}

static void record_call(struct tcall *c)
{
	const struct fn_desc *d = &ladder_functions[c->fn];
	uint64_t callsite = callsite_of(c->ret_addr);
	bool failed_poll = (d->flags & FNF_POLL) &&
			   ((c->has_flag && !c->flag) || (c->has_indices && c->outcount == 0));
	uint32_t flags = failed_poll ? SIGF_FAILED_POLL : 0;
	struct site_cache *sc = site_of_call(callsite, c->fn);
	bool hit = site_hit(sc, c, callsite, flags);
	struct base *b = hit ? sc->b : base_of(c, callsite, flags);
	if (!hit)
		site_remember(sc, c, callsite, flags, b);

	bool any_streamed;
	uint32_t n = build_signature(c, b && b->streaming, &any_streamed);
	uint32_t slot = 0;
	bool made_request = c->req_out && *c->req_out != MPI_REQUEST_NULL;
	if (c->req_out_group >= 0)
		slot = name_created_request(c, sc, hit, callsite, flags, n, made_request);
	struct call_signature *s = signature_entry(c, sc, b, callsite, flags, n);
	c->terminal = s->term;
	struct request_entry *wildcard = made_request ? register_request(c, sc, slot) : NULL;
	if (!c->record)
		return;
	append_to_grammar(c, s->term, failed_poll, any_streamed, wildcard);
	account_time(c, s, sc, wildcard);
}

/* ---- bytes and messages: the project's one byte accounting (lib/mpi/volume.c) on the values just
 * encoded, before any of them is replaced by its stream marker or request slot ------------------ */

static void account_volume(struct tcall *c)
{
	if (mpi_fninfo[c->fn].vol == VOL_NONE)
		return;   /* most calls: completions, queries, communicator management */
	const struct fn_desc *d = &ladder_functions[c->fn];
	const int64_t *params[FN_MAXPARAMS] = {0};
	uint32_t group = 0;
	for (uint32_t p = 0; p < d->nparams && p < FN_MAXPARAMS; p++) {
		enum param_kind k = d->params[p].kind;
		if (k == PK_IGNORE || k == PK_STATUS)
			continue;   /* the wrappers encode every other parameter, in order */
		assert(group < c->ngroups);
		params[p] = c->vals + c->groups[group++].start;
	}
	struct vol_ctx ctx = {.world_rank = tracer.rank};
	if (c->ci) {
		ctx.inter = c->ci->inter;
		ctx.size = c->ci->inter ? c->ci->remote_size : c->ci->size;
		ctx.rank = c->ci->rank;
		ctx.indeg = c->ci->indeg;
		ctx.outdeg = c->ci->outdeg;
	}
	struct vol v = {0};
	vol_account_call(c->fn, params, &ctx, &v);
	c->bytes_sent += v.sent;
	c->bytes_recv += v.recv;
	c->msgs_sent += v.msgs_sent;
	c->msgs_recv += v.msgs_recv;
}

void tcall_end(struct tcall *c)
{
	account_volume(c);
	record_call(c);
	if (c->record) {
		double now = trace_now();
		double own = (c->t_invoke - c->t_begin) + (now - c->t_returned);
		profile_overhead(own);
		tracer.own_time += own;
		tracer.last_end = now;
		tracer.cpu_last_end = cputime_gap_start(now, c->terminal);
	}
	scratch.in_call = 0;
	if (tracer.multithreaded)
		pthread_mutex_unlock(&tracer.lock);
}

void trace_count_unknown(int idx)
{
	if (tracer.state != 1 || tracer.paused || scratch.in_call)
		return;
	if (tracer.multithreaded)
		pthread_mutex_lock(&tracer.lock);
	profile_unknown(idx);
	if (tracer.multithreaded)
		pthread_mutex_unlock(&tracer.lock);
}

void record_fini(void)
{
	struct base *b, *btmp;
	HASH_ITER(hh, bases, b, btmp) {
		HASH_DEL(bases, b);
		free(b);
	}
	struct string_ent *e, *etmp;
	HASH_ITER(hh, strings, e, etmp) {
		HASH_DEL(strings, e);
		free(e->s);
		free(e);
	}
	HASH_CLEAR(hh, tracer.sig_index);
	for (uint32_t i = 0; i < tracer.nsigs; i++) {
		free(tracer.sigs[i]->vals);
		free(tracer.sigs[i]);
		free(tracer.streams[i].v);
	}
	free(tracer.sigs);
	free(tracer.streams);
	free(tracer.durs);
	struct gaphist *g, *gtmp;
	HASH_ITER(hh, tracer.gaps, g, gtmp) {
		HASH_DEL(tracer.gaps, g);
		free(g->h.bins);
		free(g);
	}
	free(tracer.last_poll_vals);
	for (int i = 0; i < SITE_CACHE; i++) {
		free(site_cache[i].vals);
		memset(&site_cache[i], 0, sizeof site_cache[i]);
	}
	sequitur_free(tracer.grammar);
	tracer.grammar = NULL;
}
