/*
 * runv1 — test helper: a run container in the layout of run schema 1.0, the layout ladder wrote
 * before value streams were stored compactly (hdf5-schema/run-1.yaml):
 *
 *   runv1 IN.h5 OUT.h5
 *
 * OUT is IN with every rank's values of every stream written out literally, one row per (rank,
 * signature) of /trace/streams {rank, signature, value_offset, value_count} into
 * /trace/stream_values, every function's parameters in /trace/functions, the timing as per-group
 * tables of wall times (/timing/durations, /timing/gaps, /timing/gap_bins: no CPU times, no
 * dictionary of histograms), and schema_version 1.0. The rest of the file is left as it is (its
 * layout did not change). Tests read such files to check that containers written before still
 * decode, inspect, validate and replay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "util/file.h"
#include "util/xalloc.h"

struct v1_stream { uint32_t rank, signature; uint64_t value_offset, value_count; };
static const struct h5_field v1_stream_fields[] = {
	FIELD(struct v1_stream, rank, F_U32), FIELD(struct v1_stream, signature, F_U32),
	FIELD(struct v1_stream, value_offset, F_U64), FIELD(struct v1_stream, value_count, F_U64)};
static const struct h5_table v1_stream_table = {"streams", sizeof(struct v1_stream), v1_stream_fields, 4};

struct v1_function { uint32_t id; char *name; uint32_t flags; char *parameters; };
static const struct h5_field v1_function_fields[] = {
	FIELD(struct v1_function, id, F_U32), FIELD(struct v1_function, name, F_STR),
	FIELD(struct v1_function, flags, F_U32), FIELD(struct v1_function, parameters, F_STR)};
static const struct h5_table v1_function_table = {"functions", sizeof(struct v1_function), v1_function_fields, 4};

/* every rank's values, rank by rank, signature by signature */
static bool write_streams(hid_t trace, const struct run *r)
{
	struct v1_stream *rows = NULL;
	int64_t *values = NULL;
	size_t nrows = 0, caprows = 0, nvalues = 0, capvalues = 0;
	const struct run_stream **of_rank = xcalloc(r->nstreams + 1, sizeof *of_rank);
	for (uint32_t q = 0; q < r->nranks; q++)
		for (uint32_t k = 0, n = run_rank_streams(r, q, of_rank); k < n; k++) {
			const struct run_stream *s = of_rank[k];
			XGROW(rows, caprows, nrows + 1);
			rows[nrows++] = (struct v1_stream){q, s->sig, nvalues, s->length};
			XGROW(values, capvalues, nvalues + s->length + 1);
			for (uint64_t i = 0; i < s->length; i++)
				values[nvalues++] = run_stream_value(s, q, i);
		}
	free(of_rank);
	bool ok = h5_write_table(trace, "streams", &v1_stream_table, rows, nrows) &&
		  h5_write_i64(trace, "stream_values", values, nvalues);
	free(rows);
	free(values);
	return ok;
}

static bool write_functions(hid_t trace, const struct run *r)
{
	struct v1_function *rows = xcalloc(r->nfns + 1, sizeof *rows);
	for (uint32_t i = 0; i < r->nfns; i++) {
		char *list = xstrdup("");
		for (uint32_t p = 0; p < r->fns[i].nparams; p++) {
			char *longer = xasprintf("%s%s%s:%s", list, p ? "," : "", r->fns[i].params[p].name,
						 param_kind_name(r->fns[i].params[p].kind));
			free(list);
			list = longer;
		}
		rows[i] = (struct v1_function){i, (char *)r->fns[i].name, r->fns[i].flags, list};
	}
	bool ok = h5_write_table(trace, "functions", &v1_function_table, rows, r->nfns);
	for (uint32_t i = 0; i < r->nfns; i++)
		free(rows[i].parameters);
	free(rows);
	return ok;
}

struct v1_dur { uint32_t group, signature; uint64_t count; double sum, sum_squares, min, max; };
static const struct h5_field v1_dur_fields[] = {
	FIELD(struct v1_dur, group, F_U32), FIELD(struct v1_dur, signature, F_U32), FIELD(struct v1_dur, count, F_U64),
	FIELD(struct v1_dur, sum, F_F64), FIELD(struct v1_dur, sum_squares, F_F64), FIELD(struct v1_dur, min, F_F64),
	FIELD(struct v1_dur, max, F_F64)};
static const struct h5_table v1_dur_table = {"durations", sizeof(struct v1_dur), v1_dur_fields, 7};

struct v1_gap {
	uint32_t group, previous, signature;
	uint64_t count;
	double sum, sum_squares, min, max;
	uint64_t bin_offset;
	uint32_t bin_count;
};
static const struct h5_field v1_gap_fields[] = {
	FIELD(struct v1_gap, group, F_U32), FIELD(struct v1_gap, previous, F_U32),
	FIELD(struct v1_gap, signature, F_U32), FIELD(struct v1_gap, count, F_U64), FIELD(struct v1_gap, sum, F_F64),
	FIELD(struct v1_gap, sum_squares, F_F64), FIELD(struct v1_gap, min, F_F64), FIELD(struct v1_gap, max, F_F64),
	FIELD(struct v1_gap, bin_offset, F_U64), FIELD(struct v1_gap, bin_count, F_U32)};
static const struct h5_table v1_gap_table = {"gaps", sizeof(struct v1_gap), v1_gap_fields, 10};

struct v1_bin { int32_t bin; uint64_t count; double sum, min, max; };
static const struct h5_field v1_bin_fields[] = {
	FIELD(struct v1_bin, bin, F_I32), FIELD(struct v1_bin, count, F_U64), FIELD(struct v1_bin, sum, F_F64),
	FIELD(struct v1_bin, min, F_F64), FIELD(struct v1_bin, max, F_F64)};
static const struct h5_table v1_bin_table = {"gap_bins", sizeof(struct v1_bin), v1_bin_fields, 5};

/* every group's durations and gaps (wall times), a gap's bins when it has more than one */
static bool write_timing(hid_t timing, const struct run *r)
{
	struct v1_dur *durs = NULL;
	struct v1_gap *gaps = NULL;
	struct v1_bin *bins = NULL;
	size_t nd = 0, capd = 0, ng = 0, capg = 0, nb = 0, capb = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		const struct run_group *g = &r->groups[i];
		for (uint32_t k = 0; k < g->ndurs; k++) {
			const struct run_dur *d = &g->durs[k];
			XGROW(durs, capd, nd + 1);
			durs[nd++] = (struct v1_dur){i, d->sig, d->count, d->sum, d->sumsq, d->min, d->max};
		}
		for (uint32_t k = 0; k < g->ngaps; k++) {
			const struct run_gap *x = &g->gaps[k];
			uint32_t stored = x->nbins > 1 ? x->nbins : 0;
			XGROW(gaps, capg, ng + 1);
			gaps[ng++] = (struct v1_gap){i, x->prev, x->sig, x->count, x->sum, x->sumsq, x->min, x->max, nb, stored};
			XGROW(bins, capb, nb + stored + 1);
			for (uint32_t b = 0; b < stored; b++, nb++)
				bins[nb] = (struct v1_bin){x->bins[b].bin, x->bins[b].count, x->bins[b].sum, x->bins[b].min,
							   x->bins[b].max};
		}
	}
	static const char *const gone[] = {"histograms", "histogram_bins", "group_histograms"};
	bool ok = true;
	for (size_t i = 0; i < sizeof gone / sizeof *gone && ok; i++)
		ok = H5Lexists(timing, gone[i], H5P_DEFAULT) <= 0 || H5Ldelete(timing, gone[i], H5P_DEFAULT) >= 0;
	ok = ok && (H5Aexists(timing, "cpu_time") <= 0 || H5Adelete(timing, "cpu_time") >= 0) &&
	     h5_write_table(timing, "durations", &v1_dur_table, durs, nd) &&
	     h5_write_table(timing, "gaps", &v1_gap_table, gaps, ng) &&
	     h5_write_table(timing, "gap_bins", &v1_bin_table, bins, nb);
	free(durs);
	free(gaps);
	free(bins);
	return ok;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: runv1 IN.h5 OUT.h5\n");
		return 2;
	}
	struct run r;
	struct h5_err e;
	char why[300];
	if (!store_read_run(argv[1], &r, &e)) {
		fprintf(stderr, "runv1: %s\n", e.msg);
		return 1;
	}
	if (!duplicate_file(argv[1], argv[2], why, sizeof why)) {
		fprintf(stderr, "runv1: %s\n", why);
		run_free(&r);
		return 1;
	}
	hid_t f = h5_open(argv[2], true, &e);
	hid_t trace = f < 0 ? -1 : H5Gopen2(f, "trace", H5P_DEFAULT);
	static const char *const gone[] = {"streams", "stream_values", "stream_ranklists", "stream_law_cells",
					   "stream_laws", "functions"};
	for (size_t i = 0; i < sizeof gone / sizeof *gone && trace >= 0; i++)
		if (H5Lexists(trace, gone[i], H5P_DEFAULT) > 0)
			H5Ldelete(trace, gone[i], H5P_DEFAULT);
	hid_t timing = f < 0 ? -1 : H5Gopen2(f, "timing", H5P_DEFAULT);
	bool ok = trace >= 0 && timing >= 0 && write_streams(trace, &r) && write_functions(trace, &r) &&
		  write_timing(timing, &r) && h5_attr_str(f, "schema_version", "1.0");
	if (trace >= 0)
		H5Gclose(trace);
	if (timing >= 0)
		H5Gclose(timing);
	ok = f >= 0 && h5_finish(f) && ok;
	run_free(&r);
	if (!ok)
		fprintf(stderr, "runv1: cannot write %s\n", argv[2]);
	return ok ? 0 : 1;
}
