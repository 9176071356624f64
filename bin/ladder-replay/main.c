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
#include <getopt.h>
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

static const char usage[] =
	"usage: mpirun -np N ladder-replay [options] RUN.h5\n"
	"\n"
	"Replay a run: each rank issues its recorded MPI calls with the recorded parameters and random\n"
	"payload, waiting the recorded compute gap before each call (before a send a wildcard receive\n"
	"took: paced by the recorded order, see ladder help replay). N must be the run's rank count.\n"
	"\n"
	"Options:\n"
	"  --timing mean|sample   gap per call: the histogram's mean (default), or a bin drawn by count\n"
	"                         and a time uniform around the bin's mean within its range (the\n"
	"                         draws keep the recorded mean)\n"
	"  --clock cpu|wall       " RP_CLOCK_HELP
	"  --seed N               seed of --timing sample and of the payload (default 1)\n"
	"  --sleep                sleep through gaps (their wall time) instead of computing\n"
	"  --compute-scale K      multiply every gap by K (default 1)\n"
	"  --no-compute           no gaps at all\n"
	"  --message-scale M      multiply every message count by M (at least 1 element where > 0)\n"
	"  --from FN[:K]          time from the end of the K-th call of FN (K < 0 counts from the end;\n"
	"                         default: the first replayed call)\n"
	"  --to FN[:K]            ... to the start of the K-th call of FN (default: the last call)\n"
	"  --json FILE            also write the report as JSON\n"
	"  --quiet                no text report\n"
	"  --max-calls N          refuse a rank whose trace has more than N calls (default 10^9, or\n"
	"                         LADDER_MAX_CALLS)\n"
	"\n"
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

/* 0 to go on, else the exit status */
static int parse(int argc, char **argv, struct rp_options *o, const char **json, bool *quiet, bool speak)
{
	static const struct option opts[] = {
		{"timing", required_argument, NULL, 't'}, {"seed", required_argument, NULL, 'S'},
		{"clock", required_argument, NULL, 'c'},
		{"sleep", no_argument, NULL, 's'}, {"compute-scale", required_argument, NULL, 'k'},
		{"no-compute", no_argument, NULL, 'n'}, {"message-scale", required_argument, NULL, 'm'},
		{"from", required_argument, NULL, 'f'}, {"to", required_argument, NULL, 'T'},
		{"json", required_argument, NULL, 'j'}, {"quiet", no_argument, NULL, 'q'},
		{"max-calls", required_argument, NULL, 'M'},
		{"help", no_argument, NULL, 'h'}, {0}};
	memset(o, 0, sizeof *o);
	o->compute_scale = o->message_scale = 1;
	o->seed = 1;
	o->clock = RP_CLOCK_DEFAULT;
	bool clock_given = false;
	opterr = 0;
	int c;
	const char *bad = NULL;
	const char *env = getenv("LADDER_MAX_CALLS");
	if (env && !max_calls(env))
		bad = "LADDER_MAX_CALLS needs an integer >= 1";
	while (!bad && (c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		char *end;
		switch (c) {
		case 't':
			if (!strcmp(optarg, "mean"))
				o->timing = RP_TIMING_MEAN;
			else if (!strcmp(optarg, "sample"))
				o->timing = RP_TIMING_SAMPLE;
			else
				bad = "--timing is mean or sample";
			break;
		case 'c':
			clock_given = true;
			if (!strcmp(optarg, "cpu"))
				o->clock = RP_CLOCK_CPU;
			else if (!strcmp(optarg, "wall"))
				o->clock = RP_CLOCK_WALL;
			else
				bad = "--clock is cpu or wall";
			break;
		case 'S':
			o->seed = strtoull(optarg, &end, 10);
			bad = *optarg && !*end ? NULL : "--seed needs a non-negative integer";
			break;
		case 's': o->sleep = true; break;
		case 'n': o->no_compute = true; break;
		case 'k': bad = parse_scale(optarg, &o->compute_scale) ? NULL : "--compute-scale needs a finite number > 0"; break;
		case 'm': bad = parse_scale(optarg, &o->message_scale) ? NULL : "--message-scale needs a finite number > 0"; break;
		case 'f': bad = parse_mark(optarg, &o->from) ? NULL : "--from needs FUNCTION[:K], K a non-zero integer"; break;
		case 'T': bad = parse_mark(optarg, &o->to) ? NULL : "--to needs FUNCTION[:K], K a non-zero integer"; break;
		case 'j': *json = optarg; break;
		case 'q': *quiet = true; break;
		case 'M': bad = max_calls(optarg) ? NULL : "--max-calls needs an integer >= 1"; break;
		case 'h':
			if (speak)
				fputs(usage, stdout);
			return -1;
		case ':': bad = "an option is missing its value"; break;
		default: bad = "unknown option"; break;
		}
	}
	if (!bad && optind != argc - 1)
		bad = "needs exactly one run container";
	if (!bad && o->sleep && clock_given && o->clock == RP_CLOCK_CPU)
		bad = "--sleep waits on the wall clock; it does not go with --clock cpu";
	if (o->sleep)
		o->clock = RP_CLOCK_WALL;
	if (bad) {
		if (speak)
			fprintf(stderr, "ladder-replay: %s (see ladder-replay --help)\n", bad);
		return EXIT_USAGE;
	}
	return 0;
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
	struct rp_options o;
	const char *json = NULL;
	int rc = parse(argc, argv, &o, &json, &quiet, speak);
	if (rc)
		return rc < 0 ? EXIT_OK : rc;
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
