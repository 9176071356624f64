/*
 * ladder proxy — write a readable C+MPI program that makes a run's MPI calls (lib/proxy): the
 * command reads the container, hands it to the generator and reports where the program is.
 */
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>

#include "command.h"
#include "meet/replayable.h"
#include "proxy/proxy.h"
#include "store/store.h"
#include "util/exitcode.h"
#include "util/log.h"

extern char **environ;

/* make -s -C DIR -f Makefile: true when it built the program. The generated Makefile is named,
 * so a GNUmakefile or makefile already in DIR (which make would prefer) is not run. */
static bool build(const char *dir)
{
	char *args[] = {"make", "-s", "-C", (char *)dir, "-f", "Makefile", NULL};
	pid_t pid;
	int status;
	if (posix_spawnp(&pid, "make", NULL, NULL, args, environ) != 0) {
		log_error("%s: cannot run make", dir);
		return false;
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		log_error("%s/proxy.c: the build failed (make -C %s -f Makefile)", dir, dir);
		return false;
	}
	return true;
}

struct proxy_cli {
	const char *dir;
	bool build;
};

static const struct opt proxy_cli_options[] = {
	OPT_STRING('o', "output", "DIR", struct proxy_cli, dir, "where to write (created if missing)"),
	OPT_FLAG('b', "build", struct proxy_cli, build, "then build it (make -C DIR -f Makefile): DIR/proxy"),
	CMD_MAX_CALLS_OPT,
	OPT_END(),
};

static int run_proxy(int argc, char **argv)
{
	struct proxy_cli cli = {0};
	int rc = cmd_parse_options("proxy", proxy_cli_options, argc, argv, &cli);
	if (rc >= 0)
		return rc;
	const char *dir = cli.dir;
	bool and_build = cli.build;
	if (optind != argc - 1)
		return cmd_usage_error("proxy", "needs one run container");
	if (!dir)
		return cmd_usage_error("proxy", "needs -o DIR, the directory to write the program into");
	struct run r;
	struct h5_err e;
	if (!store_read_run(argv[optind], &r, &e)) {
		log_error("%s", e.msg);
		return EXIT_FAIL;
	}
	if (!cmd_walk_bounded(argv[optind], &r)) {
		run_free(&r);
		return EXIT_FAIL;
	}
	char why[1024];
	struct proxy_options o = {.source = argv[optind]};
	bool ok = proxy_generate(&r, &o, dir, why, sizeof why);
	if (!ok)
		log_error("%s: cannot write a proxy: %s", argv[optind], why);
	else
		log_info("wrote %s/proxy.c, %s/proxy.h and %s/Makefile (build with make, run with mpirun -np %u)", dir,
			 dir, dir, r.nranks);
	char kept[300];
	run_kept_text(&r, kept, sizeof kept);
	if (ok && kept[0])
		log_info("%s: %s", argv[optind], kept);
	if (ok && and_build)
		ok = build(dir);
	run_free(&r);
	return ok ? EXIT_OK : EXIT_FAIL;
}

const struct command command_proxy = {
	"proxy", "write a C+MPI program that makes a run's MPI calls",
	"usage: ladder proxy RUN.h5 -o DIR [--build] [--max-calls N]\n"
	"\n"
	"Writes DIR/proxy.c, DIR/proxy.h and DIR/Makefile: a program that makes the MPI calls the run\n"
	"recorded, rank for rank and in order, with the same parameters, without the application's source\n"
	"or data. It works from the compressed trace: each group of ranks with identical call sequences\n"
	"becomes one C function per grammar rule with `for` loops for repetitions, main() picks a rank's\n"
	"group by its ranklist, values that change from call to call are compact tables, and the compute\n"
	"between calls is CPU work calibrated at startup (in iterations per CPU second) from the recorded\n"
	"timing histograms: by default as much as the run's thread used (its CPU time), so that a node\n"
	"shared by more ranks than cores stretches it as it did the application's. So the\n"
	"program's size follows the trace's grammars, not the rank or iteration count. Extrapolated runs\n"
	"(ladder extrap) work the same way.\n"
	"\n"
	"Wildcard receives (a master taking results from whichever worker is ready first) get the source\n"
	"they matched posted, so the program takes the recorded split of messages among the senders, one\n"
	"run's outcome of which sender shared a core with whom. On a node with more ranks than cores, a\n"
	"program of a run whose wildcard receives took sends therefore places its ranks as that split\n"
	"needs: each rank is bound to one of the cores the node's ranks share, the most recorded compute\n"
	"first, each to the core with the least so far among those with room (at most ceil(ranks/cores)\n"
	"a core: a rank waiting in MPI polls), so the worker that did most of the work has a core to\n"
	"itself but for the master (mw at 4 ranks on 2 cores: 0.89 to 0.91 s in eight runs against the\n"
	"application's 0.84 to 0.93 s; unplaced, 0.91 to 1.21 s as the kernel happened to place them).\n"
	"Nothing is bound when the ranks have a core each or the launcher bound them apart.\n"
	"\n"
	"The program's options:\n"
	"  --compute-scale K     compute between calls x K (0: none)\n"
	"  --message-scale M     message counts x M (at least 1 where the run had one)\n"
	"  --timing mean|sample  compute gaps: the histogram's mean (default) or drawn from its bins\n"
	"                        (a bin by its count, a time around its mean: the draws keep the mean)\n"
	"  --clock cpu|wall      compute gaps: until the thread used the recorded CPU time (default;\n"
	"                        runs without CPU times: wall), or until the recorded wall time passed\n"
	"  --seed S              seed of --timing sample\n"
	"  --placement packed|none  the placement above (default packed), or the ranks as launched\n"
	"  --json FILE           rank 0 also writes the time and the knobs there as JSON (and the\n"
	"                        CPU each rank of its node was bound to, bound_cpus)\n"
	"It prints `proxy time: T s` (the slowest rank, from MPI_Init's return to MPI_Finalize, as the\n"
	"application's time is read from its trace; the compute is calibrated before MPI_Init).\n"
	"Tracing it gives a run that `ladder compare` finds equal to RUN.h5.\n"
	"\n"
	"A call the generator cannot express is refused before anything is written, with one line naming\n"
	"the rank, the call and the reason (exit 1); so is a synthetic run whose calls would not meet\n"
	"(its label not_replayable, or, up to 4096 ranks, a send without its receive found by counting\n"
	"its calls).\n",
	run_proxy, proxy_cli_options,
	"The campaign stage `proxy` runs `ladder proxy --build` on the extrapolated trace of each target,\n"
	"then the program on the target's ranks through the site's launcher (--json proxy/pP/proxy.json);\n"
	"`ladder report` compares its time with the application's and the replay's there.\n"
	"\n"
	"Exit: 0 written (and built), 1 unreadable run, refused or failed build, 2 usage.\n",
};
