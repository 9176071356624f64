/*
 * chrome — Chrome trace-event JSON, written through jansson one event at a time. See chrome.h.
 */
#include "export/chrome.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "meet/call_facts.h"
#include "meet/comms.h"
#include "export/timeline.h"
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

static json_t *call_args(const struct call_facts *f)
{
	json_t *a = json_object();
	if (f->comm != NO_VALUE)
		json_object_set_new(a, "comm", json_integer(f->comm));
	if (f->dest != NO_VALUE)
		json_object_set_new(a, "dest", json_integer(f->dest));
	if (f->source != NO_VALUE)
		json_object_set_new(a, "source", json_integer(f->source));
	if (f->send_tag != NO_VALUE)
		json_object_set_new(a, "tag", json_integer(f->send_tag));
	else if (f->recv_tag != NO_VALUE)
		json_object_set_new(a, "tag", json_integer(f->recv_tag));
	if (f->root != NO_VALUE)
		json_object_set_new(a, "root", json_integer(f->root));
	if (f->vol.sent)
		json_object_set_new(a, "bytes_sent", json_integer((json_int_t)f->vol.sent));
	if (f->vol.recv)
		json_object_set_new(a, "bytes_recv", json_integer((json_int_t)f->vol.recv));
	return a;
}

static json_t *metadata(const char *what, uint32_t tid, const char *name)
{
	return json_pack("{s:s, s:s, s:i, s:I, s:{s:s}}", "name", what, "ph", "M", "pid", 0, "tid",
			 (json_int_t)tid, "args", "name", name);
}

static bool write_rank(const struct run *r, uint32_t q, const struct comm_table *comms, FILE *out,
		       const struct export_options *o, struct export_stats *st, bool *first,
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
		json_t *e = json_pack("{s:s, s:s, s:s, s:f, s:f, s:i, s:I, s:o}", "name", te.ev.fn->name,
				      "cat", "MPI", "ph", "X", "ts", te.start * 1e6, "dur", te.dur * 1e6,
				      "pid", 0, "tid", (json_int_t)q, "args", call_args(&f));
		ok = put(out, e, first);
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
	bool first = true, ok = true;
	char process[300];
	snprintf(process, sizeof process, "ladder: %s", r->command ? r->command : "run");
	fputs("{\"traceEvents\":[\n", out);
	ok = put(out, metadata("process_name", 0, process), &first);
	for (uint32_t q = 0; q < r->nranks && ok; q++) {
		if (!export_rank_selected(o, q))
			continue;
		ok = write_rank(r, q, &comms, out, o, st, &first, why, whylen);
		progress_update("export", (long)q + 1, (long)r->nranks);
	}
	progress_end();
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
