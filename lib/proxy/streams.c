/*
 * streams — values that change from call to call (Pilgrim §2.3: a signature's streamed
 * groups), as static tables: per signature, each distinct sequence once, run-length encoded as
 * (value, repeat) pairs, with the ranklist of the ranks that read it. A rank picks its tables at
 * startup (select_streams) and its calls read them in order (next_value).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "proxy/proxy.h"
#include "run/ranklist.h"
#include "util/hash.h"
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

static uint64_t content_hash(const struct run_stream *st)
{
	return hash_bytes(st->vals, st->nvals * sizeof *st->vals, st->nvals) | 1;
}

/* the distinct streams of sig (found through a hash table of their contents, so that a run of a
 * million ranks takes linear time), with their ranks; appends the sources to table */
static void emit_signature(struct proxy_gen *g, uint32_t sig, struct buf *table)
{
	const struct run *r = g->r;
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		n += r->streams[i].sig == sig;
	size_t cap = 16;
	while (cap < 2 * (size_t)n)
		cap *= 2;
	uint64_t *keys = xcalloc(cap, sizeof *keys);
	uint32_t *first = xcalloc(cap, sizeof *first);       /* the first stream with this content */
	uint32_t *last = xcalloc(cap, sizeof *last);          /* the last stream with this content */
	uint32_t *next = xcalloc(r->nstreams ? r->nstreams : 1, sizeof *next);   /* the next one, + 1 */
	uint32_t *firsts = xcalloc(n ? n : 1, sizeof *firsts), ndistinct = 0;
	for (uint32_t i = 0; i < r->nstreams; i++) {
		if (r->streams[i].sig != sig)
			continue;
		uint64_t h = content_hash(&r->streams[i]);
		size_t at = h & (cap - 1);
		while (keys[at] && !(keys[at] == h && same_values(&r->streams[first[at]], &r->streams[i])))
			at = (at + 1) & (cap - 1);
		if (!keys[at]) {
			keys[at] = h;
			first[at] = i;
			firsts[ndistinct++] = i;
		} else
			next[last[at]] = i + 1;
		last[at] = i;
	}
	uint32_t *ranks = xmalloc((n ? n : 1) * sizeof *ranks);
	for (uint32_t k = 0; k < ndistinct; k++) {
		const struct run_stream *st = &r->streams[firsts[k]];
		uint32_t nr = 0;
		for (uint32_t j = firsts[k] + 1; j; j = next[j - 1])
			ranks[nr++] = r->streams[j - 1].rank;
		uint64_t nruns;
		emit_runs(g, st, sig, k, &nruns);
		struct ranklist rl;
		ranklist_init(&rl);
		ranklist_from_ranks(&rl, ranks, nr);
		px_printf(&g->text, "static const long long values_%u_%u_ranks[] = {", sig, k);
		for (size_t v = 0; v < rl.len; v++)
			px_printf(&g->text, "%s%" PRId64, v ? ", " : "", rl.v[v]);
		px_puts(&g->text, "};\n");
		px_printf(table, "\t\t{&values_%u, values_%u_%u_ranks, %zu, values_%u_%u, %" PRIu64 "},\n", sig, sig, k,
			  ranklist_boxes(rl.v, rl.len), sig, k, nruns);
		ranklist_free(&rl);
	}
	free(ranks);
	free(firsts);
	free(next);
	free(last);
	free(first);
	free(keys);
}

/* value = (rank / d) % m * a + b (m 0: no modulo) over ranks 0..n-1: the rank-dependent values SPMD
 * codes compute (Comm_split colors and keys of rows and columns), written whatever the rank count */
struct rank_fn {
	int64_t d, m, a, b;
};

static bool fit(const int64_t *v, uint32_t n, struct rank_fn *f)
{
	for (uint32_t r = 0; r < n; r++)
		if (sv_is_symbolic(v[r]))
			return false;
	uint32_t d = 1;
	while (d < n && v[d] == v[0])
		d++;
	if (d == n) {
		*f = (struct rank_fn){1, 0, 0, v[0]};
		return true;
	}
	int64_t a, m = 0;
	if (__builtin_sub_overflow(v[d], v[0], &a))
		return false;
	for (uint64_t k = 1; k * d < n && !m; k++)
		if (v[k * d] == v[0])
			m = (int64_t)k;
	*f = (struct rank_fn){d, m, a, v[0]};
	for (uint32_t r = 0; r < n; r++) {
		int64_t q = r / d, value;
		if (m)
			q %= m;
		if (__builtin_mul_overflow(q, a, &value) || __builtin_add_overflow(value, v[0], &value) || value != v[r])
			return false;
	}
	return true;
}

/* every rank has a stream of sig, all of the same short length, each position a function of the
 * rank: write the functions (true), or nothing (false) */
static bool emit_of_rank(struct proxy_gen *g, uint32_t sig, struct buf *computed)
{
	const struct run *r = g->r;
	const struct run_stream **of = xcalloc(r->nranks ? r->nranks : 1, sizeof *of);
	uint32_t n = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		if (r->streams[i].sig == sig && r->streams[i].rank < r->nranks && !of[r->streams[i].rank]) {
			of[r->streams[i].rank] = &r->streams[i];
			n++;
		}
	bool ok = n == r->nranks && n > 1 && of[0]->nvals && of[0]->nvals <= 64;
	for (uint32_t q = 0; q < n && ok; q++)
		ok = of[q]->nvals == of[0]->nvals;
	uint64_t len = ok ? of[0]->nvals : 0;
	struct rank_fn *fns = xcalloc(len ? len : 1, sizeof *fns);
	int64_t *column = xmalloc((n ? n : 1) * sizeof *column);
	for (uint64_t j = 0; j < len && ok; j++) {
		for (uint32_t q = 0; q < n; q++)
			column[q] = of[q]->vals[j];
		ok = fit(column, n, &fns[j]);
	}
	if (ok) {
		px_printf(&g->text, "static const long long values_%u_of_rank[][4] = {", sig);
		for (uint64_t j = 0; j < len; j++)
			px_printf(&g->text, "%s{%" PRId64 ", %" PRId64 ", %" PRId64 ", %" PRId64 "}", j ? ", " : "", fns[j].d,
				  fns[j].m, fns[j].a, fns[j].b);
		px_puts(&g->text, "};\n");
		px_printf(computed, "\t\t{&values_%u, %" PRIu64 ", values_%u_of_rank},\n", sig, len, sig);
	}
	free(column);
	free(fns);
	free(of);
	return ok;
}

bool px_emit_streams(struct proxy_gen *g)
{
	const struct run *r = g->r;
	struct buf table, computed;
	buf_init(&table);
	buf_init(&computed);
	px_puts(&g->text, "\n/* ---- values that change from call to call, per signature: (value, repeat) runs and the ranks reading them ---- */\n\n");
	for (uint32_t sig = 0; sig < r->nsigs; sig++) {
		if (!g->streamed[sig])
			continue;
		px_printf(&g->text, "static struct stream values_%u;   /* ", sig);
		px_callsite_text(g, sig, &g->text);
		px_puts(&g->text, " */\n");
		if (!emit_of_rank(g, sig, &computed))
			emit_signature(g, sig, &table);
	}
	px_puts(&g->text, "\nstatic inline void select_streams(void)\n{\n");
	if (computed.len) {
		px_puts(&g->text, "\tstatic const struct {\n\t\tstruct stream *stream;\n\t\tint nvalues;\n"
				  "\t\tconst long long (*of_rank)[4];   /* (d, m, a, b): (rank / d) % m * a + b */\n"
				  "\t} computed[] = {\n");
		buf_put(&g->text, computed.data, computed.len);
		px_puts(&g->text, "\t};\n\tfor (size_t i = 0; i < sizeof computed / sizeof computed[0]; i++)\n"
				  "\t\tstream_of_rank(computed[i].stream, computed[i].nvalues, computed[i].of_rank);\n");
	}
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
	buf_free(&computed);
	return true;
}
