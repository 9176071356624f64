/*
 * run_h5 — a run container on disk (hdf5-schema/run.yaml): struct run <-> HDF5. The header and
 * the profile arrays are written and read from their descriptions in run/layout.h; the nested
 * sections, which the container flattens into tables joined by (offset, count), have one writer
 * and one reader each, called in the order of the tables at the end of each part; /timing
 * (durations and gaps) has a file of its own, run_timing.c.
 */
#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/histogram.h"
#include "run/layout.h"
#include "run/ranklist.h"
#include "store/run_source.h"
#include "store/run_timing.h"
#include "store/store.h"
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

struct stream_row { uint32_t rank; uint32_t signature; uint64_t value_offset; uint64_t value_count; };
static const struct h5_field stream_fields[] = {
	FIELD(struct stream_row, rank, F_U32), FIELD(struct stream_row, signature, F_U32),
	FIELD(struct stream_row, value_offset, F_U64), FIELD(struct stream_row, value_count, F_U64)};
static const struct h5_table stream_table = {"streams", sizeof(struct stream_row), stream_fields, 4};

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
	for (uint32_t i = 0; i < r->nattrs && ok; i++)
		ok = h5_attr_str(labels, r->attrs[i].key, r->attrs[i].value);
	H5Gclose(labels);
	return ok;
}

static bool write_functions(hid_t trace, const struct run *r)
{
	struct fn_row *rows = xcalloc(r->nfns + 1, sizeof *rows);
	for (uint32_t i = 0; i < r->nfns; i++)
		rows[i] = (struct fn_row){i, (char *)r->fns[i].name, r->fns[i].flags, param_list(&r->fns[i])};
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
	struct ranklist all;
	ranklist_init(&all);
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
		ranklist_from_ranks(&all, r->groups[i].ranks, r->groups[i].nranks);
		XGROW(ranklists, capacity, nranklists + all.len + 1);
		memcpy(ranklists + nranklists, all.v, all.len * sizeof *ranklists);
		groups[i] = (struct group_row){(uint32_t)rule_base, g->nrules, r->groups[i].nranks, nranklists,
					       (uint32_t)all.len};
		nranklists += all.len;
		rule_base += g->nrules;
		sym_base += g->nsyms;
	}
	assert(rule_base == nrules && sym_base == nsyms);
	ranklist_free(&all);
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

static bool write_streams(hid_t trace, const struct run *r)
{
	uint64_t nvalues = 0;
	for (uint32_t i = 0; i < r->nstreams; i++)
		nvalues += r->streams[i].nvals;
	struct stream_row *rows = xcalloc(r->nstreams + 1, sizeof *rows);
	int64_t *values = xmalloc((nvalues + 1) * sizeof *values);
	uint64_t k = 0;
	for (uint32_t i = 0; i < r->nstreams; i++) {
		rows[i] = (struct stream_row){r->streams[i].rank, r->streams[i].sig, k, r->streams[i].nvals};
		memcpy(values + k, r->streams[i].vals, r->streams[i].nvals * sizeof *values);
		k += r->streams[i].nvals;
	}
	bool ok = h5_write_table(trace, "streams", &stream_table, rows, r->nstreams) &&
		  h5_write_i64(trace, "stream_values", values, nvalues);
	free(rows);
	free(values);
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

bool store_write_run(const char *path, const struct run *r, struct h5_err *e)
{
	hid_t f = h5_create(path, e);
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
	if (!h5_finish(f) && ok) {
		h5_fail(e, path, "cannot finish writing the file (disk full?)");
		ok = false;
	}
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
	XGROW(lr->r->attrs, lr->capacity, lr->r->nattrs + 1);
	lr->r->attrs[lr->r->nattrs++] = (struct run_attr){xstrdup(name), value};
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

struct rank_collector {
	uint32_t *ranks;
	uint32_t n, capacity;
};

static bool collect_rank(uint64_t rank, void *arg)
{
	struct rank_collector *c = arg;
	if (c->n >= c->capacity)   /* never when the ranklist's count was checked */
		return false;
	c->ranks[c->n++] = (uint32_t)rank;
	return true;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

/* group i's ranks from its ranklist, which must name as many ranks of the run as the row says */
static bool read_group_ranks(const struct source *src, struct run *r, struct run_group *g,
			     const struct group_row *row, size_t i, const int64_t *ranklists, size_t nranklists)
{
	char why[200];
	if (!range_within(row->ranklist_offset, row->ranklist_count, nranklists) ||
	    !ranklist_check(ranklists + row->ranklist_offset, row->ranklist_count, r->nranks, why, sizeof why)) {
		h5_fail(src->e, src->path, "/trace/ranklists: the ranklist of group %zu is malformed", i);
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
	g->ranks = xcalloc(g->nranks + 1, sizeof *g->ranks);
	struct rank_collector c = {g->ranks, 0, g->nranks};
	ranklist_each(v, row->ranklist_count, collect_rank, &c);
	assert(c.n == g->nranks);
	qsort(g->ranks, g->nranks, sizeof *g->ranks, cmp_u32);
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

static bool read_streams(const struct source *src, struct run *r)
{
	bool ok = false;
	size_t nrows = 0, nvalues = 0;
	struct stream_row *rows = NULL;
	int64_t *values = NULL;
	if (!READ_TABLE(rows, "trace/streams", &stream_table, &nrows) ||
	    !(values = h5_read_i64(src->f, "trace/stream_values", &nvalues, src->path, src->e)))
		goto out;
	r->nstreams = (uint32_t)nrows;
	r->streams = xcalloc(nrows + 1, sizeof *r->streams);
	for (size_t i = 0; i < nrows; i++) {
		if (!range_within(rows[i].value_offset, rows[i].value_count, nvalues))
			BAD("/trace/streams: row %zu points past /trace/stream_values", i);
		struct run_stream *s = &r->streams[i];
		s->rank = rows[i].rank;
		s->sig = rows[i].signature;
		s->nvals = rows[i].value_count;
		s->vals = xmalloc((s->nvals + 1) * sizeof *s->vals);
		memcpy(s->vals, values + rows[i].value_offset, s->nvals * sizeof *s->vals);
	}
	ok = true;
out:
	h5_free_table(&stream_table, rows, nrows);
	free(values);
	return ok;
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

/* the sections in the order they are read: later ones refer to earlier ones */
static bool (*const section_readers[])(const struct source *src, struct run *r) = {
	read_header, read_functions, read_strings, read_callsites, read_signatures,
	read_groups, read_streams, store_read_timing, read_timestamps, read_profile,
};

bool store_read_run(const char *path, struct run *r, struct h5_err *e)
{
	run_init(r);
	struct store_identity id;
	if (!store_identify(path, &id, e) || !store_expect(path, &id, "run", e))
		return false;
	struct source source = {h5_open(path, false, e), path, e, id.minor}, *src = &source;
	if (src->f < 0)
		return false;
	bool ok = false;
	for (size_t i = 0; i < sizeof section_readers / sizeof *section_readers; i++)
		if (!section_readers[i](src, r))
			goto out;
	char why[300];
	if (!run_check(r, why, sizeof why))
		BAD("inconsistent contents: %s", why);
	ok = true;
out:
	H5Fclose(src->f);
	if (!ok)
		run_free(r);
	return ok;
}
