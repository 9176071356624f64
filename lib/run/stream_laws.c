/*
 * stream_laws — the third step of run_pack_streams (stream_pack.c): a signature whose streams
 * cover every rank, all of one length, and differ from rank to rank only by laws of the rank
 * (rank_law.h) becomes one stream for every rank, its rank-dependent cells given by laws.
 *
 * The laws of a run are fitted on one grid: of the grids of the rank count, the one on which the
 * most signatures fit entirely (the first such in rank_law_grids' order). So the peers of a
 * periodic 3-D halo are laws of the same 3-D grid, whatever the cells, and read the same at 8 and
 * at 64 ranks. A signature that does not fit that grid is fitted on the first grid it fits.
 *
 * run_stream_laws_on states a run's laws again on a grid known otherwise (the process grid an
 * extrapolation detected: the tracer's 4x4 at 16 ranks where the application has 4x2x2).
 *
 * A signature's values are laid out as columns (cell by rank), so a grid is tried on a column in
 * one pass that stops at the first value it does not reproduce; one signature's at a time (they
 * are as large as its streams expanded to every rank), again when it is merged.
 */
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "run/stream.h"
#include "util/gcd.h"
#include "util/xalloc.h"

/* the streams of one signature that may become one */
struct law_set {
	struct run_stream **streams;
	uint32_t n;
	uint64_t head, period, ncells;
	int64_t *columns;          /* ncells x nranks: value of cell j on rank q at [j * nranks + q] */
	bool *varies;              /* per cell: not the same on every rank */
	bool *fits;                /* per grid: every varying cell has a law on it */
};

/* a head and period in which every stream of the set can be read: the longest head and the
 * least common multiple of the periods when every stream has one and they fit, else all head */
static void common_shape(struct law_set *x)
{
	uint64_t length = x->streams[0]->length, h = 0, p = 1;
	for (uint32_t k = 0; k < x->n && p; k++) {
		if (!x->streams[k]->nperiod) {
			p = 0;
			break;
		}
		h = x->streams[k]->nhead > h ? x->streams[k]->nhead : h;
		uint64_t m = x->streams[k]->nperiod / gcd_uint64(p, x->streams[k]->nperiod);
		p = p > length / m ? 0 : p * m;   /* longer than the stream: no common period */
	}
	bool shaped = p && h <= length - p;
	x->head = shaped ? h : length;
	x->period = shaped ? p : 0;
	x->ncells = x->head + x->period;
}

/* streams [first, first + n) of one signature: several, covering every rank, of one length */
static bool candidates(const struct run *r, uint32_t first, uint32_t n)
{
	uint64_t ranks = 0;
	for (uint32_t k = 0; k < n; k++) {
		const struct run_stream *s = &r->streams[first + k];
		ranks += s->nranks;
		if (s->length != r->streams[first].length || s->nlaws)
			return false;
	}
	return n > 1 && ranks == r->nranks;
}

/* the set's columns: false when a rank reads two streams (not a checked run) */
static bool lay_out(const struct run *r, struct law_set *x)
{
	struct run_stream **of_rank = xcalloc(r->nranks, sizeof *of_rank);
	uint32_t rank;
	for (uint32_t k = 0; k < x->n; k++)
		RANKLIST_FOR(rank, &x->streams[k]->ranks)
			of_rank[rank] = x->streams[k];
	bool ok = true;
	for (uint32_t q = 0; q < r->nranks && ok; q++)
		ok = of_rank[q] != NULL;
	common_shape(x);
	x->columns = xmalloc((x->ncells * r->nranks + 1) * sizeof *x->columns);
	x->varies = xcalloc(x->ncells + 1, sizeof *x->varies);
	for (uint64_t j = 0; j < x->ncells && ok; j++) {
		int64_t *col = x->columns + j * r->nranks;
		for (uint32_t q = 0; q < r->nranks; q++) {
			col[q] = run_stream_value(of_rank[q], q, j);
			x->varies[j] |= col[q] != col[0];
		}
	}
	free(of_rank);
	return ok;
}

static bool fits_grid(const struct run *r, const struct law_set *x, const struct grid *g)
{
	struct rank_law law;
	for (uint64_t j = 0; j < x->ncells; j++)
		if (x->varies[j] && !rank_law_fit_grid(x->columns + j * r->nranks, r->nranks, g, &law))
			return false;
	return true;
}

/* the set as one stream of every rank, its varying cells as laws on g */
static void merge_set(const struct run *r, const struct law_set *x, const struct grid *g, struct run_stream *out)
{
	*out = (struct run_stream){.sig = x->streams[0]->sig, .nranks = r->nranks, .length = x->streams[0]->length,
				   .nhead = x->head, .nperiod = x->period};
	ranklist_from_range(&out->ranks, 0, r->nranks);
	out->cells = xcalloc(x->ncells + 1, sizeof *out->cells);
	for (uint64_t j = 0; j < x->ncells; j++) {
		const int64_t *col = x->columns + j * r->nranks;
		if (!x->varies[j]) {
			out->cells[j] = col[0];
			continue;
		}
		out->laws = xrealloc(out->laws, (out->nlaws + 1) * sizeof *out->laws);
		struct stream_law *l = &out->laws[out->nlaws++];
		l->cell = j;   /* its cell holds 0 */
		rank_law_fit_grid(col, r->nranks, g, &l->law);
	}
}

/* the columns, until the set is laid out again */
static void set_fold_up(struct law_set *x)
{
	free(x->columns);
	free(x->varies);
	x->columns = NULL;
	x->varies = NULL;
}

static void set_free(struct law_set *x)
{
	set_fold_up(x);
	free(x->fits);
	free(x->streams);
}

/* the candidate signatures' sets, each with the grids it fits */
static struct law_set *find_sets(struct run *r, const struct grid *grids, size_t ngrids, uint32_t *nsets)
{
	struct law_set *sets = xcalloc(r->nstreams + 1, sizeof *sets);
	*nsets = 0;
	for (uint32_t i = 0, j; i < r->nstreams; i = j) {
		for (j = i + 1; j < r->nstreams && r->streams[j].sig == r->streams[i].sig;)
			j++;
		if (!candidates(r, i, j - i))
			continue;
		struct law_set *x = &sets[(*nsets)++];
		x->n = j - i;
		x->streams = xmalloc(x->n * sizeof *x->streams);
		for (uint32_t k = 0; k < x->n; k++)
			x->streams[k] = &r->streams[i + k];
		x->fits = xcalloc(ngrids + 1, sizeof *x->fits);
		bool laid = lay_out(r, x);
		for (size_t g = 0; g < ngrids && laid; g++)
			x->fits[g] = fits_grid(r, x, &grids[g]);
		set_fold_up(x);
	}
	return sets;
}

/* the grid most sets fit (the first of them in order); ngrids when none fits any */
static size_t run_grid(const struct law_set *sets, uint32_t nsets, size_t ngrids)
{
	size_t best = ngrids;
	uint32_t most = 0;
	for (size_t g = 0; g < ngrids; g++) {
		uint32_t n = 0;
		for (uint32_t k = 0; k < nsets; k++)
			n += sets[k].fits[g];
		if (n > most) {
			most = n;
			best = g;
		}
	}
	return best;
}

void run_merge_stream_laws(struct run *r)
{
	if (r->nstreams)   /* none: there may be no array at all */
		qsort(r->streams, r->nstreams, sizeof *r->streams, run_stream_order);
	size_t ngrids;
	struct grid *grids = rank_law_grids(r->nranks, &ngrids);
	uint32_t nsets;
	struct law_set *sets = find_sets(r, grids, ngrids, &nsets);
	size_t best = run_grid(sets, nsets, ngrids);
	for (uint32_t k = 0; k < nsets; k++) {
		struct law_set *x = &sets[k];
		size_t g = best < ngrids && x->fits[best] ? best : 0;
		while (g < ngrids && !x->fits[g])
			g++;
		if (g < ngrids && lay_out(r, x)) {
			struct run_stream merged;
			merge_set(r, x, &grids[g], &merged);
			for (uint32_t i = 0; i < x->n; i++)
				run_stream_free(x->streams[i]);
			*x->streams[0] = merged;
		}
		set_free(x);
	}
	free(sets);
	free(grids);
	run_drop_empty_streams(r);
}

/* the law of cell j of s on grid g, refitted from its values on every rank; false when none fits */
static bool refit(const struct run *r, const struct rank_law *old, const struct grid *g, struct rank_law *out)
{
	int64_t *col = xmalloc((r->nranks + 1) * sizeof *col);
	for (uint32_t q = 0; q < r->nranks; q++)
		col[q] = rank_law_eval(old, q);
	bool ok = rank_law_fit_grid(col, r->nranks, g, out);
	free(col);
	return ok;
}

void run_stream_laws_on(struct run *r, const struct grid *g)
{
	for (uint32_t i = 0; i < r->nstreams; i++) {
		struct run_stream *s = &r->streams[i];
		if (!s->nlaws || s->nranks != r->nranks)
			continue;
		struct stream_law *laws = xmalloc(s->nlaws * sizeof *laws);
		bool ok = true;
		for (uint32_t k = 0; ok && k < s->nlaws; k++) {
			laws[k].cell = s->laws[k].cell;
			ok = refit(r, &s->laws[k].law, g, &laws[k].law);
		}
		if (ok)
			memcpy(s->laws, laws, s->nlaws * sizeof *laws);
		free(laws);
	}
}
