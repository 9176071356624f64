/*
 * streams — values that change from call to call (papers/001 §2.3: a signature's streamed
 * groups), as static tables: per signature, each distinct sequence once, run-length encoded as
 * (value, repeat) pairs, with the ranklist of the ranks that read it. A rank picks its tables at
 * startup (select_streams) and its calls read them in order (next_value).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "proxy/proxy.h"
#include "run/ranklist.h"
#include "util/xalloc.h"

static bool same_values(const struct run_stream *a, const struct run_stream *b)
{
	return a->nvals == b->nvals && (!a->nvals || !memcmp(a->vals, b->vals, a->nvals * sizeof *a->vals));
}

static void emit_runs(struct proxy_gen *g, const struct run_stream *st, uint32_t sig, uint32_t k, uint64_t *nruns)
{
	px_printf(&g->text, "static const long long values_%u_%u[][2] = {", sig, k);
	uint64_t n = 0;
	for (uint64_t i = 0; i < st->nvals;) {
		uint64_t j = i;
		while (j < st->nvals && st->vals[j] == st->vals[i])
			j++;
		px_printf(&g->text, "%s{%" PRId64 "LL, %" PRIu64 "}", n ? ", " : "", st->vals[i], j - i);
		if (++n % 8 == 0)
			px_puts(&g->text, "\n\t");
		i = j;
	}
	if (!n)
		px_puts(&g->text, "{0, 0}");
	px_puts(&g->text, "};\n");
	*nruns = n;
}

/* the distinct streams of sig, with their ranks; appends the sources to table */
static void emit_signature(struct proxy_gen *g, uint32_t sig, struct buf *table)
{
	const struct run *r = g->r;
	uint32_t *owner = xcalloc(r->nstreams ? r->nstreams : 1, sizeof *owner);   /* first equal stream + 1 */
	uint32_t distinct = 0;
	for (uint32_t i = 0; i < r->nstreams; i++) {
		if (r->streams[i].sig != sig || owner[i])
			continue;
		uint32_t *ranks = xmalloc(r->nranks * sizeof *ranks), n = 0;
		for (uint32_t j = i; j < r->nstreams; j++)
			if (r->streams[j].sig == sig && !owner[j] && same_values(&r->streams[i], &r->streams[j])) {
				owner[j] = i + 1;
				ranks[n++] = r->streams[j].rank;
			}
		uint64_t nruns;
		emit_runs(g, &r->streams[i], sig, distinct, &nruns);
		struct ranklist rl;
		ranklist_init(&rl);
		ranklist_from_ranks(&rl, ranks, n);
		px_printf(&g->text, "static const long long values_%u_%u_ranks[] = {", sig, distinct);
		for (size_t v = 0; v < rl.len; v++)
			px_printf(&g->text, "%s%" PRId64, v ? ", " : "", rl.v[v]);
		px_puts(&g->text, "};\n");
		px_printf(table, "\t\t{&values_%u, values_%u_%u_ranks, %zu, values_%u_%u, %" PRIu64 "},\n", sig, sig,
			  distinct, ranklist_boxes(rl.v, rl.len), sig, distinct, nruns);
		ranklist_free(&rl);
		free(ranks);
		distinct++;
	}
	free(owner);
}

bool px_emit_streams(struct proxy_gen *g)
{
	const struct run *r = g->r;
	struct buf table;
	buf_init(&table);
	px_puts(&g->text, "\n/* ---- values that change from call to call, per signature: (value, repeat) runs and the ranks reading them ---- */\n\n");
	for (uint32_t sig = 0; sig < r->nsigs; sig++) {
		if (!g->streamed[sig])
			continue;
		px_printf(&g->text, "static struct stream values_%u;   /* ", sig);
		px_callsite_text(g, sig, &g->text);
		px_puts(&g->text, " */\n");
		emit_signature(g, sig, &table);
	}
	px_puts(&g->text, "\nstatic inline void select_streams(void)\n{\n");
	if (table.len) {
		px_puts(&g->text, "\tstatic const struct {\n\t\tstruct stream *stream;\n\t\tconst long long *ranks;\n"
				  "\t\tint nboxes;\n\t\tconst long long (*runs)[2];\n\t\tlong nruns;\n\t} sources[] = {\n");
		buf_put(&g->text, table.data, table.len);
		px_puts(&g->text, "\t};\n\tfor (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)\n"
				  "\t\tif (in_ranklist(sources[i].ranks, sources[i].nboxes, world_rank)) {\n"
				  "\t\t\tsources[i].stream->runs = sources[i].runs;\n"
				  "\t\t\tsources[i].stream->nruns = sources[i].nruns;\n\t\t}\n");
	}
	px_puts(&g->text, "}\n");
	buf_free(&table);
	return true;
}
