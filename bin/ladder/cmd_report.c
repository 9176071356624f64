/*
 * ladder report — the closed loop's verdict on a campaign: models against the real run at the
 * target, the extrapolated trace against it, the replay time against the application's, the
 * kernel ranking; thresholds and the nightly history decide the exit status. The work is in
 * lib/report; this command parses options, gathers, judges and writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

#include "command.h"
#include "report/history.h"
#include "report/report.h"
#include "report/writers.h"
#include "util/exitcode.h"
#include "util/file.h"
#include "util/log.h"
#include "util/xalloc.h"

struct report_cli {
	const char *html, *markdown, *json, *dir, *history;
	bool strict, quiet;
	long top;
	struct report_inputs in;
	struct thresholds th;
};

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = (char *)s;
}

static bool thresholds_option(struct opt_parser *p, const char *arg)
{
	struct report_cli *cli = p->opts;
	char why[256];
	if (!thresholds_parse(arg, &cli->th, why, sizeof why))
		return cmd_usage_error("report", "--thresholds %s", why), false;
	return true;
}

static bool target_option(struct opt_parser *p, const char *arg)
{
	struct report_cli *cli = p->opts;
	long v;
	if (!cmd_parse_long("report", "--target", arg, 1, 1L << 30, &v))
		return false;
	cli->in.targets = xrealloc(cli->in.targets, (cli->in.ntargets + 1) * sizeof *cli->in.targets);
	cli->in.targets[cli->in.ntargets++] = v;
	return true;
}

#define REPEATED_INPUT(kind)                                              \
	static bool kind##_option(struct opt_parser *p, const char *arg)  \
	{                                                                 \
		struct report_inputs *in = &((struct report_cli *)p->opts)->in; \
		push(&in->kind, &in->n##kind, arg);                       \
		return true;                                              \
	}
REPEATED_INPUT(truth)
REPEATED_INPUT(timed)
REPEATED_INPUT(extrap)
REPEATED_INPUT(replay)
REPEATED_INPUT(proxy)

static const struct opt report_options[] = {
	OPT_STRING('o', "dir", "DIR", struct report_cli, dir, "write DIR/report.html, DIR/report.md and DIR/report.json"),
	OPT_STRING(0, "html", "FILE", struct report_cli, html,
		   "the report as one self-contained HTML page with plots (gnuplot SVG)"),
	OPT_STRING(0, "markdown", "FILE", struct report_cli, markdown, "the Markdown summary ('-': standard output only)"),
	OPT_STRING(0, "json", "FILE", struct report_cli, json, "the report for machines"),
	OPT_STRING(0, "history", "H.h5", struct report_cli, history,
		   "judge against past nights and append this one (created when missing; hdf5-schema/history.yaml)"),
	OPT_CALLBACK(0, "thresholds", "LIST", thresholds_option,
		     "NAME=MIN,...: the lowest acceptable value of figures (repeatable): time, proxy, events, "
		     "counts, model_METRIC (or METRIC alone), interval, ranking, topk; NAME=none leaves a figure "
		     "without a rule; margin=M sets the regression margin (default 0.05). A figure not named has its "
		     "default: events 1, counts 1, time 0.9, proxy 0.9, model_time 0.5, the other model_METRIC 0.9, "
		     "interval 0.8, ranking 0.5, topk 0.6 (the workflow's acceptance overrides them)"),
	OPT_CALLBACK(0, "truth", "FILE", truth_option,
		     "a real run at a target (repeatable; its rank count says which target)"),
	OPT_CALLBACK(0, "timed", "FILE", timed_option,
		     "an untraced run's time at a target, ladder time -o (repeatable; their median is the "
		     "application time)"),
	OPT_CALLBACK(0, "extrap", "FILE", extrap_option, "an extrapolated trace (repeatable)"),
	OPT_CALLBACK(0, "replay", "FILE", replay_option, "a replay report of ladder-replay --json (repeatable)"),
	OPT_CALLBACK(0, "proxy", "FILE", proxy_option, "a proxy program's --json report (repeatable)"),
	OPT_CALLBACK(0, "target", "P", target_option, "report on P ranks even when nothing was found for it"),
	OPT_LONG(0, "top", "K", struct report_cli, top, 1, 1000, "k of the top-k agreement (default 5)"),
	OPT_FLAG(0, "strict", struct report_cli, strict, "NOT VALIDATED exits 1 as FAIL does"),
	OPT_FLAG('q', "quiet", struct report_cli, quiet, "no summary on standard output"),
	OPT_END(),
};

static int parse(int argc, char **argv, struct report_cli *cli)
{
	int rc = cmd_parse_options("report", report_options, argc, argv, cli);
	if (rc >= 0)
		return rc;
	if (cli->top)
		cli->in.topk = (size_t)cli->top;
	if (optind != argc - 1)
		return cmd_usage_error("report", "needs one campaign container");
	return -1;
}

static char *now_iso(void)
{
	struct timeval tv;
	gettimeofday(&tv, NULL);
	struct tm tm;
	gmtime_r(&tv.tv_sec, &tm);
	char s[32];
	strftime(s, sizeof s, "%Y-%m-%dT%H:%M:%S", &tm);
	return xasprintf("%s.%06ldZ", s, (long)tv.tv_usec);
}

/* the files report reads, which no output may replace: the campaign, the runs and replays given,
 * the history */
static int report_inputs(const struct report_cli *cli, const char *campaign, char **inputs)
{
	int n = 0;
	inputs[n++] = (char *)campaign;
	for (size_t i = 0; i < cli->in.ntruth; i++)
		inputs[n++] = cli->in.truth[i];
	for (size_t i = 0; i < cli->in.ntimed; i++)
		inputs[n++] = cli->in.timed[i];
	for (size_t i = 0; i < cli->in.nextrap; i++)
		inputs[n++] = cli->in.extrap[i];
	for (size_t i = 0; i < cli->in.nreplay; i++)
		inputs[n++] = cli->in.replay[i];
	if (cli->history)
		inputs[n++] = (char *)cli->history;
	return n;
}

/* one output made in memory and put in its file as a whole (written through a device), or not at
 * all: a full disk leaves the old file */
static bool write_output(const char *path, const char *what, report_writer *write, const struct report *r,
			 const struct verdict *v)
{
	char *text = NULL, why[600];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	bool ok = f && write(r, v, f);
	if (f && fclose(f))
		ok = false;
	if (!ok)
		log_error("%s: cannot make the %s report", path, what);
	else if (!write_file_atomic(path, text, 0644, why, sizeof why)) {
		log_error("%s", why);
		ok = false;
	}
	free(text);
	return ok;
}

/* the outputs: explicit files, and DIR/report.{html,md,json} with --dir; none over an input */
static bool write_outputs(const struct report_cli *cli, const char *campaign, const struct report *r,
			  const struct verdict *v)
{
	char *html = cli->html ? xstrdup(cli->html) : cli->dir ? xasprintf("%s/report.html", cli->dir) : NULL;
	char *md = cli->markdown ? xstrdup(cli->markdown) : cli->dir ? xasprintf("%s/report.md", cli->dir) : NULL;
	char *json = cli->json ? xstrdup(cli->json) : cli->dir ? xasprintf("%s/report.json", cli->dir) : NULL;
	char **inputs = xcalloc(cli->in.ntruth + cli->in.ntimed + cli->in.nextrap + cli->in.nreplay + 2, sizeof *inputs), why[600];
	int ninputs = report_inputs(cli, campaign, inputs);
	const char *outputs[] = {html, md && strcmp(md, "-") ? md : NULL, json};
	bool ok = true;
	for (size_t i = 0; i < 3 && ok; i++)
		if (outputs[i] && !output_not_input(outputs[i], inputs, ninputs, why, sizeof why)) {
			log_error("%s", why);
			ok = false;
		}
	free(inputs);
	if (ok && cli->dir && mkdir(cli->dir, 0777) && errno != EEXIST) {
		log_error("%s: cannot create the directory (%s)", cli->dir, strerror(errno));
		ok = false;
	}
	if (ok && json)
		ok = write_output(json, "JSON", report_write_json, r, v);
	if (ok && md)
		ok = strcmp(md, "-") ? write_output(md, "Markdown", report_write_markdown, r, v)
				     : report_write_markdown(r, v, stdout);
	if (ok && html)
		ok = write_output(html, "HTML", report_write_html, r, v);
	if (ok && !cli->quiet) {
		if (!md || strcmp(md, "-"))
			report_write_markdown(r, v, stdout);
		if (html)
			printf("\nHTML report: %s\n", html);
	}
	free(html);
	free(md);
	free(json);
	return ok;
}

static int run_report(int argc, char **argv)
{
	struct report_cli cli;
	memset(&cli, 0, sizeof cli);
	thresholds_init(&cli.th);
	int rc = parse(argc, argv, &cli);
	const char *campaign = argv[argc - 1];
	struct report r;
	struct history h = {0};
	char why[1024];
	int lock = -1;
	char **reasons = NULL;
	memset(&r, 0, sizeof r);
	if (rc >= 0)
		goto out;
	rc = EXIT_FAIL;
	if (!report_gather(campaign, &cli.in, &r, why, sizeof why)) {
		log_error("%s", why);
		goto out;
	}
	r.created = now_iso();
	struct h5_err e;
	if (cli.history && (lock = history_lock(cli.history, &e)) < 0) {
		log_error("%s", e.msg);
		goto out;
	}
	if (cli.history && !history_read(cli.history, &h, &e)) {
		log_error("%s (the history is left as it is; move it away to start a new one)", e.msg);
		goto out;
	}
	figures_apply_thresholds(&r.figs, &cli.th);
	history_judge(&h, &r.figs, cli.th.window, cli.th.margin);
	struct verdict v = {&cli.th, &h, cli.history, cli.strict, STATE_NOT_VALIDATED, NULL, false};
	v.state = report_judge(&r, &reasons);
	v.reasons = reasons;
	v.pass = v.state == STATE_PASS;
	if (!write_outputs(&cli, campaign, &r, &v))
		goto out;
	if (cli.history && !history_append(cli.history, &h, &r.figs, r.created, campaign, r.application, &e)) {
		log_error("%s", e.msg);
		goto out;
	}
	rc = v.state == STATE_FAIL || (v.state == STATE_NOT_VALIDATED && cli.strict) ? EXIT_FAIL : EXIT_OK;
out:
	history_unlock(lock);
	strings_free(reasons);
	report_free(&r);
	history_free(&h);
	thresholds_free(&cli.th);
	free(cli.in.truth);
	free(cli.in.timed);
	free(cli.in.extrap);
	free(cli.in.replay);
	free(cli.in.proxy);
	free(cli.in.targets);
	return rc;
}

const struct command command_report = {
	"report", "how accurate every prediction was: HTML, Markdown, JSON, history, CI exit status",
	"usage: ladder report [options] CAMPAIGN.h5\n"
	"\n"
	"Close the loop on a campaign: the model of every call path and metric (/models, from ladder\n"
	"model) against the real application traced at the target scale; the extrapolated trace\n"
	"against that run, call by call on every rank and by calls and bytes per function and rank\n"
	"(ladder compare); the replay of the extrapolated trace timed against the application, as the\n"
	"accuracy 1 - |T_replay - T_app| / T_app (ScalaExtrap §5.2), and the proxy program written from\n"
	"it likewise (1 - |T_proxy - T_app| / T_app, ScalaBenchGen §5); and the kernel ranking at the\n"
	"target, predicted against measured (Spearman's rank correlation, top-k agreement).\n"
	"\n"
	"Inputs next to the campaign, where the campaign stages write them (each optional; what is\n"
	"absent is said plainly in the report):\n"
	"  DIR/truth/p<P>/trace.h5      the real application at P ranks (workflow field 'truth')\n"
	"  DIR/truth/p<P>/time.json     its time untraced (ladder time -o, run by the truth job): the\n"
	"                               application time replays and proxies are measured against; a\n"
	"                               traced run's time only where there is none\n"
	"  DIR/extrap/p<P>/trace.h5     the extrapolated trace (stage extrap)\n"
	"  DIR/replay/p<P>/replay.json  its replay (stage replay: ladder-replay --json)\n"
	"  DIR/proxy/p<P>/proxy.json    its proxy program's run (stage proxy: the program's --json)\n"
	"Targets are the models' target, every p<P> found there, and --target.\n",
	run_report, report_options,
	"The figures, their thresholds and regressions, and the state (PASS, NOT VALIDATED, FAIL):\n"
	"'ladder help report-figures'.\n"
	"\n"
	"Exit status: 0 PASS or NOT VALIDATED (1 with --strict); 1 FAIL, or an input or the history\n"
	"could not be read (the history is then left as it is); 2 usage. The reports are written\n"
	"whenever the inputs could be read.\n"
	"\n"
	"Example (nightly, from cron):\n"
	"  ladder report st2d/campaign.h5 -o st2d/report --history nightly.h5 \\\n"
	"                --thresholds time=0.9,ranking=0.6\n",
};
