/*
 * lifecycle — the tracer's life: options from the environment, start-up right after MPI_Init, the
 * hand-written wrappers of MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Abort and MPI_Pcontrol,
 * and the conversion of the merged trace into a run container once MPI is finalized.
 *
 * Options (documented in `ladder help trace`):
 *   LADDER_TRACE_FILE            run container to write (default: APP-<P>p-<time>.h5)
 *   LADDER_TRACE_DISABLE=1       pass every call through untraced
 *   LADDER_TRACE_TIME=1          time the run untraced: pass every call through, and at
 *                                MPI_Finalize rank 0 reports "time SECONDS RANKS", the slowest
 *                                rank's time from MPI_Init's return to MPI_Finalize (`ladder time`)
 *   LADDER_TRACE_RAW=DIR         also log every call as text, one file per rank (debugging)
 *   LADDER_TRACE_TIMESTAMPS=1    lossless timing: keep every call's start and duration
 *   LADDER_TRACE_CALLSITE_DEPTH  return addresses per call site (default 1)
 *   LADDER_TRACE_STREAM_AFTER    variants of a call before its changing values are streamed (8)
 *   LADDER_TRACE_HIST_BINS       bins per compute-gap histogram (8)
 *   LADDER_TRACE_CPUTIME         CPU time of the compute gaps: auto (every gap when perf events
 *                                allow it cheaply, else long gaps), long, off (cputime.c)
 *   LADDER_TRACE_PROFILE=ranks   keep every rank's exclusive time per call path (default:
 *                                statistics over ranks; counts and bytes are always per rank)
 *   LADDER_TRACE_CONVERT=0       leave the raw trace; do not run `ladder import`
 *   LADDER_TRACE_KEEP_RAW=1      keep the raw trace after converting it
 *   LADDER_RUN_ATTRS="k=v;..."   labels stored with the run (campaigns set rung, repetition, size)
 *   LADDER_BIN                   the ladder executable (default: ../bin/ladder next to this library)
 *   LADDER_TRACE_REPORT=FILE     rank 0 appends "started PATH" when tracing starts and "written PATH"
 *                                when the run's file is written (set by `ladder trace`), or the
 *                                "time" line of LADDER_TRACE_TIME (on stderr without this file)
 *   LADDER_TRACE_TOKEN=HEX       `ladder time`'s token for this invocation, written back at the end
 *                                of the "time" line: a line without it was not written by the tracer
 *
 * Processes started by MPI_Comm_spawn are not traced (a note says so): they would write over the
 * trace of the run that spawned them.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace/ladder-trace.h"
#include "trace/tracer.h"
#include "util/file.h"
#include "util/path.h"
#include "util/xalloc.h"

extern char **environ;

void record_fini(void);
void trace_write_raw(const char *path);   /* finalize.c */

static char *raw_path;                     /* written by rank 0 at finalize */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "ladder-trace: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static long env_long(const char *name, long def, long min, long max)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return def;
	char *end;
	errno = 0;
	long x = strtol(v, &end, 10);
	if (errno || *end || x < min || x > max) {
		if (tracer.rank == 0)
			say("%s=%s is not an integer in [%ld, %ld]; using %ld", name, v, min, max, def);
		return def;
	}
	return x;
}

static bool env_flag(const char *name, bool def)
{
	const char *v = getenv(name);
	if (!v || !*v)
		return def;
	if (!strcmp(v, "1") || !strcasecmp(v, "yes") || !strcasecmp(v, "true") || !strcasecmp(v, "on"))
		return true;
	if (!strcmp(v, "0") || !strcasecmp(v, "no") || !strcasecmp(v, "false") || !strcasecmp(v, "off"))
		return false;
	if (tracer.rank == 0)
		say("%s=%s is not a yes/no value; using %s", name, v, def ? "yes" : "no");
	return def;
}

static char *default_output(void)
{
	char exe[PATH_MAX] = "app";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0)
		exe[n] = 0;
	const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	char when[32];
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y%m%d-%H%M%S", localtime(&now));
	return xasprintf("%s-%dp-%s.h5", base, tracer.size, when);
}

/* Rank 0 checks that the container can be written; if not, nobody traces. */
static bool output_writable(void)
{
	char *dir = path_dirname(tracer.out_path);
	struct stat st;
	char why[400];
	bool ok = true;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		say("cannot write the trace to %s: directory %s does not exist; the application runs untraced",
		    tracer.out_path, dir);
		ok = false;
	} else if (access(dir, W_OK | X_OK)) {
		say("cannot write the trace to %s: directory %s is not writable (%s); the application runs untraced",
		    tracer.out_path, dir, strerror(errno));
		ok = false;
	} else if (!output_replaceable(tracer.out_path, why, sizeof why)) {
		say("cannot write the trace: %s; the application runs untraced", why);
		ok = false;
	}
	free(dir);
	return ok;
}

static void open_raw_log(void)
{
	const char *dir = getenv("LADDER_TRACE_RAW");
	if (!dir || !*dir)
		return;
	mkdir(dir, 0777);
	char *path = xasprintf("%s/rank-%d.log", dir, tracer.rank);
	tracer.raw_log = fopen(path, "w+");
	if (!tracer.raw_log && tracer.rank == 0)
		say("cannot write the raw log %s: %s", path, strerror(errno));
	free(path);
}

/* a line for `ladder trace` (LADDER_TRACE_REPORT), from rank 0 */
static void report(const char *what, const char *path)
{
	const char *file = getenv("LADDER_TRACE_REPORT");
	if (tracer.rank != 0 || !file || !*file)
		return;
	FILE *f = fopen(file, "a");
	if (!f)
		return;
	fprintf(f, "%s %s\n", what, path);
	fclose(f);
}

void trace_startup(double t_init)
{
	if (tracer.state != 0)
		return;
	tracer.t0 = trace_now();
	tracer.ts_origin = t_init;
	PMPI_Comm_rank(MPI_COMM_WORLD, &tracer.rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &tracer.size);
	tracer.disabled = env_flag("LADDER_TRACE_DISABLE", false);
	if (tracer.disabled) {
		tracer.state = 1;
		report("disabled", "LADDER_TRACE_DISABLE");
		return;
	}
	MPI_Comm parent;
	PMPI_Comm_get_parent(&parent);
	if (parent != MPI_COMM_NULL) {
		tracer.disabled = true;
		tracer.state = 1;
		if (tracer.rank == 0)
			say("the %d processes started by MPI_Comm_spawn are not traced (only the run that spawned them)",
			    tracer.size);
		return;
	}
	tracer.timed = env_flag("LADDER_TRACE_TIME", false);
	if (tracer.timed) {
		/* the one collective at MPI_Finalize goes through a communicator of its own */
		PMPI_Comm_dup(MPI_COMM_WORLD, &tracer.comm);
		tracer.disabled = true;
		tracer.state = 1;
		return;
	}
	PMPI_Comm_dup(MPI_COMM_WORLD, &tracer.comm);
	pthread_mutex_init(&tracer.lock, NULL);
	tracer.stream_after = (int)env_long("LADDER_TRACE_STREAM_AFTER", 8, 0, 1 << 20);
	tracer.callsite_depth = (int)env_long("LADDER_TRACE_CALLSITE_DEPTH", 1, 1, 16);
	tracer.timestamps = env_flag("LADDER_TRACE_TIMESTAMPS", false);
	tracer.hist_bins = (int)env_long("LADDER_TRACE_HIST_BINS", HIST_DEFAULT_BINS, 1, 256);
	cputime_init(tracer.rank == 0);
	tracer.cpu_last_end = NAN;
	const char *prof = getenv("LADDER_TRACE_PROFILE");
	tracer.profile_ranks = prof && !strcmp(prof, "ranks");
	if (prof && *prof && strcmp(prof, "ranks") && strcmp(prof, "statistics") && tracer.rank == 0)
		say("LADDER_TRACE_PROFILE=%s is not 'statistics' or 'ranks'; using statistics", prof);
	tracer.convert = env_flag("LADDER_TRACE_CONVERT", true);
	tracer.keep_raw = env_flag("LADDER_TRACE_KEEP_RAW", false);
	const char *out = getenv("LADDER_TRACE_FILE");
	tracer.out_path = out && *out ? xstrdup(out) : default_output();
	int broken = 0;
	if (tracer.rank == 0)
		broken = !output_writable();
	PMPI_Bcast(&broken, 1, MPI_INT, 0, tracer.comm);
	if (broken) {
		tracer.disabled = true;
		tracer.state = 1;
		report("unwritable", tracer.out_path);
		return;
	}
	obj_init();
	req_init();
	callsite_init(tracer.callsite_depth);
	tracer.grammar = sequitur_new();
	buf_init(&tracer.ts_buf);
	open_raw_log();
	profile_start(t_init);
	tracer.state = 1;
	report("started", tracer.out_path);
}

/* Record a call of the hand-written wrappers, with times measured by the caller. */
static void record_now(struct tcall *c, double t_invoke, double t_returned)
{
	c->t_invoke = t_invoke;
	c->t_returned = t_returned;
	tcall_end(c);
}

static void record_init(int fn, void *ret, double t0, double t1, int required, int provided)
{
	struct tcall c;
	if (!tcall_begin(&c, fn, ret))
		return;
	c.t_begin = t0;
	if (fn == FN_MPI_Init_thread) {
		enc_int(&c, required);
		enc_int_out(&c, &provided);
	}
	record_now(&c, t0, t1);
}

LADDER_EXPORT int MPI_Init(int *argc, char ***argv)
{
	double t0 = trace_now();
	int rc = PMPI_Init(argc, argv);
	double t1 = trace_now();
	trace_startup(t0);
	record_init(FN_MPI_Init, __builtin_return_address(0), t0, t1, 0, 0);
	tracer.t0 = trace_now();
	tracer.own_time = 0;
	return rc;
}

LADDER_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	double t0 = trace_now();
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	double t1 = trace_now();
	trace_startup(t0);
	tracer.multithreaded = provided && *provided == MPI_THREAD_MULTIPLE;
	record_init(FN_MPI_Init_thread, __builtin_return_address(0), t0, t1, required,
		    provided ? *provided : required);
	tracer.t0 = trace_now();
	tracer.own_time = 0;
	return rc;
}

LADDER_EXPORT int MPI_Pcontrol(const int level, ...)
{
	if (level == LADDER_PCONTROL_REPLAY_ANY_SOURCE) {
		trace_replay_any_source();
		return MPI_SUCCESS;
	}
	const char *name = NULL;
	if (level == LADDER_PCONTROL_REGION_BEGIN || level == LADDER_PCONTROL_REGION_END) {
		va_list ap;
		va_start(ap, level);
		name = va_arg(ap, const char *);
		va_end(ap);
	}
	struct tcall c;
	if (!tcall_begin(&c, FN_MPI_Pcontrol, __builtin_return_address(0)))
		return PMPI_Pcontrol(level);
	enc_int(&c, level);
	enc_string(&c, name);
	double now = c.t_begin;
	if (level == LADDER_PCONTROL_RESUME && tracer.paused) {
		tracer.paused = false;
		c.record = true;
	}
	if (name && level == LADDER_PCONTROL_REGION_BEGIN && c.record)
		profile_region_begin(trace_intern(name), now);
	if (name && level == LADDER_PCONTROL_REGION_END && c.record)
		profile_region_end(trace_intern(name), now);
	tcall_invoke(&c);
	int rc = PMPI_Pcontrol(level);
	tcall_returned(&c);
	tcall_end(&c);
	if (level == LADDER_PCONTROL_PAUSE)
		tracer.paused = true;
	return rc;
}

/* Run `ladder import RAW -o OUT` and wait for it. */
static void convert(void)
{
	char bin[PATH_MAX];
	const char *env = getenv("LADDER_BIN");
	if (env && *env) {
		snprintf(bin, sizeof bin, "%s", env);
	} else {
		Dl_info info;
		bin[0] = 0;
		if (dladdr((void *)&trace_startup, &info) && info.dli_fname) {
			char lib[PATH_MAX];
			snprintf(lib, sizeof lib, "%s", info.dli_fname);
			char *slash = strrchr(lib, '/');
			if (slash)
				*slash = 0;
			else
				strcpy(lib, ".");
			snprintf(bin, sizeof bin, "%s/../bin/ladder", lib);
		}
	}
	if (!bin[0] || access(bin, X_OK)) {
		say("cannot find the ladder executable (set LADDER_BIN); the raw trace is in %s; convert it with "
		    "'ladder import %s -o %s'", raw_path, raw_path, tracer.out_path);
		return;
	}
	char *argv[] = {bin, "--quiet", "import", raw_path, "-o", tracer.out_path, NULL};
	pid_t pid;
	int err = posix_spawn(&pid, bin, NULL, NULL, argv, environ);
	int status = 0;
	if (err || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		say("converting %s into %s failed; the raw trace is kept", raw_path, tracer.out_path);
		return;
	}
	if (!tracer.keep_raw)
		unlink(raw_path);
	report("written", tracer.out_path);
}

void trace_state_fini(void)
{
	if (tracer.raw_log)
		fclose(tracer.raw_log);
	tracer.raw_log = NULL;
	profile_fini();
	record_fini();
	cputime_fini();
	callsite_fini();
	req_fini();
	obj_fini();
	buf_free(&tracer.ts_buf);
}

/* LADDER_TRACE_TIME: the slowest rank's time since MPI_Init returned, reported by rank 0 */
static void report_time(void)
{
	double mine = trace_now() - tracer.t0, slowest = 0;
	PMPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, tracer.comm);
	PMPI_Comm_free(&tracer.comm);
	if (tracer.rank != 0)
		return;
	char line[160];
	const char *token = getenv("LADDER_TRACE_TOKEN");
	snprintf(line, sizeof line, "%.6f %d %.64s", slowest, tracer.size, token && *token ? token : "-");
	const char *file = getenv("LADDER_TRACE_REPORT");
	if (file && *file)
		report("time", line);
	else
		say("the run took %.6f s on %d ranks, the slowest from MPI_Init to MPI_Finalize (untraced)", slowest,
		    tracer.size);
}

LADDER_EXPORT int MPI_Finalize(void)
{
	if (tracer.state == 1 && tracer.timed)
		report_time();
	bool traced = tracer.state == 1 && !tracer.disabled;
	if (traced) {
		tracer.app_time = trace_now() - tracer.t0 - tracer.own_time;
		struct tcall c;
		if (tcall_begin(&c, FN_MPI_Finalize, __builtin_return_address(0))) {
			c.record = true;
			double now = trace_now();
			record_now(&c, now, now);
		}
		profile_stop(trace_now());
		if (tracer.rank == 0)
			raw_path = xasprintf("%s.raw", tracer.out_path);
		trace_write_raw(raw_path);
		PMPI_Comm_free(&tracer.comm);
	}
	tracer.state = 2;
	int rc = PMPI_Finalize();
	if (traced) {
		if (tracer.rank == 0 && tracer.convert && raw_path)
			convert();
		else if (tracer.rank == 0 && raw_path && !access(raw_path, R_OK))
			report("written", raw_path);
		trace_state_fini();
	}
	free(raw_path);
	raw_path = NULL;
	return rc;
}

LADDER_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
	if (tracer.state == 1 && !tracer.disabled)
		say("MPI_Abort(%d) on rank %d: the run ends without a trace", errorcode, tracer.rank);
	tracer.state = 2;
	return PMPI_Abort(comm, errorcode);
}
