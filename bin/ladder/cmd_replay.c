/*
 * ladder replay — launch ladder-replay on a run with the rank count the run needs, optionally
 * with the tracer preloaded (through `ladder trace`), and return the replayer's exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "meet/balance.h"
#include "meet/replayable.h"
#include "replay/clock.h"
#include "run/events.h"
#include "store/store.h"
#include "util/exitcode.h"
#include "util/file.h"
#include "util/log.h"
#include "util/spawn.h"
#include "util/xalloc.h"

struct argv_buf {
	char **v;
	size_t n, cap;
};

static void push(struct argv_buf *a, const char *s)
{
	XGROW(a->v, a->cap, a->n + 2);
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

/* the launcher's words, {n} replaced by the rank count; "-n N" appended when there is no {n} */
static bool push_launcher(struct argv_buf *a, const char *tmpl, uint32_t nranks)
{
	char n[16];
	snprintf(n, sizeof n, "%u", nranks);
	bool placed = false;
	char *copy = xstrdup(tmpl), *save = NULL;
	for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *at = strstr(w, "{n}");
		if (at) {
			char *s = xasprintf("%.*s%s%s", (int)(at - w), w, n, at + 3);
			push(a, s);
			free(s);
			placed = true;
		} else {
			push(a, w);
		}
	}
	free(copy);
	if (!a->n)
		return false;
	if (!placed) {
		push(a, "-n");
		push(a, n);
	}
	return true;
}

/* run argv and wait: its exit status, 127 when it could not be started */
static int run_and_wait(char **argv)
{
	char *why = NULL;
	int rc = spawn_run(argv, NULL, &why);
	if (rc < 0) {
		log_error("%s", why);
		free(why);
		return 127;
	}
	return rc;
}

struct replay_request {
	const char *launcher, *trace, *path;
	struct argv_buf pass;       /* the replayer's own options, passed on */
};

static void argv_free(struct argv_buf *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->v[i]);
	free(b->v);
	memset(b, 0, sizeof *b);
}

/* an option of ladder-replay: passed on as given */
static bool pass_option(struct opt_parser *p, const char *arg)
{
	struct replay_request *q = p->opts;
	push(&q->pass, p->option);
	if (arg)
		push(&q->pass, arg);
	return true;
}

/* --compute-scale and --message-scale: a finite number > 0 (checked here, before any launch) */
static bool scale_option(struct opt_parser *p, const char *arg)
{
	double v;
	if (!cmd_parse_double("replay", p->option, arg, &v))
		return false;
	if (!(v > 0)) {
		cmd_usage_error("replay", "%s needs a number > 0, got '%s'", p->option, arg);
		return false;
	}
	return pass_option(p, arg);
}

static const struct opt replay_options[] = {
	OPT_STRING(0, "launcher", "CMD", struct replay_request, launcher,
		   "how to start MPI programs (default 'mpirun --oversubscribe'); {n} in CMD is replaced by the "
		   "rank count, else '-n N' is appended (e.g. --launcher 'srun --mpi=pmix')"),
	OPT_STRING(0, "trace", "OUT.h5", struct replay_request, trace,
		   "trace the replay (through ladder trace): compare OUT.h5 with RUN.h5 using ladder compare"),
	OPT_GROUP("Passed to ladder-replay (see ladder-replay --help):"),
	OPT_CALLBACK(0, "timing", "mean|sample", pass_option,
		     "gaps from the histograms' means (default) or sampled from their bins (a bin by its count, a "
		     "time around its mean: the draws keep the mean)"),
	OPT_CALLBACK(0, "clock", "cpu|wall", pass_option, RP_CLOCK_HELP),
	OPT_CALLBACK(0, "seed", "N", pass_option, "seed of the sampling and of the payload"),
	OPT_CALLBACK(0, "sleep", NULL, pass_option, "sleep through gaps (their wall time) instead of computing"),
	OPT_CALLBACK(0, "compute-scale", "K", scale_option, "scale every gap by K"),
	OPT_CALLBACK(0, "no-compute", NULL, pass_option, "no gaps"),
	OPT_CALLBACK(0, "message-scale", "M", scale_option,
		     "scale every message count by M (at least 1 element where > 0)"),
	OPT_CALLBACK(0, "from", "FN[:K]", pass_option, "time from the end of the K-th call of FN (K < 0: from the end)"),
	OPT_CALLBACK(0, "to", "FN[:K]", pass_option, "time to the start of the K-th call of FN"),
	OPT_CALLBACK(0, "json", "FILE", pass_option, "the report as JSON too"),
	OPT_CALLBACK(0, "quiet", NULL, pass_option, "no text report"),
	CMD_MAX_CALLS_OPT,
	OPT_END(),
};

/* -1 when the options are fine, else the exit status */
static int parse_replay_args(int argc, char **argv, struct replay_request *q)
{
	int rc = cmd_parse_options("replay", replay_options, argc, argv, q);
	if (rc >= 0)
		return rc;
	if (optind != argc - 1)
		return cmd_usage_error("replay", "needs exactly one run container");
	q->path = argv[optind];
	return -1;
}

/* the outputs (--json, --trace) may replace neither a device nor the input */
static bool outputs_allowed(const struct replay_request *q, char *const *inputs)
{
	char why[400];
	for (size_t i = 0; i + 1 < q->pass.n; i++)
		if (!strcmp(q->pass.v[i], "--json") && !output_not_input(q->pass.v[i + 1], inputs, 1, why, sizeof why)) {
			log_error("%s", why);
			return false;
		}
	if (q->trace && (!output_replaceable(q->trace, why, sizeof why) ||
			 !output_not_input(q->trace, inputs, 1, why, sizeof why))) {
		log_error("%s", why);
		return false;
	}
	return true;
}

/* the run's rank count, 0 when it cannot be read or replayed (said) */
static uint32_t replayable_ranks(const char *path)
{
	struct run r;
	struct h5_err e;
	if (!store_read_run(path, &r, &e)) {
		log_error("%s", e.msg);
		return 0;
	}
	char why[400], kept[300];
	uint32_t nranks = run_calls_meet(&r, why, sizeof why) ? r.nranks : 0;
	run_kept_text(&r, kept, sizeof kept);
	if (nranks && kept[0])
		log_info("%s: %s", path, kept);
	run_free(&r);
	if (!nranks)
		log_error("%s: %s", path, why);
	return nranks;
}

/* [ladder trace -o OUT --] LAUNCHER ladder-replay OPTIONS RUN; -1 when it is complete, else the
 * exit status */
static int replay_command(const struct replay_request *q, uint32_t nranks, struct argv_buf *a)
{
	if (q->trace) {
		char *self = xasprintf("%s/ladder", cmd_self_dir());
		push(a, self);
		push(a, "trace");
		push(a, "-o");
		push(a, q->trace);
		push(a, "--");
		free(self);
	}
	if (!push_launcher(a, q->launcher, nranks))
		return cmd_usage_error("replay", "--launcher is empty");
	char *replayer = xasprintf("%s/ladder-replay", cmd_self_dir());
	if (access(replayer, X_OK)) {
		log_error("%s: the replayer is missing (%s); build ladder with 'make'", replayer, strerror(errno));
		free(replayer);
		return EXIT_FAIL;
	}
	push(a, replayer);
	free(replayer);
	for (size_t i = 0; i < q->pass.n; i++)
		push(a, q->pass.v[i]);
	if (event_max_calls() != EVENT_MAX_CALLS_DEFAULT) {   /* --max-calls or LADDER_MAX_CALLS */
		char n[32];
		snprintf(n, sizeof n, "%llu", (unsigned long long)event_max_calls());
		push(a, "--max-calls");
		push(a, n);
	}
	push(a, q->path);
	return -1;
}

static int run_replay(int argc, char **argv)
{
	struct replay_request q = {"mpirun --oversubscribe", NULL, NULL, {0}};
	struct argv_buf a = {0};
	int rc = parse_replay_args(argc, argv, &q);
	uint32_t nranks = 0;
	if (rc < 0 && (!outputs_allowed(&q, argv + optind) || !(nranks = replayable_ranks(q.path))))
		rc = EXIT_FAIL;
	if (rc < 0)
		rc = replay_command(&q, nranks, &a);
	if (rc < 0) {
		for (size_t i = 0; log_debug_enabled() && i < a.n; i++)
			log_debug("argv[%zu] = %s", i, a.v[i]);
		rc = run_and_wait(a.v);
	}
	argv_free(&a);
	argv_free(&q.pass);
	return rc;
}

const struct command command_replay = {
	"replay", "replay a run as MPI traffic, timed, optionally traced",
	"usage: ladder replay [options] RUN.h5\n"
	"\n"
	"Launch ladder-replay on RUN.h5 with the run's rank count: every rank issues the calls it made\n"
	"in the run with the recorded parameters and random payload, after the recorded compute gaps,\n"
	"and the replay time and the calls and bytes per function are printed. The exit status is the\n"
	"replayer's: 0 replayed, 1 a call could not be replayed (the message names the rank and call).\n"
	"A synthetic run whose calls would not meet (its label not_replayable, or, up to 4096 ranks, a\n"
	"send without its receive or unequal collectives found by counting every rank's calls) is\n"
	"refused in one line before anything is launched: replaying it would hang.\n"
	"\n"
	"A wildcard receive posts the source it matched. The compute before each send such a receive\n"
	"took is paced by the recorded order: as many turns as the receiver took messages from the\n"
	"others since the sender's previous one, a turn as long for all senders of a receiver, their\n"
	"compute adding up to their recorded compute; on either clock, not sampled. (A proxy keeps the\n"
	"histograms there and places its ranks on cores instead; see ladder help proxy.)\n",
	run_replay, replay_options,
	"Example: the fixed point of trace and replay\n"
	"  ladder trace -o app.h5 -- mpirun -np 16 ./app\n"
	"  ladder replay --trace replay.h5 app.h5 && ladder compare app.h5 replay.h5\n",
};
