/*
 * chrome — Chrome trace-event JSON, written one event at a time. See chrome.h.
 *
 * The metadata and provenance objects go through jansson. A call's event is one line of numbers
 * around its function's name, which jansson encodes once per function of the run: building and
 * dumping a jansson object per call cost six times the rest of the export (800,000 calls, 5 s).
 * Reals are printed as jansson prints them (17 significant digits, a decimal point always).
 */
#include "export/chrome.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meet/call_facts.h"
#include "meet/comms.h"
#include "export/timeline.h"
#include "util/xalloc.h"
#include "util/log.h"

static bool put(FILE *out, json_t *j, bool *first)
{
	if (!j)
		return false;
	if (!*first)
		fputs(",\n", out);
	*first = false;
	int rc = json_dumpf(j, out, JSON_COMPACT);
	json_decref(j);
	return rc == 0;
}

/* the line being built: a fixed buffer, enough for the longest event (checked) */
struct line {
	char text[512];
	size_t len;
	bool overflow;
};

static void line_add(struct line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line_add(struct line *l, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = sizeof l->text - l->len;
	int n = vsnprintf(l->text + l->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		l->overflow = true;
	else
		l->len += (size_t)n;
}

/* a finite real as jansson writes it: %.17g, with ".0" when that reads as an integer */
static bool line_add_real(struct line *l, const char *key, double x)
{
	if (!isfinite(x))
		return false;
	size_t at = l->len;
	line_add(l, ",\"%s\":%.17g", key, x);
	if (!l->overflow && !strpbrk(l->text + at + strlen(key) + 4, ".eE"))
		line_add(l, ".0");
	return true;
}

static void line_add_int(struct line *l, const char *key, int64_t v)
{
	line_add(l, "%s\"%s\":%lld", l->text[l->len - 1] == '{' ? "" : ",", key, (long long)v);
}

static void call_args(struct line *l, const struct call_facts *f)
{
	line_add(l, ",\"args\":{");
	if (f->comm != NO_VALUE)
		line_add_int(l, "comm", f->comm);
	if (f->dest != NO_VALUE)
		line_add_int(l, "dest", f->dest);
	if (f->source != NO_VALUE)
		line_add_int(l, "source", f->source);
	if (f->send_tag != NO_VALUE)
		line_add_int(l, "tag", f->send_tag);
	else if (f->recv_tag != NO_VALUE)
		line_add_int(l, "tag", f->recv_tag);
	if (f->root != NO_VALUE)
		line_add_int(l, "root", f->root);
	if (f->vol.sent)
		line_add_int(l, "bytes_sent", (int64_t)f->vol.sent);
	if (f->vol.recv)
		line_add_int(l, "bytes_recv", (int64_t)f->vol.recv);
	line_add(l, "}}");
}

/* the run's function names as JSON strings, encoded by jansson once each */
struct names {
	const struct fn_desc *fns;
	uint32_t n;
	char **json;
};

static void names_init(struct names *nm, const struct run *r)
{
	nm->fns = r->fns;
	nm->n = r->nfns;
	nm->json = xcalloc(r->nfns ? r->nfns : 1, sizeof *nm->json);
}

static void names_free(struct names *nm)
{
	for (uint32_t i = 0; nm->json && i < nm->n; i++)
		free(nm->json[i]);
	free(nm->json);
}

/* the name of the event's function as a JSON string, or NULL when it cannot be encoded */
static const char *names_of(struct names *nm, const struct fn_desc *fn)
{
	if (!nm->json || fn < nm->fns || fn >= nm->fns + nm->n)
		return NULL;
	char **slot = &nm->json[fn - nm->fns];
	if (!*slot) {
		json_t *s = json_string(fn->name);
		*slot = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;
		json_decref(s);
	}
	return *slot;
}

/* one complete event; false when it cannot be written as JSON */
static bool put_call(FILE *out, const struct timed_event *te, uint32_t q, const struct call_facts *f,
		     struct names *nm, bool *first)
{
	const char *name = names_of(nm, te->ev.fn);
	if (!name || strlen(name) > 256)
		return false;
	struct line l = {.len = 0};
	line_add(&l, "%s{\"name\":%s,\"cat\":\"MPI\",\"ph\":\"X\"", *first ? "" : ",\n", name);
	if (!line_add_real(&l, "ts", te->start * 1e6) || !line_add_real(&l, "dur", te->dur * 1e6))
		return false;
	line_add(&l, ",\"pid\":0,\"tid\":%u", q);
	call_args(&l, f);
	if (l.overflow)
		return false;
	*first = false;
	return fwrite(l.text, 1, l.len, out) == l.len;
}

static json_t *metadata(const char *what, uint32_t tid, const char *name)
{
	return json_pack("{s:s, s:s, s:i, s:I, s:{s:s}}", "name", what, "ph", "M", "pid", 0, "tid",
			 (json_int_t)tid, "args", "name", name);
}

static bool write_rank(const struct run *r, uint32_t q, const struct comm_table *comms, struct names *nm,
		       FILE *out, const struct export_options *o, struct export_stats *st, bool *first,
		       char *why, size_t whylen)
{
	char name[32];
	snprintf(name, sizeof name, "rank %u", q);
	if (!put(out, metadata("thread_name", q, name), first))
		return false;
	struct timeline t;
	timeline_init(&t, r, q);
	struct timed_event te;
	uint64_t written = 0;
	bool ok = true;
	while (ok && !export_rank_full(o, written) && timeline_next(&t, &te)) {
		if (export_past_window(o, te.start))
			break;
		if (!export_in_window(o, te.start, te.start + te.dur))
			continue;
		struct call_facts f;
		call_facts_read(&te.ev, q, comms, &f);
		ok = put_call(out, &te, q, &f, nm, first);
		written++;
	}
	if (ok && timeline_error(&t)) {
		snprintf(why, whylen, "%s", timeline_error(&t));
		ok = false;
	} else if (!ok) {
		snprintf(why, whylen, "writing the output failed");
	}
	if (!t.recorded)
		st->recorded_times = false;
	timeline_free(&t);
	st->events += written;
	st->ranks++;
	return ok;
}

static json_t *provenance(const struct run *r, const struct export_options *o, bool recorded)
{
	return json_pack("{s:s, s:s, s:i, s:b, s:s, s:s}", "generator", "ladder export " LADDER_VERSION,
			 "source", o->source ? o->source : "", "ranks", (json_int_t)r->nranks, "synthetic_run",
			 r->synthetic, "command", r->command ? r->command : "", "timestamps",
			 export_timestamps_kind(recorded));
}

bool export_chrome(const struct run *r, FILE *out, const struct export_options *o,
		   struct export_stats *st, char *why, size_t whylen)
{
	memset(st, 0, sizeof *st);
	st->recorded_times = true;
	struct comm_table comms;
	comm_table_build(&comms, r);
	struct names names;
	names_init(&names, r);
	bool first = true, ok = true;
	char process[300];
	snprintf(process, sizeof process, "ladder: %s", r->command ? r->command : "run");
	fputs("{\"traceEvents\":[\n", out);
	ok = put(out, metadata("process_name", 0, process), &first);
	for (uint32_t q = 0; q < r->nranks && ok; q++) {
		if (!export_rank_selected(o, q))
			continue;
		ok = write_rank(r, q, &comms, &names, out, o, st, &first, why, whylen);
		progress_update("export", (long)q + 1, (long)r->nranks);
	}
	progress_end();
	names_free(&names);
	comm_table_free(&comms);
	if (!ok)
		return false;
	fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":", out);
	json_t *p = provenance(r, o, st->recorded_times && st->events);
	int rc = json_dumpf(p, out, JSON_COMPACT);
	json_decref(p);
	fputs("}\n", out);
	if (rc != 0 || ferror(out)) {
		snprintf(why, whylen, "writing the output failed");
		return false;
	}
	return true;
}
