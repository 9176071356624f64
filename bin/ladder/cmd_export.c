/*
 * ladder export — a run container (measured or extrapolated) in the formats other tools read:
 * OTF2 for Vampir and Scalasca, Chrome trace-event JSON for Perfetto. The work is in lib/export.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "export/chrome.h"
#include "export/otf2.h"
#include "run/events.h"
#include "store/store.h"
#include "util/exitcode.h"
#include "util/file.h"
#include "util/log.h"
#include "util/xalloc.h"

/* "0-3,8,12-15" -> flags; false on a malformed list or a rank outside the run */
static bool parse_ranks(const char *list, uint32_t nranks, bool *selected, char *why, size_t whylen)
{
	const char *p = list;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p || a < 0)
			break;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				break;
			p = end;
		}
		if (b >= (long)nranks) {
			snprintf(why, whylen, "--ranks: rank %ld does not exist (the run has ranks 0..%u)", b,
				 nranks - 1);
			return false;
		}
		for (long q = a; q <= b; q++)
			selected[q] = true;
		if (*p == ',')
			p++;
		else if (*p)
			break;
		else
			return true;
	}
	snprintf(why, whylen, "--ranks is a list of ranks and ranges like 0-3,8, not '%s'", list);
	return false;
}

struct export_request {
	const char *format, *output, *ranks, *input;
	double from, to;
	long max_events;
};

static const struct opt export_options[] = {
	OPT_STRING('f', "format", "F", struct export_request, format, "otf2 or chrome"),
	OPT_STRING('o', "output", "OUT", struct export_request, output,
		   "the archive directory (otf2) or the JSON file (chrome)"),
	OPT_STRING('r', "ranks", "LIST", struct export_request, ranks, "only these ranks, e.g. 0-3,8"),
	OPT_DOUBLE('F', "from", "S", struct export_request, from,
		   "only calls overlapping the window from S to --to, in seconds since the run's start"),
	OPT_DOUBLE('T', "to", "S", struct export_request, to, "the window's end (default: the run's end)"),
	OPT_LONG('m', "max-events", "N", struct export_request, max_events, 1, 1L << 62,
		 "at most N calls per rank, the rest left out"),
	OPT_CALLBACK(0, "max-calls", "N", cmd_max_calls_option,
		     "refuse a rank whose trace has more than N calls (default 10^9, or LADDER_MAX_CALLS): a "
		     "bound that does not come from the file (not with --max-events: the walk stops at its N)"),
	CMD_MAX_RANKS_OPT,
	OPT_END(),
};

/* -1 when the request is complete, else the exit status */
static int parse_export_args(int argc, char **argv, struct export_request *q)
{
	*q = (struct export_request){.to = -1};
	int rc = cmd_parse_options("export", export_options, argc, argv, q);
	if (rc >= 0)
		return rc;
	if (!q->format || (strcmp(q->format, "otf2") && strcmp(q->format, "chrome")))
		return cmd_usage_error("export", "--format is otf2 or chrome");
	if (!q->output)
		return cmd_usage_error("export", "needs --output (a directory for otf2, a file or - for chrome)");
	if (optind != argc - 1)
		return cmd_usage_error("export", "needs exactly one run container");
	if (q->from < 0 || (q->to >= 0 && q->to < q->from))
		return cmd_usage_error("export", "--from and --to give a window of seconds since the start, "
				       "from <= to");
	q->input = argv[optind];
	if (q->max_events)   /* the walk stops there: no other bound needed */
		event_set_max_calls(UINT64_MAX);
	return -1;
}

static bool export_chrome_file(const struct run *r, const char *path, const struct export_options *o,
			       struct export_stats *st, char *why, size_t whylen)
{
	bool to_stdout = !strcmp(path, "-");
	if (!to_stdout && !output_replaceable(path, why, whylen))
		return false;
	/* a file: written to a new file of a unique name (O_EXCL) and renamed over path when
	 * finished, so a killed or failed export leaves the earlier file as it was */
	char *tmp = to_stdout ? NULL : xasprintf("%s.tmp.XXXXXX", path);
	int fd = tmp ? mkostemp(tmp, O_CLOEXEC) : -1;
	FILE *f = to_stdout ? stdout : fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		snprintf(why, whylen, "%s: cannot write: %m", tmp ? tmp : path);
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return false;
	}
	bool ok = export_chrome(r, f, o, st, why, whylen);
	if (to_stdout) {
		if (fflush(f) != 0 && ok) {
			snprintf(why, whylen, "%s: writing failed: %m", path);
			ok = false;
		}
		return ok;
	}
	if (fchmod(fileno(f), 0644) == 0 && fflush(f) == 0 && fsync(fileno(f)) == 0) {
		if (fclose(f) != 0 && ok) {
			snprintf(why, whylen, "%s: writing failed: %m", tmp);
			ok = false;
		}
	} else {
		if (ok)
			snprintf(why, whylen, "%s: writing failed: %m", tmp);
		fclose(f);
		ok = false;
	}
	if (ok)
		ok = output_commit(tmp, path, why, whylen);
	else
		unlink(tmp);
	free(tmp);
	return ok;
}

static int run_export(int argc, char **argv)
{
	struct export_request q;
	int rc = parse_export_args(argc, argv, &q);
	if (rc >= 0)
		return rc;
	struct run r;
	struct h5_err e;
	if (!store_read_run(q.input, &r, &e)) {
		log_error("%s", e.msg);
		return EXIT_FAIL;
	}
	char why[512] = "";
	bool *selected = NULL;
	char *inputs[] = {(char *)q.input};
	bool ok = cmd_ranks_walk_bounded(q.input, &r);
	if (ok && strcmp(q.output, "-") && !output_not_input(q.output, inputs, 1, why, sizeof why)) {
		log_error("%s", why);
		ok = false;
	}
	if (!ok) {
		run_free(&r);
		return EXIT_FAIL;
	}
	if (q.ranks) {
		selected = xcalloc(r.nranks ? r.nranks : 1, sizeof *selected);
		ok = parse_ranks(q.ranks, r.nranks, selected, why, sizeof why);
	}
	struct export_options o = {selected, q.from, q.to, (uint64_t)q.max_events, q.input};
	struct export_stats st = {0};
	if (ok)
		ok = !strcmp(q.format, "otf2") ? export_otf2(&r, q.output, &o, &st, why, sizeof why)
					       : export_chrome_file(&r, q.output, &o, &st, why, sizeof why);
	if (ok)
		log_info("wrote %s: %llu calls of %u ranks, timestamps %s", q.output, (unsigned long long)st.events,
			 st.ranks, st.recorded_times && st.events ? "recorded" : "synthesized from the timing");
	else
		log_error("%s: %s", q.input, why);
	free(selected);
	run_free(&r);
	return ok ? EXIT_OK : EXIT_FAIL;
}

const struct command command_export = {
	"export", "write a run as an OTF2 archive (Vampir, Scalasca) or Chrome trace JSON (Perfetto)",
	"usage: ladder export --format otf2|chrome -o OUT [--ranks LIST] [--from S] [--to S]\n"
	"                     [--max-events N | --max-calls N] [--max-ranks N] RUN.h5\n"
	"\n"
	"Write a run container — measured, or extrapolated by 'ladder extrap' — in a format other tools\n"
	"read. Every call becomes an event with its start and duration: the recorded ones when the run\n"
	"was traced with LADDER_TRACE_TIMESTAMPS=1, otherwise synthesized from the run's timing (mean\n"
	"compute gap before each call, mean duration of each call); the output says which.\n"
	"\n"
	"  otf2     OUT is a directory (created) holding traces.otf2: one location per rank, a region\n"
	"           per MPI function, OTF2's MPI records (sends, receives, nonblocking requests and\n"
	"           their completion, collectives with communicator, root and sizes), every\n"
	"           communicator with its members. Read it with Vampir, Scalasca or otf2-print.\n"
	"  chrome   OUT is a JSON file (- for standard output) of the trace-event format: one\n"
	"           complete event per call, the rank as thread id, the call's peers, tag, root and\n"
	"           bytes as args. Open it in Perfetto's UI or chrome://tracing.\n"
	"\n"
	"Both stream the trace: memory does not depend on the number of calls.\n",
	run_export, export_options, NULL,
};
