/*
 * refold — at MPI_Finalize, before the ranks' grammars are compared: the calls a signature base
 * made before it switched to streaming its data-dependent values (its first stream_after + 1
 * variants, kept in signatures with literal values, record.c) move into the base's streaming
 * signatures. The ranks first agree on the bases that refold: those that switched and made most
 * of their calls after the switch, on every rank that has them (a halo's first iteration; not an
 * MD code whose atom exchanges switched late: their literal calls are data that extrapolation
 * approximates better from signatures). Each such literal signature is replaced by its streaming
 * form (the data-dependent groups as SV_STREAMED) and its values go into that signature's value
 * stream at their place in call order; the grammar is rebuilt over the remapped terminals
 * (Sequitur again over the expanded sequence), durations and the gap histograms keyed by
 * (previous, this) terminal merged. The requests of a base are named in one pool from its first
 * call on (run_signature_req_key by base), so no name changes. Ranks whose grid positions differ
 * only in data-dependent values then have the same grammar; the trace is what stream_after 0
 * records, without keeping the streamed values of bases that never change. Costs O(calls of the
 * rank), paid only when some base refolds. The streaming form and the values one call moves are
 * run/refold.h's, which `ladder extrap` uses to refold rungs offline.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/tracer.h"
#include "run/refold.h"
#include "run/stream.h"
#include "util/xalloc.h"

/* ---- the streaming form of a literal signature ------------------------------------------------ */

/* the signature the base's calls have once it streams: as build_signature makes it (record.c) */
static uint32_t streaming_term(const struct call_signature *lit)
{
	int64_t *v = xmalloc((lit->nvals + 1) * sizeof *v);
	uint32_t n = refold_streaming_form(&ladder_functions[lit->fn], lit->vals, lit->nvals, v);
	struct call_signature *s = trace_signature(lit->fn, lit->flags, lit->callsite, v, n);
	s->base = lit->base;
	free(v);
	return s->term;
}

/* ---- value streams ------------------------------------------------------------------------------ */

/* The streams refolding builds hold a period once they show one, so that a call whose values
 * repeat (counts that differ from rank to rank, not from call to call) costs no memory per call:
 * at every power of two from 64 values the stream is folded (stream_fold); when it ends in repeats
 * of a period, only its head and one period are kept and `more` counts the values that follow.
 * A value that breaks the period writes the repeats out again. */
static void stream_room(struct tstream *s, uint64_t n)
{
	if (s->n + n > s->cap) {
		while (s->n + n > s->cap)
			s->cap = s->cap ? 2 * s->cap : 64;
		s->v = xrealloc(s->v, s->cap * sizeof *s->v);
	}
}

static void unfold_more(struct tstream *s)
{
	uint64_t period = s->n - s->fold_head, more = s->more;
	stream_room(s, more);
	for (uint64_t i = 0; i < more; i++)
		s->v[s->n + i] = s->v[s->fold_head + i % period];
	s->n += more;
	s->more = 0;
}

static void try_fold(struct tstream *s)
{
	uint64_t head, period;
	stream_fold(s->v, s->n, &head, &period);
	if (period && head + period < s->n) {
		s->more = s->n - head - period;
		s->n = head + period;
		s->fold_head = head;
	}
}

static void stream_put1(struct tstream *s, int64_t x)
{
	if (s->more) {
		uint64_t period = s->n - s->fold_head;
		if (x == s->v[s->fold_head + s->more % period]) {
			s->more++;
			return;
		}
		unfold_more(s);
	}
	stream_room(s, 1);
	s->v[s->n++] = x;
	if (s->n >= 64 && !(s->n & (s->n - 1)))
		try_fold(s);
}

/* one call's values moving from a terminal's old stream (at *at) to a new one */
struct move {
	const struct tstream *from;
	uint64_t *at;
	struct tstream *to;
};

static bool move_next(void *arg, int64_t *v)
{
	struct move *m = arg;
	if (*m->at >= m->from->n)   /* cannot happen for a stream the tracer wrote */
		return false;
	*v = m->from->v[(*m->at)++];
	return true;
}

static void move_put(void *arg, int64_t v) { stream_put1(((struct move *)arg)->to, v); }

/* one call of signature s: its values, in the order record.c pushes them, literal data-dependent
 * values included (run/refold.h) */
static void move_call(const struct call_signature *s, struct move *m)
{
	struct refold_move rm = {move_next, move_put, m};
	refold_move_call(&ladder_functions[s->fn], s->flags, s->vals, s->nvals, s->folds, &rm);
}

/* ---- timing ------------------------------------------------------------------------------------ */

static void stats_merge(struct dur_stats *into, const struct dur_stats *from)
{
	if (!from->count)
		return;
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (!into->count || from->max > into->max)
		into->max = from->max;
	into->count += from->count;
	into->sum += from->sum;
	into->sumsq += from->sumsq;
}

/* the gap histograms re-keyed by the new terminals, those falling on one key merged */
static void remap_gaps(const uint32_t *to)
{
	struct gaphist *merged = NULL, *g, *tmp;
	HASH_ITER(hh, tracer.gaps, g, tmp) {
		HASH_DEL(tracer.gaps, g);
		uint32_t prev = (uint32_t)(g->key >> 32), term = (uint32_t)g->key;
		g->key = (uint64_t)(prev == RUN_NO_PREV ? prev : to[prev]) << 32 | to[term];
		struct gaphist *into;
		HASH_FIND(hh, merged, &g->key, sizeof g->key, into);
		if (!into) {
			HASH_ADD(hh, merged, key, sizeof g->key, g);
			continue;
		}
		run_cpu_merge(&into->cpu, into->s.count, &g->cpu, g->s.count);
		stats_merge(&into->s, &g->s);
		hist_merge(&into->h, g->h.bins, g->h.n, (uint32_t)tracer.hist_bins);
		free(g->h.bins);
		free(g);
	}
	tracer.gaps = merged;
	for (uint32_t t = 0; t < tracer.nsigs; t++)
		tracer.sigs[t]->gap = NULL;
}

/* ---- the calls in order ------------------------------------------------------------------------ */

/* the grammar expanded, each call's terminal remapped (to) and appended to a new grammar; the
 * streams of the terminals that take calls (takes) rebuilt in call order */
static void replay_calls(const uint32_t *to, const bool *takes)
{
	uint32_t n = tracer.nsigs;
	struct tstream *fresh = xcalloc(n, sizeof *fresh);
	uint64_t *at = xcalloc(n, sizeof *at);
	struct grammar g;
	sequitur_export(tracer.grammar, &g);
	struct sequitur *q = sequitur_new();
	struct gwalk w;
	gwalk_init(&w, &g);
	uint32_t t;
	uint64_t count;
	while (gwalk_next_run(&w, &t, &count)) {
		for (uint64_t k = 0; k < count; k++) {
			if (takes[to[t]]) {
				struct move m = {&tracer.streams[t], &at[t], &fresh[to[t]]};
				move_call(tracer.sigs[t], &m);
			}
			sequitur_append(q, to[t]);
		}
	}
	gwalk_free(&w);
	grammar_free(&g);
	sequitur_free(tracer.grammar);
	tracer.grammar = q;
	for (t = 0; t < n; t++) {
		if (!takes[t] && to[t] == t)
			continue;
		free(tracer.streams[t].v);
		tracer.streams[t] = fresh[t];
	}
	free(fresh);
	free(at);
}

/* ---- which bases stream: agreed by all ranks ---------------------------------------------------- */

/* a base on this rank, whether it streams here, and its calls in literal and in streaming
 * signatures */
struct verdict {
	uint64_t base;
	uint8_t stream;
	uint64_t literal, streamed;
	UT_hash_handle hh;
};

static struct verdict *verdict_of(struct verdict **all, uint64_t base)
{
	struct verdict *v;
	HASH_FIND(hh, *all, &base, sizeof base, v);
	if (!v) {
		v = xcalloc(1, sizeof *v);
		v->base = base;
		HASH_ADD(hh, *all, base, sizeof v->base, v);
	}
	return v;
}

/* A base refolds where it switched to streaming and made most of its calls after the switch: a
 * loop whose first iteration's variants stayed literal (a halo's directions). A base that switched
 * late keeps its literal calls: most of them are data (an MD code's first steps of atom
 * exchanges), which extrapolation reads better from signatures than from streams. */
static void local_verdicts(struct verdict **all)
{
	struct grammar g;
	sequitur_export(tracer.grammar, &g);
	uint64_t *calls = xcalloc(tracer.nsigs + 1, sizeof *calls);
	grammar_terminal_counts(&g, calls, tracer.nsigs);
	grammar_free(&g);
	for (uint32_t t = 0; t < tracer.nsigs; t++) {
		const struct call_signature *s = tracer.sigs[t];
		if (!s->base)
			continue;
		struct verdict *v = verdict_of(all, trace_base_id(s->base));
		*(s->literal ? &v->literal : &v->streamed) += calls[t];
	}
	for (uint32_t t = 0; t < tracer.nsigs; t++) {
		const struct call_signature *s = tracer.sigs[t];
		if (!s->base)
			continue;
		struct verdict *v = verdict_of(all, trace_base_id(s->base));
		v->stream = trace_base_streaming(s->base) && v->streamed > v->literal;
	}
	free(calls);
}

static void verdicts_serialize(void *acc, struct buf *b)
{
	struct verdict **all = acc;
	buf_put_uv(b, HASH_COUNT(*all));
	for (struct verdict *v = *all; v; v = v->hh.next) {
		buf_put_uv(b, v->base);
		buf_put_u8(b, v->stream);
	}
}

/* a base refolds when it does on every rank that has it */
static void verdicts_merge(void *acc, struct reader *rd)
{
	struct verdict **all = acc;
	uint64_t n = get_uv(rd);
	for (uint64_t i = 0; i < n && !rd->bad; i++) {
		uint64_t base = get_uv(rd);
		uint8_t stream = get_u8(rd);
		struct verdict *v;
		HASH_FIND(hh, *all, &base, sizeof base, v);
		if (v)
			v->stream &= stream;
		else
			verdict_of(all, base)->stream = stream;
	}
}

/* the bases that stream on every rank, agreed */
static struct verdict *agreed_verdicts(void)
{
	struct verdict *all = NULL, *v, *tmp;
	local_verdicts(&all);
	trace_tree_reduce(&all, verdicts_serialize, verdicts_merge);
	struct buf b;
	buf_init(&b);
	if (tracer.rank == 0) {
		HASH_ITER(hh, all, v, tmp)
			if (!v->stream) {
				HASH_DEL(all, v);
				free(v);
			}
		verdicts_serialize(&all, &b);
	}
	HASH_ITER(hh, all, v, tmp) {
		HASH_DEL(all, v);
		free(v);
	}
	trace_bcast_buf(&b);
	struct reader rd;
	reader_init(&rd, b.data, b.len);
	verdicts_merge(&all, &rd);
	buf_free(&b);
	return all;
}

static bool base_streams(struct verdict *agreed, const struct base *b)
{
	if (!b)
		return false;
	uint64_t id = trace_base_id(b);
	struct verdict *v;
	HASH_FIND(hh, agreed, &id, sizeof id, v);
	return v && v->stream;
}

void trace_refold(void)
{
	struct verdict *agreed = agreed_verdicts(), *v, *tmp;
	uint32_t before = tracer.nsigs;
	uint32_t *to = xmalloc((before + 1) * sizeof *to);
	bool any = false;
	for (uint32_t t = 0; t < before; t++) {
		struct call_signature *s = tracer.sigs[t];
		to[t] = t;
		s->folds = s->literal && base_streams(agreed, s->base);
		if (s->folds) {
			to[t] = streaming_term(s);
			any = true;
		}
	}
	HASH_ITER(hh, agreed, v, tmp) {
		HASH_DEL(agreed, v);
		free(v);
	}
	if (!any) {
		free(to);
		return;
	}
	/* streaming forms added above map to themselves */
	to = xrealloc(to, tracer.nsigs * sizeof *to);
	bool *takes = xcalloc(tracer.nsigs, sizeof *takes);
	for (uint32_t t = before; t < tracer.nsigs; t++)
		to[t] = t;
	for (uint32_t t = 0; t < tracer.nsigs; t++)
		if (to[t] != t)
			takes[to[t]] = true;
	replay_calls(to, takes);
	for (uint32_t t = 0; t < tracer.nsigs; t++) {
		if (to[t] == t)
			continue;
		stats_merge(&tracer.durs[to[t]], &tracer.durs[t]);
		memset(&tracer.durs[t], 0, sizeof tracer.durs[t]);
		tracer.sigs[t]->folded_into = to[t];
	}
	remap_gaps(to);
	free(takes);
	free(to);
}
