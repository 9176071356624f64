/*
 * stream — value streams (Pilgrim §2.3): the values of a signature's streamed parameter groups
 * (counts, tags or peers that kept changing, wildcard sources, completion indices, poll run
 * lengths, split colours and keys), call after call, as a run holds them; and the one way to read
 * them. Decode, replay, compare, export, proxy, validate and inspect read values only through a
 * cursor (or run_stream_value), so none of them depends on how a stream is stored.
 *
 * A stream is stored once for all the ranks that read the same values (its ranks). Its values are
 * cells: a head, then a period repeated until `length` values have been read —
 *
 *     value i = cells[i]                                   for i < nhead
 *             = cells[nhead + (i - nhead) mod nperiod]     otherwise (i < length)
 *
 * so values that repeat every k iterations of a loop cost one period, whatever the iterations
 * (a stream that does not repeat is all head: nperiod 0, length nhead). Every cell is read:
 * length >= nhead + nperiod when there is a period.
 *
 * A cell may instead be a law of the reading rank (rank_law.h): the stream of a signature whose
 * values differ from rank to rank only by such laws (the peers of a periodic grid, split colours)
 * is one stream for every rank, in space independent of the rank count. A synthetic run
 * (`ladder extrap`) at any scale states per-rank values this way: ranks as a ranklist of one box,
 * laws for what depends on the rank.
 *
 * stream_pack.c makes the compact form from per-rank literal streams (stream_fold: the shortest
 * head + period; identical streams of several ranks merged; per-rank differences as laws).
 */
#ifndef LADDER_RUN_STREAM_H
#define LADDER_RUN_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/rank_law.h"
#include "run/ranklist.h"

struct run;

struct stream_law {
	uint64_t cell;             /* the cell it gives (whose stored value, 0, is ignored) */
	struct rank_law law;
};

struct run_stream {
	uint32_t sig;
	uint32_t nranks;           /* ranklist_count of ranks */
	struct ranklist ranks;     /* the ranks that read these values */
	uint64_t length;           /* values each of its ranks reads */
	uint64_t nhead, nperiod;   /* cells: the head, then one period */
	int64_t *cells;            /* nhead + nperiod */
	uint32_t nlaws;
	struct stream_law *laws;   /* by increasing cell */
};

/* Add a stream of one rank: cells (nhead + nperiod of them) are copied. A literal stream of n
 * values is (n, n, 0, values). Returns it (valid until the next stream is added). */
struct run_stream *run_add_stream(struct run *r, uint32_t sig, uint32_t rank, uint64_t length, uint64_t nhead,
				  uint64_t nperiod, const int64_t *cells);
void run_stream_free(struct run_stream *s);
uint64_t run_stream_cells(const struct run_stream *s);
/* the cell value i is read from */
uint64_t run_stream_cell_of(const struct run_stream *s, uint64_t i);
/* value i of the stream as rank reads it (i < length) */
int64_t run_stream_value(const struct run_stream *s, uint32_t rank, uint64_t i);
/* qsort order of streams: by signature, then first rank (the order run_check leaves them in) */
int run_stream_order(const void *a, const void *b);
/* a stream's own consistency (shape, some ranks, laws; its ranklist is run_check's); false with why */
bool run_stream_check(const struct run_stream *s, char *why, size_t whylen);

/* The stream rank reads for signature sig, or NULL (streams sorted by signature, as run_check
 * leaves them: a binary search, then the boxes of sig's streams). */
const struct run_stream *run_stream_of(const struct run *r, uint32_t rank, uint32_t sig);
/* The streams rank reads, by signature, into out (room for r->nstreams; NULL: only count them);
 * returns their number. */
uint32_t run_rank_streams(const struct run *r, uint32_t rank, const struct run_stream **out);
/* Values read by all ranks together (sum of length times ranks), and cells stored. */
uint64_t run_streamed_values(const struct run *r);
uint64_t run_stored_cells(const struct run *r);

/* One rank's reading position in one stream. */
struct stream_cursor {
	const int64_t *cells;
	int64_t *own;              /* the rank's cells when laws fill some */
	uint64_t length, read, cell, end, restart;
};

void stream_cursor_init(struct stream_cursor *c, const struct run_stream *s, uint32_t rank);
void stream_cursor_free(struct stream_cursor *c);

static inline bool stream_cursor_next(struct stream_cursor *c, int64_t *v)
{
	if (c->read >= c->length)
		return false;
	*v = c->cells[c->cell];
	c->read++;
	if (++c->cell == c->end)
		c->cell = c->restart;
	return true;
}

/* Head and period of the values v[0..n): the split with the fewest cells (nperiod 0, head n when
 * nothing repeats). Linear time. */
void stream_fold(const int64_t *v, uint64_t n, uint64_t *nhead, uint64_t *nperiod);

/* The compact form of r's streams: literal streams folded, identical streams of a signature
 * merged into one with all their ranks, and a signature read by every rank as one stream with
 * laws when its per-rank streams differ only by laws of the rank. Values read do not change. */
void run_pack_streams(struct run *r);
/* The laws of r's streams read by every rank fitted again on grid g (of r's rank count), each
 * stream's where all its laws fit there; values read do not change. */
void run_stream_laws_on(struct run *r, const struct grid *g);
/* its steps shared by stream_pack.c and stream_laws.c */
void run_merge_stream_laws(struct run *r);
void run_drop_empty_streams(struct run *r);

#endif
