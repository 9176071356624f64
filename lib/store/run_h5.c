/*
 * run_h5 — a run container on disk (hdf5-schema/run.yaml): struct run <-> HDF5.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/histogram.h"
#include "run/ranklist.h"
#include "store/store.h"
#include "util/xalloc.h"

/* ---- row types and their tables -------------------------------------------------------------- */

struct fn_row { uint32_t id; char *name; uint32_t flags; char *parameters; };
static const struct h5_field fn_fields[] = {
	FIELD(struct fn_row, id, F_U32), FIELD(struct fn_row, name, F_STR),
	FIELD(struct fn_row, flags, F_U32), FIELD(struct fn_row, parameters, F_STR)};
static const struct h5_table fn_table = {"functions", sizeof(struct fn_row), fn_fields, 4};

struct site_row { uint64_t id; uint64_t frame_offset; uint32_t frame_count; };
static const struct h5_field site_fields[] = {
	FIELD(struct site_row, id, F_U64), FIELD(struct site_row, frame_offset, F_U64),
	FIELD(struct site_row, frame_count, F_U32)};
static const struct h5_table site_table = {"callsites", sizeof(struct site_row), site_fields, 3};

struct frame_row { char *module; uint64_t offset; char *symbol; };
static const struct h5_field frame_fields[] = {
	FIELD(struct frame_row, module, F_STR), FIELD(struct frame_row, offset, F_U64),
	FIELD(struct frame_row, symbol, F_STR)};
static const struct h5_table frame_table = {"callsite_frames", sizeof(struct frame_row), frame_fields, 3};

struct sig_row { uint32_t function; uint64_t callsite; uint32_t flags; uint64_t value_offset; uint32_t value_count; };
static const struct h5_field sig_fields[] = {
	FIELD(struct sig_row, function, F_U32), FIELD(struct sig_row, callsite, F_U64),
	FIELD(struct sig_row, flags, F_U32), FIELD(struct sig_row, value_offset, F_U64),
	FIELD(struct sig_row, value_count, F_U32)};
static const struct h5_table sig_table = {"signatures", sizeof(struct sig_row), sig_fields, 5};

struct rule_row { uint64_t first_symbol; uint64_t symbol_count; };
static const struct h5_field rule_fields[] = {
	FIELD(struct rule_row, first_symbol, F_U64), FIELD(struct rule_row, symbol_count, F_U64)};
static const struct h5_table rule_table = {"rules", sizeof(struct rule_row), rule_fields, 2};

struct sym_row { int64_t symbol; uint64_t repeat; };
static const struct h5_field sym_fields[] = {
	FIELD(struct sym_row, symbol, F_I64), FIELD(struct sym_row, repeat, F_U64)};
static const struct h5_table sym_table = {"rule_symbols", sizeof(struct sym_row), sym_fields, 2};

struct group_row { uint32_t first_rule; uint32_t rule_count; uint32_t rank_count; uint64_t ranklist_offset; uint32_t ranklist_count; };
static const struct h5_field group_fields[] = {
	FIELD(struct group_row, first_rule, F_U32), FIELD(struct group_row, rule_count, F_U32),
	FIELD(struct group_row, rank_count, F_U32), FIELD(struct group_row, ranklist_offset, F_U64),
	FIELD(struct group_row, ranklist_count, F_U32)};
static const struct h5_table group_table = {"groups", sizeof(struct group_row), group_fields, 5};

struct stream_row { uint32_t rank; uint32_t signature; uint64_t value_offset; uint64_t value_count; };
static const struct h5_field stream_fields[] = {
	FIELD(struct stream_row, rank, F_U32), FIELD(struct stream_row, signature, F_U32),
	FIELD(struct stream_row, value_offset, F_U64), FIELD(struct stream_row, value_count, F_U64)};
static const struct h5_table stream_table = {"streams", sizeof(struct stream_row), stream_fields, 4};

struct dur_row { uint32_t group; uint32_t signature; uint64_t count; double sum, sum_squares, min, max; };
static const struct h5_field dur_fields[] = {
	FIELD(struct dur_row, group, F_U32), FIELD(struct dur_row, signature, F_U32),
	FIELD(struct dur_row, count, F_U64), FIELD(struct dur_row, sum, F_F64),
	FIELD(struct dur_row, sum_squares, F_F64), FIELD(struct dur_row, min, F_F64),
	FIELD(struct dur_row, max, F_F64)};
static const struct h5_table dur_table = {"durations", sizeof(struct dur_row), dur_fields, 7};

struct gap_row { uint32_t group; uint32_t previous; uint32_t signature; uint64_t count; double sum, sum_squares, min, max; uint64_t bin_offset; uint32_t bin_count; };
static const struct h5_field gap_fields[] = {
	FIELD(struct gap_row, group, F_U32), FIELD(struct gap_row, previous, F_U32),
	FIELD(struct gap_row, signature, F_U32), FIELD(struct gap_row, count, F_U64),
	FIELD(struct gap_row, sum, F_F64), FIELD(struct gap_row, sum_squares, F_F64),
	FIELD(struct gap_row, min, F_F64), FIELD(struct gap_row, max, F_F64),
	FIELD(struct gap_row, bin_offset, F_U64), FIELD(struct gap_row, bin_count, F_U32)};
static const struct h5_table gap_table = {"gaps", sizeof(struct gap_row), gap_fields, 10};

static const struct h5_field bin_fields[] = {
	FIELD(struct run_bin, bin, F_I32), FIELD(struct run_bin, count, F_U64),
	FIELD(struct run_bin, sum, F_F64), FIELD(struct run_bin, min, F_F64), FIELD(struct run_bin, max, F_F64)};
static const struct h5_table bin_table = {"gap_bins", sizeof(struct run_bin), bin_fields, 5};

struct ts_row { uint32_t rank; double start; double duration; };
static const struct h5_field ts_fields[] = {
	FIELD(struct ts_row, rank, F_U32), FIELD(struct ts_row, start, F_F64), FIELD(struct ts_row, duration, F_F64)};
static const struct h5_table ts_table = {"timestamps", sizeof(struct ts_row), ts_fields, 3};

struct path_row { int32_t parent; uint8_t kind; char *name; char *path; };
static const struct h5_field path_fields[] = {
	FIELD(struct path_row, parent, F_I32), FIELD(struct path_row, kind, F_U8),
	FIELD(struct path_row, name, F_STR), FIELD(struct path_row, path, F_STR)};
static const struct h5_table path_table = {"callpaths", sizeof(struct path_row), path_fields, 4};

struct metric_row { char *name; char *unit; };
static const struct h5_field metric_fields[] = {
	FIELD(struct metric_row, name, F_STR), FIELD(struct metric_row, unit, F_STR)};
static const struct h5_table metric_table = {"metrics", sizeof(struct metric_row), metric_fields, 2};

/* ---- identity --------------------------------------------------------------------------------- */

static bool parse_version(const char *v, int *major, int *minor)
{
	return v && sscanf(v, "%d.%d", major, minor) == 2;
}

bool store_identify(const char *path, struct store_identity *id, struct h5_err *e)
{
	memset(id, 0, sizeof *id);
	hid_t f = h5_open(path, false, e);
	if (f < 0)
		return false;
	char *schema = h5_get_attr_str(f, "schema");
	char *version = h5_get_attr_str(f, "schema_version");
	H5Fclose(f);
	bool ok = false;
	if (!schema) {
		h5_fail(e, path, "is an HDF5 file but not a ladder container (no 'schema' attribute)");
	} else if (!parse_version(version, &id->major, &id->minor)) {
		h5_fail(e, path, "has schema '%s' but no valid schema_version (found '%s', expected MAJOR.MINOR)",
			schema, version ? version : "nothing");
	} else if (!strcmp(schema, RUN_SCHEMA) || !strcmp(schema, CAMPAIGN_SCHEMA) || !strcmp(schema, HISTORY_SCHEMA_NAME)) {
		snprintf(id->schema, sizeof id->schema, "%s", schema);
		snprintf(id->kind, sizeof id->kind, "%s", !strcmp(schema, RUN_SCHEMA) ? "run"
							  : !strcmp(schema, CAMPAIGN_SCHEMA) ? "campaign" : "history");
		ok = true;
	} else {
		h5_fail(e, path, "is an HDF5 file with schema '%s', not a ladder container (expected '%s' or '%s')",
			schema, RUN_SCHEMA, CAMPAIGN_SCHEMA);
	}
	free(schema);
	free(version);
	return ok;
}

bool store_expect(const char *path, const struct store_identity *id, const char *kind, struct h5_err *e)
{
	if (strcmp(id->kind, kind)) {
		h5_fail(e, path, "is a %s container, expected a %s container", id->kind, kind);
		return false;
	}
	int major = !strcmp(kind, "run") ? RUN_SCHEMA_MAJOR : CAMPAIGN_SCHEMA_MAJOR;
	int minor = !strcmp(kind, "run") ? RUN_SCHEMA_MINOR : CAMPAIGN_SCHEMA_MINOR;
	if (id->major != major) {
		h5_fail(e, path, "has %s schema version %d.%d; this ladder reads version %d.x (%s)", kind,
			id->major, id->minor, major, id->major > major ? "upgrade ladder" : "convert the file");
		return false;
	}
	(void)minor;   /* newer minor versions only add optional objects: readable */
	return true;
}

/* ---- writing ---------------------------------------------------------------------------------- */

/* Timing statistics are stored with TIME_BITS significant bits (relative precision 2.4e-4, far
 * below the noise of any clock): the low mantissa bytes become zero and compress away, so the
 * container's size does not wander with the randomness of the measurements. Lossless timestamps
 * are stored exactly. */
#define TIME_BITS 10

static double q(double x)
{
	if (x == 0 || !isfinite(x))
		return x;
	int e;
	double m = frexp(x, &e);
	return ldexp(nearbyint(ldexp(m, TIME_BITS)), e - TIME_BITS);
}

static char *param_list(const struct fn_desc *d)
{
	struct buf b;
	buf_init(&b);
	for (uint32_t p = 0; p < d->nparams; p++) {
		if (p)
			buf_put_u8(&b, ',');
		buf_put(&b, d->params[p].name, strlen(d->params[p].name));
		buf_put_u8(&b, ':');
		const char *k = param_kind_name(d->params[p].kind);
		buf_put(&b, k, strlen(k));
	}
	buf_put_u8(&b, 0);
	char *s = xstrdup((char *)b.data);
	buf_free(&b);
	return s;
}

static char *callpath_of(const struct run *r, uint32_t i)
{
	if (r->nodes[i].parent < 0)
		return xstrdup(r->nodes[i].name);
	char *parent = callpath_of(r, (uint32_t)r->nodes[i].parent);
	char *s = xasprintf("%s/%s", parent, r->nodes[i].name);
	free(parent);
	return s;
}

#define CHECK(x, what)                                                \
	do {                                                          \
		if (!(x)) {                                           \
			h5_fail(e, path, "cannot write %s", what);    \
			goto out;                                     \
		}                                                     \
	} while (0)

static bool write_header(hid_t f, const struct run *r)
{
	char version[16];
	snprintf(version, sizeof version, "%d.%d", RUN_SCHEMA_MAJOR, RUN_SCHEMA_MINOR);
	bool ok = h5_attr_str(f, "schema", RUN_SCHEMA) && h5_attr_str(f, "schema_version", version) &&
		  h5_attr_str(f, "tool_version", r->tool_version) && h5_attr_str(f, "created", r->created) &&
		  h5_attr_u32(f, "ranks", r->nranks) && h5_attr_str(f, "command", r->command) &&
		  h5_attr_str(f, "host", r->host) && h5_attr_str(f, "slurm_job_id", r->slurm_job_id) &&
		  h5_attr_u32(f, "synthetic", r->synthetic) && h5_attr_f64(f, "t_start", r->t_start) &&
		  h5_attr_f64(f, "t_end", r->t_end) && h5_attr_str(f, "tracer_options", r->options);
	hid_t labels = h5_group(f, "labels");
	for (uint32_t i = 0; i < r->nattrs && ok; i++)
		ok = h5_attr_str(labels, r->attrs[i].key, r->attrs[i].value);
	H5Gclose(labels);
	return ok;
}

bool store_write_run(const char *path, const struct run *r, struct h5_err *e)
{
	bool ok = false;
	hid_t f = h5_create(path, e), trace = -1, timing = -1, prof = -1;
	if (f < 0)
		return false;
	void *rows = NULL;
	CHECK(write_header(f, r), "the root attributes");
	trace = h5_group(f, "trace");
	timing = h5_group(f, "timing");
	prof = h5_group(f, "profile");

	struct fn_row *fr = xcalloc(r->nfns + 1, sizeof *fr);
	rows = fr;
	for (uint32_t i = 0; i < r->nfns; i++)
		fr[i] = (struct fn_row){i, (char *)r->fns[i].name, r->fns[i].flags, param_list(&r->fns[i])};
	bool w = h5_write_table(trace, "functions", &fn_table, fr, r->nfns);
	for (uint32_t i = 0; i < r->nfns; i++)
		free(fr[i].parameters);
	free(fr);
	rows = NULL;
	CHECK(w, "/trace/functions");
	CHECK(h5_write_strings(trace, "strings", r->strings, r->nstrings), "/trace/strings");

	uint64_t nframes = 0;
	for (uint32_t i = 0; i < r->ncallsites; i++)
		nframes += r->callsites[i].nframes;
	struct site_row *sr = xcalloc(r->ncallsites + 1, sizeof *sr);
	struct frame_row *frr = xcalloc(nframes + 1, sizeof *frr);
	uint64_t k = 0;
	for (uint32_t i = 0; i < r->ncallsites; i++) {
		sr[i] = (struct site_row){r->callsites[i].id, k, r->callsites[i].nframes};
		for (uint32_t j = 0; j < r->callsites[i].nframes; j++, k++)
			frr[k] = (struct frame_row){r->callsites[i].frames[j].module, r->callsites[i].frames[j].offset,
						    r->callsites[i].frames[j].symbol};
	}
	w = h5_write_table(trace, "callsites", &site_table, sr, r->ncallsites) &&
	    h5_write_table(trace, "callsite_frames", &frame_table, frr, nframes);
	free(sr);
	free(frr);
	CHECK(w, "/trace/callsites");

	struct sig_row *sg = xcalloc(r->nsigs + 1, sizeof *sg);
	for (uint32_t i = 0; i < r->nsigs; i++)
		sg[i] = (struct sig_row){r->sigs[i].fn, r->sigs[i].callsite, r->sigs[i].flags, r->sigs[i].voff,
					 r->sigs[i].nvals};
	w = h5_write_table(trace, "signatures", &sig_table, sg, r->nsigs) &&
	    h5_write_i64(trace, "signature_values", r->sigvals, r->nsigvals);
	free(sg);
	CHECK(w, "/trace/signatures");

	/* grammars: every group's rules, numbered globally */
	uint64_t nrules = 0, nsyms = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		nrules += r->groups[i].g.nrules;
		nsyms += r->groups[i].g.nsyms;
	}
	struct rule_row *rr = xcalloc(nrules + 1, sizeof *rr);
	struct sym_row *sy = xcalloc(nsyms + 1, sizeof *sy);
	struct group_row *gr = xcalloc(r->ngroups + 1, sizeof *gr);
	struct ranklist all;
	ranklist_init(&all);
	uint64_t rbase = 0, sbase = 0;
	int64_t *rl = NULL;
	size_t rllen = 0, rlcap = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		const struct grammar *g = &r->groups[i].g;
		for (uint32_t q = 0; q < g->nrules; q++) {
			rr[rbase + q] = (struct rule_row){sbase + g->rule_start[q], grammar_rule_len(g, q)};
		}
		for (uint64_t s = 0; s < g->nsyms; s++) {
			struct gsymbol x = g->syms[s];
			sy[sbase + s].symbol = gsym_is_rule(x) ? gsym_rule_val((uint32_t)(gsym_rule(x) + rbase)) : x.val;
			sy[sbase + s].repeat = x.exp;
		}
		ranklist_from_ranks(&all, r->groups[i].ranks, r->groups[i].nranks);
		XGROW(rl, rlcap, rllen + all.len + 1);
		memcpy(rl + rllen, all.v, all.len * sizeof *rl);
		gr[i] = (struct group_row){(uint32_t)rbase, g->nrules, r->groups[i].nranks, rllen, (uint32_t)all.len};
		rllen += all.len;
		rbase += g->nrules;
		sbase += g->nsyms;
	}
	ranklist_free(&all);
	w = h5_write_table(trace, "rules", &rule_table, rr, nrules) &&
	    h5_write_table(trace, "rule_symbols", &sym_table, sy, nsyms) &&
	    h5_write_table(trace, "groups", &group_table, gr, r->ngroups) &&
	    h5_write_i64(trace, "ranklists", rl, rllen);
	free(rr);
	free(sy);
	free(gr);
	free(rl);
	CHECK(w, "/trace/groups");

	uint64_t nsv = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		nsv += r->streams[i].nvals;
	struct stream_row *st = xcalloc(r->nstreams + 1, sizeof *st);
	int64_t *sv = xmalloc((nsv + 1) * sizeof *sv);
	k = 0;
	for (uint32_t i = 0; i < r->nstreams; i++) {
		st[i] = (struct stream_row){r->streams[i].rank, r->streams[i].sig, k, r->streams[i].nvals};
		memcpy(sv + k, r->streams[i].vals, r->streams[i].nvals * sizeof *sv);
		k += r->streams[i].nvals;
	}
	w = h5_write_table(trace, "streams", &stream_table, st, r->nstreams) &&
	    h5_write_i64(trace, "stream_values", sv, nsv);
	free(st);
	free(sv);
	CHECK(w, "/trace/streams");

	/* timing */
	uint64_t nd = 0, ng = 0, nb = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		nd += r->groups[i].ndurs;
		ng += r->groups[i].ngaps;
		for (uint32_t j = 0; j < r->groups[i].ngaps; j++)
			nb += r->groups[i].gaps[j].nbins;
	}
	struct dur_row *dr = xcalloc(nd + 1, sizeof *dr);
	struct gap_row *gp = xcalloc(ng + 1, sizeof *gp);
	struct run_bin *bins = xcalloc(nb + 1, sizeof *bins);
	uint64_t di = 0, gi = 0, bi = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		const struct run_group *g = &r->groups[i];
		for (uint32_t j = 0; j < g->ndurs; j++, di++)
			dr[di] = (struct dur_row){i, g->durs[j].sig, g->durs[j].count, q(g->durs[j].sum),
						  q(g->durs[j].sumsq), q(g->durs[j].min), q(g->durs[j].max)};
		for (uint32_t j = 0; j < g->ngaps; j++, gi++) {
			const struct run_gap *x = &g->gaps[j];
			/* bins describe repeated gaps; a gap seen at most once per rank, or falling in
			 * one bin, is described by its row (min, mean, max over the group) alone */
			uint32_t stored = x->nbins > 1 && x->count > g->nranks ? x->nbins : 0;
			gp[gi] = (struct gap_row){i, x->prev, x->sig, x->count, q(x->sum), q(x->sumsq), q(x->min),
						  q(x->max), bi, stored};
			for (uint32_t b = 0; b < stored; b++, bi++)
				bins[bi] = (struct run_bin){x->bins[b].bin, x->bins[b].count, q(x->bins[b].sum),
							    q(x->bins[b].min), q(x->bins[b].max)};
		}
	}
	w = h5_write_table(timing, "durations", &dur_table, dr, nd) &&
	    h5_write_table(timing, "gaps", &gap_table, gp, ng) &&
	    h5_write_table(timing, "gap_bins", &bin_table, bins, bi);
	free(dr);
	free(gp);
	free(bins);
	CHECK(w, "/timing");
	if (r->nts) {
		uint64_t nts = 0;
		for (uint32_t i = 0; i < r->nts; i++)
			nts += r->ts[i].n;
		struct ts_row *tr = xcalloc(nts + 1, sizeof *tr);
		k = 0;
		for (uint32_t i = 0; i < r->nts; i++)
			for (uint64_t j = 0; j < r->ts[i].n; j++, k++)
				tr[k] = (struct ts_row){r->ts[i].rank, r->ts[i].start[j], r->ts[i].dur[j]};
		w = h5_write_table(timing, "timestamps", &ts_table, tr, nts);
		free(tr);
		CHECK(w, "/timing/timestamps");
	}

	/* profile */
	struct path_row *pr = xcalloc(r->nnodes + 1, sizeof *pr);
	for (uint32_t i = 0; i < r->nnodes; i++)
		pr[i] = (struct path_row){r->nodes[i].parent, r->nodes[i].kind, r->nodes[i].name, callpath_of(r, i)};
	struct metric_row mr[RUN_PC_COUNT], sr2[RUN_TS_COUNT];
	for (int i = 0; i < RUN_PC_COUNT; i++)
		mr[i] = (struct metric_row){(char *)run_count_names[i], (char *)run_count_units[i]};
	for (int i = 0; i < RUN_TS_COUNT; i++)
		sr2[i] = (struct metric_row){(char *)run_stat_names[i], (char *)run_stat_units[i]};
	uint64_t nst = (uint64_t)r->nnodes * RUN_TS_COUNT, nt = (uint64_t)r->nranks * r->nnodes;
	double *stats = xmalloc((nst + 1) * sizeof *stats);
	double *times = r->time ? xmalloc((nt + 1) * sizeof *times) : NULL;
	for (uint64_t i = 0; i < nst; i++)
		stats[i] = q(r->time_stats[i]);
	for (uint64_t i = 0; times && i < nt; i++)
		times[i] = q(r->time[i]);
	hsize_t cdims[3] = {r->nranks, r->nnodes, RUN_PC_COUNT};
	hsize_t sdims[2] = {r->nnodes, RUN_TS_COUNT};
	hsize_t tdims[2] = {r->nranks, r->nnodes};
	w = h5_write_table(prof, "callpaths", &path_table, pr, r->nnodes) &&
	    h5_write_table(prof, "metrics", &metric_table, mr, RUN_PC_COUNT) &&
	    h5_write_u64(prof, "counts", r->counts, 3, cdims) &&
	    h5_write_table(prof, "statistics", &metric_table, sr2, RUN_TS_COUNT) &&
	    h5_write_f64(prof, "time_stats", stats, 2, sdims) &&
	    (!times || h5_write_f64(prof, "time", times, 2, tdims));
	free(stats);
	free(times);
	for (uint32_t i = 0; i < r->nnodes; i++)
		free(pr[i].path);
	free(pr);
	CHECK(w, "/profile");
	ok = true;
out:
	free(rows);
	if (prof >= 0)
		H5Gclose(prof);
	if (timing >= 0)
		H5Gclose(timing);
	if (trace >= 0)
		H5Gclose(trace);
	if (H5Fclose(f) < 0 && ok) {
		h5_fail(e, path, "cannot finish writing the file (disk full?)");
		ok = false;
	}
	return ok;
}

/* ---- reading ---------------------------------------------------------------------------------- */

#define READ(dst, expr)               \
	do {                          \
		dst = (expr);         \
		if (!(dst))           \
			goto out;     \
	} while (0)

#define BAD(...)                                     \
	do {                                         \
		h5_fail(e, path, __VA_ARGS__);       \
		goto out;                            \
	} while (0)

static bool parse_params(struct fn_desc *d, const char *list)
{
	d->nparams = 0;
	if (!*list) {
		d->params = xcalloc(1, sizeof *d->params);
		return true;
	}
	uint32_t n = 1;
	for (const char *c = list; *c; c++)
		n += *c == ',';
	struct param_desc *p = xcalloc(n, sizeof *p);
	d->params = p;
	char *copy = xstrdup(list), *save;
	bool ok = true;
	for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':');
		int kind = colon ? param_kind_from_name(colon + 1) : -1;
		if (kind < 0 || d->nparams >= n) {
			ok = false;
			break;
		}
		*colon = 0;
		p[d->nparams].name = xstrdup(item);
		p[d->nparams].kind = (enum param_kind)kind;
		d->nparams++;
	}
	free(copy);
	return ok;
}

struct rank_acc {
	uint32_t *r;
	uint32_t n;
};

static bool collect_rank(uint64_t rank, void *arg)
{
	struct rank_acc *acc = arg;
	acc->r[acc->n++] = (uint32_t)rank;
	return true;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

bool store_read_run(const char *path, struct run *r, struct h5_err *e)
{
	run_init(r);
	struct store_identity id;
	if (!store_identify(path, &id, e) || !store_expect(path, &id, "run", e))
		return false;
	hid_t f = h5_open(path, false, e);
	if (f < 0)
		return false;
	bool ok = false;
	size_t n;
	struct fn_row *fr = NULL;
	struct site_row *sr = NULL;
	struct frame_row *frr = NULL;
	struct sig_row *sg = NULL;
	struct rule_row *rr = NULL;
	struct sym_row *sy = NULL;
	struct group_row *gr = NULL;
	struct stream_row *st = NULL;
	struct dur_row *dr = NULL;
	struct gap_row *gp = NULL;
	struct run_bin *bins = NULL;
	struct ts_row *tr = NULL;
	struct path_row *pr = NULL;
	int64_t *rl = NULL, *sv = NULL;
	size_t nfr = 0, nsr = 0, nfrr = 0, nsg = 0, nrr = 0, nsy = 0, ngr = 0, nst = 0, nrl = 0, nsv = 0,
	       ndr = 0, ngp = 0, nbins = 0, ntr = 0, npr = 0;

	if (!h5_get_attr_u32(f, "ranks", &r->nranks))
		BAD("missing root attribute 'ranks' (rank count)");
	uint32_t synth = 0;
	h5_get_attr_u32(f, "synthetic", &synth);
	r->synthetic = synth != 0;
	r->command = h5_get_attr_str(f, "command");
	r->host = h5_get_attr_str(f, "host");
	r->slurm_job_id = h5_get_attr_str(f, "slurm_job_id");
	r->tool_version = h5_get_attr_str(f, "tool_version");
	r->created = h5_get_attr_str(f, "created");
	r->options = h5_get_attr_str(f, "tracer_options");
	if (!r->command || !r->host || !r->tool_version || !r->created)
		BAD("missing root attributes (command, host, tool_version, created)");
	if (!r->slurm_job_id)
		r->slurm_job_id = xstrdup("");
	if (!r->options)
		r->options = xstrdup("");
	h5_get_attr_f64(f, "t_start", &r->t_start);
	h5_get_attr_f64(f, "t_end", &r->t_end);
	if (h5_exists(f, "labels")) {
		hid_t lg = H5Gopen2(f, "labels", H5P_DEFAULT);
		H5O_info_t info;
		H5Oget_info(lg, &info);
		for (hsize_t i = 0; i < info.num_attrs; i++) {
			char name[256];
			if (H5Aget_name_by_idx(lg, ".", H5_INDEX_NAME, H5_ITER_INC, i, name, sizeof name, H5P_DEFAULT) < 0)
				continue;
			char *v = h5_get_attr_str(lg, name);
			if (v)
				run_set_attr(r, name, v);
			free(v);
		}
		H5Gclose(lg);
	}

	READ(fr, h5_read_table(f, "trace/functions", &fn_table, &nfr, path, e));
	r->nfns = (uint32_t)nfr;
	r->fns = xcalloc(nfr + 1, sizeof *r->fns);
	for (size_t i = 0; i < nfr; i++) {
		r->fns[i].name = xstrdup(fr[i].name);
		r->fns[i].flags = fr[i].flags;
		if (!parse_params(&r->fns[i], fr[i].parameters))
			BAD("/trace/functions: function %s has unreadable parameters '%s'", fr[i].name, fr[i].parameters);
	}
	READ(r->strings, h5_read_strings(f, "trace/strings", &n, path, e));
	r->nstrings = (uint32_t)n;

	READ(sr, h5_read_table(f, "trace/callsites", &site_table, &nsr, path, e));
	READ(frr, h5_read_table(f, "trace/callsite_frames", &frame_table, &nfrr, path, e));
	r->ncallsites = (uint32_t)nsr;
	r->callsites = xcalloc(nsr + 1, sizeof *r->callsites);
	for (size_t i = 0; i < nsr; i++) {
		if (sr[i].frame_offset > nfrr || sr[i].frame_count > nfrr - sr[i].frame_offset)
			BAD("/trace/callsites: row %zu points past /trace/callsite_frames", i);
		struct run_callsite *c = &r->callsites[i];
		c->id = sr[i].id;
		c->nframes = sr[i].frame_count;
		c->frames = xcalloc(c->nframes + 1, sizeof *c->frames);
		for (uint32_t j = 0; j < c->nframes; j++) {
			struct frame_row *x = &frr[sr[i].frame_offset + j];
			c->frames[j] = (struct run_frame){xstrdup(x->module), x->offset, xstrdup(x->symbol)};
		}
	}

	READ(sg, h5_read_table(f, "trace/signatures", &sig_table, &nsg, path, e));
	READ(r->sigvals, h5_read_i64(f, "trace/signature_values", &n, path, e));
	r->nsigvals = n;
	r->nsigs = (uint32_t)nsg;
	r->sigs = xcalloc(nsg + 1, sizeof *r->sigs);
	for (size_t i = 0; i < nsg; i++) {
		if (sg[i].value_offset > n || sg[i].value_count > n - sg[i].value_offset)
			BAD("/trace/signatures: row %zu points past /trace/signature_values", i);
		r->sigs[i] = (struct run_signature){sg[i].function, sg[i].callsite, sg[i].flags, sg[i].value_count,
						    sg[i].value_offset};
	}

	READ(rr, h5_read_table(f, "trace/rules", &rule_table, &nrr, path, e));
	READ(sy, h5_read_table(f, "trace/rule_symbols", &sym_table, &nsy, path, e));
	READ(gr, h5_read_table(f, "trace/groups", &group_table, &ngr, path, e));
	READ(rl, h5_read_i64(f, "trace/ranklists", &nrl, path, e));
	r->ngroups = (uint32_t)ngr;
	r->groups = xcalloc(ngr + 1, sizeof *r->groups);
	for (size_t i = 0; i < ngr; i++) {
		struct run_group *g = &r->groups[i];
		if (gr[i].first_rule > nrr || gr[i].rule_count > nrr - gr[i].first_rule || gr[i].rule_count == 0)
			BAD("/trace/groups: group %zu has rules %u..+%u, but there are %zu rules", i,
			    gr[i].first_rule, gr[i].rule_count, nrr);
		grammar_init(&g->g);
		for (uint32_t q = 0; q < gr[i].rule_count; q++) {
			struct rule_row *x = &rr[gr[i].first_rule + q];
			if (x->first_symbol > nsy || x->symbol_count > nsy - x->first_symbol)
				BAD("/trace/rules: rule %u points past /trace/rule_symbols", gr[i].first_rule + q);
			grammar_begin_rule(&g->g);
			for (uint64_t s = 0; s < x->symbol_count; s++) {
				struct sym_row y = sy[x->first_symbol + s];
				int64_t v = y.symbol;
				if (v < 0) {
					int64_t rule = -v - 1 - (int64_t)gr[i].first_rule;
					if (rule < 0 || rule >= gr[i].rule_count)
						BAD("/trace/rule_symbols: rule %u of group %zu refers to rule %lld outside its group",
						    gr[i].first_rule + q, i, (long long)(-v - 1));
					v = gsym_rule_val((uint32_t)rule);
				}
				grammar_add_symbol(&g->g, v, y.repeat);
			}
		}
		grammar_end(&g->g);
		char why[200];
		if (gr[i].ranklist_offset > nrl || gr[i].ranklist_count > nrl - gr[i].ranklist_offset ||
		    !ranklist_check(rl + gr[i].ranklist_offset, gr[i].ranklist_count, r->nranks, why, sizeof why))
			BAD("/trace/ranklists: the ranklist of group %zu is malformed", i);
		const int64_t *v = rl + gr[i].ranklist_offset;
		uint64_t count = ranklist_count(v, gr[i].ranklist_count);
		if (count != gr[i].rank_count)
			BAD("/trace/groups: group %zu says %u ranks, its ranklist holds %llu", i, gr[i].rank_count,
			    (unsigned long long)count);
		g->nranks = gr[i].rank_count;
		g->ranks = xcalloc(g->nranks + 1, sizeof *g->ranks);
		struct rank_acc acc = {g->ranks, 0};
		ranklist_each(v, gr[i].ranklist_count, collect_rank, &acc);
		qsort(g->ranks, g->nranks, sizeof *g->ranks, cmp_u32);
	}

	READ(st, h5_read_table(f, "trace/streams", &stream_table, &nst, path, e));
	READ(sv, h5_read_i64(f, "trace/stream_values", &nsv, path, e));
	r->nstreams = (uint32_t)nst;
	r->streams = xcalloc(nst + 1, sizeof *r->streams);
	for (size_t i = 0; i < nst; i++) {
		if (st[i].value_offset > nsv || st[i].value_count > nsv - st[i].value_offset)
			BAD("/trace/streams: row %zu points past /trace/stream_values", i);
		struct run_stream *s = &r->streams[i];
		s->rank = st[i].rank;
		s->sig = st[i].signature;
		s->nvals = st[i].value_count;
		s->vals = xmalloc((s->nvals + 1) * sizeof *s->vals);
		memcpy(s->vals, sv + st[i].value_offset, s->nvals * sizeof *s->vals);
	}

	READ(dr, h5_read_table(f, "timing/durations", &dur_table, &ndr, path, e));
	READ(gp, h5_read_table(f, "timing/gaps", &gap_table, &ngp, path, e));
	READ(bins, h5_read_table(f, "timing/gap_bins", &bin_table, &nbins, path, e));
	for (size_t i = 0; i < ndr; i++)
		if (dr[i].group >= ngr)
			BAD("/timing/durations: row %zu belongs to group %u of %zu", i, dr[i].group, ngr);
	for (size_t i = 0; i < ngp; i++)
		if (gp[i].group >= ngr || gp[i].bin_offset > nbins || gp[i].bin_count > nbins - gp[i].bin_offset)
			BAD("/timing/gaps: row %zu has a bad group or bin range", i);
	for (size_t i = 0; i < ndr; i++) {
		struct run_group *g = &r->groups[dr[i].group];
		g->durs = xrealloc(g->durs, (g->ndurs + 1) * sizeof *g->durs);
		g->durs[g->ndurs++] = (struct run_dur){dr[i].signature, dr[i].count, dr[i].sum, dr[i].sum_squares,
						       dr[i].min, dr[i].max};
	}
	for (size_t i = 0; i < ngp; i++) {
		struct run_group *g = &r->groups[gp[i].group];
		g->gaps = xrealloc(g->gaps, (g->ngaps + 1) * sizeof *g->gaps);
		struct run_gap *x = &g->gaps[g->ngaps++];
		*x = (struct run_gap){gp[i].previous, gp[i].signature, gp[i].count, gp[i].sum, gp[i].sum_squares,
				      gp[i].min, gp[i].max, gp[i].bin_count, NULL};
		x->bins = xmalloc((x->nbins + 1) * sizeof *x->bins);
		memcpy(x->bins, bins + gp[i].bin_offset, x->nbins * sizeof *x->bins);
		if (!x->nbins && x->count) {   /* one bin: the row itself */
			x->bins[0] = (struct run_bin){hist_quarter_octave(x->min), x->count, x->sum, x->min, x->max};
			x->nbins = 1;
		}
	}
	if (h5_exists(f, "timing/timestamps")) {
		READ(tr, h5_read_table(f, "timing/timestamps", &ts_table, &ntr, path, e));
		for (size_t i = 0; i < ntr;) {
			size_t j = i;
			while (j < ntr && tr[j].rank == tr[i].rank)
				j++;
			r->ts = xrealloc(r->ts, (r->nts + 1) * sizeof *r->ts);
			struct run_timestamps *t = &r->ts[r->nts++];
			t->rank = tr[i].rank;
			t->n = j - i;
			t->start = xmalloc((t->n + 1) * sizeof *t->start);
			t->dur = xmalloc((t->n + 1) * sizeof *t->dur);
			for (size_t k = i; k < j; k++) {
				t->start[k - i] = tr[k].start;
				t->dur[k - i] = tr[k].duration;
			}
			i = j;
		}
	}

	READ(pr, h5_read_table(f, "profile/callpaths", &path_table, &npr, path, e));
	r->nnodes = (uint32_t)npr;
	r->nodes = xcalloc(npr + 1, sizeof *r->nodes);
	for (size_t i = 0; i < npr; i++)
		r->nodes[i] = (struct run_pnode){pr[i].parent, pr[i].kind, xstrdup(pr[i].name)};
	hsize_t dims[3];
	READ(r->counts, h5_read_u64(f, "profile/counts", 3, dims, path, e));
	if (dims[0] != r->nranks || dims[1] != npr || dims[2] != RUN_PC_COUNT)
		BAD("/profile/counts is %llux%llux%llu, expected ranks x callpaths x metrics = %ux%zux%d",
		    (unsigned long long)dims[0], (unsigned long long)dims[1], (unsigned long long)dims[2],
		    r->nranks, npr, RUN_PC_COUNT);
	READ(r->time_stats, h5_read_f64(f, "profile/time_stats", 2, dims, path, e));
	if (dims[0] != npr || dims[1] != RUN_TS_COUNT)
		BAD("/profile/time_stats is %llux%llu, expected callpaths x statistics = %zux%d",
		    (unsigned long long)dims[0], (unsigned long long)dims[1], npr, RUN_TS_COUNT);
	if (h5_exists(f, "profile/time")) {
		READ(r->time, h5_read_f64(f, "profile/time", 2, dims, path, e));
		if (dims[0] != r->nranks || dims[1] != npr)
			BAD("/profile/time is %llux%llu, expected ranks x callpaths = %ux%zu",
			    (unsigned long long)dims[0], (unsigned long long)dims[1], r->nranks, npr);
	}

	char why[300];
	if (!run_check(r, why, sizeof why))
		BAD("inconsistent contents: %s", why);
	ok = true;
out:
	h5_free_table(&fn_table, fr, nfr);
	h5_free_table(&site_table, sr, nsr);
	h5_free_table(&frame_table, frr, nfrr);
	h5_free_table(&sig_table, sg, nsg);
	h5_free_table(&rule_table, rr, nrr);
	h5_free_table(&sym_table, sy, nsy);
	h5_free_table(&group_table, gr, ngr);
	h5_free_table(&stream_table, st, nst);
	h5_free_table(&dur_table, dr, ndr);
	h5_free_table(&gap_table, gp, ngp);
	h5_free_table(&bin_table, bins, nbins);
	h5_free_table(&ts_table, tr, ntr);
	h5_free_table(&path_table, pr, npr);
	free(rl);
	free(sv);
	H5Fclose(f);
	if (!ok)
		run_free(r);
	return ok;
}

