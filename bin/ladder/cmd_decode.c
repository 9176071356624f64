/*
 * ladder decode — every call of every rank, one line each with all its parameters, peers as
 * absolute ranks: the compressed trace expanded back (like pilgrim2text). The text form is the
 * same as the tracer's raw log (LADDER_TRACE_RAW), so the two can be diffed.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "export/event_json.h"
#include "run/events.h"
#include "store/store.h"
#include "util/exitcode.h"
#include "util/log.h"

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

static bool decode_rank(const struct run *r, uint32_t rank, bool json, bool header, bool first)
{
	struct event_iter it;
	event_iter_init(&it, r, rank);
	struct event ev;
	struct buf line;
	buf_init(&line);
	if (json)
		printf("%s{\"rank\":%u,\"events\":[", first ? "" : ",\n", rank);
	else if (header)
		printf("# rank %u\n", rank);
	bool any = false, ok = true;
	while (ok && event_next(&it, &ev)) {
		struct event_view v;
		event_view_of(&it, &ev, &v);
		buf_reset(&line);
		if (json)
			ok = json_line(&v, &line);
		else
			event_format(&v, &line);
		for (uint64_t k = 0; ok && k < ev.repeat; k++) {
			if (json)
				printf("%s\n%.*s", any ? "," : "", (int)line.len, line.data);
			else
				printf("%.*s\n", (int)line.len, line.data);
			any = true;
		}
	}
	if (json)
		printf("]}");
	buf_free(&line);
	if (ok && it.error[0]) {
		log_error("%s", it.error);
		ok = false;
	}
	event_iter_free(&it);
	return ok;
}

/* the opening of the JSON document: {"file": PATH, "ranks": [ — the path escaped */
static void json_opening(const char *path)
{
	json_t *name = json_string(path);
	char *text = name ? json_dumps(name, JSON_ENCODE_ANY) : NULL;
	printf("{\"file\":%s,\"ranks\":[\n", text ? text : "null");
	free(text);
	json_decref(name);
}

static int run_decode(int argc, char **argv)
{
	static const struct option opts[] = {{"rank", required_argument, NULL, 'r'},
					     {"format", required_argument, NULL, 'f'},
					     {"grammar", no_argument, NULL, 'g'},
					     {"help", no_argument, NULL, 'h'}, {0}};
	long rank = -1;
	bool json = false, grammar = false;
	int c;
	while ((c = cmd_getopt(argc, argv, "r:f:gh", opts, "decode")) != -1) {
		if (c == 'r') {
			if (!cmd_parse_long("decode", "--rank", optarg, 0, 1L << 30, &rank))
				return EXIT_USAGE;
		} else if (c == 'f') {
			if (!strcmp(optarg, "json"))
				json = true;
			else if (strcmp(optarg, "text"))
				return cmd_usage_error("decode", "--format is text or json, not '%s'", optarg);
		} else if (c == 'g') {
			grammar = true;
		} else {
			return EXIT_USAGE;
		}
	}
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
	bool ok = true;
	if (grammar) {
		for (uint32_t g = 0; g < r.ngroups; g++) {
			if (rank >= 0 && r.rank_group[rank] != g)
				continue;
			printf("# group %u (%u ranks)\n", g, r.groups[g].nranks);
			grammar_print(&r.groups[g].g, stdout);
		}
	} else {
		if (json)
			json_opening(path);
		for (uint32_t q = 0; q < r.nranks && ok; q++)
			if (rank < 0 || q == (uint32_t)rank)
				ok = decode_rank(&r, q, json, rank < 0, rank >= 0 || q == 0);
		if (json)
			printf("]}\n");
	}
	run_free(&r);
	return ok ? EXIT_OK : EXIT_FAIL;
}

const struct command command_decode = {
	"decode", "print every call of a run, one line each",
	"usage: ladder decode [--rank R] [--format text|json] [--grammar] RUN.h5\n"
	"\n"
	"Expand the compressed trace: every call of every rank in order, one line per call with every\n"
	"recorded parameter, peers and roots as absolute ranks, requests as POOL.SLOT. The text form\n"
	"equals the tracer's raw log (LADDER_TRACE_RAW). The grammar is walked, never expanded in\n"
	"memory, so any trace decodes in constant memory.\n"
	"\n"
	"Options:\n"
	"  --rank R        only rank R (no header line)\n"
	"  --format json   one JSON object: ranks, each with its events\n"
	"  --grammar       print the grammar rules of each group instead\n",
	run_decode,
};
