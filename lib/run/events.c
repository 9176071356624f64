/*
 * events — iterate one rank's calls. See events.h.
 */
#include "run/events.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/share.h"
#include "run/summary.h"
#include "util/xalloc.h"

static uint64_t max_calls = EVENT_MAX_CALLS_DEFAULT;

void event_set_max_calls(uint64_t n) { max_calls = n ? n : EVENT_MAX_CALLS_DEFAULT; }

uint64_t event_max_calls(void) { return max_calls; }

bool event_parse_max_calls(const char *text, uint64_t *n)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(text, &end, 10);
	if (errno || end == text || *end || v == 0 || text[0] == '-')
		return false;
	*n = v;
	return true;
}

static uint64_t max_ranks;   /* 0: not set, LADDER_MAX_RANKS or the default */

void event_set_max_ranks(uint64_t n) { max_ranks = n; }

uint64_t event_max_ranks(void)
{
	if (!max_ranks) {
		const char *env = getenv("LADDER_MAX_RANKS");
		uint64_t n;
		max_ranks = env && event_parse_max_calls(env, &n) ? n : EVENT_MAX_RANKS_DEFAULT;
	}
	return max_ranks;
}

bool event_ranks_bounded(const struct run *r, char *why, size_t whylen)
{
	if (r->nranks <= event_max_ranks())
		return true;
	snprintf(why, whylen, "the run has %u ranks, more than the %llu a walk of every rank may visit (raise the "
		 "bound with --max-ranks or LADDER_MAX_RANKS)", r->nranks, (unsigned long long)event_max_ranks());
	return false;
}

static void say_beyond_bound(char *why, size_t whylen, uint32_t rank, uint64_t length)
{
	snprintf(why, whylen, "rank %u: its trace expands to %llu calls, more than the %llu a walk may make "
		 "(raise the bound with --max-calls or LADDER_MAX_CALLS)", rank, (unsigned long long)length,
		 (unsigned long long)max_calls);
}

bool event_calls_bounded(const struct run *r, char *why, size_t whylen)
{
	for (uint32_t i = 0; i < r->ngroups; i++)
		if (r->groups[i].length > max_calls && r->groups[i].nranks) {
			say_beyond_bound(why, whylen, ranklist_first(&r->groups[i].ranks), r->groups[i].length);
			return false;
		}
	return true;
}

void event_iter_init(struct event_iter *it, const struct run *r, uint32_t rank)
{
	memset(it, 0, sizeof *it);
	it->r = r;
	it->rank = rank;
	const struct run_group *g = &r->groups[run_rank_group(r, rank)];
	gwalk_init(&it->walk, &g->g);
	it->streams = xcalloc(r->nstreams + 1, sizeof *it->streams);
	it->ncursors = run_rank_streams(r, rank, it->streams);
	it->cursor = xcalloc(it->ncursors ? it->ncursors : 1, sizeof *it->cursor);
	for (uint32_t k = 0; k < it->ncursors; k++)
		stream_cursor_init(&it->cursor[k], it->streams[k], rank);
	it->sig_info = xcalloc(r->nsigs ? r->nsigs : 1, sizeof *it->sig_info);
	it->limit = max_calls;
	if (g->length > it->limit)
		say_beyond_bound(it->error, sizeof it->error, rank, g->length);
	if (r->nnodes && !r->synthetic && run_rank_calls(r, rank) < it->limit)
		it->limit = run_rank_calls(r, rank);
}

/* count an event's calls; false (error set) when they would take the walk past its limit */
static bool count_calls(struct event_iter *it, uint64_t n)
{
	if (n <= it->limit - it->calls) {
		it->calls += n;
		return true;
	}
	if (it->limit < max_calls)
		snprintf(it->error, sizeof it->error, "rank %u: the trace has more calls than the %llu its profile counts",
			 it->rank, (unsigned long long)it->limit);
	else
		snprintf(it->error, sizeof it->error, "rank %u: the trace has more calls than the %llu a walk may make "
			 "(raise the bound with --max-calls or LADDER_MAX_CALLS)", it->rank, (unsigned long long)it->limit);
	return false;
}

void event_iter_free(struct event_iter *it)
{
	gwalk_free(&it->walk);
	for (uint32_t k = 0; k < it->ncursors; k++)
		stream_cursor_free(&it->cursor[k]);
	free(it->cursor);
	free(it->streams);
	free(it->vals);
	free(it->sig_info);
	memset(it, 0, sizeof *it);
}

static bool pull(struct event_iter *it, int64_t si, int64_t *out)
{
	if (stream_cursor_next(&it->cursor[si], out))
		return true;
	const struct run_stream *s = it->streams[si];
	snprintf(it->error, sizeof it->error, "rank %u: the value stream of signature %u ran out after %llu values",
		 it->rank, s->sig, (unsigned long long)s->length);
	return false;
}

bool event_iter_streams_consumed(const struct event_iter *it, char *why, size_t whylen)
{
	for (uint32_t k = 0; k < it->ncursors; k++) {
		const struct stream_cursor *c = &it->cursor[k];
		if (c->read == c->length)
			continue;
		snprintf(why, whylen, "rank %u: %llu of the %llu values of the stream of signature %u are never used",
			 it->rank, (unsigned long long)(c->length - c->read), (unsigned long long)c->length,
			 it->streams[k]->sig);
		return false;
	}
	return true;
}

static void put_val(struct event_iter *it, uint32_t *n, int64_t v)
{
	if (*n >= it->capvals) {
		it->capvals = it->capvals ? 2 * it->capvals : 64;
		it->vals = xrealloc(it->vals, it->capvals * sizeof *it->vals);
	}
	it->vals[(*n)++] = v;
}

/* an array stated by rule (run/share.h): its length, then its elements as this rank reads them */
static void put_shared(struct event_iter *it, uint32_t *n, const int64_t *g)
{
	put_val(it, n, g[1]);
	for (int64_t k = 0; k < g[1]; k++)
		put_val(it, n, 0);
	share_fill(g[1], g[2], (enum share_rule)g[3], it->rank, it->vals + *n - g[1]);
}

/* the values of a signature without streamed values: a prefix of its own (up to a malformed
 * group, as the streamed path would copy them) */
static uint32_t constant_nvals(const struct run_signature *s, const struct fn_desc *d,
			       const int64_t *sv)
{
	struct param_walk w = param_walk(d, sv, s->nvals);
	while (param_walk_next(&w))
		;
	return w.at;
}

/* the rank's stream of signature sig: its index in it->streams (by signature), or -1 */
static int64_t stream_slot(const struct event_iter *it, uint32_t sig)
{
	uint32_t lo = 0, hi = it->ncursors;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (it->streams[mid]->sig < sig)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < it->ncursors && it->streams[lo]->sig == sig ? (int64_t)lo : -1;
}

/* what every call of signature sig shares; false (error set) when it needs a missing stream */
static bool learn_sig(struct event_iter *it, uint32_t sig)
{
	const struct run *r = it->r;
	const struct run_signature *s = &r->sigs[sig];
	const struct fn_desc *d = &r->fns[s->fn];
	const int64_t *sv = r->sigvals + s->voff;
	struct event_sig *info = &it->sig_info[sig];
	bool streamed = false, shared = false;
	for (uint32_t i = 0; i < s->nvals; i++)
		streamed = streamed || sv[i] == SV_STREAMED, shared = shared || sv[i] == SV_SHARED;
	info->constant = !streamed && !shared;
	info->stream = -1;
	if (streamed || (s->flags & SIGF_FAILED_POLL)) {
		info->stream = stream_slot(it, sig);
		if (info->stream < 0) {
			snprintf(it->error, sizeof it->error,
				 "rank %u: signature %u (%s) has streamed values but the rank has no stream for it",
				 it->rank, sig, d->name);
			return false;
		}
	}
	info->nvals = info->constant ? constant_nvals(s, d, sv) : 0;
	info->req_key = run_signature_req_key(run_req_pools_by_base(r), s->fn, s->callsite, s->flags, d, sv,
					      s->nvals);
	info->known = true;
	return true;
}

/* the values of one call of a signature with streamed values, into it->vals; their number */
static bool fill_streamed(struct event_iter *it, const struct run_signature *s, int64_t si,
			  uint32_t *nvals)
{
	const struct fn_desc *d = &it->r->fns[s->fn];
	const int64_t *sv = it->r->sigvals + s->voff;
	uint32_t n = 0;
	PARAM_FOR (g, d, sv, s->nvals) {
		if (g.v[0] == SV_SHARED && g.width == 4) {
			put_shared(it, &n, g.v);
		} else if (g.v[0] != SV_STREAMED) {
			for (uint32_t j = 0; j < g.width; j++)
				put_val(it, &n, g.v[j]);
		} else {
			int64_t elems = g.width;
			if (param_kind_is_array(g.kind)) {
				int64_t len;
				if (!pull(it, si, &len))
					return false;
				put_val(it, &n, len);
				int64_t width = param_kind_width(g.kind);
				elems = 0;
				if (!sv_is_symbolic(len) && len > 0)   /* too long: the stream runs out below */
					elems = len > INT64_MAX / width ? INT64_MAX : len * width;
			}
			for (int64_t j = 0; j < elems; j++) {
				int64_t v;
				if (!pull(it, si, &v))
					return false;
				put_val(it, &n, v);
			}
		}
	}
	*nvals = n;
	return true;
}

bool event_next(struct event_iter *it, struct event *ev)
{
	if (it->error[0])
		return false;
	if (!it->term_left) {
		uint64_t n;
		if (!gwalk_next_run(&it->walk, &it->term, &n))
			return false;
		it->term_left = n;
	}
	it->term_left--;
	const struct run *r = it->r;
	uint32_t sig = it->term;
	const struct run_signature *s = &r->sigs[sig];
	const struct event_sig *info = &it->sig_info[sig];
	if (!info->known && !learn_sig(it, sig))
		return false;
	ev->repeat = 1;
	if (s->flags & SIGF_FAILED_POLL) {
		int64_t rep;
		if (!pull(it, info->stream, &rep))
			return false;
		ev->repeat = rep > 0 ? (uint64_t)rep : 1;
	}
	if (!count_calls(it, ev->repeat))
		return false;
	if (info->constant) {
		ev->vals = r->sigvals + s->voff;
		ev->nvals = info->nvals;
	} else {
		if (!fill_streamed(it, s, info->stream, &ev->nvals))
			return false;
		ev->vals = it->vals;
	}
	ev->sig = sig;
	ev->fn = &r->fns[s->fn];
	ev->s = s;
	ev->req_key = info->req_key;
	ev->constant = info->constant;
	return true;
}

void event_view_of(const struct event_iter *it, const struct event *ev, struct event_view *v)
{
	v->fn = ev->fn;
	v->vals = ev->vals;
	v->nvals = ev->nvals;
	v->rank = it->rank;
	v->strings = (const char *const *)it->r->strings;
	v->nstrings = it->r->nstrings;
	v->req_key = ev->req_key;
}
