/*
 * stream — value streams: building one, reading it (cursor, random access), its checks and the
 * rank -> stream lookup. See stream.h.
 */
#include "run/stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "util/xalloc.h"

struct run_stream *run_add_stream(struct run *r, uint32_t sig, uint32_t rank, uint64_t length, uint64_t nhead,
				  uint64_t nperiod, const int64_t *cells)
{
	r->streams = xrealloc(r->streams, (r->nstreams + 1) * sizeof *r->streams);
	struct run_stream *s = &r->streams[r->nstreams++];
	uint64_t n = nhead + nperiod;
	*s = (struct run_stream){.sig = sig, .nranks = 1, .length = length, .nhead = nhead, .nperiod = nperiod};
	ranklist_from_ranks(&s->ranks, &rank, 1);
	s->cells = xmalloc((n ? n : 1) * sizeof *s->cells);
	if (n)
		memcpy(s->cells, cells, n * sizeof *cells);
	return s;
}

void run_stream_free(struct run_stream *s)
{
	ranklist_free(&s->ranks);
	free(s->cells);
	free(s->laws);
	memset(s, 0, sizeof *s);
}

uint64_t run_stream_cells(const struct run_stream *s) { return s->nhead + s->nperiod; }

uint64_t run_stream_cell_of(const struct run_stream *s, uint64_t i)
{
	return i < s->nhead || !s->nperiod ? i : s->nhead + (i - s->nhead) % s->nperiod;
}

static const struct stream_law *law_of_cell(const struct run_stream *s, uint64_t cell)
{
	uint32_t lo = 0, hi = s->nlaws;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (s->laws[mid].cell < cell)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nlaws && s->laws[lo].cell == cell ? &s->laws[lo] : NULL;
}

int64_t run_stream_value(const struct run_stream *s, uint32_t rank, uint64_t i)
{
	uint64_t cell = run_stream_cell_of(s, i);
	const struct stream_law *l = s->nlaws ? law_of_cell(s, cell) : NULL;
	return l ? rank_law_eval(&l->law, rank) : s->cells[cell];
}

#define FAIL(...)                                   \
	do {                                        \
		snprintf(why, whylen, __VA_ARGS__); \
		return false;                       \
	} while (0)

static bool check_shape(const struct run_stream *s, char *why, size_t whylen)
{
	if (s->nhead > UINT64_MAX - s->nperiod)
		FAIL("%llu + %llu cells overflow", (unsigned long long)s->nhead, (unsigned long long)s->nperiod);
	if (!s->nperiod && s->length != s->nhead)
		FAIL("%llu values from %llu cells without a period", (unsigned long long)s->length,
		     (unsigned long long)s->nhead);
	if (s->nperiod && s->length < s->nhead + s->nperiod)
		FAIL("%llu values do not read its %llu + %llu cells", (unsigned long long)s->length,
		     (unsigned long long)s->nhead, (unsigned long long)s->nperiod);
	return true;
}

bool run_stream_check(const struct run_stream *s, char *why, size_t whylen)
{
	if (!check_shape(s, why, whylen))
		return false;
	if (!s->nranks)
		FAIL("no ranks");
	for (uint32_t k = 0; k < s->nlaws; k++) {
		char lwhy[120];
		if (s->laws[k].cell >= run_stream_cells(s) || (k && s->laws[k].cell <= s->laws[k - 1].cell))
			FAIL("a law for cell %llu (%s)", (unsigned long long)s->laws[k].cell,
			     s->laws[k].cell >= run_stream_cells(s) ? "beyond its cells" : "out of order");
		if (!rank_law_check(&s->laws[k].law, lwhy, sizeof lwhy))
			FAIL("cell %llu: %s", (unsigned long long)s->laws[k].cell, lwhy);
	}
	return true;
}

int run_stream_order(const void *pa, const void *pb)
{
	const struct run_stream *a = pa, *b = pb;
	if (a->sig != b->sig)
		return a->sig < b->sig ? -1 : 1;
	uint32_t x = ranklist_first(&a->ranks), y = ranklist_first(&b->ranks);
	return (x > y) - (x < y);
}

/* the first of r's streams (sorted by signature) of signature sig, or r->nstreams */
static uint32_t first_of_sig(const struct run *r, uint32_t sig)
{
	uint32_t lo = 0, hi = r->nstreams;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (r->streams[mid].sig < sig)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct run_stream *run_stream_of(const struct run *r, uint32_t rank, uint32_t sig)
{
	for (uint32_t i = first_of_sig(r, sig); i < r->nstreams && r->streams[i].sig == sig; i++)
		if (ranklist_contains(&r->streams[i].ranks, rank))
			return &r->streams[i];
	return NULL;
}

uint32_t run_rank_streams(const struct run *r, uint32_t rank, const struct run_stream **out)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->nstreams; i++) {
		if (ranklist_contains(&r->streams[i].ranks, rank)) {
			if (out)
				out[n] = &r->streams[i];
			n++;
		}
	}
	return n;
}

uint64_t run_streamed_values(const struct run *r)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		n += r->streams[i].length * r->streams[i].nranks;
	return n;
}

uint64_t run_stored_cells(const struct run *r)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		n += run_stream_cells(&r->streams[i]);
	return n;
}

void stream_cursor_init(struct stream_cursor *c, const struct run_stream *s, uint32_t rank)
{
	memset(c, 0, sizeof *c);
	c->cells = s->cells;
	c->length = s->length;
	c->end = run_stream_cells(s);
	c->restart = s->nhead;
	if (!s->nlaws)
		return;
	c->own = xmalloc((c->end ? c->end : 1) * sizeof *c->own);
	memcpy(c->own, s->cells, c->end * sizeof *c->own);
	for (uint32_t k = 0; k < s->nlaws; k++)
		c->own[s->laws[k].cell] = rank_law_eval(&s->laws[k].law, rank);
	c->cells = c->own;
}

void stream_cursor_free(struct stream_cursor *c)
{
	free(c->own);
	memset(c, 0, sizeof *c);
}
