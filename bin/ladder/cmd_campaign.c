/*
 * ladder campaign — run a workflow's ladder of traced runs and its downstream stages as batch
 * jobs (Slurm) or with the local executor, and follow, inspect, retry, cancel and schedule it.
 *
 *   ladder campaign run WORKFLOW --site SITE [--dir DIR | --dated BASE] [--dry-run] [--no-wait]
 *   ladder campaign status|wait|retry|cancel [DIR]
 *   ladder campaign schedule WORKFLOW --site SITE --nightly HH:MM [--base DIR] [--install]
 *
 * The work is in lib/campaign/ (prepare.h: the campaign directory made ready; control.h:
 * status, wait, retry, cancel; exec.h: the driver; schedule.h); this file parses options and
 * reports. The workflow and site formats are the help topics `workflow` and `site`.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/control.h"
#include "campaign/prepare.h"
#include "campaign/schedule.h"
#include "campaign/status.h"
#include "command.h"
#include "util/exitcode.h"
#include "util/file.h"
#include "util/log.h"
#include "util/path.h"
#include "util/xalloc.h"

#define CMD "campaign"

/* read both specs, or say what is wrong with the first bad one */
static bool load_specs(const char *workflow_path, const char *site_path, struct workflow *w, struct site *s)
{
	struct campaign_error e;
	if (specs_load(workflow_path, site_path, w, s, &e))
		return true;
	log_error("%s", e.msg);
	return false;
}

static char *ladder_self(void)
{
	return xasprintf("%s/ladder", cmd_self_dir());
}

static char *ladder_prefix(void)
{
	char *p = xasprintf("%s/..", cmd_self_dir());
	char *r = realpath(p, NULL);
	free(p);
	return r ? r : xasprintf("%s/..", cmd_self_dir());
}

/* report the end of a drive (errors, what completed or failed) as an exit status */
static int finish(const struct campaign *c, enum drive_result r, const struct campaign_error *e)
{
	if (r == DRIVE_ERROR) {
		log_error("%s", e->msg);
		return EXIT_FAIL;
	}
	return campaign_report_end(c, r) ? EXIT_OK : EXIT_FAIL;
}

/* ---- options ----------------------------------------------------------------------------- */

/* the options of every subcommand */
struct campaign_cli {
	const char *site, *dir, *dated, *nightly, *base;
	bool dry_run, no_wait, json, install;
	long timeout;
	char **jobs;
	size_t njobs;
};

static bool job_option(struct opt_parser *p, const char *arg)
{
	struct campaign_cli *cli = p->opts;
	cli->jobs = xrealloc(cli->jobs, (cli->njobs + 1) * sizeof *cli->jobs);
	cli->jobs[cli->njobs++] = (char *)arg;
	return true;
}

#define TIMEOUT_OPT(s)                                                                             \
	OPT_LONG(s, "timeout", "S", struct campaign_cli, timeout, 1, 100L * 24 * 3600,             \
		 "stop following after S seconds (exit 1; the jobs go on)")
#define NO_WAIT_OPT                                                                                \
	OPT_FLAG(0, "no-wait", struct campaign_cli, no_wait,                                        \
		 "Slurm: return once everything is submitted ('wait' follows it later)")
#define SITE_OPT OPT_STRING('s', "site", "SITE", struct campaign_cli, site, "the site file (see 'ladder help site')")

static const struct opt campaign_options[] = {
	OPT_SUBCOMMAND("run"),
	SITE_OPT,
	OPT_STRING('d', "dir", "DIR", struct campaign_cli, dir, "the campaign directory"),
	OPT_STRING(0, "dated", "BASE", struct campaign_cli, dated,
		   "use BASE/YYYY-MM-DD (today) and point BASE/latest at it (nightly runs)"),
	OPT_FLAG('n', "dry-run", struct campaign_cli, dry_run, "only write the scripts and print them"),
	NO_WAIT_OPT,
	TIMEOUT_OPT('t'),
	OPT_SUBCOMMAND("status"),
	OPT_FLAG('j', "json", struct campaign_cli, json, "print the state file"),
	OPT_SUBCOMMAND("wait"),
	TIMEOUT_OPT('t'),
	OPT_SUBCOMMAND("retry"),
	OPT_CALLBACK('j', "job", "NAME", job_option, "only this job and those depending on it (repeatable)"),
	NO_WAIT_OPT,
	TIMEOUT_OPT('t'),
	OPT_SUBCOMMAND("schedule"),
	SITE_OPT,
	OPT_STRING(0, "nightly", "HH:MM", struct campaign_cli, nightly, "the time of day to run it"),
	OPT_STRING(0, "base", "DIR", struct campaign_cli, base, "where the nights go (default ./NAME-nightly)"),
	OPT_FLAG(0, "install", struct campaign_cli, install,
		 "add the entry to your table, replacing this campaign's earlier entry"),
	OPT_END(),
};

/* the options of subcommand argv[0] into cli: -1 to go on, else the exit status */
static int parse_subcommand(int argc, char **argv, struct campaign_cli *cli)
{
	static const struct opt none[] = {OPT_END()};   /* cancel */
	const struct opt *table = opt_subcommand(campaign_options, argv[0]);
	return cmd_parse_options(CMD, table ? table : none, argc, argv, cli);
}

/* ---- run --------------------------------------------------------------------------------- */

static int run_run(int argc, char **argv)
{
	struct campaign_cli cli = {0};
	int rc = parse_subcommand(argc, argv, &cli);
	if (rc >= 0)
		return rc;
	const char *site_path = cli.site, *dir_opt = cli.dir, *dated = cli.dated;
	bool dry = cli.dry_run, no_wait = cli.no_wait;
	long timeout = cli.timeout;
	if (optind + 1 != argc)
		return cmd_usage_error(CMD, "run needs exactly one WORKFLOW file");
	if (!site_path)
		return cmd_usage_error(CMD, "run needs --site SITE (e.g. site-configs/local.yaml)");
	if (dir_opt && dated)
		return cmd_usage_error(CMD, "give --dir or --dated, not both");
	struct workflow w;
	struct site s;
	if (!load_specs(argv[optind], site_path, &w, &s))
		return EXIT_FAIL;
	char *prefix = ladder_prefix(), *self = ladder_self();
	struct prepare_options po = {dir_opt, dated, prefix, self, cmd_exists, dry};
	struct prepared p;
	struct campaign_error e;
	rc = EXIT_FAIL;
	struct campaign *cp = &p.campaign;
	if (!campaign_prepare(&w, &s, &po, &p, &e)) {
		log_error("%s", e.msg);
	} else if (dry) {
		for (size_t i = 0; i < cp->njobs; i++)
			printf("==> %s/%s <==\n%s\n", cp->dir, cp->jobs[i].script, p.scripts[i]);
		log_info("dry run: %zu job scripts written to %s/jobs (nothing submitted)", cp->njobs, cp->dir);
		rc = EXIT_OK;
	} else {
		if (p.resumed)
			log_info("resuming campaign %s in %s", cp->name, cp->dir);
		log_info("campaign %s: %zu jobs (%s) in %s", cp->name, cp->njobs, s.name, cp->dir);
		struct drive_opts o = {(double)timeout, !no_wait, false};
		enum drive_result r = campaign_drive(cp, &o, &e);
		rc = finish(cp, r, &e);
	}
	prepared_free(&p);
	workflow_free(&w);
	site_free(&s);
	free(prefix);
	free(self);
	return rc;
}

/* ---- status, wait, retry, cancel --------------------------------------------------------- */

static const char *dir_arg(int argc, char **argv, const char *what)
{
	if (optind + 1 < argc) {
		cmd_usage_error(CMD, "%s takes at most one campaign directory", what);
		return NULL;
	}
	return optind < argc ? argv[optind] : ".";
}

static int run_status(int argc, char **argv)
{
	struct campaign_cli cli = {0};
	int rc = parse_subcommand(argc, argv, &cli);
	if (rc >= 0)
		return rc;
	bool json = cli.json;
	const char *dir = dir_arg(argc, argv, "status");
	if (!dir)
		return EXIT_USAGE;
	struct campaign cp;
	struct campaign_error e;
	pid_t driver;
	if (!campaign_refresh(dir, &cp, &driver, &e)) {
		log_error("%s", e.msg);
		campaign_free(&cp);
		return EXIT_FAIL;
	}
	size_t counts[JS_SKIPPED + 1];
	campaign_count(&cp, counts);
	rc = counts[JS_FAILED] || counts[JS_SKIPPED] || counts[JS_CANCELLED] ? EXIT_FAIL : EXIT_OK;
	if (json) {
		char *path = campaign_path(&cp, "state.json");
		char *text = read_file(path);
		free(path);
		if (text)
			fputs(text, stdout);
		free(text);
	} else {
		campaign_print_status(stdout, &cp, driver);
	}
	campaign_free(&cp);
	return rc;
}

/* wait and retry (after putting jobs back to WAITING): follow the campaign and report its end */
static int run_follow(int argc, char **argv)
{
	struct campaign_cli cli = {0};
	bool retry = !strcmp(argv[0], "retry");
	int rc = parse_subcommand(argc, argv, &cli);
	const char *dir = rc < 0 ? dir_arg(argc, argv, argv[0]) : NULL;
	rc = rc >= 0 ? rc : EXIT_USAGE;
	if (dir) {
		struct follow_request r = {(double)cli.timeout, !cli.no_wait, retry, cli.jobs, cli.njobs};
		struct campaign cp;
		struct campaign_error e;
		enum drive_result result = campaign_follow(dir, &r, &cp, &e);
		if (result == DRIVE_NOTHING_TO_RETRY)
			log_info("nothing to retry in %s (no job failed, was skipped or cancelled)", dir);
		rc = result == DRIVE_NOTHING_TO_RETRY ? EXIT_OK : finish(&cp, result, &e);
		campaign_free(&cp);
	}
	free(cli.jobs);
	return rc;
}

static int run_cancel(int argc, char **argv)
{
	struct campaign_cli cli = {0};
	int rc = parse_subcommand(argc, argv, &cli);
	if (rc >= 0)
		return rc;
	const char *dir = dir_arg(argc, argv, "cancel");
	if (!dir)
		return EXIT_USAGE;
	struct campaign cp;
	struct campaign_error e;
	pid_t driver;
	rc = EXIT_FAIL;
	if (!campaign_cancel_dir(dir, &cp, &driver, &e)) {
		log_error("%s", e.msg);
	} else {
		rc = EXIT_OK;
		if (driver)
			log_info("campaign %s cancelled (by its driver, process %ld)", cp.name, (long)driver);
		else
			log_info("campaign %s cancelled", cp.name);
	}
	campaign_free(&cp);
	return rc;
}

/* ---- schedule ---------------------------------------------------------------------------- */

static int run_schedule(int argc, char **argv)
{
	struct campaign_cli cli = {0};
	int rc = parse_subcommand(argc, argv, &cli);
	if (rc >= 0)
		return rc;
	const char *site_path = cli.site, *nightly = cli.nightly, *base_opt = cli.base;
	bool install = cli.install;
	if (optind + 1 != argc)
		return cmd_usage_error(CMD, "schedule needs exactly one WORKFLOW file");
	if (!site_path || !nightly)
		return cmd_usage_error(CMD, "schedule needs --site SITE and --nightly HH:MM");
	int hour, minute;
	if (!schedule_parse_time(nightly, &hour, &minute))
		return cmd_usage_error(CMD, "--nightly expects HH:MM (00:00 to 23:59), got '%s'", nightly);
	struct campaign_error e;
	struct workflow w;
	struct site s;
	if (!load_specs(argv[optind], site_path, &w, &s))
		return EXIT_FAIL;
	rc = EXIT_FAIL;
	char *base_rel = base_opt ? xstrdup(base_opt) : xasprintf("%s-nightly", w.name);
	char *base = path_absolute(base_rel), *self = ladder_self();
	free(base_rel);
	char *block = schedule_entry_for(&w, &s, self, base, hour, minute);
	if (!block) {
		log_error("a path or setting contains a control character; cannot write a cron entry");
		goto out;
	}
	fputs(block, stdout);
	if (install) {
		const char *tool = s.scheduler == SCHED_SLURM ? "scrontab" : "crontab";
		if (!schedule_install(tool, w.name, block, &e)) {
			log_error("%s", e.msg);
			goto out;
		}
		if (!make_dirs(base, e.msg, sizeof e.msg))
			log_warn("%s", e.msg);
		log_info("installed with %s: campaign %s runs every night at %02d:%02d into %s/YYYY-MM-DD", tool,
			 w.name, hour, minute, base);
	}
	rc = EXIT_OK;
out:
	free(block);
	free(base);
	free(self);
	workflow_free(&w);
	site_free(&s);
	return rc;
}

/* ---- dispatch ---------------------------------------------------------------------------- */

static int run_campaign(int argc, char **argv)
{
	if (argc < 2)
		return cmd_usage_error(CMD, "needs a subcommand: run, status, wait, retry, cancel or schedule");
	const char *sub = argv[1];
	/* the subcommand's options start after it */
	argc--;
	argv++;
	optind = 1;
	signal(SIGPIPE, SIG_IGN);
	static const struct {
		const char *name;
		int (*run)(int argc, char **argv);
	} subcommands[] = {{"run", run_run}, {"status", run_status}, {"wait", run_follow}, {"retry", run_follow},
			   {"cancel", run_cancel}, {"schedule", run_schedule}};
	for (size_t i = 0; i < sizeof subcommands / sizeof subcommands[0]; i++)
		if (!strcmp(sub, subcommands[i].name))
			return subcommands[i].run(argc, argv);
	return cmd_usage_error(CMD, "unknown subcommand '%s' (run, status, wait, retry, cancel, schedule)", sub);
}

const struct command command_campaign = {
	"campaign", "run a workflow's ladder of traced runs and its stages as jobs",
	"usage: ladder campaign run WORKFLOW --site SITE [--dir DIR | --dated BASE] [--dry-run]\n"
	"                           [--no-wait] [--timeout S]\n"
	"       ladder campaign status [--json] [DIR]\n"
	"       ladder campaign wait [--timeout S] [DIR]\n"
	"       ladder campaign retry [--job NAME]... [--no-wait] [DIR]\n"
	"       ladder campaign cancel [DIR]\n"
	"       ladder campaign schedule WORKFLOW --site SITE --nightly HH:MM [--base DIR] [--install]\n"
	"\n"
	"A campaign runs the application of WORKFLOW (see 'ladder help workflow') traced, once per\n"
	"rung of its ladder and repetition, merges the runs into DIR/campaign.h5, then runs the\n"
	"workflow's stages (model, extrap, replay, report, or your own), each as a job that depends on\n"
	"what it consumes. SITE (see 'ladder help site') says how: with Slurm the whole campaign is\n"
	"submitted at once with afterok dependencies; with the local executor the same scripts run\n"
	"here, at most the site's max-ranks at a time. Stages whose command is not part of this build\n"
	"are left out with a note. The campaign directory, its jobs and their states: 'ladder help\n"
	"campaign-dir'.\n"
	"\n"
	"run       write one script per job into DIR/jobs, then submit/start them and follow the\n"
	"          campaign to its end (exit 0 when every job completed). Running it again on the same\n"
	"          DIR resumes: finished jobs are not redone, jobs still queued or running are followed;\n"
	"          a job whose script changed (the workflow or site changed) runs again with what\n"
	"          depends on it. A finished job whose output is gone runs again too. DIR defaults to\n"
	"          ./NAME (the workflow's name); an existing DIR that holds anything else than a\n"
	"          campaign is refused. A campaign directory moved or copied resumes where it was.\n"
	"status    per job: state, Slurm job id (or pid), attempts, times, exit code, log, and why\n"
	"          (pending reason, failure); a summary with progress. With Slurm and no driver\n"
	"          running, the scheduler is asked once first. Exit 1 when a job failed, was skipped\n"
	"          or cancelled.\n"
	"wait      follow the campaign until every job is final (after 'run --no-wait', or a driver\n"
	"          that was stopped); if another driver follows it, watch the state file.\n"
	"retry     run failed, skipped and cancelled jobs again (or the --job NAMEs), and every job\n"
	"          depending on them; then follow the campaign.\n"
	"cancel    cancel every unfinished job (through the driver when one runs).\n"
	"schedule  print a crontab (local sites) or scrontab (Slurm sites) entry that runs the\n"
	"          campaign every night at HH:MM into BASE/YYYY-MM-DD. The report stage of every\n"
	"          night appends to BASE/history.h5 and flags regressions; a missed threshold fails\n"
	"          it, and so the night's 'campaign run' (exit status 1).\n",
	run_campaign, campaign_options, NULL,
};

const struct topic topic_campaign_dir = {
	"campaign-dir", "the directory of a 'ladder campaign', its jobs and their states",
	"The campaign directory:\n"
	"  state.json            every job's state, written atomically (see 'ladder help site')\n"
	"  jobs/NAME.sh          the job scripts;  logs/NAME.log  their output\n"
	"  runs/pN/rK/trace.h5   traced run of rung N, repetition K;  campaign.h5  the merged campaign\n"
	"  truth/pP/trace.h5     the real application at target P (workflow field 'truth')\n"
	"  STAGE/                output of each later stage;  workflow.yaml, site.yaml  the specs used\n"
	"\n"
	"Jobs: build (if the workflow has app.build), run-pN-rK, merge, then one per stage\n"
	"(STAGE-tT per target for per-target stages). States: WAITING, QUEUED, RUNNING, COMPLETED,\n"
	"FAILED, CANCELLED, SKIPPED (a job it depends on did not complete).\n"
	"\n"
	"One process drives a campaign at a time (a lock in DIR); killing it loses nothing: run,\n"
	"wait or retry picks the campaign up where it was, local jobs that kept running included.\n",
};
