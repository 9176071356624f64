/*
 * schema — validate containers against the schemas of hdf5-schema/, render them. See schema.h.
 *
 * The YAML is the single source: the validator reads it, `ladder schema` prints it, and the
 * writers in this folder are tested against it.
 */
#include "store/schema.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "run/events.h"
#include "run/fn_check.h"
#include "run/profile_check.h"
#include "run/run.h"
#include "store/campaign_extrap.h"
#include "store/campaign_h5.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/xalloc.h"

extern const char ladder_schema_run_yaml[];
extern const char ladder_schema_run_v1_yaml[];
extern const char ladder_schema_campaign_yaml[];
extern const char ladder_schema_history_yaml[];

const char *schema_text(const char *kind)
{
	if (!strcmp(kind, "run"))
		return ladder_schema_run_yaml;
	if (!strcmp(kind, "campaign"))
		return ladder_schema_campaign_yaml;
	if (!strcmp(kind, "history"))
		return ladder_schema_history_yaml;
	return NULL;
}

/* ---- the parsed schema ------------------------------------------------------------------------ */

struct sfield {
	const char *name, *type, *units, *description;
	bool required;
};

struct sobject {
	const char *path, *kind, *type, *description, *shape;
	int rank;
	bool required;
	struct sfield *fields;
	int nfields;
};

struct schema {
	yaml_document_t doc;
	const char *name, *version, *title, *description;
	struct sfield *attrs;
	int nattrs;
	struct sobject *objects;
	int nobjects;
	const char **invariants;
	int ninvariants;
};

static const char *scalar(yaml_document_t *d, yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *get(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	if (!map || map->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		const char *k = scalar(d, yaml_document_get_node(d, p->key));
		if (k && !strcmp(k, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static const char *get_s(yaml_document_t *d, yaml_node_t *map, const char *key)
{
	return scalar(d, get(d, map, key));
}

static int seq_len(yaml_node_t *n)
{
	return n && n->type == YAML_SEQUENCE_NODE ? (int)(n->data.sequence.items.top - n->data.sequence.items.start) : 0;
}

static yaml_node_t *seq_at(yaml_document_t *d, yaml_node_t *n, int i)
{
	return yaml_document_get_node(d, n->data.sequence.items.start[i]);
}

static void parse_fields(yaml_document_t *d, yaml_node_t *seq, struct sfield **out, int *n)
{
	*n = seq_len(seq);
	*out = xcalloc((size_t)*n + 1, sizeof **out);
	for (int i = 0; i < *n; i++) {
		yaml_node_t *m = seq_at(d, seq, i);
		const char *req = get_s(d, m, "required");
		(*out)[i] = (struct sfield){get_s(d, m, "name"), get_s(d, m, "type"), get_s(d, m, "units"),
					    get_s(d, m, "description"), !req || strcmp(req, "false")};
	}
}

/* the schema of a kind in a major version: the current one, or run 1.x (still read) */
static const char *schema_text_of(const char *kind, int major)
{
	if (!strcmp(kind, "run") && major == 1)
		return ladder_schema_run_v1_yaml;
	return schema_text(kind);
}

static bool schema_load(const char *kind, int major, struct schema *s)
{
	memset(s, 0, sizeof *s);
	const char *text = schema_text_of(kind, major);
	if (!text)
		return false;
	yaml_parser_t p;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, (const unsigned char *)text, strlen(text));
	bool ok = yaml_parser_load(&p, &s->doc);
	yaml_parser_delete(&p);
	if (!ok)
		return false;
	yaml_document_t *d = &s->doc;
	yaml_node_t *root = yaml_document_get_root_node(d);
	s->name = get_s(d, root, "schema");
	s->version = get_s(d, root, "version");
	s->title = get_s(d, root, "title");
	s->description = get_s(d, root, "description");
	parse_fields(d, get(d, root, "attributes"), &s->attrs, &s->nattrs);
	yaml_node_t *objs = get(d, root, "objects");
	s->nobjects = seq_len(objs);
	s->objects = xcalloc((size_t)s->nobjects + 1, sizeof *s->objects);
	for (int i = 0; i < s->nobjects; i++) {
		yaml_node_t *m = seq_at(d, objs, i);
		struct sobject *o = &s->objects[i];
		const char *req = get_s(d, m, "required");
		const char *rank = get_s(d, m, "rank");
		o->path = get_s(d, m, "path");
		o->kind = get_s(d, m, "kind");
		o->type = get_s(d, m, "type");
		o->description = get_s(d, m, "description");
		o->rank = rank ? atoi(rank) : 0;
		o->required = !req || strcmp(req, "false");
		yaml_node_t *shape = get(d, m, "shape");
		static char buf[64][128];
		buf[i % 64][0] = 0;
		for (int k = 0; k < seq_len(shape); k++) {
			const char *dim = scalar(d, seq_at(d, shape, k));
			size_t len = strlen(buf[i % 64]);
			snprintf(buf[i % 64] + len, sizeof buf[0] - len, "%s%s", k ? " x " : "", dim ? dim : "?");
		}
		o->shape = buf[i % 64];
		parse_fields(d, get(d, m, "fields"), &o->fields, &o->nfields);
	}
	yaml_node_t *inv = get(d, root, "invariants");
	s->ninvariants = seq_len(inv);
	s->invariants = xcalloc((size_t)s->ninvariants + 1, sizeof *s->invariants);
	for (int i = 0; i < s->ninvariants; i++)
		s->invariants[i] = scalar(d, seq_at(d, inv, i));
	return s->name && s->version;
}

static void schema_free(struct schema *s)
{
	free(s->attrs);
	for (int i = 0; i < s->nobjects; i++)
		free(s->objects[i].fields);
	free(s->objects);
	free(s->invariants);
	yaml_document_delete(&s->doc);
}

/* ---- checking --------------------------------------------------------------------------------- */

struct ctx {
	const char *path;
	int violations;
	void (*report)(const char *line, void *arg);
	void *arg;
};

static void violation(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(struct ctx *c, const char *fmt, ...)
{
	char what[600], line[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	snprintf(line, sizeof line, "%s: %s", c->path, what);
	c->report(line, c->arg);
	c->violations++;
}

static void report_prefixed(const char *what, void *arg)
{
	struct ctx *c = arg;
	char line[900];
	snprintf(line, sizeof line, "%s: %s", c->path, what);
	c->report(line, c->arg);
}

/* does an HDF5 type match a schema type name? */
static bool type_matches(hid_t t, const char *want)
{
	H5T_class_t cls = H5Tget_class(t);
	size_t size = H5Tget_size(t);
	if (!strcmp(want, "string"))
		return cls == H5T_STRING;
	if (!strcmp(want, "float64"))
		return cls == H5T_FLOAT && size == 8;
	if (cls != H5T_INTEGER)
		return false;
	bool sign = H5Tget_sign(t) == H5T_SGN_2;
	if (!strcmp(want, "uint8"))
		return size == 1 && !sign;
	if (!strcmp(want, "uint32"))
		return size == 4 && !sign;
	if (!strcmp(want, "int32"))
		return size == 4 && sign;
	if (!strcmp(want, "uint64"))
		return size == 8 && !sign;
	if (!strcmp(want, "int64"))
		return size == 8 && sign;
	return false;
}

static void check_attrs(struct ctx *c, hid_t f, const struct schema *s)
{
	for (int i = 0; i < s->nattrs; i++) {
		const struct sfield *a = &s->attrs[i];
		if (H5Aexists(f, a->name) <= 0) {
			if (a->required)
				violation(c, "root attribute '%s' is missing (%s)", a->name, a->description);
			continue;
		}
		hid_t at = H5Aopen(f, a->name, H5P_DEFAULT);
		hid_t t = H5Aget_type(at);
		if (!type_matches(t, a->type))
			violation(c, "root attribute '%s' is not of type %s", a->name, a->type);
		H5Tclose(t);
		H5Aclose(at);
	}
}

static void check_dataset(struct ctx *c, hid_t f, const struct sobject *o)
{
	hid_t d = H5Dopen2(f, o->path, H5P_DEFAULT);
	if (d < 0) {
		violation(c, "%s cannot be opened as a dataset (damaged?)", o->path);
		return;
	}
	hid_t sp = H5Dget_space(d);
	int rank = H5Sget_simple_extent_ndims(sp);
	if (o->rank && rank != o->rank)
		violation(c, "%s has %d dimensions, the schema says %d (%s)", o->path, rank, o->rank, o->shape);
	H5Sclose(sp);
	hid_t t = H5Dget_type(d);
	if (o->type && !strcmp(o->type, "compound")) {
		if (H5Tget_class(t) != H5T_COMPOUND) {
			violation(c, "%s is not a compound (table) dataset", o->path);
		} else {
			for (int k = 0; k < o->nfields; k++) {
				int idx = H5Tget_member_index(t, o->fields[k].name);
				if (idx < 0) {
					violation(c, "%s lacks field '%s' (%s)", o->path, o->fields[k].name,
						  o->fields[k].description ? o->fields[k].description : "");
					continue;
				}
				hid_t mt = H5Tget_member_type(t, (unsigned)idx);
				if (!type_matches(mt, o->fields[k].type))
					violation(c, "%s field '%s' is not of type %s", o->path, o->fields[k].name,
						  o->fields[k].type);
				H5Tclose(mt);
			}
		}
	} else if (o->type && !type_matches(t, o->type)) {
		violation(c, "%s is not of type %s", o->path, o->type);
	}
	H5Tclose(t);
	/* checksum the data by reading it */
	hid_t dcpl = H5Dget_create_plist(d);
	if (H5Pget_layout(dcpl) != H5D_CHUNKED)
		violation(c, "%s is not chunked (the schema requires chunking with checksums)", o->path);
	H5Pclose(dcpl);
	H5Dclose(d);
}

static void check_objects(struct ctx *c, hid_t f, const struct schema *s)
{
	for (int i = 0; i < s->nobjects; i++) {
		const struct sobject *o = &s->objects[i];
		if (!h5_exists(f, o->path)) {
			if (o->required)
				violation(c, "%s is missing (%s)", o->path, o->kind);
			continue;
		}
		H5O_info_t info;
		if (H5Oget_info_by_name(f, o->path, &info, H5P_DEFAULT) < 0) {
			violation(c, "%s cannot be opened (damaged or a dangling link)", o->path);
			continue;
		}
		bool group = info.type == H5O_TYPE_GROUP;
		if (!strcmp(o->kind, "group") != group) {
			violation(c, "%s is a %s, the schema says %s", o->path, group ? "group" : "dataset", o->kind);
			continue;
		}
		if (!group)
			check_dataset(c, f, o);
	}
}

/* a run's contents: the functions against ladder's table, a full walk of every rank (streams
 * consumed exactly), the profile's calls against the trace's */
static void check_run_contents(struct ctx *c)
{
	struct run r;
	struct h5_err e;
	if (!store_read_run_as_written(c->path, &r, &e)) {   /* the functions are judged below */
		c->report(e.msg, c->arg);
		c->violations++;
		return;
	}
	c->violations += (int)run_check_functions(&r, 20, report_prefixed, c);
	char why[300];
	bool bounded = event_ranks_bounded(&r, why, sizeof why) && event_calls_bounded(&r, why, sizeof why);
	if (!bounded)
		violation(c, "%s", why);
	for (uint32_t q = 0; q < r.nranks && bounded; q++) {
		struct event_iter it;
		event_iter_init(&it, &r, q);
		struct event ev;
		while (event_next(&it, &ev))
			;
		if (it.error[0])
			violation(c, "%s", it.error);
		else if (!event_iter_streams_consumed(&it, why, sizeof why))
			violation(c, "%s", why);
		event_iter_free(&it);
	}
	if (!c->violations)
		c->violations += (int)run_check_profile(&r, 20, report_prefixed, c);
	run_free(&r);
}

/* every extrapolation of a campaign: a readable run, synthetic, with the rank count of its row */
static void check_extraps(const char *path, struct ctx *c)
{
	struct campaign_extrap *x;
	uint32_t n;
	struct h5_err e;
	if (!campaign_read_extraps(path, &x, &n, &e)) {
		violation(c, "extrap/index: %s", e.msg);
		return;
	}
	for (uint32_t i = 0; i < n; i++) {
		struct campaign_run as_run = {.path = x[i].path};
		char *rp = campaign_run_path(path, &as_run);
		struct run r;
		if (!store_read_run(rp, &r, &e))
			violation(c, "extrapolation %s (%u ranks): %s", x[i].link, x[i].ranks, e.msg);
		else {
			if (r.nranks != x[i].ranks || !r.synthetic)
				violation(c, "extrapolation %s: the run has %u ranks%s, the index says %u", x[i].link, r.nranks,
					  r.synthetic ? "" : " and is not marked synthetic", x[i].ranks);
			run_free(&r);
		}
		free(rp);
	}
	campaign_extraps_free(x, n);
}

int schema_validate(const char *path, void (*report)(const char *line, void *arg), void *arg)
{
	struct ctx c = {path, 0, report, arg};
	struct store_identity id;
	struct h5_err e;
	if (!store_identify(path, &id, &e)) {
		report(e.msg, arg);
		return 1;
	}
	struct schema s;
	if (!schema_load(id.kind, id.major, &s)) {
		violation(&c, "cannot load the %s schema", id.kind);
		return c.violations;
	}
	if (!store_expect(path, &id, id.kind, &e)) {
		report(e.msg, arg);
		schema_free(&s);
		return 1;
	}
	hid_t f = h5_open(path, false, &e);
	if (f < 0) {
		report(e.msg, arg);
		schema_free(&s);
		return 1;
	}
	check_attrs(&c, f, &s);
	check_objects(&c, f, &s);
	H5Fclose(f);
	schema_free(&s);
	if (c.violations)
		return c.violations;
	/* contents: every cross-reference and invariant (reading checks all checksums too) */
	if (!strcmp(id.kind, "run")) {
		check_run_contents(&c);
	} else if (!strcmp(id.kind, "campaign")) {
		struct campaign_run *runs;
		uint32_t n;
		if (!campaign_read_runs(path, &runs, &n, &e)) {
			report(e.msg, arg);
			return c.violations + 1;
		}
		for (uint32_t i = 0; i < n; i++) {
			char *rp = campaign_run_path(path, &runs[i]);
			struct run r;
			if (!store_read_run(rp, &r, &e))
				violation(&c, "run %s (%u ranks, repetition %u): %s", runs[i].link, runs[i].ranks,
					  runs[i].repetition, e.msg);
			else {
				if (r.nranks != runs[i].ranks)
					violation(&c, "run %s has %u ranks, the index says %u", runs[i].link, r.nranks,
						  runs[i].ranks);
				run_free(&r);
			}
			free(rp);
		}
		campaign_runs_free(runs, n);
		check_extraps(path, &c);
	}
	return c.violations;
}

/* ---- rendering -------------------------------------------------------------------------------- */

/* append formatted text to a buffer */
static void append(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *text = xvasprintf(fmt, ap);
	va_end(ap);
	buf_put(b, text, strlen(text));
	free(text);
}

char *schema_markdown(const char *kind)
{
	struct schema s;
	if (!schema_load(kind, 0, &s))
		return NULL;
	struct buf b, *out = &b;
	buf_init(&b);
	append(out, "# %s\n\nSchema `%s`, version %s.\n\n%s\n", s.title ? s.title : s.name, s.name, s.version,
		s.description ? s.description : "");
	append(out, "\n## Root attributes\n\n| attribute | type | units | meaning |\n|---|---|---|---|\n");
	for (int i = 0; i < s.nattrs; i++)
		append(out, "| `%s` | %s | %s | %s |\n", s.attrs[i].name, s.attrs[i].type,
			s.attrs[i].units ? s.attrs[i].units : "", s.attrs[i].description ? s.attrs[i].description : "");
	append(out, "\n## Objects\n");
	for (int i = 0; i < s.nobjects; i++) {
		const struct sobject *o = &s.objects[i];
		append(out, "\n### `%s` — %s%s%s%s%s\n\n%s\n", o->path, o->kind,
			o->type ? ", " : "", o->type ? o->type : "", o->shape[0] ? ", " : "", o->shape,
			o->description ? o->description : "");
		if (!o->required)
			append(out, "\nOptional.\n");
		if (o->nfields) {
			append(out, "\n| field | type | units | meaning |\n|---|---|---|---|\n");
			for (int k = 0; k < o->nfields; k++)
				append(out, "| `%s` | %s | %s | %s |\n", o->fields[k].name, o->fields[k].type,
					o->fields[k].units ? o->fields[k].units : "",
					o->fields[k].description ? o->fields[k].description : "");
		}
	}
	if (s.ninvariants) {
		append(out, "\n## Invariants\n\n");
		for (int i = 0; i < s.ninvariants; i++)
			append(out, "- %s\n", s.invariants[i]);
	}
	schema_free(&s);
	buf_put_u8(&b, 0);
	char *text = xstrdup((char *)b.data);
	buf_free(&b);
	return text;
}
