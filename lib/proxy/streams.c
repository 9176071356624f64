/*
 * streams — values that change from call to call (Pilgrim §2.3: a signature's streamed
 * groups), as the run stores them (run/stream.h): each stored stream becomes a static table of its
 * cells, run-length encoded as (value, repeat) pairs — the head's runs, then the period's, which
 * the program reads round until the stream's length — with the ranklist of the ranks that read it
 * and the laws that fill rank-dependent cells (a row's colour, a periodic neighbour), evaluated
 * for the program's rank. A rank picks its tables at startup (select_streams) and its calls read
 * them in order (next_value). The program's size follows the stored streams: one period of a loop
 * and one table for every rank of a grid, whatever the iterations and the rank count.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "proxy/proxy.h"
#include "run/ranklist.h"
#include "util/xalloc.h"

/* is cell c given by a law? (laws are sorted by cell; *next walks them) */
static bool law_cell(const struct run_stream *st, uint64_t c, uint32_t *next)
{
	while (*next < st->nlaws && st->laws[*next].cell < c)
		++*next;
	return *next < st->nlaws && st->laws[*next].cell == c;
}

/* the cells [from, to) as runs; a law's cell is a run of its own. Appends each law's run index to
 * law_runs; returns the number of runs so far */
static uint64_t emit_runs(struct proxy_gen *g, const struct run_stream *st, uint64_t from, uint64_t to, uint64_t n,
			  uint64_t *law_runs)
{
	uint32_t next = 0;
	for (uint64_t i = from; i < to;) {
		uint64_t j = i + 1;
		if (law_cell(st, i, &next))
			law_runs[next] = n;
		else
			while (j < to && st->cells[j] == st->cells[i] && !law_cell(st, j, &next))
				j++;
		px_printf(&g->text, "%s{%" PRId64 "LL, %" PRIu64 "}", n ? ", " : "", st->cells[i], j - i);
		if (++n % 8 == 0)
			px_puts(&g->text, "\n\t");
		i = j;
	}
	return n;
}

/* the laws as [run, base, nterms, (coef, divisor, shift, modulus, below) x nterms] records (below
 * a step term's threshold, -1 for other terms) */
static void emit_laws(struct proxy_gen *g, const struct run_stream *st, uint32_t sig, uint32_t k,
		      const uint64_t *law_runs)
{
	px_printf(&g->text, "static const long long values_%u_%u_laws[] = {", sig, k);
	for (uint32_t i = 0; i < st->nlaws; i++) {
		const struct rank_law *l = &st->laws[i].law;
		char text[400];
		rank_law_format(l, text, sizeof text);
		px_printf(&g->text, "%s\n\t/* cell %" PRIu64 ": %s */ %" PRIu64 ", %" PRId64 "LL, %u", i ? "," : "",
			  st->laws[i].cell, text, law_runs[i], l->base, l->nterms);
		for (uint32_t t = 0; t < l->nterms; t++)
			px_printf(&g->text, ", %" PRId64 "LL, %" PRIu64 "ULL, %" PRIu64 "ULL, %" PRIu64 "ULL, %" PRId64 "LL",
				  l->terms[t].coef, l->terms[t].divisor, l->terms[t].shift, l->terms[t].modulus,
				  l->terms[t].step ? (int64_t)l->terms[t].below : -1);
	}
	px_puts(&g->text, st->nlaws ? "};\n" : "0};\n");
}

static void emit_ranks(struct proxy_gen *g, const struct run_stream *st, uint32_t sig, uint32_t k, size_t *nboxes)
{
	const struct ranklist *rl = &st->ranks;
	px_printf(&g->text, "static const long long values_%u_%u_ranks[] = {", sig, k);
	for (size_t v = 0; v < rl->len; v++)
		px_printf(&g->text, "%s%" PRId64, v ? ", " : "", rl->v[v]);
	px_puts(&g->text, "};\n");
	*nboxes = ranklist_boxes(rl->v, rl->len);
}

/* stored stream k of sig: its tables, and its row of the sources table */
static void emit_stream(struct proxy_gen *g, const struct run_stream *st, uint32_t sig, uint32_t k, struct buf *table)
{
	uint64_t *law_runs = xcalloc(st->nlaws + 1, sizeof *law_runs);
	/* not const: the laws fill their cells at startup */
	px_printf(&g->text, "static long long values_%u_%u[][2] = {", sig, k);
	uint64_t period = emit_runs(g, st, 0, st->nhead, 0, law_runs);
	uint64_t nruns = emit_runs(g, st, st->nhead, run_stream_cells(st), period, law_runs);
	px_puts(&g->text, nruns ? "};\n" : "{0, 0}};\n");
	emit_laws(g, st, sig, k, law_runs);
	size_t nboxes;
	emit_ranks(g, st, sig, k, &nboxes);
	px_printf(table, "\t\t{&values_%u, values_%u_%u_ranks, %zu, values_%u_%u, %" PRIu64 ", %" PRIu64 ", %" PRIu64
			 "LL, values_%u_%u_laws, %u},\n",
		  sig, sig, k, nboxes, sig, k, nruns, period, st->length, sig, k, st->nlaws);
	free(law_runs);
}

bool px_emit_streams(struct proxy_gen *g)
{
	const struct run *r = g->r;
	struct buf table;
	buf_init(&table);
	px_puts(&g->text, "\n/* ---- values that change from call to call, per signature: (value, repeat) runs of the stored "
			  "cells (head, then the period read round), the ranks reading them, laws of the rank ---- */\n\n");
	for (uint32_t sig = 0; sig < r->nsigs; sig++) {
		if (!g->streamed[sig])
			continue;
		px_printf(&g->text, "static struct stream values_%u;   /* ", sig);
		px_callsite_text(g, sig, &g->text);
		px_puts(&g->text, " */\n");
		for (uint32_t i = 0, k = 0; i < r->nstreams; i++)
			if (r->streams[i].sig == sig)
				emit_stream(g, &r->streams[i], sig, k++, &table);
	}
	px_puts(&g->text, "\nstatic inline void select_streams(void)\n{\n");
	if (table.len) {
		px_puts(&g->text, "\tstatic const struct {\n\t\tstruct stream *stream;\n\t\tconst long long *ranks;\n"
				  "\t\tint nboxes;\n\t\tlong long (*runs)[2];\n\t\tlong nruns, period;\n\t\tlong long length;\n"
				  "\t\tconst long long *laws;\n\t\tint nlaws;\n\t} sources[] = {\n");
		buf_put(&g->text, table.data, table.len);
		px_puts(&g->text, "\t};\n\tfor (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)\n"
				  "\t\tif (in_ranklist(sources[i].ranks, sources[i].nboxes, world_rank))\n"
				  "\t\t\tstream_select(sources[i].stream, sources[i].runs, sources[i].nruns, sources[i].period,\n"
				  "\t\t\t\t      sources[i].length, sources[i].laws, sources[i].nlaws);\n");
	}
	px_puts(&g->text, "}\n");
	buf_free(&table);
	return true;
}
