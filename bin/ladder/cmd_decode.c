/*
 * ladder decode — every call of every rank, one line each with all its parameters, peers as
 * absolute ranks: the compressed trace expanded back (like pilgrim2text). The text form is the
 * same as the tracer's raw log (LADDER_TRACE_RAW), so the two can be diffed.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "export/event_json.h"
#include "run/events.h"
#include "store/store.h"
#include "util/escape.h"
#include "util/exitcode.h"
#include "util/log.h"
#include "util/xalloc.h"

/* one event as JSON text in line (jansson escapes every string) */
static bool json_line(const struct event_view *v, struct buf *line)
{
	json_t *o = event_json(v);
	char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
	json_decref(o);
	if (!text)
		return false;
	buf_put(line, text, strlen(text));
	free(text);
	return true;
}

/* standard output through one large buffer, written in big blocks */
struct decode_out {
	const char *path;         /* the container, for errors */
	struct buf text;
	bool json;
	bool any;                 /* an event of the current rank was written (JSON commas) */
};

static void out_flush(struct decode_out *o)
{
	if (o->text.len)
		fwrite(o->text.data, 1, o->text.len, stdout);
	buf_reset(&o->text);
}

static void out_put(struct decode_out *o, const void *p, size_t n)
{
	buf_put(&o->text, p, n);
	if (o->text.len >= (1u << 20))
		out_flush(o);
}

static void out_printf(struct decode_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(struct decode_out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&o->text, fmt, ap);
	va_end(ap);
	if (o->text.len >= (1u << 20))
		out_flush(o);
}

/* The lines of one rank's signatures without streamed values, formatted on their first call:
 * such a line is the same on every call (peers are absolute ranks, the rank is fixed). */
struct line_cache {
	struct buf text;
	size_t *offset;           /* per signature: where its line starts in text, or SIZE_MAX */
	size_t *length;
};

static void line_cache_init(struct line_cache *c, uint32_t nsigs)
{
	buf_init(&c->text);
	c->offset = xmalloc((nsigs ? nsigs : 1) * sizeof *c->offset);
	c->length = xcalloc(nsigs ? nsigs : 1, sizeof *c->length);
	for (uint32_t i = 0; i < nsigs; i++)
		c->offset[i] = SIZE_MAX;
}

static void line_cache_free(struct line_cache *c)
{
	buf_free(&c->text);
	free(c->offset);
	free(c->length);
}

/* one event as a line (text form or JSON object) appended to b */
static bool format_line(const struct event_iter *it, const struct event *ev, bool json, struct buf *b)
{
	struct event_view v;
	event_view_of(it, ev, &v);
	if (json)
		return json_line(&v, b);
	/* the text holds the file's strings (string arguments): through the terminal escape */
	struct buf raw;
	buf_init(&raw);
	event_format(&v, &raw);
	term_escape_put(b, raw.data, raw.len);
	buf_free(&raw);
	return true;
}

/* the line of an event: from the cache when its signature has no streamed values */
static bool event_line(const struct event_iter *it, const struct event *ev, bool json,
		       struct line_cache *cache, struct buf *scratch, const uint8_t **line, size_t *len)
{
	if (!ev->constant) {
		buf_reset(scratch);
		*line = scratch->data;
		*len = 0;
		if (!format_line(it, ev, json, scratch))
			return false;
		*line = scratch->data;
		*len = scratch->len;
		return true;
	}
	if (cache->offset[ev->sig] == SIZE_MAX) {
		size_t start = cache->text.len;
		if (!format_line(it, ev, json, &cache->text))
			return false;
		cache->offset[ev->sig] = start;
		cache->length[ev->sig] = cache->text.len - start;
	}
	*line = cache->text.data + cache->offset[ev->sig];
	*len = cache->length[ev->sig];
	return true;
}

static void write_line(struct decode_out *o, const uint8_t *line, size_t len, uint64_t repeat)
{
	for (uint64_t k = 0; k < repeat; k++) {
		if (o->json)
			out_put(o, o->any ? ",\n" : "\n", o->any ? 2 : 1);
		out_put(o, line, len);
		if (!o->json)
			out_put(o, "\n", 1);
		o->any = true;
	}
}

static bool decode_rank(const struct run *r, uint32_t rank, struct decode_out *o, bool header, bool first)
{
	struct event_iter it;
	event_iter_init(&it, r, rank);
	struct line_cache cache;
	line_cache_init(&cache, r->nsigs);
	struct buf scratch;
	buf_init(&scratch);
	if (o->json)
		out_printf(o, "%s{\"rank\":%u,\"events\":[", first ? "" : ",\n", rank);
	else if (header)
		out_printf(o, "# rank %u\n", rank);
	o->any = false;
	bool ok = true;
	struct event ev;
	while (ok && event_next(&it, &ev)) {
		const uint8_t *line;
		size_t len;
		ok = event_line(&it, &ev, o->json, &cache, &scratch, &line, &len);
		if (ok)
			write_line(o, line, len, ev.repeat);
	}
	if (o->json)
		out_put(o, "]}", 2);
	buf_free(&scratch);
	line_cache_free(&cache);
	if (ok && it.error[0]) {
		log_error("%s: %s", o->path, it.error);
		ok = false;
	}
	event_iter_free(&it);
	return ok;
}

/* the opening of the JSON document: {"file": PATH, "ranks": [ — the path escaped */
static void json_opening(struct decode_out *o, const char *path)
{
	json_t *name = json_string(path);
	char *text = name ? json_dumps(name, JSON_ENCODE_ANY) : NULL;
	out_printf(o, "{\"file\":");
	out_put(o, text ? text : "null", strlen(text ? text : "null"));
	out_printf(o, ",\"ranks\":[\n");
	free(text);
	json_decref(name);
}

struct decode_opts {
	long rank;
	bool json, grammar;
};

static bool format_option(struct opt_parser *p, const char *arg)
{
	struct decode_opts *o = p->opts;
	if (!strcmp(arg, "json"))
		o->json = true;
	else if (strcmp(arg, "text"))
		return cmd_usage_error("decode", "--format is text or json, not '%s'", arg), false;
	return true;
}

static const struct opt decode_options[] = {
	OPT_LONG('r', "rank", "R", struct decode_opts, rank, 0, 1L << 30, "only rank R (no header line)"),
	OPT_CALLBACK('f', "format", "text|json", format_option,
		     "json: one JSON object, ranks, each with its events (default text)"),
	OPT_FLAG('g', "grammar", struct decode_opts, grammar, "print the grammar rules of each group instead"),
	CMD_MAX_CALLS_OPT,
	OPT_END(),
};

static int run_decode(int argc, char **argv)
{
	struct decode_opts o = {.rank = -1};
	int rc = cmd_parse_options("decode", decode_options, argc, argv, &o);
	if (rc >= 0)
		return rc;
	long rank = o.rank;
	bool json = o.json, grammar = o.grammar;
	if (optind != argc - 1)
		return cmd_usage_error("decode", "needs exactly one run container");
	const char *path = argv[optind];
	struct run r;
	struct h5_err e;
	if (!store_read_run(path, &r, &e)) {
		log_error("%s", e.msg);
		return EXIT_FAIL;
	}
	if (rank >= (long)r.nranks) {
		log_error("%s: rank %ld does not exist (the run has ranks 0..%u)", path, rank, r.nranks - 1);
		run_free(&r);
		return EXIT_FAIL;
	}
	if (!grammar && !cmd_walk_bounded(path, &r)) {
		run_free(&r);
		return EXIT_FAIL;
	}
	bool ok = true;
	if (grammar) {
		for (uint32_t g = 0; g < r.ngroups; g++) {
			if (rank >= 0 && run_rank_group(&r, (uint32_t)rank) != g)
				continue;
			printf("# group %u (%u ranks)\n", g, r.groups[g].nranks);
			grammar_print(&r.groups[g].g, stdout);
		}
	} else {
		struct decode_out out = {.path = path, .json = json};
		buf_init(&out.text);
		if (json)
			json_opening(&out, path);
		for (uint32_t q = 0; q < r.nranks && ok; q++)
			if (rank < 0 || q == (uint32_t)rank)
				ok = decode_rank(&r, q, &out, rank < 0, rank >= 0 || q == 0);
		if (json)
			out_put(&out, "]}\n", 3);
		out_flush(&out);
		buf_free(&out.text);
	}
	run_free(&r);
	return ok ? EXIT_OK : EXIT_FAIL;
}

const struct command command_decode = {
	"decode", "print every call of a run, one line each",
	"usage: ladder decode [--rank R] [--format text|json] [--grammar] [--max-calls N] RUN.h5\n"
	"\n"
	"Expand the compressed trace: every call of every rank in order, one line per call with every\n"
	"recorded parameter, peers and roots as absolute ranks, requests as POOL.SLOT. The text form\n"
	"equals the tracer's raw log (LADDER_TRACE_RAW). The grammar is walked, never expanded in\n"
	"memory, so any trace decodes in constant memory.\n",
	run_decode, decode_options, NULL,
};
