/*
 * refold — literal signatures of a base moved into its streaming signatures: the streaming form
 * and one call's values (shared with the tracer's refold at MPI_Finalize, trace/refold.c), and
 * run_refold, the same done offline on every group and rank of a run. See refold.h.
 */
#include "run/refold.h"

#include <stdlib.h>
#include <string.h>

#include "grammar/sequitur.h"
#include "run/histogram.h"
#include "run/merge.h"
#include "run/run.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* ---- the streaming form ------------------------------------------------------------------------ */

uint32_t refold_streaming_form(const struct fn_desc *d, const int64_t *vals, uint32_t nvals, int64_t *out)
{
	uint32_t n = 0;
	PARAM_FOR (w, d, vals, nvals) {
		bool streamed = vals[w.at] == SV_STREAMED || param_kind_adaptive(w.kind);
		uint32_t k = streamed && param_kind_is_array(w.kind) ? 1 : w.width;
		for (uint32_t j = 0; j < k; j++)
			out[n++] = streamed ? SV_STREAMED : vals[w.at + j];
	}
	return n;
}

bool refold_is_literal(const struct fn_desc *d, const int64_t *vals, uint32_t nvals)
{
	PARAM_FOR (w, d, vals, nvals)
		if (param_kind_adaptive(w.kind) && vals[w.at] != SV_STREAMED)
			return true;
	return false;
}

/* ---- one call's values --------------------------------------------------------------------------- */

static void move_values(const struct refold_move *m, uint64_t n)
{
	int64_t v;
	for (uint64_t i = 0; i < n && m->next(m->arg, &v); i++)
		m->put(m->arg, v);
}

/* a streamed group's values: an array's length, then its elements */
static void move_group(const struct refold_move *m, enum param_kind k, uint32_t w)
{
	if (!param_kind_is_array(k)) {
		move_values(m, w);
		return;
	}
	int64_t len;
	if (!m->next(m->arg, &len))
		return;
	m->put(m->arg, len);
	move_values(m, sv_is_symbolic(len) || len <= 0 ? 0 : (uint64_t)len * (uint64_t)param_kind_width(k));
}

void refold_move_call(const struct fn_desc *d, uint32_t flags, const int64_t *vals, uint32_t nvals, bool literal,
		      const struct refold_move *m)
{
	if (flags & SIGF_FAILED_POLL)
		move_values(m, 1);
	PARAM_FOR (w, d, vals, nvals) {
		if (vals[w.at] == SV_STREAMED)
			move_group(m, w.kind, w.width);
		else if (literal && param_kind_adaptive(w.kind))
			for (uint32_t j = 0; j < w.width; j++)
				m->put(m->arg, vals[w.at + j]);
	}
}

/* ---- a base ------------------------------------------------------------------------------------------ */

uint64_t refold_base_key(const struct run *r, uint32_t sig)
{
	const struct run_signature *s = &r->sigs[sig];
	const struct fn_desc *d = &r->fns[s->fn];
	const int64_t *vals = r->sigvals + s->voff;
	uint64_t h = hash_combine(hash_bytes(d->name, strlen(d->name), 0), s->callsite);
	h = hash_combine(h, s->flags);
	bool any = false;
	PARAM_FOR (w, d, vals, s->nvals) {
		if (param_kind_adaptive(w.kind) || vals[w.at] == SV_STREAMED || w.kind == PK_REQ_OUT) {
			any = any || param_kind_adaptive(w.kind);
			h = hash_combine(h, 0x5eed);
			continue;
		}
		for (uint32_t j = 0; j < w.width; j++)
			h = hash_combine(h, (uint64_t)vals[w.at + j]);
	}
	return any ? (h ? h : 1) : 0;
}

/* ---- offline: the signatures ------------------------------------------------------------------------- */

static uint32_t find_sig(const struct run *r, uint32_t fn, uint64_t callsite, uint32_t flags, const int64_t *v,
			 uint32_t n)
{
	for (uint32_t i = 0; i < r->nsigs; i++) {
		const struct run_signature *s = &r->sigs[i];
		if (s->fn == fn && s->callsite == callsite && s->flags == flags && s->nvals == n &&
		    !memcmp(r->sigvals + s->voff, v, n * sizeof *v))
			return i;
	}
	return UINT32_MAX;
}

/* the signature of the streaming form of literal signature i, added when r has none */
static uint32_t streaming_sig(struct run *r, uint32_t i)
{
	struct run_signature s = r->sigs[i];
	int64_t *v = xmalloc((s.nvals + 1) * sizeof *v);
	uint32_t n = refold_streaming_form(&r->fns[s.fn], r->sigvals + s.voff, s.nvals, v);
	uint32_t to = find_sig(r, s.fn, s.callsite, s.flags, v, n);
	if (to == UINT32_MAX) {
		r->sigs = xrealloc(r->sigs, (r->nsigs + 1) * sizeof *r->sigs);
		r->sigvals = xrealloc(r->sigvals, (r->nsigvals + n + 1) * sizeof *r->sigvals);
		memcpy(r->sigvals + r->nsigvals, v, n * sizeof *v);
		r->sigs[r->nsigs] = (struct run_signature){s.fn, s.callsite, s.flags, n, r->nsigvals};
		r->nsigvals += n;
		to = r->nsigs++;
	}
	free(v);
	return to;
}

/* ---- offline: the streams ------------------------------------------------------------------------------ */

/* one rank's new stream of a signature, literal */
struct fresh {
	int64_t *v;
	uint64_t n, cap;
};

/* reading one rank's old stream of the call's signature, writing the new one */
struct rank_move {
	struct stream_cursor *from;   /* length 0: the signature has no stream for the rank */
	struct fresh *to;
};

static bool rank_next(void *arg, int64_t *v)
{
	struct rank_move *m = arg;
	return stream_cursor_next(m->from, v);
}

static void rank_put(void *arg, int64_t v)
{
	struct fresh *f = ((struct rank_move *)arg)->to;
	XGROW(f->v, f->cap, f->n + 1);
	f->v[f->n++] = v;
}

/* the calls of a group's sequence whose values go to a new stream: their terminals in call order */
static uint32_t *moving_calls(const struct grammar *g, const uint32_t *to, const bool *takes, uint64_t *n)
{
	size_t cap = 0;
	uint32_t *seq = NULL, t;
	uint64_t count;
	struct gwalk w;
	*n = 0;
	gwalk_init(&w, g);
	while (gwalk_next_run(&w, &t, &count))
		for (uint64_t k = 0; takes[to[t]] && k < count; k++) {
			XGROW(seq, cap, *n + 1);
			seq[(*n)++] = t;
		}
	gwalk_free(&w);
	return seq;
}

/* every rank of group gi: the streams of the signatures that take calls rebuilt, into out */
static void group_streams(const struct run *r, uint32_t gi, const uint32_t *to, const bool *takes,
			  const bool *folds, struct run *out)
{
	const struct run_group *g = &r->groups[gi];
	uint64_t n;
	uint32_t *seq = moving_calls(&g->g, to, takes, &n);
	if (!n) {
		free(seq);
		return;
	}
	struct stream_cursor *cur = xcalloc(r->nsigs, sizeof *cur);
	bool *open = xcalloc(r->nsigs, sizeof *open);
	struct fresh *fresh = xcalloc(r->nsigs, sizeof *fresh);
	uint32_t rank;
	RANKLIST_FOR(rank, &g->ranks) {
		for (uint64_t i = 0; i < n; i++) {
			uint32_t t = seq[i];
			if (!open[t]) {
				const struct run_stream *s = run_stream_of(r, rank, t);
				open[t] = true;
				if (s)
					stream_cursor_init(&cur[t], s, rank);
				else
					memset(&cur[t], 0, sizeof cur[t]);
			}
			struct rank_move rm = {&cur[t], &fresh[to[t]]};
			struct refold_move m = {rank_next, rank_put, &rm};
			const struct run_signature *s = &r->sigs[t];
			refold_move_call(&r->fns[s->fn], s->flags, r->sigvals + s->voff, s->nvals, folds[t], &m);
		}
		for (uint32_t t = 0; t < r->nsigs; t++) {
			if (open[t])
				stream_cursor_free(&cur[t]);
			open[t] = false;
			struct fresh *f = &fresh[t];
			if (f->n) {
				uint64_t head, period;
				stream_fold(f->v, f->n, &head, &period);
				run_add_stream(out, t, rank, f->n, head, period, f->v);
			}
			f->n = 0;
		}
	}
	for (uint32_t t = 0; t < r->nsigs; t++)
		free(fresh[t].v);
	free(fresh);
	free(open);
	free(cur);
	free(seq);
}

/* the streams of the signatures that take calls, and of those folded, rebuilt for every rank */
static void rebuild_streams(struct run *r, const uint32_t *to, const bool *takes, const bool *folds)
{
	struct run fresh;
	run_init(&fresh);
	for (uint32_t gi = 0; gi < r->ngroups; gi++)
		group_streams(r, gi, to, takes, folds, &fresh);
	uint32_t k = 0;
	for (uint32_t i = 0; i < r->nstreams; i++) {
		if (takes[r->streams[i].sig] || folds[r->streams[i].sig])
			run_stream_free(&r->streams[i]);
		else
			r->streams[k++] = r->streams[i];
	}
	r->streams = xrealloc(r->streams, (k + fresh.nstreams + 1) * sizeof *r->streams);
	memcpy(r->streams + k, fresh.streams, fresh.nstreams * sizeof *fresh.streams);
	r->nstreams = k + fresh.nstreams;
	fresh.nstreams = 0;
	free(fresh.streams);
	fresh.streams = NULL;
	run_free(&fresh);
	run_pack_streams(r);
}

/* ---- offline: grammars and timing ---------------------------------------------------------------------- */

static void grammar_remap(struct grammar *g, const uint32_t *to)
{
	struct sequitur *q = sequitur_new();
	struct gwalk w;
	uint32_t t;
	uint64_t count;
	gwalk_init(&w, g);
	while (gwalk_next_run(&w, &t, &count))
		for (uint64_t k = 0; k < count; k++)
			sequitur_append(q, to[t]);
	gwalk_free(&w);
	grammar_free(g);
	sequitur_export(q, g);
	sequitur_free(q);
}

static void durs_remap(struct run_group *g, const uint32_t *to)
{
	for (uint32_t i = 0; i < g->ndurs; i++)
		g->durs[i].sig = to[g->durs[i].sig];
	if (g->ndurs)
		qsort(g->durs, g->ndurs, sizeof *g->durs, run_dur_order);
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->ndurs; i++) {
		struct run_dur *x = &g->durs[i], *y = n ? &g->durs[n - 1] : NULL;
		if (!y || y->sig != x->sig) {
			g->durs[n++] = *x;
			continue;
		}
		if (x->count && (!y->count || x->min < y->min))
			y->min = x->min;
		if (x->count && (!y->count || x->max > y->max))
			y->max = x->max;
		y->count += x->count, y->sum += x->sum, y->sumsq += x->sumsq;
	}
	g->ndurs = n;
}

static void gaps_remap(struct run_group *g, const uint32_t *to, uint32_t maxbins)
{
	for (uint32_t i = 0; i < g->ngaps; i++) {
		struct run_gap *x = &g->gaps[i];
		x->sig = to[x->sig];
		x->prev = x->prev == RUN_NO_PREV ? RUN_NO_PREV : to[x->prev];
	}
	if (g->ngaps)
		qsort(g->gaps, g->ngaps, sizeof *g->gaps, run_gap_order);
	uint32_t n = 0;
	for (uint32_t i = 0; i < g->ngaps; i++) {
		struct run_gap *x = &g->gaps[i];
		if (n && !run_gap_order(&g->gaps[n - 1], x)) {
			run_gap_fold(&g->gaps[n - 1], x, maxbins);
			free(x->bins);
			continue;
		}
		g->gaps[n++] = *x;
	}
	g->ngaps = n;
}

static uint32_t hist_bins_of(const struct run *r)
{
	const char *at = r->options ? strstr(r->options, "hist_bins=") : NULL;
	long n = at ? strtol(at + strlen("hist_bins="), NULL, 10) : 0;
	return n > 0 && n < 1 << 16 ? (uint32_t)n : HIST_DEFAULT_BINS;
}

/* groups whose grammars became equal merged */
static void merge_groups(struct run *r)
{
	struct groups gs;
	memset(&gs, 0, sizeof gs);
	gs.maxbins = hist_bins_of(r);
	for (uint32_t i = 0; i < r->ngroups; i++)
		groups_add(&gs, &r->groups[i]);
	free(r->groups);
	r->groups = gs.g;
	r->ngroups = gs.n;
	free(gs.hash);
}

/* the signatures no call uses any more left out, the others renumbered in order */
static void drop_unused(struct run *r)
{
	bool *used = xcalloc(r->nsigs + 1, sizeof *used);
	uint64_t *calls = xcalloc(r->nsigs + 1, sizeof *calls);
	for (uint32_t gi = 0; gi < r->ngroups; gi++) {
		memset(calls, 0, r->nsigs * sizeof *calls);
		grammar_terminal_counts(&r->groups[gi].g, calls, r->nsigs);
		for (uint32_t t = 0; t < r->nsigs; t++)
			used[t] = used[t] || calls[t];
	}
	uint32_t *map = xmalloc((r->nsigs + 1) * sizeof *map), n = 0;
	uint64_t nvals = 0;
	for (uint32_t t = 0; t < r->nsigs; t++) {
		map[t] = used[t] ? n : UINT32_MAX;
		if (!used[t])
			continue;
		struct run_signature s = r->sigs[t];
		memmove(r->sigvals + nvals, r->sigvals + s.voff, s.nvals * sizeof *r->sigvals);
		s.voff = nvals;
		nvals += s.nvals;
		r->sigs[n++] = s;
	}
	for (uint32_t gi = 0; gi < r->ngroups; gi++) {
		struct run_group *g = &r->groups[gi];
		grammar_map_terminals(&g->g, map, r->nsigs);
		for (uint32_t i = 0; i < g->ndurs; i++)
			g->durs[i].sig = map[g->durs[i].sig];
		for (uint32_t i = 0; i < g->ngaps; i++) {
			g->gaps[i].sig = map[g->gaps[i].sig];
			if (g->gaps[i].prev != RUN_NO_PREV)
				g->gaps[i].prev = map[g->gaps[i].prev];
		}
	}
	for (uint32_t i = 0; i < r->nstreams; i++)
		r->streams[i].sig = map[r->streams[i].sig];
	r->nsigs = n;
	r->nsigvals = nvals;
	free(map);
	free(calls);
	free(used);
}

uint32_t run_refold(struct run *r, const bool *folds)
{
	uint32_t before = r->nsigs, nfolded = 0;
	uint32_t *to = xmalloc((before + 1) * sizeof *to);
	for (uint32_t t = 0; t < before; t++) {
		to[t] = folds[t] ? streaming_sig(r, t) : t;
		nfolded += to[t] != t;
	}
	if (!nfolded) {
		free(to);
		return 0;
	}
	to = xrealloc(to, r->nsigs * sizeof *to);
	bool *takes = xcalloc(r->nsigs, sizeof *takes), *folded = xcalloc(r->nsigs, sizeof *folded);
	for (uint32_t t = before; t < r->nsigs; t++)
		to[t] = t;
	for (uint32_t t = 0; t < r->nsigs; t++)
		if (to[t] != t)
			takes[to[t]] = folded[t] = true;
	rebuild_streams(r, to, takes, folded);
	uint32_t maxbins = hist_bins_of(r);
	for (uint32_t gi = 0; gi < r->ngroups; gi++) {
		struct run_group *g = &r->groups[gi];
		uint64_t *calls = xcalloc(r->nsigs + 1, sizeof *calls);
		grammar_terminal_counts(&g->g, calls, r->nsigs);
		bool touched = false;
		for (uint32_t t = 0; t < r->nsigs && !touched; t++)
			touched = calls[t] && folded[t];
		free(calls);
		if (!touched)
			continue;
		grammar_remap(&g->g, to);
		durs_remap(g, to);
		gaps_remap(g, to, maxbins);
	}
	merge_groups(r);
	drop_unused(r);
	free(takes);
	free(folded);
	free(to);
	return nfolded;
}
