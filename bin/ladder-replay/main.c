/*
 * ladder-replay — an MPI program that replays a run container: every rank issues the calls its
 * rank made in the traced run, with the recorded parameters, random payload and the recorded
 * compute gaps (lib/replay). Launch it with as many ranks as the run has:
 *
 *   mpirun -np N ladder-replay [options] RUN.h5
 *
 * `ladder replay` wraps the launch. MPI_Init (or MPI_Init_thread, as the application called it)
 * and MPI_Finalize are the application's own; everything else the replayer needs for itself goes
 * through PMPI, so a tracer preloaded onto the replayer records exactly the application's calls.
 */
#include <getopt.h>   /* optind */
#include <mpi.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "meet/replayable.h"
#include "run/events.h"
#include "replay/replay.h"
#include "store/store.h"
#include "mpi/fnids.h"
#include "util/exitcode.h"
#include "util/log.h"
#include "util/options.h"

static const char usage[] =
	"usage: mpirun -np N ladder-replay [options] RUN.h5\n"
	"\n"
	"Replay a run: each rank issues its recorded MPI calls with the recorded parameters and random\n"
	"payload, waiting the recorded compute gap before each call (before a send a wildcard receive\n"
	"took: paced by the recorded order, see ladder help replay). N must be the run's rank count.\n";

static const char usage_end[] =
	"Prints the replay time (the longest rank), the emulated compute, and per function the calls\n"
	"and bytes sent and received over all ranks. Exit status 0 when every call was replayed, 1 when\n"
	"the run cannot be read or a call cannot be replayed (the message names the rank and the call),\n"
	"2 for a usage error or a rank count that is not the run's.\n";

/* the rank before MPI_Init, from the launcher's environment, so that one rank speaks */
static int launch_rank(void)
{
	static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
		if (getenv(vars[i]))
			return atoi(getenv(vars[i]));
	return 0;
}

static bool parse_mark(const char *s, struct rp_mark *m)
{
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	char name[64];
	if (!n || n + 4 >= sizeof name)
		return false;
	snprintf(name, sizeof name, "%.*s", (int)n, s);
	if (fn_lookup(name) < 0) {
		snprintf(name, sizeof name, "MPI_%.*s", (int)n, s);
		if (fn_lookup(name) < 0)
			return false;
	}
	char *end = NULL;
	m->nth = colon ? strtol(colon + 1, &end, 10) : 1;
	if ((colon && (!*(colon + 1) || *end)) || m->nth == 0)
		return false;
	snprintf(m->fn, sizeof m->fn, "%s", name);
	return true;
}

static bool parse_scale(const char *s, double *out)
{
	char *end;
	*out = strtod(s, &end);
	return *s && !*end && isfinite(*out) && *out > 0;
}

/* set the walk bound (run/events.h) from text */
static bool max_calls(const char *text)
{
	uint64_t n;
	if (!event_parse_max_calls(text, &n))
		return false;
	event_set_max_calls(n);
	return true;
}

/* the command line: the replay's options and the report's */
struct replay_cli {
	struct rp_options o;
	const char *json;
	bool quiet, clock_given;
};

static struct rp_options *rp_opts(struct opt_parser *p)
{
	return &((struct replay_cli *)p->opts)->o;
}

static bool timing_option(struct opt_parser *p, const char *arg)
{
	if (!strcmp(arg, "mean"))
		rp_opts(p)->timing = RP_TIMING_MEAN;
	else if (!strcmp(arg, "sample"))
		rp_opts(p)->timing = RP_TIMING_SAMPLE;
	else
		return opt_error(p, "--timing is mean or sample"), false;
	return true;
}

static bool clock_option(struct opt_parser *p, const char *arg)
{
	((struct replay_cli *)p->opts)->clock_given = true;
	if (!strcmp(arg, "cpu"))
		rp_opts(p)->clock = RP_CLOCK_CPU;
	else if (!strcmp(arg, "wall"))
		rp_opts(p)->clock = RP_CLOCK_WALL;
	else
		return opt_error(p, "--clock is cpu or wall"), false;
	return true;
}

static bool seed_option(struct opt_parser *p, const char *arg)
{
	char *end;
	rp_opts(p)->seed = strtoull(arg, &end, 10);
	if (!*arg || *end)
		return opt_error(p, "--seed needs a non-negative integer"), false;
	return true;
}

static bool sleep_option(struct opt_parser *p, const char *arg)
{
	(void)arg;
	rp_opts(p)->sleep = true;
	return true;
}

static bool no_compute_option(struct opt_parser *p, const char *arg)
{
	(void)arg;
	rp_opts(p)->no_compute = true;
	return true;
}

static bool compute_scale_option(struct opt_parser *p, const char *arg)
{
	if (!parse_scale(arg, &rp_opts(p)->compute_scale))
		return opt_error(p, "--compute-scale needs a finite number > 0"), false;
	return true;
}

static bool message_scale_option(struct opt_parser *p, const char *arg)
{
	if (!parse_scale(arg, &rp_opts(p)->message_scale))
		return opt_error(p, "--message-scale needs a finite number > 0"), false;
	return true;
}

static bool from_option(struct opt_parser *p, const char *arg)
{
	if (!parse_mark(arg, &rp_opts(p)->from))
		return opt_error(p, "--from needs FUNCTION[:K], K a non-zero integer"), false;
	return true;
}

static bool to_option(struct opt_parser *p, const char *arg)
{
	if (!parse_mark(arg, &rp_opts(p)->to))
		return opt_error(p, "--to needs FUNCTION[:K], K a non-zero integer"), false;
	return true;
}

static bool max_calls_option(struct opt_parser *p, const char *arg)
{
	if (!max_calls(arg))
		return opt_error(p, "--max-calls needs an integer >= 1"), false;
	return true;
}

static const struct opt replay_options[] = {
	OPT_CALLBACK(0, "timing", "mean|sample", timing_option,
		     "gap per call: the histogram's mean (default), or a bin drawn by count and a time uniform "
		     "around the bin's mean within its range (the draws keep the recorded mean)"),
	OPT_CALLBACK(0, "clock", "cpu|wall", clock_option, RP_CLOCK_HELP),
	OPT_CALLBACK(0, "seed", "N", seed_option, "seed of --timing sample and of the payload (default 1)"),
	OPT_CALLBACK(0, "sleep", NULL, sleep_option, "sleep through gaps (their wall time) instead of computing"),
	OPT_CALLBACK(0, "compute-scale", "K", compute_scale_option, "multiply every gap by K (default 1)"),
	OPT_CALLBACK(0, "no-compute", NULL, no_compute_option, "no gaps at all"),
	OPT_CALLBACK(0, "message-scale", "M", message_scale_option,
		     "multiply every message count by M (at least 1 element where > 0)"),
	OPT_CALLBACK(0, "from", "FN[:K]", from_option,
		     "time from the end of the K-th call of FN (K < 0 counts from the end; default: the first "
		     "replayed call)"),
	OPT_CALLBACK(0, "to", "FN[:K]", to_option, "... to the start of the K-th call of FN (default: the last call)"),
	OPT_STRING(0, "json", "FILE", struct replay_cli, json, "also write the report as JSON"),
	OPT_FLAG(0, "quiet", struct replay_cli, quiet, "no text report"),
	OPT_CALLBACK(0, "max-calls", "N", max_calls_option,
		     "refuse a rank whose trace has more than N calls (default 10^9, or LADDER_MAX_CALLS)"),
	OPT_END(),
};

static void print_usage(const struct opt_parser *p)
{
	if (p->silent)
		return;
	fputs(usage, stdout);
	fputs("\nOptions:\n", stdout);
	opt_print_help(stdout, replay_options, 100);
	printf("\n%s", usage_end);
}

/* -1 to go on (the run is argv[optind]), else the exit status */
static int parse(int argc, char **argv, struct replay_cli *cli, bool speak)
{
	memset(cli, 0, sizeof *cli);
	struct rp_options *o = &cli->o;
	o->compute_scale = o->message_scale = 1;
	o->seed = 1;
	o->clock = RP_CLOCK_DEFAULT;
	struct opt_parser p = {.prefix = "ladder-replay", .hint = "see ladder-replay --help", .silent = !speak,
			       .print_help = print_usage, .opts = cli, .argc = argc, .argv = argv};
	const char *env = getenv("LADDER_MAX_CALLS");
	if (env && !max_calls(env)) {
		opt_error(&p, "LADDER_MAX_CALLS needs an integer >= 1");
		return EXIT_USAGE;
	}
	int rc = opt_parse(&p, replay_options);
	if (rc >= 0)
		return rc;
	const char *bad = NULL;
	if (optind != argc - 1)
		bad = "needs exactly one run container";
	else if (o->sleep && cli->clock_given && o->clock == RP_CLOCK_CPU)
		bad = "--sleep waits on the wall clock; it does not go with --clock cpu";
	if (o->sleep)
		o->clock = RP_CLOCK_WALL;
	if (bad) {
		opt_error(&p, "%s", bad);
		return EXIT_USAGE;
	}
	return -1;
}

/* MPI_Init_thread's `required` if the application called it (-1: MPI_Init) */
static int init_thread_level(const struct run *r)
{
	struct event_iter it;
	struct event ev;
	int level = -1;
	event_iter_init(&it, r, 0);
	if (event_next(&it, &ev) && !strcmp(ev.fn->name, "MPI_Init_thread") && ev.nvals >= 1 &&
	    !sv_is_symbolic(ev.vals[0]))
		level = (int)ev.vals[0];
	event_iter_free(&it);
	return level;
}

int main(int argc, char **argv)
{
	log_set_program("ladder-replay");
	bool speak = launch_rank() == 0, quiet = false;
	struct replay_cli cli;
	int rc = parse(argc, argv, &cli, speak);
	if (rc >= 0)
		return rc;
	struct rp_options o = cli.o;
	const char *json = cli.json;
	quiet = cli.quiet;
	const char *path = argv[optind];
	struct run r;
	struct h5_err e;
	if (!store_read_run(path, &r, &e)) {
		if (speak)
			log_error("%s", e.msg);
		return EXIT_FAIL;
	}
	if (o.clock == RP_CLOCK_CPU && r.cpu_time == RUN_CPU_NONE) {
		if (speak)
			log_warn("%s has no CPU times of its gaps (traced before ladder recorded them, with "
				 "LADDER_TRACE_CPUTIME=off, or extrapolated from such runs): gaps are replayed in wall time",
				 path);
		o.clock = RP_CLOCK_WALL;
	}
	char why[300];
	if (!run_replayable(&r, why, sizeof why)) {
		if (speak)
			log_error("%s: %s", path, why);
		run_free(&r);
		return EXIT_FAIL;
	}
	int level = init_thread_level(&r), provided, rank, size;
	if (level >= 0)
		MPI_Init_thread(&argc, &argv, level, &provided);
	else
		MPI_Init(&argc, &argv);
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
	if ((uint32_t)size != r.nranks) {
		if (rank == 0)
			log_error("%s was recorded on %u ranks; run it with -np %u (this run has %d)", path,
				  r.nranks, r.nranks, size);
		PMPI_Finalize();
		run_free(&r);
		return EXIT_USAGE;
	}
	struct rp x;
	rp_init(&x, &r, rank, size, &o);
	int first_bad = rp_check(&x) ? size : rank, worst;
	PMPI_Allreduce(&first_bad, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (worst < size) {
		if (rank == worst)
			log_error("%s: cannot replay %s", path, x.err);
		rp_free(&x);
		PMPI_Finalize();
		run_free(&r);
		return EXIT_FAIL;
	}
	PMPI_Barrier(MPI_COMM_WORLD);
	if (!rp_run(&x)) {
		log_error("%s: replay failed at %s", path, x.err);
		PMPI_Abort(MPI_COMM_WORLD, EXIT_FAIL);
	}
	rc = rp_report(&x, path, !quiet, json) ? EXIT_OK : EXIT_FAIL;
	rp_free(&x);
	MPI_Finalize();
	run_free(&r);
	return rc;
}
