/*
 * finalize — the end of a traced run: the inter-process merge (Pilgrim §2.5) in O(log P)
 * rounds, and rank 0 writing the merged run in the raw format for `ladder import`.
 *
 *  0. the ranks agree on the bases that refold (switched, most calls streaming), and each rank
 *     moves the calls those bases made in literal signatures to their streams (refold.c).
 *  1. vocabulary: call signature tables, call sites, strings and profile call paths are merged
 *     pairwise up a binomial tree into one global table, which rank 0 broadcasts; every rank maps
 *     its terminals and call paths to global ids.
 *  2. groups: each rank's grammar, rewritten in global terminals, travels up the same tree with
 *     its timing; identical grammars merge into one group (ranks united, timing combined).
 *  3. per-rank data (value streams, each folded to its head and period; profile, lossless
 *     timestamps) is gathered to rank 0, which shares the streams identical across ranks and
 *     states per-rank differences as laws of the rank (run_pack_streams).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "trace/tracer.h"
#include "run/merge.h"   /* after tracer.h: its uthash hash function first */
#include "util/file.h"
#include "util/hash.h"
#include "util/xalloc.h"

void trace_each_string(void (*fn)(const char *s, void *arg), void *arg);
void callsite_each(void (*fn)(uint64_t id, uint32_t nframes, const char *const *modules,
			      const uint64_t *offsets, const char *const *symbols, void *arg),
		   void *arg);

enum { TAG_LEN = 0x1add, TAG_DATA = 0x1ade };
#define CHUNK (1 << 30)

/* ---- moving byte buffers between ranks ----------------------------------------------------------- */

static void send_buf(const struct buf *b, int to)
{
	uint64_t n = b->len;
	PMPI_Send(&n, 1, MPI_UINT64_T, to, TAG_LEN, tracer.comm);
	for (uint64_t off = 0; off < n; off += CHUNK) {
		int len = (int)(n - off < CHUNK ? n - off : CHUNK);
		PMPI_Send(b->data + off, len, MPI_BYTE, to, TAG_DATA, tracer.comm);
	}
}

static void recv_buf(struct buf *b, int from)
{
	uint64_t n;
	PMPI_Recv(&n, 1, MPI_UINT64_T, from, TAG_LEN, tracer.comm, MPI_STATUS_IGNORE);
	buf_reset(b);
	XGROW(b->data, b->cap, n);
	for (uint64_t off = 0; off < n; off += CHUNK) {
		int len = (int)(n - off < CHUNK ? n - off : CHUNK);
		PMPI_Recv(b->data + off, len, MPI_BYTE, from, TAG_DATA, tracer.comm, MPI_STATUS_IGNORE);
	}
	b->len = n;
}

void trace_bcast_buf(struct buf *b)
{
	uint64_t n = b->len;
	PMPI_Bcast(&n, 1, MPI_UINT64_T, 0, tracer.comm);
	XGROW(b->data, b->cap, n);
	for (uint64_t off = 0; off < n; off += CHUNK) {
		int len = (int)(n - off < CHUNK ? n - off : CHUNK);
		PMPI_Bcast(b->data + off, len, MPI_BYTE, 0, tracer.comm);
	}
	b->len = n;
}

/* Binomial-tree reduction: after it, rank 0's accumulator holds everyone's. */
void trace_tree_reduce(void *acc, void (*ser)(void *acc, struct buf *b), void (*merge)(void *acc, struct reader *rd))
{
	struct buf b;
	buf_init(&b);
	for (int step = 1; step < tracer.size; step <<= 1) {
		if (tracer.rank & step) {
			ser(acc, &b);
			send_buf(&b, tracer.rank - step);
			break;
		}
		if (tracer.rank + step < tracer.size) {
			recv_buf(&b, tracer.rank + step);
			struct reader rd;
			reader_init(&rd, b.data, b.len);
			merge(acc, &rd);
		}
	}
	buf_free(&b);
}

static void site_cb(uint64_t id, uint32_t n, const char *const *mods, const uint64_t *offs,
		    const char *const *syms, void *arg)
{
	vocab_add_site(arg, id, n, mods, offs, syms);
}

static void vocab_local(struct vocab *v)
{
	memset(v, 0, sizeof *v);
	for (uint32_t t = 0; t < tracer.nsigs; t++) {
		struct call_signature *s = tracer.sigs[t];
		if (s->folded_into == UINT32_MAX)
			vocab_add_sig(v, s->fn, s->flags, s->callsite, s->vals, s->nvals);
	}
	callsite_each(site_cb, v);
	trace_each_string(vocab_add_string, v);
	for (uint32_t i = 0; i < profile_nodes(); i++) {
		int32_t parent;
		uint8_t kind;
		const char *name;
		const double *m;
		profile_node(i, &parent, &kind, &name, &m);
		vocab_add_node(v, parent, kind, name);
	}
}

/* this rank's group, in global terminals */
static void local_group(struct run_group *g, const uint32_t *term_map)
{
	memset(g, 0, sizeof *g);
	sequitur_export(tracer.grammar, &g->g);
	grammar_map_terminals(&g->g, term_map, tracer.nsigs);
	g->nranks = 1;
	ranklist_from_range(&g->ranks, (uint32_t)tracer.rank, 1);
	g->durs = xcalloc(tracer.nsigs ? tracer.nsigs : 1, sizeof *g->durs);
	for (uint32_t t = 0; t < tracer.nsigs; t++) {
		struct dur_stats *d = &tracer.durs[t];
		if (!d->count)
			continue;
		g->durs[g->ndurs++] = (struct run_dur){term_map[t], d->count, d->sum, d->sumsq, d->min, d->max};
	}
	qsort(g->durs, g->ndurs, sizeof *g->durs, run_dur_order);
	g->gaps = xcalloc(HASH_COUNT(tracer.gaps) + 1, sizeof *g->gaps);
	for (struct gaphist *h = tracer.gaps; h; h = h->hh.next) {
		uint32_t prev = (uint32_t)(h->key >> 32), term = (uint32_t)h->key;
		struct run_gap *gp = &g->gaps[g->ngaps++];
		gp->prev = prev == RUN_NO_PREV ? RUN_NO_PREV : term_map[prev];
		gp->sig = term_map[term];
		gp->count = h->s.count;
		gp->sum = h->s.sum;
		gp->sumsq = h->s.sumsq;
		gp->min = h->s.min;
		gp->max = h->s.max;
		gp->cpu = h->cpu;
		gp->nbins = h->h.n;
		gp->bins = xmalloc((h->h.n ? h->h.n : 1) * sizeof *gp->bins);
		memcpy(gp->bins, h->h.bins, h->h.n * sizeof *gp->bins);
	}
	qsort(g->gaps, g->ngaps, sizeof *g->gaps, run_gap_order);
}

/* ---- per-rank data ---------------------------------------------------------------------------- */

/* this rank's value streams, each folded to its head and period (run/stream.h): signature,
 * length, head, period, cells */
static void local_streams(struct buf *b, const uint32_t *term_map)
{
	uint32_t nstreams = 0;
	for (uint32_t t = 0; t < tracer.nsigs; t++)
		nstreams += tracer.streams[t].n > 0;
	buf_put_uv(b, nstreams);
	for (uint32_t t = 0; t < tracer.nsigs; t++) {
		struct tstream *s = &tracer.streams[t];
		if (!s->n)
			continue;
		uint64_t head, period;
		if (s->more)   /* refolded: its period already found */
			head = s->fold_head, period = s->n - s->fold_head;
		else
			stream_fold(s->v, s->n, &head, &period);
		buf_put_uv(b, term_map[t]);
		buf_put_uv(b, s->n + s->more);
		buf_put_uv(b, head);
		buf_put_uv(b, period);
		for (uint64_t k = 0; k < head + period; k++)
			buf_put_sv(b, s->v[k]);
	}
}

static bool read_streams(struct run *r, uint32_t rank, struct reader *rd)
{
	uint64_t n = get_count(rd, reader_left(rd));
	for (uint64_t i = 0; i < n && !rd->bad; i++) {
		uint32_t sig = (uint32_t)get_uv(rd);
		uint64_t length = get_uv(rd), head = get_count(rd, reader_left(rd)), period = get_count(rd, reader_left(rd));
		if (head + period > reader_left(rd))
			return false;
		int64_t *cells = xmalloc((head + period + 1) * sizeof *cells);
		for (uint64_t k = 0; k < head + period; k++)
			cells[k] = get_sv(rd);
		run_add_stream(r, sig, rank, length, head, period, cells);
		free(cells);
	}
	return !rd->bad;
}

static void local_payload(struct buf *b, const uint32_t *term_map, const struct vocab *g)
{
	local_streams(b, term_map);
	/* profile, in global call paths: counts, then exclusive times */
	uint64_t *counts = xcalloc((size_t)g->nnodes * RUN_PC_COUNT + 1, sizeof *counts);
	double *times = xcalloc((size_t)g->nnodes + 1, sizeof *times);
	uint32_t *node_map = xcalloc(profile_nodes() + 1, sizeof *node_map);
	for (uint32_t i = 0; i < profile_nodes(); i++) {
		int32_t parent;
		uint8_t kind;
		const char *name;
		const double *m;
		profile_node(i, &parent, &kind, &name, &m);
		struct vnode *n = vocab_find_node(g, parent >= 0 ? (int32_t)node_map[parent] : -1, kind, name);
		if (!n)
			continue;
		node_map[i] = n->index;
		uint64_t *c = counts + (size_t)n->index * RUN_PC_COUNT;
		for (int k = 0; k < RUN_PC_COUNT; k++)
			c[k] = (uint64_t)m[k];
		times[n->index] = m[PM_TIME];
	}
	for (uint64_t i = 0; i < (uint64_t)g->nnodes * RUN_PC_COUNT; i++)
		buf_put_uv(b, counts[i]);
	for (uint32_t i = 0; i < g->nnodes; i++)
		buf_put_f64(b, times[i]);
	free(counts);
	free(times);
	free(node_map);
	/* lossless timestamps: already varint-encoded */
	buf_put_uv(b, tracer.ts_buf.len);
	buf_put(b, tracer.ts_buf.data, tracer.ts_buf.len);
}

static bool read_payload(struct run *r, double *time, uint32_t rank, struct reader *rd)
{
	if (!read_streams(r, rank, rd))
		return false;
	uint64_t *counts = r->counts + (size_t)rank * r->nnodes * RUN_PC_COUNT;
	for (uint64_t i = 0; i < (uint64_t)r->nnodes * RUN_PC_COUNT; i++)
		counts[i] = get_uv(rd);
	for (uint32_t i = 0; i < r->nnodes; i++)
		time[(size_t)rank * r->nnodes + i] = get_f64(rd);
	uint64_t tslen = get_count(rd, reader_left(rd));
	if (tslen) {
		struct reader ts;
		reader_init(&ts, rd->p, tslen);
		rd->p += tslen;
		struct run_timestamps *t;
		r->timestamps = xrealloc(r->timestamps, (r->ntimestamps + 1) * sizeof *r->timestamps);
		t = &r->timestamps[r->ntimestamps++];
		memset(t, 0, sizeof *t);
		t->rank = rank;
		uint64_t cap = 0, start = 0;
		while (reader_left(&ts) && !ts.bad) {
			start += get_uv(&ts);
			uint64_t dur = get_uv(&ts);
			if (t->n == cap) {
				cap = cap ? 2 * cap : 1024;
				t->start = xrealloc(t->start, cap * sizeof *t->start);
				t->dur = xrealloc(t->dur, cap * sizeof *t->dur);
			}
			t->start[t->n] = (double)start * 1e-9;
			t->dur[t->n++] = (double)dur * 1e-9;
		}
	}
	return !rd->bad;
}

/* ---- the run header ------------------------------------------------------------------------------ */

static char *command_line(void)
{
	FILE *f = fopen("/proc/self/cmdline", "r");
	struct buf b;
	buf_init(&b);
	if (f) {
		char tmp[4096];
		size_t n;
		while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
			buf_put(&b, tmp, n);
		fclose(f);
	}
	for (size_t i = 0; i + 1 < b.len; i++)
		if (!b.data[i])
			b.data[i] = ' ';
	buf_put_u8(&b, 0);
	char *s = xstrdup((char *)b.data);
	buf_free(&b);
	return s;
}

/* under MPI_THREAD_MULTIPLE: the most threads that called MPI on one rank (replay refuses more
 * than one: the order of calls between threads is not in the trace) */
static int most_mpi_threads;
static double slowest[2];   /* the longest app_time and own_time of the ranks */
/* what the gaps' CPU times are: the least any rank measured (enum run_cpu_time) */
static int least_cpu_time;

static const char *cputime_option(void)
{
	static const char *const names[] = {"off", "long", "every"};
	return names[cputime_mode()];
}

static void fill_header(struct run *r, double t_end_wall)
{
	r->nranks = (uint32_t)tracer.size;
	r->command = command_line();
	char host[256] = "";
	gethostname(host, sizeof host - 1);
	r->host = xstrdup(host);
	const char *job = getenv("SLURM_JOB_ID");
	r->slurm_job_id = xstrdup(job ? job : "");
	r->tool_version = xstrdup(LADDER_VERSION);
	char when[64];
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	r->created = xstrdup(when);
	r->options = xasprintf("stream_after=%d;req_pools=base;callsite_depth=%d;timestamps=%d;hist_bins=%d;"
			       "profile=%s;cputime=%s",
			       tracer.stream_after, tracer.callsite_depth, tracer.timestamps, tracer.hist_bins,
			       tracer.profile_ranks ? "ranks" : "statistics", cputime_option());
	r->t_end = t_end_wall;
	r->t_start = t_end_wall - slowest[0];
	char own[32];
	snprintf(own, sizeof own, "%.6f", slowest[1]);
	run_set_label(r, "tracer_time", own);
	if (tracer.multithreaded) {
		char text[16];
		snprintf(text, sizeof text, "%d", most_mpi_threads);
		run_set_label(r, "mpi_threads", text);
	}
	const char *attrs = getenv("LADDER_RUN_ATTRS");
	if (attrs) {
		char *copy = xstrdup(attrs), *save;
		for (char *kv = strtok_r(copy, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
			char *eq = strchr(kv, '=');
			if (!eq)
				continue;
			*eq = 0;
			run_set_label(r, kv, eq + 1);
		}
		free(copy);
	}
	r->nfns = ladder_nfunctions;
	r->fns = xcalloc(r->nfns, sizeof *r->fns);
	for (uint32_t i = 0; i < r->nfns; i++) {
		const struct fn_desc *d = &ladder_functions[i];
		struct param_desc *p = xcalloc(d->nparams ? d->nparams : 1, sizeof *p);
		for (uint32_t k = 0; k < d->nparams; k++) {
			p[k].name = xstrdup(d->params[k].name);
			p[k].kind = d->params[k].kind;
		}
		r->fns[i] = (struct fn_desc){xstrdup(d->name), d->flags, d->nparams, p};
	}
}

static void fill_vocab(struct run *r, const struct vocab *g)
{
	r->nsigs = g->nsigs;
	r->sigs = xcalloc(g->nsigs ? g->nsigs : 1, sizeof *r->sigs);
	for (uint32_t i = 0; i < g->nsigs; i++)
		r->nsigvals += g->sigs[i]->nvals;
	r->sigvals = xmalloc((r->nsigvals ? r->nsigvals : 1) * sizeof *r->sigvals);
	uint64_t off = 0;
	for (uint32_t i = 0; i < g->nsigs; i++) {
		struct vsig *s = g->sigs[i];
		r->sigs[i] = (struct run_signature){s->fn, s->callsite, s->flags, s->nvals, off};
		memcpy(r->sigvals + off, s->vals, s->nvals * sizeof *s->vals);
		off += s->nvals;
	}
	r->ncallsites = HASH_COUNT(g->sites);
	r->callsites = xcalloc(r->ncallsites + 1, sizeof *r->callsites);
	uint32_t k = 0;
	for (struct vsite *s = g->sites; s; s = s->hh.next, k++) {
		struct run_callsite *c = &r->callsites[k];
		c->id = s->id;
		c->nframes = s->nframes;
		c->frames = xcalloc(s->nframes ? s->nframes : 1, sizeof *c->frames);
		for (uint32_t f = 0; f < s->nframes; f++)
			c->frames[f] = (struct run_frame){xstrdup(s->modules[f]), s->offsets[f], xstrdup(s->symbols[f])};
	}
	r->nstrings = HASH_COUNT(g->strs);
	r->strings = xcalloc(r->nstrings + 1, sizeof *r->strings);
	k = 0;
	for (struct vstr *s = g->strs; s; s = s->hh.next)
		r->strings[k++] = xstrdup(s->s);
	r->nnodes = g->nnodes;
	r->nodes = xcalloc(g->nnodes ? g->nnodes : 1, sizeof *r->nodes);
	for (uint32_t i = 0; i < g->nnodes; i++)
		r->nodes[i] = (struct run_pnode){g->nodes[i]->parent, g->nodes[i]->kind, xstrdup(g->nodes[i]->name)};
	r->counts = xcalloc((size_t)r->nranks * r->nnodes * RUN_PC_COUNT + 1, sizeof *r->counts);
}

static void write_file(const char *path, const struct buf *b)
{
	char *tmp = xasprintf("%s.part", path);
	FILE *f = fopen(tmp, "wb");
	bool written = f && fwrite(b->data, 1, b->len, f) == b->len;
	if (f && fclose(f))
		written = false;
	if (!written) {
		fprintf(stderr, "ladder-trace: cannot write %s: %s\n", tmp, strerror(errno));
		unlink(tmp);
		free(tmp);
		return;
	}
	char why[400];
	if (!output_commit(tmp, path, why, sizeof why))
		fprintf(stderr, "ladder-trace: %s\n", why);
	free(tmp);
}

/* 1. the vocabulary: merged up the tree, broadcast, and this rank's terminals mapped to it */
static uint32_t *merge_vocabulary(struct vocab *global)
{
	struct vocab local;
	vocab_local(&local);
	trace_tree_reduce(&local, vocab_serialize, vocab_merge);
	struct buf b;
	buf_init(&b);
	if (tracer.rank == 0)
		vocab_serialize(&local, &b);
	trace_bcast_buf(&b);
	memset(global, 0, sizeof *global);
	struct reader rd;
	reader_init(&rd, b.data, b.len);
	vocab_merge(global, &rd);
	vocab_free(&local);
	buf_free(&b);
	uint32_t *term_map = xcalloc(tracer.nsigs ? tracer.nsigs : 1, sizeof *term_map);
	for (uint32_t t = 0; t < tracer.nsigs; t++) {
		struct call_signature *s = tracer.sigs[t];
		if (s->folded_into != UINT32_MAX)   /* refolded: no call left */
			s = tracer.sigs[s->folded_into];
		struct vsig *gs = vocab_find_sig(global, s->fn, s->flags, s->callsite, s->vals, s->nvals);
		term_map[t] = gs ? gs->index : 0;
	}
	return term_map;
}

/* 3. every rank's own data gathered at rank 0: all holds them, lens/displs where each starts */
static void gather_payloads(const struct buf *b, struct buf *all, int **lens, int **displs)
{
	int len = b->len > INT_MAX ? 0 : (int)b->len;
	if (b->len > INT_MAX)
		fprintf(stderr, "ladder-trace: rank %d: per-rank data of %zu bytes is too large; dropped\n",
			tracer.rank, b->len);
	if (tracer.rank == 0) {
		*lens = xcalloc((size_t)tracer.size, sizeof **lens);
		*displs = xcalloc((size_t)tracer.size, sizeof **displs);
	}
	PMPI_Gather(&len, 1, MPI_INT, *lens, 1, MPI_INT, 0, tracer.comm);
	if (tracer.rank == 0) {
		uint64_t total = 0;
		for (int i = 0; i < tracer.size; i++) {
			(*displs)[i] = (int)total;
			total += (uint64_t)(*lens)[i];
		}
		if (total > INT_MAX) {   /* too much for one Gatherv: everyone sends nothing */
			fprintf(stderr, "ladder-trace: per-rank data totals %llu bytes; too large to gather\n",
				(unsigned long long)total);
			total = 0;
		}
		XGROW(all->data, all->cap, total + 1);
		all->len = total;
	}
	PMPI_Gatherv(b->data, len, MPI_BYTE, all->data, *lens, *displs, MPI_BYTE, 0, tracer.comm);
}

/* 4. at rank 0: the run from the merged vocabulary, groups and per-rank data, written raw */
static void write_run(const char *path, double t_wall, struct vocab *global, struct groups *gs,
		      const struct buf *all, const int *lens, const int *displs)
{
	struct run r;
	run_init(&r);
	fill_header(&r, t_wall);
	fill_vocab(&r, global);
	r.cpu_time = (uint8_t)least_cpu_time;
	r.ngroups = gs->n;
	r.groups = gs->g;
	gs->g = NULL;
	gs->n = 0;
	double *time = xcalloc((size_t)r.nranks * r.nnodes + 1, sizeof *time);
	for (int i = 0; i < tracer.size; i++) {
		struct reader pr;
		reader_init(&pr, all->data + displs[i], (size_t)lens[i]);
		if (lens[i] && !read_payload(&r, time, (uint32_t)i, &pr))
			fprintf(stderr, "ladder-trace: the data of rank %d is damaged\n", i);
	}
	run_time_stats(&r, time);
	run_pack_streams(&r);
	if (tracer.profile_ranks)
		r.time = time;
	else
		free(time);
	struct buf out;
	buf_init(&out);
	run_serialize(&r, &out);
	write_file(path, &out);
	buf_free(&out);
	run_free(&r);
}

void trace_write_raw(const char *path)
{
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	double t_wall = (double)wall.tv_sec + (double)wall.tv_nsec * 1e-9;

	most_mpi_threads = tracer.mpi_threads;
	if (tracer.multithreaded)
		PMPI_Allreduce(&tracer.mpi_threads, &most_mpi_threads, 1, MPI_INT, MPI_MAX, tracer.comm);
	int cpu_time = (int)cputime_mode();
	PMPI_Reduce(&cpu_time, &least_cpu_time, 1, MPI_INT, MPI_MIN, 0, tracer.comm);
	double times[2] = {tracer.app_time, tracer.own_time};
	PMPI_Reduce(times, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, tracer.comm);

	trace_refold();
	struct vocab global;
	uint32_t *term_map = merge_vocabulary(&global);

	/* 2. groups */
	struct groups gs;
	memset(&gs, 0, sizeof gs);
	gs.maxbins = (uint32_t)tracer.hist_bins;
	struct run_group mine;
	local_group(&mine, term_map);
	groups_add(&gs, &mine);
	trace_tree_reduce(&gs, groups_serialize, groups_merge);

	struct buf b, all;
	buf_init(&b);
	buf_init(&all);
	local_payload(&b, term_map, &global);
	int *lens = NULL, *displs = NULL;
	gather_payloads(&b, &all, &lens, &displs);
	if (tracer.rank == 0 && path)
		write_run(path, t_wall, &global, &gs, &all, lens, displs);
	groups_free(&gs);
	free(lens);
	free(displs);
	buf_free(&all);
	buf_free(&b);
	free(term_map);
	vocab_free(&global);
}
