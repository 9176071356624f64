/*
 * run_timing — /timing of a run container: the pooled layout of schema 2.0 written and read,
 * the per-group tables of 1.x read. See run_timing.h; hdf5-schema/run.yaml and run-1.yaml
 * document them.
 */
#include "store/run_timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/histogram.h"
#include "run/merge.h"
#include "run/pool.h"
#include "store/run_source.h"
#include "util/range.h"
#include "util/xalloc.h"

/* ---- schema 2.0: a dictionary of histograms, and which ones each group's gaps and durations use */

struct hist_row {
	uint64_t count;
	double sum, sum_squares, min, max, cpu_sum, cpu_min, cpu_max;
	uint64_t bin_offset;
	uint32_t bin_count;
};
static const struct h5_field hist_fields[] = {
	FIELD(struct hist_row, count, F_U64), FIELD(struct hist_row, sum, F_F64),
	FIELD(struct hist_row, sum_squares, F_F64), FIELD(struct hist_row, min, F_F64),
	FIELD(struct hist_row, max, F_F64), FIELD(struct hist_row, cpu_sum, F_F64),
	FIELD(struct hist_row, cpu_min, F_F64), FIELD(struct hist_row, cpu_max, F_F64),
	FIELD(struct hist_row, bin_offset, F_U64), FIELD(struct hist_row, bin_count, F_U32)};
static const struct h5_table hist_table = {"histograms", sizeof(struct hist_row), hist_fields, 10};

struct hbin_row {
	int32_t bin;
	uint64_t count;
	double sum, min, max, cpu_sum, cpu_min, cpu_max;
};
static const struct h5_field hbin_fields[] = {
	FIELD(struct hbin_row, bin, F_I32), FIELD(struct hbin_row, count, F_U64), FIELD(struct hbin_row, sum, F_F64),
	FIELD(struct hbin_row, min, F_F64), FIELD(struct hbin_row, max, F_F64), FIELD(struct hbin_row, cpu_sum, F_F64),
	FIELD(struct hbin_row, cpu_min, F_F64), FIELD(struct hbin_row, cpu_max, F_F64)};
static const struct h5_table hbin_table = {"histogram_bins", sizeof(struct hbin_row), hbin_fields, 8};

/* a group's gap (kind 0: before signature, given previous) or duration (kind 1: of signature) */
enum { USE_GAP, USE_DURATION };
struct use_row { uint32_t group; uint8_t kind; uint32_t previous, signature; uint64_t count; uint32_t histogram; };
static const struct h5_field use_fields[] = {
	FIELD(struct use_row, group, F_U32), FIELD(struct use_row, kind, F_U8),
	FIELD(struct use_row, previous, F_U32), FIELD(struct use_row, signature, F_U32),
	FIELD(struct use_row, count, F_U64), FIELD(struct use_row, histogram, F_U32)};
static const struct h5_table use_table = {"group_histograms", sizeof(struct use_row), use_fields, 6};

double store_round_time(double x)
{
	if (x == 0 || !isfinite(x))
		return x;
	int e;
	double m = frexp(x, &e);
	return ldexp(nearbyint(ldexp(m, STORE_TIME_BITS)), e - STORE_TIME_BITS);
}

/* an entry's row, and its bins when they say more than the row: bins describe repeated gaps; a gap
 * seen at most once per rank, or falling in one bin once its rare bins are folded (histogram.h,
 * STORE_RARE_SHARE), is described by its row alone. Returns the number of bins appended. */
static uint32_t hist_rows(const struct pool_entry *e, struct hist_row *row, struct hbin_row *bins, uint64_t at)
{
	const struct run_gap *x = &e->h;
	struct hist kept = {xmalloc(x->nbins * sizeof *x->bins + 1), x->nbins, x->nbins};
	if (x->nbins)
		memcpy(kept.bins, x->bins, x->nbins * sizeof *x->bins);
	hist_fold_rare(&kept, STORE_RARE_SHARE * (x->nbins > HIST_DEFAULT_BINS ? x->nbins : HIST_DEFAULT_BINS));
	uint32_t stored = kept.n > 1 && x->count > e->ranks ? kept.n : 0;
	*row = (struct hist_row){x->count, store_round_time(x->sum), store_round_time(x->sumsq),
				 store_round_time(x->min), store_round_time(x->max), store_round_time(x->cpu.sum),
				 store_round_time(x->cpu.min), store_round_time(x->cpu.max), at, stored};
	for (uint32_t b = 0; b < stored; b++) {
		const struct run_bin *y = &kept.bins[b];
		bins[b] = (struct hbin_row){y->bin, y->count, store_round_time(y->sum), store_round_time(y->min),
					    store_round_time(y->max), store_round_time(y->cpu.sum),
					    store_round_time(y->cpu.min), store_round_time(y->cpu.max)};
	}
	free(kept.bins);
	return stored;
}

static bool write_histograms(hid_t timing, const struct timing_pool *p)
{
	uint64_t nb = 0;
	for (uint32_t i = 0; i < p->nentries; i++)
		nb += p->entries[i].h.nbins;
	struct hist_row *rows = xcalloc(p->nentries + 1, sizeof *rows);
	struct hbin_row *bins = xcalloc(nb + 1, sizeof *bins);
	uint64_t at = 0;
	for (uint32_t i = 0; i < p->nentries; i++)
		at += hist_rows(&p->entries[i], &rows[i], bins + at, at);
	bool ok = h5_write_table(timing, "histograms", &hist_table, rows, p->nentries) &&
		  h5_write_table(timing, "histogram_bins", &hbin_table, bins, at);
	free(rows);
	free(bins);
	return ok;
}

static bool write_uses(hid_t timing, const struct timing_pool *p)
{
	struct use_row *rows = xcalloc(p->ngaps + p->ndurs + 1, sizeof *rows);
	for (uint64_t i = 0; i < p->ngaps; i++) {
		const struct pool_use *u = &p->gaps[i];
		rows[i] = (struct use_row){u->group, USE_GAP, u->prev, u->sig, u->count, u->entry};
	}
	for (uint64_t i = 0; i < p->ndurs; i++) {
		const struct pool_use *u = &p->durs[i];
		rows[p->ngaps + i] = (struct use_row){u->group, USE_DURATION, RUN_NO_PREV, u->sig, u->count, u->entry};
	}
	bool ok = h5_write_table(timing, "group_histograms", &use_table, rows, p->ngaps + p->ndurs);
	free(rows);
	return ok;
}

bool store_write_timing(hid_t timing, const struct run *r)
{
	struct timing_pool p;
	timing_pool_build(r, &p);
	bool ok = h5_attr_str(timing, "cpu_time", run_cpu_time_names[r->cpu_time <= RUN_CPU_EVERY ? r->cpu_time : 0]) &&
		  write_histograms(timing, &p) && write_uses(timing, &p);
	timing_pool_free(&p);
	return ok;
}

/* ---- reading 2.0 -------------------------------------------------------------------------------- */

static bool seconds(double x) { return isfinite(x) && x >= 0; }

/* CPU time beyond the wall time of the same gaps, past the rounding of stored times */
static bool cpu_exceeds(double cpu, double wall) { return cpu > wall * (1 + 1e-3) + 1e-9; }

/* one line on the first time of a histogram or bin row that is not as it must be, or NULL */
static const char *bad_times(const double *v, const char *const *names, int n, char *why, size_t len)
{
	for (int k = 0; k < n; k++)
		if (!seconds(v[k])) {
			snprintf(why, len, "%s is %g (must be finite, non-negative seconds)", names[k], v[k]);
			return why;
		}
	for (int k = 0; k < 3; k++)   /* cpu_sum, cpu_min, cpu_max against sum, min, max */
		if (cpu_exceeds(v[n - 3 + k], v[n - 6 + k])) {
			snprintf(why, len, "%s %g exceeds %s %g (CPU time is at most the wall time)", names[n - 3 + k],
				 v[n - 3 + k], names[n - 6 + k], v[n - 6 + k]);
			return why;
		}
	return NULL;
}

static bool check_hist_row(const struct source *src, const struct hist_row *h, size_t i, size_t nbins)
{
	static const char *const names[] = {"sum", "min", "max", "cpu_sum", "cpu_min", "cpu_max"};
	double v[] = {h->sum, h->min, h->max, h->cpu_sum, h->cpu_min, h->cpu_max};
	char why[200];
	if (!seconds(h->sum_squares) || bad_times(v, names, 6, why, sizeof why)) {
		h5_fail(src->e, src->path, "/timing/histograms: row %zu: %s", i,
			seconds(h->sum_squares) ? why : "sum_squares is not finite, non-negative");
		return false;
	}
	if (!range_within(h->bin_offset, h->bin_count, nbins)) {
		h5_fail(src->e, src->path, "/timing/histograms: row %zu: bins %llu..+%u lie past the %zu rows of "
			"/timing/histogram_bins", i, (unsigned long long)h->bin_offset, h->bin_count, nbins);
		return false;
	}
	return true;
}

static bool check_bin_row(const struct source *src, const struct hbin_row *b, size_t i)
{
	static const char *const names[] = {"sum", "min", "max", "cpu_sum", "cpu_min", "cpu_max"};
	double v[] = {b->sum, b->min, b->max, b->cpu_sum, b->cpu_min, b->cpu_max};
	char why[200];
	if (bad_times(v, names, 6, why, sizeof why)) {
		h5_fail(src->e, src->path, "/timing/histogram_bins: row %zu: %s", i, why);
		return false;
	}
	return true;
}

/* the dictionary as pooled histograms, every row checked */
static struct run_gap *read_histograms(const struct source *src, uint32_t *n)
{
	struct run_gap *out = NULL;
	size_t nh = 0, nb = 0;
	struct hist_row *h = NULL;
	struct hbin_row *b = NULL;
	if (!READ_TABLE(h, "timing/histograms", &hist_table, &nh) ||
	    !READ_TABLE(b, "timing/histogram_bins", &hbin_table, &nb))
		goto out;
	for (size_t i = 0; i < nb; i++)
		if (!check_bin_row(src, &b[i], i))
			goto out;
	out = xcalloc(nh + 1, sizeof *out);
	for (size_t i = 0; i < nh; i++) {
		if (!check_hist_row(src, &h[i], i, nb))
			goto fail;
		struct run_gap *x = &out[i];
		*x = (struct run_gap){RUN_NO_PREV, RUN_NO_PREV, h[i].count, h[i].sum, h[i].sum_squares, h[i].min,
				      h[i].max, {h[i].cpu_sum, h[i].cpu_min, h[i].cpu_max}, h[i].bin_count, NULL};
		x->bins = xcalloc(x->nbins + 1, sizeof *x->bins);
		uint64_t total = 0;
		for (uint32_t k = 0; k < x->nbins; k++) {
			const struct hbin_row *y = &b[h[i].bin_offset + k];
			x->bins[k] = (struct run_bin){y->bin, y->count, y->sum, y->min, y->max,
						      {y->cpu_sum, y->cpu_min, y->cpu_max}};
			total += y->count;
		}
		*n = (uint32_t)(i + 1);
		if (x->nbins && total != x->count) {
			h5_fail(src->e, src->path, "/timing/histograms: row %zu counts %llu gaps, its bins %llu", i,
				(unsigned long long)x->count, (unsigned long long)total);
			goto fail;
		}
	}
	*n = (uint32_t)nh;
	goto out;
fail:
	for (uint32_t i = 0; i < *n; i++)
		free(out[i].bins);
	free(out);
	out = NULL;
out:
	h5_free_table(&hist_table, h, nh);
	h5_free_table(&hbin_table, b, nb);
	return out;
}

static void add_gap(struct run_group *g, const struct run_gap *x)
{
	g->gaps = xrealloc(g->gaps, (g->ngaps + 1) * sizeof *g->gaps);
	g->gaps[g->ngaps++] = *x;
}

static void add_duration(struct run_group *g, const struct run_dur *d)
{
	g->durs = xrealloc(g->durs, (g->ndurs + 1) * sizeof *g->durs);
	g->durs[g->ndurs++] = *d;
}

/* every group's gaps and durations from the histograms they use, each row checked */
static bool read_uses(const struct source *src, struct run *r, const struct run_gap *hist, uint32_t nhist)
{
	bool ok = false;
	size_t n = 0;
	struct use_row *u = NULL;
	if (!READ_TABLE(u, "timing/group_histograms", &use_table, &n))
		goto out;
	for (size_t i = 0; i < n; i++) {
		if (u[i].group >= r->ngroups || u[i].kind > USE_DURATION || u[i].histogram >= nhist || !u[i].count)
			BAD("/timing/group_histograms: row %zu names group %u of %u, kind %u, histogram %u of %u, count %llu "
			    "(expected an existing group, kind 0 or 1, an existing histogram, a count of at least 1)", i,
			    u[i].group, r->ngroups, u[i].kind, u[i].histogram, nhist, (unsigned long long)u[i].count);
		if (u[i].kind == USE_GAP) {
			struct run_gap x;
			pool_expand(&hist[u[i].histogram], u[i].count, &x);
			x.prev = u[i].previous;
			x.sig = u[i].signature;
			add_gap(&r->groups[u[i].group], &x);
		} else {
			struct run_dur x;
			pool_expand_dur(&hist[u[i].histogram], u[i].count, &x);
			x.sig = u[i].signature;
			add_duration(&r->groups[u[i].group], &x);
		}
	}
	ok = true;
out:
	h5_free_table(&use_table, u, n);
	return ok;
}

static bool read_cpu_time(const struct source *src, struct run *r)
{
	hid_t timing = H5Gopen2(src->f, "timing", H5P_DEFAULT);
	char *v = timing < 0 ? NULL : h5_get_attr_str(timing, "cpu_time");
	if (timing >= 0)
		H5Gclose(timing);
	for (uint8_t k = 0; v && k <= RUN_CPU_EVERY; k++)
		if (!strcmp(v, run_cpu_time_names[k])) {
			r->cpu_time = k;
			free(v);
			return true;
		}
	h5_fail(src->e, src->path, "/timing: attribute cpu_time is '%s', expected '%s', '%s' or '%s'",
		v ? v : "missing", run_cpu_time_names[0], run_cpu_time_names[1], run_cpu_time_names[2]);
	free(v);
	return false;
}

static bool read_pooled(const struct source *src, struct run *r)
{
	uint32_t n = 0;
	if (!read_cpu_time(src, r))
		return false;
	struct run_gap *hist = read_histograms(src, &n);
	if (!hist)
		return false;
	bool ok = read_uses(src, r, hist, n);
	for (uint32_t i = 0; i < n; i++)
		free(hist[i].bins);
	free(hist);
	return ok;
}

/* ---- reading 1.x: per-group tables of wall times --------------------------------------------------- */

struct dur_row_v1 { uint32_t group; uint32_t signature; uint64_t count; double sum, sum_squares, min, max; };
static const struct h5_field dur_fields_v1[] = {
	FIELD(struct dur_row_v1, group, F_U32), FIELD(struct dur_row_v1, signature, F_U32),
	FIELD(struct dur_row_v1, count, F_U64), FIELD(struct dur_row_v1, sum, F_F64),
	FIELD(struct dur_row_v1, sum_squares, F_F64), FIELD(struct dur_row_v1, min, F_F64),
	FIELD(struct dur_row_v1, max, F_F64)};
static const struct h5_table dur_table_v1 = {"durations", sizeof(struct dur_row_v1), dur_fields_v1, 7};

struct gap_row_v1 { uint32_t group; uint32_t previous; uint32_t signature; uint64_t count; double sum, sum_squares, min, max; uint64_t bin_offset; uint32_t bin_count; };
static const struct h5_field gap_fields_v1[] = {
	FIELD(struct gap_row_v1, group, F_U32), FIELD(struct gap_row_v1, previous, F_U32),
	FIELD(struct gap_row_v1, signature, F_U32), FIELD(struct gap_row_v1, count, F_U64),
	FIELD(struct gap_row_v1, sum, F_F64), FIELD(struct gap_row_v1, sum_squares, F_F64),
	FIELD(struct gap_row_v1, min, F_F64), FIELD(struct gap_row_v1, max, F_F64),
	FIELD(struct gap_row_v1, bin_offset, F_U64), FIELD(struct gap_row_v1, bin_count, F_U32)};
static const struct h5_table gap_table_v1 = {"gaps", sizeof(struct gap_row_v1), gap_fields_v1, 10};

struct bin_row_v1 { int32_t bin; uint64_t count; double sum, min, max; };
static const struct h5_field bin_fields_v1[] = {
	FIELD(struct bin_row_v1, bin, F_I32), FIELD(struct bin_row_v1, count, F_U64),
	FIELD(struct bin_row_v1, sum, F_F64), FIELD(struct bin_row_v1, min, F_F64), FIELD(struct bin_row_v1, max, F_F64)};
static const struct h5_table bin_table_v1 = {"gap_bins", sizeof(struct bin_row_v1), bin_fields_v1, 5};

/* a 1.x gap: its CPU times unknown, copies of its wall times (the run's cpu_time says none) */
static void add_gap_v1(struct run_group *g, const struct gap_row_v1 *row, const struct bin_row_v1 *bins)
{
	struct run_gap x = {row->previous, row->signature, row->count, row->sum, row->sum_squares, row->min,
			    row->max, {0, 0, 0}, row->bin_count, NULL};
	x.bins = xcalloc(x.nbins + 1, sizeof *x.bins);
	for (uint32_t k = 0; k < x.nbins; k++) {
		const struct bin_row_v1 *b = &bins[row->bin_offset + k];
		x.bins[k] = (struct run_bin){b->bin, b->count, b->sum, b->min, b->max, {0, 0, 0}};
	}
	if (!x.nbins && x.count) {   /* one bin: the row itself */
		x.bins[0] = (struct run_bin){hist_quarter_octave(x.min), x.count, x.sum, x.min, x.max, {0, 0, 0}};
		x.nbins = 1;
	}
	run_gap_cpu_as_wall(&x);
	add_gap(g, &x);
}

static bool read_tables_v1(const struct source *src, struct run *r)
{
	bool ok = false;
	size_t ndurs = 0, ngaps = 0, nbins = 0;
	struct dur_row_v1 *durs = NULL;
	struct gap_row_v1 *gaps = NULL;
	struct bin_row_v1 *bins = NULL;
	r->cpu_time = RUN_CPU_NONE;
	if (!READ_TABLE(durs, "timing/durations", &dur_table_v1, &ndurs) ||
	    !READ_TABLE(gaps, "timing/gaps", &gap_table_v1, &ngaps) ||
	    !READ_TABLE(bins, "timing/gap_bins", &bin_table_v1, &nbins))
		goto out;
	for (size_t i = 0; i < ndurs; i++)
		if (durs[i].group >= r->ngroups)
			BAD("/timing/durations: row %zu belongs to group %u of %u", i, durs[i].group, r->ngroups);
	for (size_t i = 0; i < ngaps; i++)
		if (gaps[i].group >= r->ngroups || !range_within(gaps[i].bin_offset, gaps[i].bin_count, nbins))
			BAD("/timing/gaps: row %zu has a bad group or bin range", i);
	for (size_t i = 0; i < ndurs; i++) {
		const struct dur_row_v1 *d = &durs[i];
		add_duration(&r->groups[d->group],
			     &(struct run_dur){d->signature, d->count, d->sum, d->sum_squares, d->min, d->max});
	}
	for (size_t i = 0; i < ngaps; i++)
		add_gap_v1(&r->groups[gaps[i].group], &gaps[i], bins);
	ok = true;
out:
	h5_free_table(&dur_table_v1, durs, ndurs);
	h5_free_table(&gap_table_v1, gaps, ngaps);
	h5_free_table(&bin_table_v1, bins, nbins);
	return ok;
}

bool store_read_timing(const struct source *src, struct run *r)
{
	bool ok = src->major == 1 ? read_tables_v1(src, r) : read_pooled(src, r);
	/* lookups (replay, extrapolation) expect each group's gaps and durations in order */
	for (uint32_t g = 0; g < r->ngroups && ok; g++) {   /* a group may have none (NULL arrays) */
		if (r->groups[g].ngaps > 1)
			qsort(r->groups[g].gaps, r->groups[g].ngaps, sizeof *r->groups[g].gaps, run_gap_order);
		if (r->groups[g].ndurs > 1)
			qsort(r->groups[g].durs, r->groups[g].ndurs, sizeof *r->groups[g].durs, run_dur_order);
	}
	return ok;
}
