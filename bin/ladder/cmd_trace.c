/*
 * ladder trace — run a command with libladder-trace.so preloaded into its MPI processes, and
 * report the run container it produced. The tracer itself is configured by environment variables
 * (documented here); this command only sets them.
 * ladder time — the same command timed untraced: the library passes every call through and only
 * measures the run from MPI_Init to MPI_Finalize (LADDER_TRACE_TIME), the application's own time
 * that traces, replays and proxies are measured against.
 */
#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "launcher.h"
#include "util/buf.h"
#include "util/exitcode.h"
#include "util/log.h"
#include "util/path.h"
#include "util/file.h"
#include "util/spawn.h"
#include "util/xalloc.h"

/* why a process may not have loaded the library, for the error when none did */
#define HOW_TO_PRELOAD                                                                               \
	"Run an MPI application linked dynamically with Open MPI (C, C++ or Fortran) through mpirun or srun " \
	"--mpi=pmix, which pass LD_PRELOAD on; statically linked applications and other MPI libraries "     \
	"cannot be traced"

static void prepend_env(const char *name, const char *value, const char *sep)
{
	const char *old = getenv(name);
	char *v = old && *old ? xasprintf("%s%s%s", value, sep, old) : xstrdup(value);
	setenv(name, v, 1);
	free(v);
}

/*
 * What the run's rank 0 reported (LADDER_TRACE_REPORT): success is only a file this run wrote.
 * Returns the exit status: the command's, or EXIT_FAIL when the command succeeded but no trace
 * was written.
 */
static int report_outcome(const char *report_path, const char *command, int rc)
{
	FILE *f = report_path ? fopen(report_path, "r") : NULL;
	char line[PATH_MAX + 32], started[PATH_MAX] = "";
	bool written = false, quiet = false;
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = 0;
		char *path = strchr(line, ' ');
		if (!path)
			continue;
		*path++ = 0;
		struct stat st;
		if (!strcmp(line, "written") && !stat(path, &st)) {
			log_info("trace written to %s (%lld bytes)", path, (long long)st.st_size);
			written = true;
		} else if (!strcmp(line, "started")) {
			snprintf(started, sizeof started, "%s", path);
		} else if (!strcmp(line, "disabled") || !strcmp(line, "unwritable")) {
			quiet = true;   /* asked for, or already explained by the tracer */
		}
	}
	if (f)
		fclose(f);
	if (written || quiet)
		return rc;
	if (started[0])
		log_error("%s was not written: the run started tracing but did not reach MPI_Finalize or could not "
			  "write the trace (see the messages above)", started);
	else
		log_error("nothing was traced: no process of '%s' called MPI_Init with the tracer loaded. %s", command,
			  HOW_TO_PRELOAD);
	return rc ? rc : EXIT_FAIL;
}

/* A fresh token for one `ladder time` (LADDER_TRACE_TOKEN): 128 random bits in hex. The tracer
 * writes it back at the end of its "time" line; a line without it (from any other process that
 * appends to LADDER_TRACE_REPORT) is not the tracer's. */
static void make_time_token(char token[33])
{
	unsigned char bytes[16];
	FILE *f = fopen("/dev/urandom", "r");
	bool ok = f && fread(bytes, 1, sizeof bytes, f) == sizeof bytes;
	if (f)
		fclose(f);
	if (!ok) {   /* no /dev/urandom: the clock and the pid, still unknown to the command beforehand */
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t x = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)ts.tv_sec << 20 ^ (uint64_t)getpid();
		for (size_t i = 0; i < sizeof bytes; i++, x = x * 6364136223846793005ULL + 1442695040888963407ULL)
			bytes[i] = (unsigned char)(x >> 56);
	}
	for (size_t i = 0; i < sizeof bytes; i++)
		snprintf(token + 2 * i, 3, "%02x", bytes[i]);
}

/* The "time SECONDS RANKS TOKEN" line the tracer's rank 0 reported (LADDER_TRACE_TIME) with this
 * invocation's token: 1 found, 0 none, -1 more than one (two MPI programs, or a forgery that
 * knew the token: neither is one run's time). Lines without the token are not counted. */
static int reported_time(const char *report_path, const char *token, double *seconds, long *ranks)
{
	FILE *f = report_path ? fopen(report_path, "r") : NULL;
	char line[256], theirs[80];
	int found = 0;
	double s;
	long n;
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "time %lf %ld %79s", &s, &n, theirs) == 3 && !strcmp(theirs, token)) {
			found = found ? -1 : 1;
			*seconds = s;
			*ranks = n;
		}
	if (f)
		fclose(f);
	return found;
}


/* a label's key (before '='): stored as an HDF5 attribute name, so checked before the run starts */
static bool label_key_ok(const char *label)
{
	size_t n = strcspn(label, "=");
	if (n == 0 || label[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)label[i]) && !strchr("_-.", label[i]))
			return false;
	return true;
}

/* the options of trace and time: out (absolute), and trace's labels */
struct trace_opts {
	char *out;
	struct buf *labels;
};

static bool output_option(struct opt_parser *p, const char *arg)
{
	struct trace_opts *o = p->opts;
	free(o->out);
	o->out = path_absolute(arg);
	return true;
}

static bool raw_option(struct opt_parser *p, const char *arg)
{
	(void)p;
	char *raw = path_absolute(arg);
	setenv("LADDER_TRACE_RAW", raw, 1);
	free(raw);
	return true;
}

static bool timestamps_option(struct opt_parser *p, const char *arg)
{
	(void)p, (void)arg;
	setenv("LADDER_TRACE_TIMESTAMPS", "1", 1);
	return true;
}

static bool callsite_depth_option(struct opt_parser *p, const char *arg)
{
	long v;
	(void)p;
	if (!cmd_parse_long("trace", "--callsite-depth", arg, 1, 16, &v))
		return false;
	setenv("LADDER_TRACE_CALLSITE_DEPTH", arg, 1);
	return true;
}

static bool stream_after_option(struct opt_parser *p, const char *arg)
{
	long v;
	(void)p;
	if (!cmd_parse_long("trace", "--stream-after", arg, 0, 1 << 20, &v))
		return false;
	setenv("LADDER_TRACE_STREAM_AFTER", arg, 1);
	return true;
}

static bool label_option(struct opt_parser *p, const char *arg)
{
	struct buf *labels = ((struct trace_opts *)p->opts)->labels;
	if (!strchr(arg, '=') || strchr(arg, ';'))
		return cmd_usage_error("trace", "--label expects KEY=VALUE without ';', got '%s'", arg), false;
	if (!label_key_ok(arg))
		return cmd_usage_error("trace", "--label KEY must be letters, digits, '_', '-' or '.', not "
						"starting with '.', got '%s'", arg), false;
	if (labels->len)
		buf_put_u8(labels, ';');
	buf_put(labels, arg, strlen(arg));
	return true;
}

static const struct opt trace_options[] = {
	OPT_CALLBACK('o', "output", "FILE", output_option,
		     "the run container (default APP-<P>p-<time>.h5 in the current directory)"),
	OPT_CALLBACK('r', "raw", "DIR", raw_option, "also log every call as text, DIR/rank-<r>.log (debugging; large)"),
	OPT_CALLBACK('t', "timestamps", NULL, timestamps_option, "lossless timing: keep every call's start and duration"),
	OPT_CALLBACK('d', "callsite-depth", "N", callsite_depth_option, "return addresses per call site (default 1)"),
	OPT_CALLBACK('s', "stream-after", "N", stream_after_option,
		     "variants of a call before its changing values are streamed (default 8); a stream is stored as "
		     "a head and a period read round, once for all the ranks that read the same values, and values "
		     "that follow the rank's grid position (periodic peers, split colours) as laws of it. At "
		     "MPI_Finalize the calls a call site made before it switched are moved into the stream too "
		     "(refolded) where most came after it: a code whose values change with the grid position (a "
		     "27-point halo) has one grammar for its positions and keeps one size at any rank count. 0 "
		     "streams from the first call, the values held in memory until MPI_Finalize (8 bytes each)"),
	OPT_CALLBACK('l', "label", "KEY=VALUE", label_option, "a label stored with the run (repeatable)"),
	OPT_END(),
};

/* the options: tracer settings go to the environment; out and labels are returned. -1 when they
 * are fine, else the exit status of a usage error */
static int parse_trace_options(int argc, char **argv, char **out, struct buf *labels)
{
	struct trace_opts o = {*out, labels};
	struct opt_parser p = cmd_parser("trace", argc, argv, &o);
	p.stop_at_operand = true;   /* COMMAND's own options follow */
	int rc = opt_parse(&p, trace_options);
	*out = o.out;
	return rc;
}

/* the tracer's environment (labels may be NULL); the path of the file its rank 0 reports to (started, written: see
 * lib/trace/lifecycle.c), or NULL */
static char *set_tracer_environment(const char *lib, const char *out, struct buf *labels)
{
	char *self = xasprintf("%s/ladder", cmd_self_dir());
	prepend_env("LD_PRELOAD", lib, ":");
	setenv("LADDER_BIN", self, 1);
	free(self);
	if (out)
		setenv("LADDER_TRACE_FILE", out, 1);
	if (labels && labels->len) {
		buf_put_u8(labels, 0);
		setenv("LADDER_RUN_ATTRS", (char *)labels->data, 1);
	}
	const char *tmpdir = getenv("TMPDIR");
	char *report_path = xasprintf("%s/ladder-trace-report-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	int report_fd = mkstemp(report_path);
	if (report_fd < 0) {
		free(report_path);
		return NULL;
	}
	close(report_fd);
	setenv("LADDER_TRACE_REPORT", report_path, 1);
	return report_path;
}

/* The names of the variables the processes need: LD_PRELOAD and every LADDER_* variable (the
 * tracer's settings, given as options or set by the user). A NULL-terminated array of names
 * pointing into the environment's strings. */
static char **forwarded_names(size_t *n)
{
	extern char **environ;
	size_t cap = 1;
	for (char **e = environ; *e; e++)
		cap++;
	char **names = xcalloc(cap, sizeof *names);
	*n = 0;
	for (char **e = environ; *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq || !(!strncmp(*e, "LADDER_", 7) || !strncmp(*e, "LD_PRELOAD=", 11)))
			continue;
		names[(*n)++] = xasprintf("%.*s", (int)(eq - *e), *e);
	}
	return names;
}

/* The command to run. Open MPI's mpirun forwards the variables of forwarded_names to processes on
 * other nodes: given as -x options to an mpirun command line (which may have -x options of its own:
 * mpirun refuses -x together with mca_base_env_list), else in mca_base_env_list. A new array
 * when it differs from the command given. */
static char **forwarding_command(char **command, int n)
{
	size_t nforward;
	char **forward = forwarded_names(&nforward);
	if (!launcher_is_mpirun(command[0]) || getenv("OMPI_MCA_mca_base_env_list")) {
		for (size_t i = 0; i < nforward; i++)
			prepend_env("OMPI_MCA_mca_base_env_list", forward[i], ";");
		return command;
	}
	char **with = xcalloc((size_t)n + 2 * nforward + 1, sizeof *with);
	int k = 0;
	with[k++] = command[0];
	for (size_t i = 0; i < nforward; i++) {
		with[k++] = "-x";
		with[k++] = forward[i];
	}
	for (int i = 1; i < n; i++)
		with[k++] = command[i];
	return with;
}

/* what both commands check before running: a command after '--', an output path that may be
 * replaced, the library; -1 when all is well (*lib set), else the exit status */
static int check_before_run(const char *name, int argc, char **argv, const char *out, char **lib)
{
	if (optind < argc && !strcmp(argv[optind], "--"))
		optind++;
	if (optind >= argc)
		return cmd_usage_error(name, "needs a command to run after '--'");
	char refused[400];
	if (out && !output_replaceable(out, refused, sizeof refused)) {
		log_error("%s", refused);
		return EXIT_FAIL;
	}
	*lib = xasprintf("%s/../lib/libladder-trace.so", cmd_self_dir());
	if (access(*lib, R_OK)) {
		log_error("%s: the tracer library is missing (%s); build ladder with 'make'", *lib, strerror(errno));
		free(*lib);
		*lib = NULL;
		return EXIT_FAIL;
	}
	return -1;
}

/* the command argv[optind..] run with the library's variables forwarded to its processes: its exit
 * status, 127 when it could not be started */
static int run_forwarded(int argc, char **argv)
{
	char **command = forwarding_command(argv + optind, argc - optind);
	char *why = NULL;
	int rc = spawn_run(command, NULL, &why);
	if (rc < 0) {
		log_error("%s", why);
		free(why);
		rc = 127;
	}
	if (command != argv + optind)
		free(command);
	return rc;
}

static int run_trace(int argc, char **argv)
{
	char *out = NULL, *lib = NULL;
	struct buf labels;
	buf_init(&labels);
	int rc = parse_trace_options(argc, argv, &out, &labels);
	if (rc < 0)
		rc = check_before_run("trace", argc, argv, out, &lib);
	if (rc >= 0) {
		free(out);
		buf_free(&labels);
		return rc;
	}
	char *report_path = set_tracer_environment(lib, out, &labels);
	free(lib);
	buf_free(&labels);
	rc = report_outcome(report_path, argv[optind], run_forwarded(argc, argv));
	if (report_path)
		unlink(report_path);
	free(report_path);
	free(out);
	return rc;
}

/* FILE.json of `ladder time`: the time, the ranks, and what was run where and when */
static bool write_time_json(const char *path, double seconds, long ranks, char **command, int n)
{
	struct buf line;
	buf_init(&line);
	for (int i = 0; i < n; i++) {
		if (i)
			buf_put_u8(&line, ' ');
		buf_put(&line, command[i], strlen(command[i]));
	}
	buf_put_u8(&line, 0);
	char host[256] = "", when[64];
	gethostname(host, sizeof host - 1);
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_t *o = json_pack("{s:f, s:I, s:s, s:s, s:s, s:s}", "time", seconds, "ranks", (json_int_t)ranks, "measured",
			      "the slowest rank from MPI_Init's return to MPI_Finalize, untraced", "command",
			      (char *)line.data, "host", host, "created", when);
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
	char *with_newline = xasprintf("%s\n", text);
	char why[400];
	bool ok = write_file_atomic(path, with_newline, 0644, why, sizeof why);
	if (!ok)
		log_error("cannot write the time: %s", why);
	free(with_newline);
	free(text);
	json_decref(o);
	buf_free(&line);
	return ok;
}

/* the options of `ladder time`: -o FILE, its directory checked before the run; -1 when they are
 * fine, else the exit status of the error */
static const struct opt time_options[] = {
	OPT_CALLBACK('o', "output", "FILE", output_option,
		     "also write the time as JSON: time (s), ranks, measured, command, host, created"),
	OPT_END(),
};

static int parse_time_options(int argc, char **argv, char **out)
{
	struct trace_opts o = {*out, NULL};
	struct opt_parser p = cmd_parser("time", argc, argv, &o);
	p.stop_at_operand = true;
	int rc = opt_parse(&p, time_options);
	*out = o.out;
	if (rc >= 0)
		return rc;
	char *dir = *out ? path_dirname(*out) : NULL;
	if (dir && access(dir, W_OK | X_OK)) {
		/* found out before the run, not after it */
		log_error("%s: cannot write the time there: directory %s: %s", *out, dir, strerror(errno));
		rc = EXIT_FAIL;
	}
	free(dir);
	return rc;
}

/* What the run's rank 0 reported: the time printed, and written to out when given. Returns the
 * exit status: the command's (rc), or EXIT_FAIL when it succeeded but nothing was timed. */
static int time_outcome(const char *report_path, const char *token, const char *out, int argc, char **argv,
			int rc)
{
	double seconds = 0;
	long ranks = 0;
	if (rc == 127)
		return rc;   /* not started: said already */
	if (rc != 0) {
		log_error("no time: '%s' exited with status %d", argv[optind], rc);
		return rc;
	}
	int found = reported_time(report_path, token, &seconds, &ranks);
	if (found < 0) {
		log_error("no time: '%s' reported more than one time (more than one MPI program, or lines not written "
			  "by the tracer)", argv[optind]);
		return EXIT_FAIL;
	}
	if (!found) {
		log_error("no time: no process of '%s' called MPI_Init with the library loaded, or the run did not reach "
			  "MPI_Finalize. %s", argv[optind], HOW_TO_PRELOAD);
		return EXIT_FAIL;
	}
	long launched = launcher_ranks(argc - optind, argv + optind);
	if (ranks < 1 || ranks > INT_MAX || (launched && ranks != launched)) {
		log_error("no time: the tracer reported %ld ranks, but '%s' launched %ld", ranks, argv[optind], launched);
		return EXIT_FAIL;
	}
	printf("application time %.6f s on %ld rank%s (the slowest rank from MPI_Init to MPI_Finalize, untraced)\n",
	       seconds, ranks, ranks == 1 ? "" : "s");
	if (!out)
		return rc;
	if (!write_time_json(out, seconds, ranks, argv + optind, argc - optind))
		return EXIT_FAIL;
	log_info("time written to %s", out);
	return rc;
}

static int run_time(int argc, char **argv)
{
	char *out = NULL, *lib = NULL;
	int rc = parse_time_options(argc, argv, &out);
	if (rc < 0)
		rc = check_before_run("time", argc, argv, out, &lib);
	if (rc >= 0) {
		free(out);
		return rc;
	}
	setenv("LADDER_TRACE_TIME", "1", 1);
	char token[33];
	make_time_token(token);
	setenv("LADDER_TRACE_TOKEN", token, 1);
	char *report_path = set_tracer_environment(lib, NULL, NULL);
	free(lib);
	rc = time_outcome(report_path, token, out, argc, argv, run_forwarded(argc, argv));
	if (report_path)
		unlink(report_path);
	free(report_path);
	free(out);
	return rc;
}

const struct command command_time = {
	"time", "time an MPI command untraced, MPI_Init to MPI_Finalize",
	"usage: ladder time [-o FILE.json] -- COMMAND [ARGS...]\n"
	"       e.g. ladder time -o time.json -- mpirun -np 64 ./app --size 240\n"
	"\n"
	"Run COMMAND as `ladder trace` would, but untraced: the library passes every MPI call\n"
	"through and measures only the run's time, the slowest rank's from MPI_Init's return to\n"
	"MPI_Finalize (what a trace's wall time measures, without the tracer's cost). That is the\n"
	"application time a replay or a proxy predicts: a traced run is slower than the application\n"
	"by more than the tracer's own time where ranks share cores, since each rank's recording\n"
	"delays the others on its core. A campaign's truth job runs the application once traced\n"
	"(the events) and once timed (truth/p<P>/time.json); `ladder report` measures replays and\n"
	"proxies against the timed runs.\n"
	"\n"
	"Prints the time on stdout. The exit status is COMMAND's, or 1 when COMMAND succeeded but\n"
	"reported no time (no process called MPI_Init with the library, or none reached MPI_Finalize),\n"
	"or when the rank count reported differs from the one COMMAND's mpirun line gives (-n, -np or -c,\n"
	"summed over the contexts of an MPI_COMM_WORLD of several programs, A : B).\n",
	run_time, time_options, NULL,
};

const struct command command_trace = {
	"trace", "run an MPI command with the tracer preloaded",
	"usage: ladder trace [options] -- COMMAND [ARGS...]\n"
	"       e.g. ladder trace -o run.h5 -- mpirun -np 16 ./app --size 240\n"
	"\n"
	"Run COMMAND with libladder-trace.so preloaded into its MPI processes (mpirun or srun\n"
	"--mpi=pmix, the application unchanged). At MPI_Finalize the tracer merges the ranks'\n"
	"traces and writes one run container. C, C++ and Fortran (mpif.h, use mpi, use mpi_f08)\n"
	"applications are traced alike. The exit status is COMMAND's, or 1 when COMMAND succeeded\n"
	"but wrote no trace (the message says why: e.g. no process called MPI_Init with the tracer).\n",
	run_trace, trace_options,
	"Without this command, preload the library yourself and set the variables:\n"
	"  LD_PRELOAD=PREFIX/lib/libladder-trace.so\n"
	"  LADDER_TRACE_FILE=FILE          run container to write\n"
	"  LADDER_TRACE_DISABLE=1          pass every call through untraced\n"
	"  LADDER_TRACE_TIME=1             untraced, only the run timed (see 'ladder help time')\n"
	"  LADDER_TRACE_RAW=DIR            text log of every call, one file per rank\n"
	"  LADDER_TRACE_TIMESTAMPS=1       lossless timing\n"
	"  LADDER_TRACE_CALLSITE_DEPTH=N   call-site depth (1)\n"
	"  LADDER_TRACE_STREAM_AFTER=N     variants before values are streamed (8)\n"
	"  LADDER_TRACE_CPUTIME=MODE       the CPU time of compute gaps (beside their wall time), read from\n"
	"                                  the thread's CPU clock: auto (default) every gap when perf events\n"
	"                                  let it be read cheaply (a system call only after a context\n"
	"                                  switch), else long gaps; long: only gaps after calls whose gaps\n"
	"                                  averaged 50 us or more (shorter ones count as all CPU); off: none\n"
	"                                  (replays then keep wall time). Set it in the environment of\n"
	"                                  ladder trace: it is forwarded to every rank\n"
	"  LADDER_TRACE_CONVERT=0          leave the raw trace (FILE.raw); convert with 'ladder import'\n"
	"  LADDER_TRACE_KEEP_RAW=1         keep FILE.raw after converting\n"
	"  LADDER_RUN_ATTRS='k=v;k=v'      labels (campaigns set rung, repetition, size)\n"
	"  LADDER_BIN=PATH                 the ladder executable used for the conversion\n"
	"\n"
	"Applications may mark regions and pause tracing through MPI_Pcontrol; see the header\n"
	"ladder-trace.h (LADDER_REGION_BEGIN/END, LADDER_PAUSE/RESUME).\n"
	"\n"
	"The tracer prints nothing on stdout. It records every MPI function of its table (point to\n"
	"point, probes, completion, all collectives incl. nonblocking and neighbourhood, communicator,\n"
	"group, topology, datatype and op calls); other MPI functions are counted, not recorded.\n"
	"MPI_Wtime, MPI_Wtick and handle conversions are not counted. Fortran calls (every name\n"
	"mangling Open MPI exports, and the _f08 symbols) are recorded as the C calls they make.\n",
};
