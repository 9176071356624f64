/*
 * ladder import — turn the tracer's raw output into a run container. libladder-trace.so runs it
 * at the end of a traced run; users run it by hand on a raw trace kept with
 * LADDER_TRACE_CONVERT=0 or LADDER_TRACE_KEEP_RAW=1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "run/fn_check.h"
#include "run/run.h"
#include "store/store.h"
#include "util/exitcode.h"
#include "util/file.h"
#include "util/log.h"
#include "util/xalloc.h"

/* run_check_functions' report: the first line it gives */
static void keep_first_line(const char *line, void *arg)
{
	char *first = arg;
	if (!first[0])
		snprintf(first, 400, "%s", line);
}

struct import_opts {
	const char *out;
};

static const struct opt import_options[] = {
	OPT_STRING('o', "output", "FILE", struct import_opts, out, "the run container to write (written atomically)"),
	OPT_END(),
};

static int run_import(int argc, char **argv)
{
	struct import_opts o = {0};
	int rc = cmd_parse_options("import", import_options, argc, argv, &o);
	if (rc >= 0)
		return rc;
	const char *out = o.out;
	if (optind != argc - 1)
		return cmd_usage_error("import", "needs exactly one raw trace file");
	if (!out)
		return cmd_usage_error("import", "needs --output FILE.h5");
	const char *raw = argv[optind];
	char why_out[400];
	if (!output_replaceable(out, why_out, sizeof why_out) ||
	    !output_not_input(out, argv + optind, 1, why_out, sizeof why_out)) {
		log_error("%s", why_out);   /* before the raw trace is read */
		return EXIT_FAIL;
	}
	/* mapped: a raw trace costs the memory of what is parsed of it, not of its size */
	struct file_map m;
	char why[300];
	if (!file_map_open(raw, &m, why, sizeof why)) {
		log_error("%s", why);
		return EXIT_FAIL;
	}
	struct run r;
	bool ok = run_parse(&r, m.data, m.len, why, sizeof why);
	file_map_close(&m);
	if (!ok) {
		log_error("%s: %s", raw, why);
		return EXIT_FAIL;
	}
	if (!run_check(&r, why, sizeof why)) {
		log_error("%s: inconsistent raw trace: %s", raw, why);
		run_free(&r);
		return EXIT_FAIL;
	}
	/* the names of a table other than ladder's reach nothing: no container is written */
	char differs[400] = "";
	if (run_check_functions(&r, 1, keep_first_line, differs)) {
		log_error("%s: %s (a function table other than ladder's is not read)", raw, differs);
		run_free(&r);
		return EXIT_FAIL;
	}
	run_pack_streams(&r);   /* a raw trace of version 1 holds every rank's values literally */
	struct h5_err e;
	ok = store_replace_run(out, &r, argv + optind, 1, &e);
	if (ok)
		log_info("wrote %s (%u ranks, %u signatures, %u groups)", out, r.nranks, r.nsigs, r.ngroups);
	else
		log_error("%s", e.msg);
	run_free(&r);
	return ok ? EXIT_OK : EXIT_FAIL;
}

const struct command command_import = {
	"import", "convert the tracer's raw output into a run container",
	"usage: ladder import RAW -o RUN.h5\n"
	"\n"
	"Convert a raw trace written by libladder-trace.so into a run container. The tracer does this\n"
	"itself at the end of a run; use it by hand on traces kept with LADDER_TRACE_CONVERT=0 or\n"
	"LADDER_TRACE_KEEP_RAW=1 (see 'ladder help trace'). RAW must be a regular file: it is mapped, not\n"
	"read into memory, and a FIFO, a device or a sparse file (which stores far less than its size)\n"
	"is refused.\n",
	run_import, import_options, NULL,
};
