/*
 * stream_pack — the compact form of a run's value streams (stream.h), in three steps (the third in
 * stream_laws.c):
 *
 *  1. fold: every literal stream becomes its shortest head + period (stream_fold);
 *  2. share: streams of one signature with the same values become one stream with all their ranks
 *     (found by sorting hashes of their contents: a million ranks never compare every pair);
 *  3. laws: when every rank reads a stream of a signature, all of the same length, and the values
 *     that differ from rank to rank are laws of the rank (rank_law.h) at every position, the
 *     signature keeps one stream for every rank — the peers of a periodic grid and split colours
 *     cost the same at 8 ranks as at 64 or a million.
 *
 * Each step keeps every value every rank reads.
 */
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "run/stream.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* ---- 1. fold ---------------------------------------------------------------------------------- */

static void fold_literals(struct run *r)
{
	for (uint32_t i = 0; i < r->nstreams; i++) {
		struct run_stream *s = &r->streams[i];
		if (s->nlaws || s->nperiod)
			continue;
		uint64_t head, period;
		stream_fold(s->cells, s->nhead, &head, &period);
		if (head + period < s->nhead) {
			s->nhead = head;
			s->nperiod = period;
			s->cells = xrealloc(s->cells, (head + period) * sizeof *s->cells);
		}
	}
}

/* ---- 2. share --------------------------------------------------------------------------------- */

static uint64_t content_hash(const struct run_stream *s)
{
	uint64_t h = hash_combine(hash_combine(hash_combine(s->sig, s->length), s->nhead), s->nperiod);
	return hash_combine(h, hash_bytes(s->cells, run_stream_cells(s) * sizeof *s->cells, 0));
}

/* the same values for every rank (streams with laws are read differently by each rank: they come
 * from step 3 and already hold every rank) */
static bool same_content(const struct run_stream *a, const struct run_stream *b)
{
	return !a->nlaws && !b->nlaws && a->sig == b->sig && a->length == b->length && a->nhead == b->nhead &&
	       a->nperiod == b->nperiod && !memcmp(a->cells, b->cells, run_stream_cells(a) * sizeof *a->cells);
}

struct keyed {
	uint64_t hash;
	uint32_t index;
};

static int keyed_order(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	if (a->hash != b->hash)
		return a->hash < b->hash ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

/* the ranks of `from` join `into`; from is emptied */
static void absorb(struct run_stream *into, struct run_stream *from)
{
	ranklist_join(&into->ranks, &from->ranks);
	into->nranks += from->nranks;
	run_stream_free(from);
}

/* drop the streams emptied (no ranks left) */
void run_drop_empty_streams(struct run *r)
{
	uint32_t k = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		if (r->streams[i].nranks)
			r->streams[k++] = r->streams[i];
	r->nstreams = k;
}

static void share_identical(struct run *r)
{
	struct keyed *key = xmalloc((r->nstreams ? r->nstreams : 1) * sizeof *key);
	for (uint32_t i = 0; i < r->nstreams; i++)
		key[i] = (struct keyed){content_hash(&r->streams[i]), i};
	qsort(key, r->nstreams, sizeof *key, keyed_order);
	for (uint32_t i = 0; i < r->nstreams;) {
		uint32_t j = i + 1;
		while (j < r->nstreams && key[j].hash == key[i].hash)
			j++;
		for (uint32_t a = i; a < j; a++) {
			struct run_stream *x = &r->streams[key[a].index];
			for (uint32_t b = a + 1; b < j && x->nranks; b++) {
				struct run_stream *y = &r->streams[key[b].index];
				if (y->nranks && same_content(x, y))
					absorb(x, y);
			}
		}
		i = j;
	}
	free(key);
	run_drop_empty_streams(r);
}

void run_pack_streams(struct run *r)
{
	fold_literals(r);
	share_identical(r);
	run_merge_stream_laws(r);
}
