/*
 * run_h5 — a run container on disk (hdf5-schema/run.yaml): struct run <-> HDF5. The header and
 * the profile arrays are written and read from their descriptions in run/layout.h; the nested
 * sections, which the container flattens into tables joined by (offset, count), have one writer
 * and one reader each, called in the order of the tables at the end of each part; /timing
 * (durations and gaps) has a file of its own, run_timing.c. Containers of schema 1.x
 * (hdf5-schema/run-1.yaml) are read too: one literal value stream per rank and signature here,
 * per-group timing tables without CPU times in run_timing.c.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/fn_check.h"
#include "run/layout.h"
#include "run/ranklist.h"
#include "store/run_source.h"
#include "store/run_timing.h"
#include "store/store.h"
#include "util/file.h"
#include "util/hash.h"
#include "util/range.h"
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

struct stream_row {
	uint32_t signature; uint64_t ranklist_offset; uint32_t ranklist_count; uint64_t length;
	uint64_t value_offset; uint64_t head; uint64_t period; uint64_t law_offset; uint32_t law_count;
};
static const struct h5_field stream_fields[] = {
	FIELD(struct stream_row, signature, F_U32), FIELD(struct stream_row, ranklist_offset, F_U64),
	FIELD(struct stream_row, ranklist_count, F_U32), FIELD(struct stream_row, length, F_U64),
	FIELD(struct stream_row, value_offset, F_U64), FIELD(struct stream_row, head, F_U64),
	FIELD(struct stream_row, period, F_U64), FIELD(struct stream_row, law_offset, F_U64),
	FIELD(struct stream_row, law_count, F_U32)};
static const struct h5_table stream_table = {"streams", sizeof(struct stream_row), stream_fields, 9};

/* schema 1.x: one literal stream per rank and signature */
struct stream_v1_row { uint32_t rank; uint32_t signature; uint64_t value_offset; uint64_t value_count; };
static const struct h5_field stream_v1_fields[] = {
	FIELD(struct stream_v1_row, rank, F_U32), FIELD(struct stream_v1_row, signature, F_U32),
	FIELD(struct stream_v1_row, value_offset, F_U64), FIELD(struct stream_v1_row, value_count, F_U64)};
static const struct h5_table stream_v1_table = {"streams", sizeof(struct stream_v1_row), stream_v1_fields, 4};

struct ts_row { uint32_t rank; double start; double duration; };
static const struct h5_field ts_fields[] = {
	FIELD(struct ts_row, rank, F_U32), FIELD(struct ts_row, start, F_F64), FIELD(struct ts_row, duration, F_F64)};
static const struct h5_table ts_table = {"timestamps", sizeof(struct ts_row), ts_fields, 3};

struct interval_row { uint32_t group; uint8_t kind; uint32_t previous; uint32_t signature; uint64_t count; double predicted, lo, hi; uint8_t interval; };
static const struct h5_field interval_fields[] = {
	FIELD(struct interval_row, group, F_U32), FIELD(struct interval_row, kind, F_U8),
	FIELD(struct interval_row, previous, F_U32), FIELD(struct interval_row, signature, F_U32),
	FIELD(struct interval_row, count, F_U64), FIELD(struct interval_row, predicted, F_F64),
	FIELD(struct interval_row, lo, F_F64), FIELD(struct interval_row, hi, F_F64),
	FIELD(struct interval_row, interval, F_U8)};
static const struct h5_table interval_table = {"intervals", sizeof(struct interval_row), interval_fields, 9};

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

/* one to four decimal digits */
static bool parse_version_number(const char **p, int *out)
{
	int n = 0, digits = 0;
	for (; **p >= '0' && **p <= '9' && digits < 5; ++*p, digits++)
		n = n * 10 + (**p - '0');
	*out = n;
	return digits >= 1 && digits <= 4;
}

/* "MAJOR.MINOR" and nothing else */
static bool parse_version(const char *v, int *major, int *minor)
{
	return v && parse_version_number(&v, major) && *v++ == '.' && parse_version_number(&v, minor) && !*v;
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
	bool run = !strcmp(kind, "run");
	int major = run ? RUN_SCHEMA_MAJOR : CAMPAIGN_SCHEMA_MAJOR;
	int oldest = run ? RUN_SCHEMA_OLDEST_MAJOR : CAMPAIGN_SCHEMA_MAJOR;
	if (id->major < oldest || id->major > major) {
		char reads[40];
		if (oldest == major)
			snprintf(reads, sizeof reads, "version %d.x", major);
		else
			snprintf(reads, sizeof reads, "versions %d.x to %d.x", oldest, major);
		h5_fail(e, path, "has %s schema version %d.%d; this ladder reads %s (%s)", kind, id->major, id->minor,
			reads, id->major > major ? "upgrade ladder" : "convert the file");
		return false;
	}
	/* newer minor versions only add optional objects: readable */
	return true;
}

/* ---- writing ---------------------------------------------------------------------------------- */

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

static bool write_header_field(hid_t f, const struct run *r, const struct run_header_field *h)
{
	const char *p = (const char *)r + h->offset;
	switch (h->type) {
	case RUN_VALUE_STR: return h5_attr_str(f, h->attribute, *(char *const *)p);
	case RUN_VALUE_U32: return h5_attr_u32(f, h->attribute, *(const uint32_t *)p);
	case RUN_VALUE_BOOL: return h5_attr_u32(f, h->attribute, *(const bool *)p);
	case RUN_VALUE_F64: return h5_attr_f64(f, h->attribute, *(const double *)p);
	case RUN_VALUE_U64: break;
	}
	assert(!"a header field of an unsupported type");
	return false;
}

static bool write_header(hid_t f, const struct run *r)
{
	char version[16];
	snprintf(version, sizeof version, "%d.%d", RUN_SCHEMA_MAJOR, RUN_SCHEMA_MINOR);
	bool ok = h5_attr_str(f, "schema", RUN_SCHEMA) && h5_attr_str(f, "schema_version", version);
	for (int i = 0; i < RUN_HEADER_FIELDS && ok; i++)
		ok = write_header_field(f, r, &run_header_fields[run_header_attribute_order[i]]);
	hid_t labels = h5_group(f, "labels");
	for (uint32_t i = 0; i < r->nlabels && ok; i++)
		ok = h5_attr_str(labels, r->labels[i].key, r->labels[i].value);
	H5Gclose(labels);
	return ok;
}

/* per function: does a signature call it? */
static bool *functions_used(const struct run *r)
{
	bool *used = xcalloc(r->nfns + 1, sizeof *used);
	for (uint32_t i = 0; i < r->nsigs; i++)
		if (r->sigs[i].fn < r->nfns)
			used[r->sigs[i].fn] = true;
	return used;
}

/* every function of the tracer's table, by id; the parameters only of the functions the trace
 * calls (the rest are most of the table and would be most of a small container) */
static bool write_functions(hid_t trace, const struct run *r)
{
	struct fn_row *rows = xcalloc(r->nfns + 1, sizeof *rows);
	bool *used = functions_used(r);
	for (uint32_t i = 0; i < r->nfns; i++)
		rows[i] = (struct fn_row){i, (char *)r->fns[i].name, r->fns[i].flags,
					  used[i] ? param_list(&r->fns[i]) : xstrdup("")};
	free(used);
	bool ok = h5_write_table(trace, "functions", &fn_table, rows, r->nfns);
	for (uint32_t i = 0; i < r->nfns; i++)
		free(rows[i].parameters);
	free(rows);
	return ok;
}

static bool write_strings(hid_t trace, const struct run *r)
{
	return h5_write_strings(trace, "strings", r->strings, r->nstrings);
}

static bool write_callsites(hid_t trace, const struct run *r)
{
	uint64_t nframes = 0;
	for (uint32_t i = 0; i < r->ncallsites; i++)
		nframes += r->callsites[i].nframes;
	struct site_row *sites = xcalloc(r->ncallsites + 1, sizeof *sites);
	struct frame_row *frames = xcalloc(nframes + 1, sizeof *frames);
	uint64_t k = 0;
	for (uint32_t i = 0; i < r->ncallsites; i++) {
		const struct run_callsite *c = &r->callsites[i];
		sites[i] = (struct site_row){c->id, k, c->nframes};
		for (uint32_t j = 0; j < c->nframes; j++, k++)
			frames[k] = (struct frame_row){c->frames[j].module, c->frames[j].offset, c->frames[j].symbol};
	}
	assert(k == nframes);
	bool ok = h5_write_table(trace, "callsites", &site_table, sites, r->ncallsites) &&
		  h5_write_table(trace, "callsite_frames", &frame_table, frames, nframes);
	free(sites);
	free(frames);
	return ok;
}

static bool write_signatures(hid_t trace, const struct run *r)
{
	struct sig_row *rows = xcalloc(r->nsigs + 1, sizeof *rows);
	for (uint32_t i = 0; i < r->nsigs; i++)
		rows[i] = (struct sig_row){r->sigs[i].fn, r->sigs[i].callsite, r->sigs[i].flags, r->sigs[i].voff,
					   r->sigs[i].nvals};
	bool ok = h5_write_table(trace, "signatures", &sig_table, rows, r->nsigs) &&
		  h5_write_i64(trace, "signature_values", r->sigvals, r->nsigvals);
	free(rows);
	return ok;
}

/* every group's grammar, its rules numbered globally (a rule reference is -(global rule) - 1),
 * and its ranks as a ranklist */
static bool write_groups(hid_t trace, const struct run *r)
{
	uint64_t nrules = 0, nsyms = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		nrules += r->groups[i].g.nrules;
		nsyms += r->groups[i].g.nsyms;
	}
	struct rule_row *rules = xcalloc(nrules + 1, sizeof *rules);
	struct sym_row *syms = xcalloc(nsyms + 1, sizeof *syms);
	struct group_row *groups = xcalloc(r->ngroups + 1, sizeof *groups);
	uint64_t rule_base = 0, sym_base = 0;
	int64_t *ranklists = NULL;
	size_t nranklists = 0, capacity = 0;
	for (uint32_t i = 0; i < r->ngroups; i++) {
		const struct grammar *g = &r->groups[i].g;
		for (uint32_t k = 0; k < g->nrules; k++)
			rules[rule_base + k] = (struct rule_row){sym_base + g->rule_start[k], grammar_rule_len(g, k)};
		for (uint64_t s = 0; s < g->nsyms; s++) {
			struct gsymbol x = g->syms[s];
			syms[sym_base + s].symbol =
				gsym_is_rule(x) ? gsym_rule_val((uint32_t)(gsym_rule(x) + rule_base)) : x.val;
			syms[sym_base + s].repeat = x.exp;
		}
		const struct ranklist *all = &r->groups[i].ranks;
		XGROW(ranklists, capacity, nranklists + all->len + 1);
		memcpy(ranklists + nranklists, all->v, all->len * sizeof *ranklists);
		groups[i] = (struct group_row){(uint32_t)rule_base, g->nrules, r->groups[i].nranks, nranklists,
					       (uint32_t)all->len};
		nranklists += all->len;
		rule_base += g->nrules;
		sym_base += g->nsyms;
	}
	assert(rule_base == nrules && sym_base == nsyms);
	bool ok = h5_write_table(trace, "rules", &rule_table, rules, nrules) &&
		  h5_write_table(trace, "rule_symbols", &sym_table, syms, nsyms) &&
		  h5_write_table(trace, "groups", &group_table, groups, r->ngroups) &&
		  h5_write_i64(trace, "ranklists", ranklists, nranklists);
	free(rules);
	free(syms);
	free(groups);
	free(ranklists);
	return ok;
}

/* the flat tables of the streams: ranklists, cells, law cells, laws (growable int64 arrays) */
struct flat {
	int64_t *v;
	size_t n, cap;
};

static void flat_put(struct flat *f, int64_t x)
{
	XGROW(f->v, f->cap, f->n + 1);
	f->v[f->n++] = x;
}

/* the distinct laws, each stored once as [base, nterms, (coef, divisor, shift, modulus) x nterms]
 * (the cells of many streams follow the same law: a neighbour's peer in every iteration); in
 * memory each term has a fifth number, its step's threshold or -1 (written only for laws with a
 * step term: write_laws) */
struct law_table {
	struct flat records;
	struct flat offsets;       /* of each law's record */
	uint64_t *slot;            /* open addressing: law index + 1, 0 when free */
	size_t cap;
};

#define LAW_TERM_NUMBERS 5   /* in memory: coef, divisor, shift, modulus, threshold or -1 */

static void law_record(const struct rank_law *l, int64_t *rec, size_t *n)
{
	*n = 0;
	rec[(*n)++] = l->base;
	rec[(*n)++] = l->nterms;
	for (uint32_t t = 0; t < l->nterms; t++) {
		const struct rank_law_term *x = &l->terms[t];
		rec[(*n)++] = x->coef;
		rec[(*n)++] = (int64_t)x->divisor;
		rec[(*n)++] = (int64_t)x->shift;
		rec[(*n)++] = (int64_t)x->modulus;
		rec[(*n)++] = x->step ? (int64_t)x->below : -1;
	}
}

static void law_table_grow(struct law_table *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64;
	uint64_t *slot = xcalloc(cap, sizeof *slot);
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->slot[i])
			continue;
		const int64_t *rec = t->records.v + t->offsets.v[t->slot[i] - 1];
		size_t at = hash_bytes(rec, (size_t)(2 + LAW_TERM_NUMBERS * rec[1]) * sizeof *rec, 0) & (cap - 1);
		while (slot[at])
			at = (at + 1) & (cap - 1);
		slot[at] = t->slot[i];
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
}

/* the index of l (in the order laws were first met), added when new */
static int64_t law_index(struct law_table *t, const struct rank_law *l)
{
	int64_t rec[2 + LAW_TERM_NUMBERS * RANK_LAW_MAX_TERMS];
	size_t n;
	law_record(l, rec, &n);
	if (2 * (t->offsets.n + 1) > t->cap)
		law_table_grow(t);
	size_t at = hash_bytes(rec, n * sizeof *rec, 0) & (t->cap - 1);
	for (; t->slot[at]; at = (at + 1) & (t->cap - 1)) {
		const int64_t *old = t->records.v + t->offsets.v[t->slot[at] - 1];
		if (old[1] == rec[1] && !memcmp(old, rec, n * sizeof *rec))
			return (int64_t)t->slot[at] - 1;
	}
	flat_put(&t->offsets, (int64_t)t->records.n);
	t->slot[at] = t->offsets.n;
	for (size_t k = 0; k < n; k++)
		flat_put(&t->records, rec[k]);
	return (int64_t)t->offsets.n - 1;
}

struct stream_flats {
	struct flat ranklists, cells, law_cells;
	struct law_table laws;
};

static void stream_row(const struct run_stream *s, struct stream_row *row, struct stream_flats *f)
{
	const struct ranklist *rl = &s->ranks;
	*row = (struct stream_row){s->sig, f->ranklists.n, (uint32_t)rl->len, s->length, f->cells.n, s->nhead,
				   s->nperiod, f->law_cells.n, s->nlaws};
	for (size_t k = 0; k < rl->len; k++)
		flat_put(&f->ranklists, rl->v[k]);
	size_t first = f->cells.n;
	for (uint64_t k = 0; k < run_stream_cells(s); k++)
		flat_put(&f->cells, s->cells[k]);
	for (uint32_t k = 0; k < s->nlaws; k++) {   /* a law's cell holds the law's index */
		flat_put(&f->law_cells, (int64_t)s->laws[k].cell);
		f->cells.v[first + s->laws[k].cell] = law_index(&f->laws, &s->laws[k].law);
	}
}

/* /trace/stream_laws from the table's records: four numbers a term; a law with a step term has
 * five a term (the fifth the threshold, -1 on other terms) and its term count written plus
 * LAW_STEPS, which readers of schema 2.1 refuse as a malformed law */
#define LAW_STEPS 256

static bool write_laws(hid_t trace, const struct law_table *t)
{
	struct flat laws = {0};
	for (size_t i = 0; i < t->offsets.n; i++) {
		const int64_t *rec = t->records.v + t->offsets.v[i];
		bool steps = false;
		for (int64_t k = 0; k < rec[1]; k++)
			steps = steps || rec[2 + LAW_TERM_NUMBERS * k + 4] >= 0;
		flat_put(&laws, rec[0]);
		flat_put(&laws, rec[1] + (steps ? LAW_STEPS : 0));
		for (int64_t k = 0; k < rec[1]; k++)
			for (int j = 0; j < (steps ? 5 : 4); j++)
				flat_put(&laws, rec[2 + LAW_TERM_NUMBERS * k + j]);
	}
	bool ok = h5_write_i64(trace, "stream_laws", laws.v, laws.n);
	free(laws.v);
	return ok;
}

/* streams, their ranklists and cells; their laws only when some stream has one */
static bool write_streams(hid_t trace, const struct run *r)
{
	struct stream_row *rows = xcalloc(r->nstreams + 1, sizeof *rows);
	struct stream_flats f = {0};
	for (uint32_t i = 0; i < r->nstreams; i++)
		stream_row(&r->streams[i], &rows[i], &f);
	bool ok = h5_write_table(trace, "streams", &stream_table, rows, r->nstreams) &&
		  h5_write_i64(trace, "stream_ranklists", f.ranklists.v, f.ranklists.n) &&
		  h5_write_i64(trace, "stream_values", f.cells.v, f.cells.n) &&
		  (!f.law_cells.n || (h5_write_i64(trace, "stream_law_cells", f.law_cells.v, f.law_cells.n) &&
				      write_laws(trace, &f.laws)));
	free(rows);
	free(f.ranklists.v);
	free(f.cells.v);
	free(f.law_cells.v);
	free(f.laws.records.v);
	free(f.laws.offsets.v);
	free(f.laws.slot);
	return ok;
}

static bool write_timestamps(hid_t timing, const struct run *r)
{
	if (!r->ntimestamps)
		return true;
	uint64_t n = 0;
	for (uint32_t i = 0; i < r->ntimestamps; i++)
		n += r->timestamps[i].n;
	struct ts_row *rows = xcalloc(n + 1, sizeof *rows);
	uint64_t k = 0;
	for (uint32_t i = 0; i < r->ntimestamps; i++) {
		const struct run_timestamps *t = &r->timestamps[i];
		for (uint64_t j = 0; j < t->n; j++, k++)
			rows[k] = (struct ts_row){t->rank, t->start[j], t->dur[j]};
	}
	bool ok = h5_write_table(timing, "timestamps", &ts_table, rows, n);
	free(rows);
	return ok;
}

static const char *base_name(const char *dataset)
{
	const char *slash = strrchr(dataset, '/');
	return slash ? slash + 1 : dataset;
}

/* the names and units of an array's last extent, as a table of its own */
static bool write_legend(hid_t profile, const struct run_array *a)
{
	enum run_extent x = a->dims[a->ndims - 1];
	const char *const *names = run_extent_names(x), *const *units = run_extent_units(x);
	assert(names && units);
	struct metric_row rows[16];
	uint64_t n = run_extent_size(NULL, x);
	assert(n <= sizeof rows / sizeof *rows);
	for (uint64_t i = 0; i < n; i++)
		rows[i] = (struct metric_row){(char *)names[i], (char *)units[i]};
	return h5_write_table(profile, base_name(a->legend), &metric_table, rows, n);
}

static bool write_profile_array(hid_t profile, const struct run *r, const struct run_array *a)
{
	static const uint64_t no_values[1];
	const void *data = run_array_data(r, a);
	if (!data && (a->optional || run_array_length(r, a)))
		return a->optional;
	if (!data)
		data = no_values;   /* an empty array (a run without a profile): written with its zero extent */
	if (a->legend && !write_legend(profile, a))
		return false;
	hsize_t dims[3];
	for (uint8_t d = 0; d < a->ndims; d++)
		dims[d] = run_extent_size(r, a->dims[d]);
	if (a->type == RUN_VALUE_U64)
		return h5_write_u64(profile, base_name(a->dataset), data, a->ndims, dims);
	uint64_t n = run_array_length(r, a);
	double *v = xmalloc((n + 1) * sizeof *v);
	for (uint64_t i = 0; i < n; i++)
		v[i] = a->timing ? store_round_time(((const double *)data)[i]) : ((const double *)data)[i];
	bool ok = h5_write_f64(profile, base_name(a->dataset), v, a->ndims, dims);
	free(v);
	return ok;
}

static bool write_profile(hid_t profile, const struct run *r)
{
	struct path_row *rows = xcalloc(r->nnodes + 1, sizeof *rows);
	for (uint32_t i = 0; i < r->nnodes; i++)
		rows[i] = (struct path_row){r->nodes[i].parent, r->nodes[i].kind, r->nodes[i].name, callpath_of(r, i)};
	bool ok = h5_write_table(profile, "callpaths", &path_table, rows, r->nnodes);
	for (uint32_t i = 0; i < r->nnodes; i++)
		free(rows[i].path);
	free(rows);
	for (int a = 0; a < RUN_PROFILE_ARRAYS && ok; a++)
		ok = write_profile_array(profile, r, &run_profile_arrays[a]);
	return ok;
}

/* a synthetic run's timing predictions: /extrap/intervals, only when there are any */
static bool write_intervals(hid_t f, const struct run *r)
{
	if (!r->nintervals)
		return true;
	struct interval_row *rows = xcalloc(r->nintervals + 1, sizeof *rows);
	for (uint32_t i = 0; i < r->nintervals; i++) {
		const struct run_interval *t = &r->intervals[i];
		rows[i] = (struct interval_row){t->group, t->kind, t->prev, t->sig, t->count, t->value, t->lo, t->hi,
						t->has_interval};
	}
	hid_t g = h5_group(f, "extrap");
	bool ok = g >= 0 && h5_write_table(g, "intervals", &interval_table, rows, r->nintervals);
	if (g >= 0)
		H5Gclose(g);
	free(rows);
	return ok;
}

enum { TRACE_GROUP, TIMING_GROUP, PROFILE_GROUP, NGROUPS };
static const char *const group_names[NGROUPS] = {"trace", "timing", "profile"};

/* the container's objects in the order they are written (the order fixes the file's bytes) */
static const struct section_writer {
	const char *what;      /* for "cannot write WHAT" */
	int group;
	bool (*write)(hid_t group, const struct run *r);
} section_writers[] = {
	{"/trace/functions", TRACE_GROUP, write_functions},
	{"/trace/strings", TRACE_GROUP, write_strings},
	{"/trace/callsites", TRACE_GROUP, write_callsites},
	{"/trace/signatures", TRACE_GROUP, write_signatures},
	{"/trace/groups", TRACE_GROUP, write_groups},
	{"/trace/streams", TRACE_GROUP, write_streams},
	{"/timing", TIMING_GROUP, store_write_timing},
	{"/timing/timestamps", TIMING_GROUP, write_timestamps},
	{"/profile", PROFILE_GROUP, write_profile},
};

static void keep_first_line(const char *what, void *arg)
{
	char *why = arg;
	if (!why[0])
		snprintf(why, 400, "%s", what);
}

/* Every reader and writer refuses a function table other than ladder's: its names and parameter
 * names would otherwise reach decode's output, replay's issuers and the proxy's identifiers. */
static bool functions_are_ladders(const struct run *r, char why[400])
{
	why[0] = 0;
	return run_check_functions(r, 1, keep_first_line, why) == 0;
}

bool store_write_run(const char *path, const struct run *r, struct h5_err *e)
{
	hid_t f = h5_create_once(path, e);
	if (f < 0)
		return false;
	bool ok = write_header(f, r);
	if (!ok)
		h5_fail(e, path, "cannot write %s", "the root attributes");
	hid_t groups[NGROUPS];
	for (int g = 0; g < NGROUPS; g++)
		groups[g] = ok ? h5_group(f, group_names[g]) : -1;
	for (size_t i = 0; i < sizeof section_writers / sizeof *section_writers && ok; i++) {
		const struct section_writer *s = &section_writers[i];
		ok = s->write(groups[s->group], r);
		if (!ok)
			h5_fail(e, path, "cannot write %s", s->what);
	}
	for (int g = NGROUPS - 1; g >= 0; g--)
		if (groups[g] >= 0)
			H5Gclose(groups[g]);
	if (ok && !(ok = write_intervals(f, r)))
		h5_fail(e, path, "cannot write %s", "/extrap/intervals");
	if (!h5_finish(f) && ok) {
		h5_fail(e, path, "cannot finish writing the file (disk full?)");
		ok = false;
	}
	return ok;
}

bool store_replace_run(const char *path, const struct run *r, char *const *inputs, int ninputs,
		       struct h5_err *e)
{
	char why[400];
	if (!functions_are_ladders(r, why)) {
		h5_fail(e, path, "not written: %s", why);
		return false;
	}
	if (!output_replaceable(path, why, sizeof why) || !output_not_input(path, inputs, ninputs, why, sizeof why)) {
		snprintf(e->msg, sizeof e->msg, "%s", why);
		return false;
	}
	char *part = xasprintf("%s.part", path);
	unlink(part);   /* whatever was planted at the name (a link: the link itself, never its target) */
	bool ok = store_write_run(part, r, e);
	if (ok && (!sync_file(part, why, sizeof why) || !output_commit(part, path, why, sizeof why))) {
		snprintf(e->msg, sizeof e->msg, "%s", why);
		ok = false;
	}
	if (!ok)
		remove(part);
	free(part);
	return ok;
}

/* ---- reading ---------------------------------------------------------------------------------- */

static bool read_header_field(const struct source *src, struct run *r, const struct run_header_field *h)
{
	char *p = (char *)r + h->offset;
	bool found = true;
	uint32_t u = 0;
	switch (h->type) {
	case RUN_VALUE_STR:
		*(char **)p = h5_get_attr_str(src->f, h->attribute);
		found = *(char **)p != NULL;
		if (!found && !h->required)
			*(char **)p = xstrdup("");
		break;
	case RUN_VALUE_U32: found = h5_get_attr_u32(src->f, h->attribute, (uint32_t *)p); break;
	case RUN_VALUE_BOOL:
		found = h5_get_attr_u32(src->f, h->attribute, &u);
		*(bool *)p = u != 0;
		break;
	case RUN_VALUE_F64: found = h5_get_attr_f64(src->f, h->attribute, (double *)p); break;
	case RUN_VALUE_U64: assert(!"a header field of an unsupported type"); break;
	}
	if (!found && h->required) {
		h5_fail(src->e, src->path, "missing root attribute '%s'", h->attribute);
		return false;
	}
	return true;
}

/* the labels in name order, in one pass (HDF5 attribute names are unique: no duplicates) */
struct label_reader {
	struct run *r;
	size_t capacity;
};

static herr_t add_label(hid_t labels, const char *name, const H5A_info_t *info, void *arg)
{
	(void)info;
	struct label_reader *lr = arg;
	char *value = h5_get_attr_str(labels, name);
	if (!value)
		return 0;
	XGROW(lr->r->labels, lr->capacity, lr->r->nlabels + 1);
	lr->r->labels[lr->r->nlabels++] = (struct run_label){xstrdup(name), value};
	return 0;
}

static bool read_labels(const struct source *src, struct run *r)
{
	if (!h5_exists(src->f, "labels"))
		return true;
	if (!h5_hard_links_only(src->f, "labels")) {
		h5_fail(src->e, src->path, "labels is a soft or external link; ladder reads data only from the container itself");
		return false;
	}
	hid_t labels = H5Gopen2(src->f, "labels", H5P_DEFAULT);
	struct label_reader lr = {r, 0};
	herr_t rc = H5Aiterate2(labels, H5_INDEX_NAME, H5_ITER_INC, NULL, add_label, &lr);
	H5Gclose(labels);
	if (rc < 0) {
		h5_fail(src->e, src->path, "/labels cannot be read (damaged?)");
		return false;
	}
	return true;
}

static bool read_header(const struct source *src, struct run *r)
{
	for (int i = 0; i < RUN_HEADER_FIELDS; i++)
		if (!read_header_field(src, r, &run_header_fields[i]))
			return false;
	return read_labels(src, r);
}

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

static bool read_functions(const struct source *src, struct run *r)
{
	bool ok = false;
	size_t n = 0;
	struct fn_row *rows;
	if (!READ_TABLE(rows, "trace/functions", &fn_table, &n))
		return false;
	r->nfns = (uint32_t)n;
	r->fns = xcalloc(n + 1, sizeof *r->fns);
	for (size_t i = 0; i < n; i++) {
		r->fns[i].name = xstrdup(rows[i].name);
		r->fns[i].flags = rows[i].flags;
		if (!parse_params(&r->fns[i], rows[i].parameters))
			BAD("/trace/functions: function %s has unreadable parameters '%s'", rows[i].name,
			    rows[i].parameters);
	}
	ok = true;
out:
	h5_free_table(&fn_table, rows, n);
	return ok;
}

static bool read_strings(const struct source *src, struct run *r)
{
	size_t n = 0;
	r->strings = h5_read_strings(src->f, "trace/strings", &n, src->path, src->e);
	r->nstrings = (uint32_t)n;
	return r->strings != NULL;
}

static bool read_callsites(const struct source *src, struct run *r)
{
	bool ok = false;
	size_t nsites = 0, nframes = 0;
	struct site_row *sites = NULL;
	struct frame_row *frames = NULL;
	if (!READ_TABLE(sites, "trace/callsites", &site_table, &nsites) ||
	    !READ_TABLE(frames, "trace/callsite_frames", &frame_table, &nframes))
		goto out;
	r->ncallsites = (uint32_t)nsites;
	r->callsites = xcalloc(nsites + 1, sizeof *r->callsites);
	for (size_t i = 0; i < nsites; i++) {
		if (!range_within(sites[i].frame_offset, sites[i].frame_count, nframes))
			BAD("/trace/callsites: row %zu points past /trace/callsite_frames", i);
		struct run_callsite *c = &r->callsites[i];
		c->id = sites[i].id;
		c->nframes = sites[i].frame_count;
		c->frames = xcalloc(c->nframes + 1, sizeof *c->frames);
		for (uint32_t j = 0; j < c->nframes; j++) {
			struct frame_row *x = &frames[sites[i].frame_offset + j];
			c->frames[j] = (struct run_frame){xstrdup(x->module), x->offset, xstrdup(x->symbol)};
		}
	}
	ok = true;
out:
	h5_free_table(&site_table, sites, nsites);
	h5_free_table(&frame_table, frames, nframes);
	return ok;
}

static bool read_signatures(const struct source *src, struct run *r)
{
	bool ok = false;
	size_t nrows = 0, nvalues = 0;
	struct sig_row *rows;
	if (!READ_TABLE(rows, "trace/signatures", &sig_table, &nrows))
		return false;
	r->sigvals = h5_read_i64(src->f, "trace/signature_values", &nvalues, src->path, src->e);
	if (!r->sigvals)
		goto out;
	r->nsigvals = nvalues;
	r->nsigs = (uint32_t)nrows;
	r->sigs = xcalloc(nrows + 1, sizeof *r->sigs);
	for (size_t i = 0; i < nrows; i++) {
		if (!range_within(rows[i].value_offset, rows[i].value_count, nvalues))
			BAD("/trace/signatures: row %zu points past /trace/signature_values", i);
		r->sigs[i] = (struct run_signature){rows[i].function, rows[i].callsite, rows[i].flags,
						    rows[i].value_count, rows[i].value_offset};
	}
	ok = true;
out:
	h5_free_table(&sig_table, rows, nrows);
	return ok;
}

/* the grammars of all groups, flattened */
struct grammar_tables {
	struct rule_row *rules;
	size_t nrules;
	struct sym_row *syms;
	size_t nsyms;
};

/* group i's grammar from its rules; rule references outside the group are refused */
static bool read_grammar(const struct source *src, struct grammar *g, const struct group_row *row, size_t i,
			 const struct grammar_tables *t)
{
	bool ok = false;
	grammar_init(g);
	for (uint32_t k = 0; k < row->rule_count; k++) {
		const struct rule_row *x = &t->rules[row->first_rule + k];
		if (!range_within(x->first_symbol, x->symbol_count, t->nsyms))
			BAD("/trace/rules: rule %u points past /trace/rule_symbols", row->first_rule + k);
		grammar_begin_rule(g);
		for (uint64_t s = 0; s < x->symbol_count; s++) {
			struct sym_row y = t->syms[x->first_symbol + s];
			int64_t v = y.symbol;
			if (v < 0) {
				int64_t rule = -v - 1 - (int64_t)row->first_rule;
				if (rule < 0 || rule >= row->rule_count)
					BAD("/trace/rule_symbols: rule %u of group %zu refers to rule %lld outside its group",
					    row->first_rule + k, i, (long long)(-v - 1));
				v = gsym_rule_val((uint32_t)rule);
			}
			grammar_add_symbol(g, v, y.repeat);
		}
	}
	ok = true;
out:
	grammar_end(g);
	return ok;
}

/* group i's ranks from its ranklist, which must name as many ranks of the run as the row says */
static bool read_group_ranks(const struct source *src, struct run *r, struct run_group *g,
			     const struct group_row *row, size_t i, const int64_t *ranklists, size_t nranklists)
{
	char why[200] = "it points past /trace/ranklists";
	if (!range_within(row->ranklist_offset, row->ranklist_count, nranklists) ||
	    !ranklist_check(ranklists + row->ranklist_offset, row->ranklist_count, r->nranks, why, sizeof why)) {
		h5_fail(src->e, src->path, "/trace/ranklists: the ranklist of group %zu is malformed: %s", i, why);
		return false;
	}
	const int64_t *v = ranklists + row->ranklist_offset;
	uint64_t count = ranklist_count(v, row->ranklist_count);
	if (count != row->rank_count) {
		h5_fail(src->e, src->path, "/trace/groups: group %zu says %u ranks, its ranklist holds %llu", i,
			row->rank_count, (unsigned long long)count);
		return false;
	}
	g->nranks = row->rank_count;
	struct ranklist_clash clash;
	if (!ranklist_normalize(&g->ranks, v, row->ranklist_count, &clash)) {
		h5_fail(src->e, src->path, "/trace/ranklists: the ranklist of group %zu names rank %llu twice", i,
			(unsigned long long)clash.rank);
		return false;
	}
	return true;
}

static bool read_groups(const struct source *src, struct run *r)
{
	bool ok = false;
	struct grammar_tables t = {0};
	size_t ngroups = 0, nranklists = 0;
	struct group_row *rows = NULL;
	int64_t *ranklists = NULL;
	if (!READ_TABLE(t.rules, "trace/rules", &rule_table, &t.nrules) ||
	    !READ_TABLE(t.syms, "trace/rule_symbols", &sym_table, &t.nsyms) ||
	    !READ_TABLE(rows, "trace/groups", &group_table, &ngroups) ||
	    !(ranklists = h5_read_i64(src->f, "trace/ranklists", &nranklists, src->path, src->e)))
		goto out;
	r->ngroups = (uint32_t)ngroups;
	r->groups = xcalloc(ngroups + 1, sizeof *r->groups);
	for (size_t i = 0; i < ngroups; i++) {
		if (!range_within(rows[i].first_rule, rows[i].rule_count, t.nrules) || rows[i].rule_count == 0)
			BAD("/trace/groups: group %zu has rules %u..+%u, but there are %zu rules", i, rows[i].first_rule,
			    rows[i].rule_count, t.nrules);
		if (!read_grammar(src, &r->groups[i].g, &rows[i], i, &t) ||
		    !read_group_ranks(src, r, &r->groups[i], &rows[i], i, ranklists, nranklists))
			goto out;
	}
	ok = true;
out:
	h5_free_table(&rule_table, t.rules, t.nrules);
	h5_free_table(&sym_table, t.syms, t.nsyms);
	h5_free_table(&group_table, rows, ngroups);
	free(ranklists);
	return ok;
}

/* the flat datasets the stream rows point into; the laws parsed */
struct stream_tables {
	int64_t *ranklists, *cells, *law_cells, *law_records;
	size_t nranklists, ncells, nlaw_cells, nlaw_records;
	struct rank_law *laws;
	size_t nlaws;
};

/* the law whose record starts at laws[at], its length in *len; false with what is wrong in why */
static bool parse_law(const int64_t *laws, size_t nlaws, size_t at, struct rank_law *l, size_t *len, char *why,
		      size_t whylen)
{
	if (!range_within(at, 2, nlaws)) {
		snprintf(why, whylen, "cut short");
		return false;
	}
	int64_t n = laws[at + 1];
	bool steps = n >= LAW_STEPS;
	n -= steps ? LAW_STEPS : 0;
	size_t width = steps ? 5 : 4;
	if (n < 0 || n > RANK_LAW_MAX_TERMS) {
		snprintf(why, whylen, "%lld terms, expected 0 to %d (plus %d when its terms have thresholds)",
			 (long long)laws[at + 1], RANK_LAW_MAX_TERMS, LAW_STEPS);
		return false;
	}
	if (!range_within(at + 2, width * (uint64_t)n, nlaws)) {
		snprintf(why, whylen, "cut short");
		return false;
	}
	memset(l, 0, sizeof *l);
	l->base = laws[at];
	l->nterms = (uint32_t)n;
	for (uint32_t t = 0; t < l->nterms; t++) {
		const int64_t *x = laws + at + 2 + width * t;
		l->terms[t] = (struct rank_law_term){x[0], (uint64_t)x[1], (uint64_t)x[2], (uint64_t)x[3], 0, 0};
		if (steps && (x[4] < -1 || (x[3] && x[4] > x[3]))) {
			snprintf(why, whylen, "term %u has the threshold %lld, expected -1 (no step) or 0 to its modulus "
				 "(%lld; any when 0)", t, (long long)x[4], (long long)x[3]);
			return false;
		}
		if (steps && x[4] >= 0)
			l->terms[t].step = 1, l->terms[t].below = (uint64_t)x[4];
	}
	*len = 2 + width * (size_t)n;
	return true;
}

/* /trace/stream_laws: records one after another, to its end */
static bool parse_laws(const struct source *src, struct stream_tables *t)
{
	size_t cap = 0, len = 0;
	for (size_t at = 0; at < t->nlaw_records; at += len, t->nlaws++) {
		XGROW(t->laws, cap, t->nlaws + 1);
		char why[200];
		if (!parse_law(t->law_records, t->nlaw_records, at, &t->laws[t->nlaws], &len, why, sizeof why)) {
			h5_fail(src->e, src->path, "/trace/stream_laws: law %zu is malformed: %s", t->nlaws, why);
			return false;
		}
	}
	return true;
}

/* the laws of a stream row: law_count cells from law_offset in /trace/stream_law_cells, each
 * holding the index of its law in /trace/stream_laws */
static bool read_laws(const struct source *src, struct run_stream *s, const struct stream_row *row, size_t i,
		      const struct stream_tables *t)
{
	if (!range_within(row->law_offset, row->law_count, t->nlaw_cells)) {
		h5_fail(src->e, src->path, "/trace/streams: the laws of row %zu run past /trace/stream_law_cells", i);
		return false;
	}
	s->laws = xcalloc(row->law_count + 1, sizeof *s->laws);
	for (uint32_t k = 0; k < row->law_count; k++, s->nlaws++) {
		int64_t cell = t->law_cells[row->law_offset + k];
		int64_t law = cell >= 0 && (uint64_t)cell < run_stream_cells(s) ? s->cells[cell] : -1;
		if (law < 0 || (uint64_t)law >= t->nlaws) {
			h5_fail(src->e, src->path, "/trace/stream_law_cells: law %u of stream %zu is not a cell holding a law's index",
				k, i);
			return false;
		}
		s->laws[k] = (struct stream_law){(uint64_t)cell, t->laws[law]};
		s->cells[cell] = 0;
	}
	return true;
}

/* the ranks of a stream row from its ranklist */
static bool read_stream_ranks(const struct source *src, struct run *r, struct run_stream *s,
			      const struct stream_row *row, size_t i, const int64_t *ranklists, size_t n)
{
	char why[200];
	uint64_t count;
	if (!range_within(row->ranklist_offset, row->ranklist_count, n) ||
	    !ranklist_check(ranklists + row->ranklist_offset, row->ranklist_count, r->nranks, why, sizeof why) ||
	    (count = ranklist_count(ranklists + row->ranklist_offset, row->ranklist_count)) > r->nranks) {
		h5_fail(src->e, src->path, "/trace/stream_ranklists: the ranklist of stream %zu is malformed", i);
		return false;
	}
	struct ranklist_clash clash;
	if (!ranklist_normalize(&s->ranks, ranklists + row->ranklist_offset, row->ranklist_count, &clash)) {
		h5_fail(src->e, src->path, "/trace/stream_ranklists: the ranklist of stream %zu names rank %llu twice", i,
			(unsigned long long)clash.rank);
		return false;
	}
	s->nranks = (uint32_t)count;
	return true;
}


static bool read_stream(const struct source *src, struct run *r, const struct stream_row *row, size_t i,
			const struct stream_tables *t)
{
	if (row->head > UINT64_MAX - row->period || !range_within(row->value_offset, row->head + row->period, t->ncells)) {
		h5_fail(src->e, src->path, "/trace/streams: row %zu points past /trace/stream_values", i);
		return false;
	}
	uint64_t ncells = row->head + row->period;
	struct run_stream *s = &r->streams[r->nstreams++];
	*s = (struct run_stream){.sig = row->signature, .length = row->length, .nhead = row->head, .nperiod = row->period};
	s->cells = xmalloc((ncells + 1) * sizeof *s->cells);
	memcpy(s->cells, t->cells + row->value_offset, ncells * sizeof *s->cells);
	return read_stream_ranks(src, r, s, row, i, t->ranklists, t->nranklists) &&
	       read_laws(src, s, row, i, t);
}

static bool read_streams(const struct source *src, struct run *r)
{
	bool ok = false;
	size_t nrows = 0;
	struct stream_row *rows = NULL;
	struct stream_tables t = {0};
	if (!READ_TABLE(rows, "trace/streams", &stream_table, &nrows) ||
	    !(t.ranklists = h5_read_i64(src->f, "trace/stream_ranklists", &t.nranklists, src->path, src->e)) ||
	    !(t.cells = h5_read_i64(src->f, "trace/stream_values", &t.ncells, src->path, src->e)))
		goto out;
	if (h5_exists(src->f, "trace/stream_law_cells") &&
	    (!(t.law_cells = h5_read_i64(src->f, "trace/stream_law_cells", &t.nlaw_cells, src->path, src->e)) ||
	     !(t.law_records = h5_read_i64(src->f, "trace/stream_laws", &t.nlaw_records, src->path, src->e)) ||
	     !parse_laws(src, &t)))
		goto out;
	r->streams = xcalloc(nrows + 1, sizeof *r->streams);
	for (size_t i = 0; i < nrows; i++)
		if (!read_stream(src, r, &rows[i], i, &t))
			goto out;
	ok = true;
out:
	h5_free_table(&stream_table, rows, nrows);
	free(t.ranklists);
	free(t.cells);
	free(t.law_cells);
	free(t.law_records);
	free(t.laws);
	return ok;
}

/* schema 1.x: one literal stream per (rank, signature) */
static bool read_streams_v1(const struct source *src, struct run *r)
{
	bool ok = false;
	size_t nrows = 0, nvalues = 0;
	struct stream_v1_row *rows = NULL;
	int64_t *values = NULL;
	if (!READ_TABLE(rows, "trace/streams", &stream_v1_table, &nrows) ||
	    !(values = h5_read_i64(src->f, "trace/stream_values", &nvalues, src->path, src->e)))
		goto out;
	for (size_t i = 0; i < nrows; i++) {
		if (!range_within(rows[i].value_offset, rows[i].value_count, nvalues))
			BAD("/trace/streams: row %zu points past /trace/stream_values", i);
		run_add_stream(r, rows[i].signature, rows[i].rank, rows[i].value_count, rows[i].value_count, 0,
			       values + rows[i].value_offset);
	}
	ok = true;
out:
	h5_free_table(&stream_v1_table, rows, nrows);
	free(values);
	return ok;
}

static bool read_any_streams(const struct source *src, struct run *r)
{
	return src->major == 1 ? read_streams_v1(src, r) : read_streams(src, r);
}

/* one run_timestamps per run of consecutive rows of the same rank */
static bool read_timestamps(const struct source *src, struct run *r)
{
	if (!h5_exists(src->f, "timing/timestamps"))
		return true;
	size_t n = 0;
	struct ts_row *rows;
	if (!READ_TABLE(rows, "timing/timestamps", &ts_table, &n))
		return false;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && rows[j].rank == rows[i].rank)
			j++;
		r->timestamps = xrealloc(r->timestamps, (r->ntimestamps + 1) * sizeof *r->timestamps);
		struct run_timestamps *t = &r->timestamps[r->ntimestamps++];
		t->rank = rows[i].rank;
		t->n = j - i;
		t->start = xmalloc((t->n + 1) * sizeof *t->start);
		t->dur = xmalloc((t->n + 1) * sizeof *t->dur);
		for (size_t k = i; k < j; k++) {
			t->start[k - i] = rows[k].start;
			t->dur[k - i] = rows[k].duration;
		}
		i = j;
	}
	h5_free_table(&ts_table, rows, n);
	return true;
}

static void format_extents(char *out, size_t n, const hsize_t *dims, size_t ndims)
{
	size_t len = 0;
	out[0] = 0;
	for (size_t d = 0; d < ndims && len < n; d++)
		len += (size_t)snprintf(out + len, n - len, "%s%llu", d ? "x" : "", (unsigned long long)dims[d]);
}

/* a profile array whose dimensions must be its extents in r */
static bool read_profile_array(const struct source *src, struct run *r, const struct run_array *a)
{
	if (a->optional && !h5_exists(src->f, a->dataset))
		return true;
	hsize_t dims[3];
	void **slot = run_array_slot(r, a);
	if (a->type == RUN_VALUE_U64)
		*slot = h5_read_u64(src->f, a->dataset, a->ndims, dims, src->path, src->e);
	else
		*slot = h5_read_f64(src->f, a->dataset, a->ndims, dims, src->path, src->e);
	if (!*slot)
		return false;
	hsize_t expected[3];
	bool match = true;
	for (uint8_t d = 0; d < a->ndims; d++) {
		expected[d] = run_extent_size(r, a->dims[d]);
		match &= dims[d] == expected[d];
	}
	if (match)
		return true;
	char found[80], want[80], meaning[80] = "";
	format_extents(found, sizeof found, dims, a->ndims);
	format_extents(want, sizeof want, expected, a->ndims);
	for (uint8_t d = 0; d < a->ndims; d++)
		snprintf(meaning + strlen(meaning), sizeof meaning - strlen(meaning), "%s%s", d ? " x " : "",
			 run_extent_name(a->dims[d]));
	h5_fail(src->e, src->path, "/%s is %s, expected %s = %s", a->dataset, found, meaning, want);
	return false;
}

static bool read_profile(const struct source *src, struct run *r)
{
	size_t n = 0;
	struct path_row *rows;
	if (!READ_TABLE(rows, "profile/callpaths", &path_table, &n))
		return false;
	r->nnodes = (uint32_t)n;
	r->nodes = xcalloc(n + 1, sizeof *r->nodes);
	for (size_t i = 0; i < n; i++)
		r->nodes[i] = (struct run_pnode){rows[i].parent, rows[i].kind, xstrdup(rows[i].name)};
	h5_free_table(&path_table, rows, n);
	for (int a = 0; a < RUN_PROFILE_ARRAYS; a++)
		if (!read_profile_array(src, r, &run_profile_arrays[a]))
			return false;
	return true;
}

/* the parameters of the functions no signature calls, which the container omits: from this
 * ladder's table, for the functions it knows */
static void fill_unused_parameters(struct run *r)
{
	bool *used = functions_used(r);
	for (uint32_t i = 0; i < r->nfns; i++) {
		int id = used[i] || r->fns[i].nparams ? -1 : fn_lookup(r->fns[i].name);
		if (id < 0)
			continue;
		const struct fn_desc *d = &ladder_functions[id];
		struct param_desc *p = xcalloc(d->nparams + 1, sizeof *p);
		for (uint32_t k = 0; k < d->nparams; k++)
			p[k] = (struct param_desc){xstrdup(d->params[k].name), d->params[k].kind};
		free((void *)r->fns[i].params);
		r->fns[i].params = p;
		r->fns[i].nparams = d->nparams;
	}
	free(used);
}

static bool read_intervals(const struct source *src, struct run *r)
{
	if (!h5_exists(src->f, "extrap/intervals"))
		return true;
	size_t n = 0;
	struct interval_row *rows;
	if (!READ_TABLE(rows, "extrap/intervals", &interval_table, &n))
		return false;
	r->nintervals = (uint32_t)n;
	r->intervals = xcalloc(n + 1, sizeof *r->intervals);
	for (size_t i = 0; i < n; i++)
		r->intervals[i] = (struct run_interval){rows[i].group, rows[i].kind, rows[i].interval, rows[i].previous,
							rows[i].signature, rows[i].count, rows[i].predicted, rows[i].lo,
							rows[i].hi};
	h5_free_table(&interval_table, rows, n);
	return true;
}

/* the sections in the order they are read: later ones refer to earlier ones */
static bool (*const section_readers[])(const struct source *src, struct run *r) = {
	read_header, read_functions, read_strings, read_callsites, read_signatures,
	read_groups, read_any_streams, store_read_timing, read_timestamps, read_profile, read_intervals,
};

static bool read_run(const char *path, struct run *r, struct h5_err *e, bool ladders_functions)
{
	run_init(r);
	struct store_identity id;
	if (!store_identify(path, &id, e) || !store_expect(path, &id, "run", e))
		return false;
	struct source source = {h5_open(path, false, e), path, e, id.major}, *src = &source;
	if (src->f < 0)
		return false;
	bool ok = false;
	for (size_t i = 0; i < sizeof section_readers / sizeof *section_readers; i++)
		if (!section_readers[i](src, r))
			goto out;
	fill_unused_parameters(r);
	char why[400];
	if (ladders_functions && !functions_are_ladders(r, why))
		BAD("%s (a function table other than ladder's is not read)", why);
	if (!run_check(r, why, sizeof why))
		BAD("inconsistent contents: %s", why);
	if (id.major == 1) {   /* streams in the compact form every reader expects (run/stream.h) */
		run_pack_streams(r);
		if (!run_check(r, why, sizeof why))
			BAD("inconsistent contents: %s", why);
	}
	ok = true;
out:
	H5Fclose(src->f);
	if (!ok)
		run_free(r);
	return ok;
}

bool store_read_run(const char *path, struct run *r, struct h5_err *e) { return read_run(path, r, e, true); }

bool store_read_run_as_written(const char *path, struct run *r, struct h5_err *e)
{
	return read_run(path, r, e, false);
}
