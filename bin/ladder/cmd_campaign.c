/*
 * ladder campaign — run a workflow's ladder of traced runs and its downstream stages as batch
 * jobs (Slurm) or with the local executor, and follow, inspect, retry, cancel and schedule it.
 *
 *   ladder campaign run WORKFLOW --site SITE [--dir DIR | --dated BASE] [--dry-run] [--no-wait]
 *   ladder campaign status|wait|retry|cancel [DIR]
 *   ladder campaign schedule WORKFLOW --site SITE --nightly HH:MM [--base DIR] [--install]
 *
 * The work is in lib/campaign/; this file parses options, prepares the campaign directory and
 * reports. The workflow and site formats are the help topics `workflow` and `site`.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "campaign/jobgraph.h"
#include "campaign/exec.h"
#include "campaign/plan.h"
#include "campaign/proc.h"
#include "campaign/resume.h"
#include "campaign/schedule.h"
#include "campaign/spec.h"
#include "campaign/statefile.h"
#include "campaign/status.h"
#include "command.h"
#include "util/exitcode.h"
#include "util/log.h"
#include "util/path.h"
#include "util/xalloc.h"

#define CMD "campaign"

/* read both specs, or say what is wrong with the first bad one */
static bool load_specs(const char *wpath, const char *spath, struct workflow *w, struct site *s)
{
	struct cerr e;
	if (!workflow_load(wpath, w, &e)) {
		log_error("%s", e.msg);
		return false;
	}
	if (!site_load(spath, s, &e)) {
		log_error("%s", e.msg);
		workflow_free(w);
		return false;
	}
	return true;
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

static bool have_subcommand(const char *name, void *arg)
{
	(void)arg;
	char *self = ladder_self();
	char *argv[] = {self, "help", (char *)name, NULL};
	int rc = proc_run(argv, NULL, NULL, NULL, NULL, 30);
	free(self);
	return rc == 0;
}

static char *random_id(void)
{
	unsigned char b[8] = {0};
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, b, sizeof b) != (ssize_t)sizeof b) {
		unsigned long long t = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
		memcpy(b, &t, sizeof b);
	}
	if (fd >= 0)
		close(fd);
	return xasprintf("%02x%02x%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
}

static const char *result_text(enum drive_result r)
{
	switch (r) {
	case DRIVE_DONE: return "completed";
	case DRIVE_INCOMPLETE: return "finished with failures";
	case DRIVE_SUBMITTED: return "submitted";
	case DRIVE_TIMEOUT: return "still running";
	case DRIVE_CANCELLED: return "cancelled";
	default: return "stopped";
	}
}

/* report the end of a drive and turn it into an exit status */
static int finish(struct campaign *c, enum drive_result r, struct cerr *e)
{
	if (r == DRIVE_ERROR) {
		log_error("%s", e->msg);
		return EXIT_FAIL;
	}
	char summary[512];
	campaign_summary(c, summary, sizeof summary);
	if (r == DRIVE_DONE) {
		struct cjob *merge = campaign_job(c, "merge");
		log_info("campaign %s %s: %s", c->name, result_text(r), summary);
		if (merge && merge->output)
			log_info("results in %s (campaign container %s/%s; runs under %s/runs)", c->dir, c->dir,
				 merge->output, c->dir);
		else
			log_info("results in %s", c->dir);
		return EXIT_OK;
	}
	if (r == DRIVE_SUBMITTED) {
		log_info("campaign %s %s: %s", c->name, result_text(r), summary);
		log_info("follow it with: ladder campaign wait %s", c->dir);
		return EXIT_OK;
	}
	fprintf(stderr, "campaign %s %s: %s\n", c->name, result_text(r), summary);
	if (r == DRIVE_TIMEOUT) {
		fprintf(stderr, "follow it with: ladder campaign wait %s\n", c->dir);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < c->njobs; i++) {
		struct cjob *j = &c->jobs[i];
		if (j->state == JS_FAILED)
			fprintf(stderr, "  failed: %s (%s); log %s/%s\n", j->name, j->reason ? j->reason : "", c->dir, j->log);
	}
	if (r == DRIVE_INCOMPLETE)
		fprintf(stderr, "after fixing the cause: ladder campaign retry %s\n", c->dir);
	return EXIT_FAIL;
}

/* take the driver lock of dir or explain who has it */
static bool lock_or_explain(struct campaign *c, const char *dir)
{
	pid_t holder = 0;
	struct cerr e;
	int r = state_lock(c, dir, &holder, &e);
	if (r < 0) {
		log_error("%s", e.msg);
		return false;
	}
	if (r == 0) {
		if (holder)
			log_error("%s: the campaign is being driven by process %ld; 'ladder campaign status %s' shows its "
				  "progress", dir, (long)holder, dir);
		else
			log_error("%s: the campaign is being driven by another process", dir);
		return false;
	}
	return true;
}

static bool copy_file(const char *from, const char *to, struct cerr *e)
{
	char *text = read_file(from);
	if (!text)
		return cerr_set(e, "cannot read %s: %s", from, strerror(errno));
	bool ok = write_file_atomic(to, text, 0644, e);
	free(text);
	return ok;
}

static char *dated_dir(const char *base)
{
	char day[32];
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(day, sizeof day, "%Y-%m-%d", &tm);
	return xasprintf("%s/%s", base, day);
}

/* ---- run --------------------------------------------------------------------------------- */

static int run_run(int argc, char **argv)
{
	static const struct option opts[] = {{"site", required_argument, NULL, 's'},
					     {"dir", required_argument, NULL, 'd'},
					     {"dated", required_argument, NULL, 'D'},
					     {"dry-run", no_argument, NULL, 'n'},
					     {"no-wait", no_argument, NULL, 'W'},
					     {"timeout", required_argument, NULL, 't'},
					     {"help", no_argument, NULL, 'h'}, {0}};
	const char *site_path = NULL, *dir_opt = NULL, *dated = NULL;
	bool dry = false, no_wait = false;
	long timeout = 0;
	int c;
	while ((c = cmd_getopt(argc, argv, "s:d:nt:h", opts, CMD)) != -1) {
		switch (c) {
		case 's': site_path = optarg; break;
		case 'd': dir_opt = optarg; break;
		case 'D': dated = optarg; break;
		case 'n': dry = true; break;
		case 'W': no_wait = true; break;
		case 't':
			if (!cmd_parse_long(CMD, "--timeout", optarg, 1, 100L * 24 * 3600, &timeout))
				return EXIT_USAGE;
			break;
		default: return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return cmd_usage_error(CMD, "run needs exactly one WORKFLOW file");
	if (!site_path)
		return cmd_usage_error(CMD, "run needs --site SITE (e.g. site-configs/local.yaml)");
	if (dir_opt && dated)
		return cmd_usage_error(CMD, "give --dir or --dated, not both");
	struct cerr e;
	struct workflow w;
	struct site s;
	if (!load_specs(argv[optind], site_path, &w, &s))
		return EXIT_FAIL;
	int rc = EXIT_FAIL;
	char *dir = NULL, *prefix = ladder_prefix(), *self = ladder_self(), *history = NULL;
	char **scripts = NULL;
	struct campaign fresh, old;
	campaign_init(&fresh);
	campaign_init(&old);
	if (dated) {
		if (!make_dirs(dated, &e)) {
			log_error("%s", e.msg);
			goto out;
		}
		char *base = path_absolute(dated);
		dir = dated_dir(base);
		free(base);
	} else {
		dir = xstrdup(dir_opt ? dir_opt : w.name);
	}
	if (!make_dirs(dir, &e)) {
		log_error("%s", e.msg);
		goto out;
	}
	{
		char *abs = path_absolute(dir);
		free(dir);
		dir = abs;
	}
	if (dated) {
		char *link = xasprintf("%s/../latest", dir), *tmp = xasprintf("%s/../.latest.%ld", dir, (long)getpid());
		const char *slash = strrchr(dir, '/');
		if (symlink(slash ? slash + 1 : dir, tmp) == 0 && rename(tmp, link))
			unlink(tmp);
		free(link);
		free(tmp);
	}
	if (!lock_or_explain(&fresh, dir))
		goto out;
	if (dry && state_exists(dir)) {
		log_error("%s already holds a campaign; --dry-run writes scripts only into a new directory", dir);
		goto out;
	}
	if (dated) /* nightly: one history for every night, BASE/history.h5 */
		history = xasprintf("%.*s/history.h5", (int)(strrchr(dir, '/') - dir), dir);
	struct plan_env env = {dir, prefix, self, have_subcommand, NULL, false, history};
	{
		char *tracer = xasprintf("%s/lib/libladder-trace.so", prefix);
		if (access(tracer, R_OK))
			log_warn("%s is missing: the run jobs will fail (build ladder with 'make')", tracer);
		free(tracer);
	}
	if (!plan_build(&w, &s, &env, &fresh, &scripts, &e)) {
		log_error("%s", e.msg);
		goto out;
	}
	if (state_exists(dir)) {
		if (!state_load(dir, &old, &e)) {
			log_error("%s", e.msg);
			goto out;
		}
		if (strcmp(old.name, fresh.name)) {
			log_error("%s holds campaign '%s', not '%s'; use another --dir", dir, old.name, fresh.name);
			goto out;
		}
		if (!campaign_resume(&fresh, &old, &e)) {
			log_error("%s", e.msg);
			goto out;
		}
		log_info("resuming campaign %s in %s", fresh.name, dir);
	} else {
		fresh.id = random_id();
	}
	{
		char *jobs = xasprintf("%s/jobs", dir), *logs = xasprintf("%s/logs", dir);
		bool ok = make_dirs(jobs, &e) && make_dirs(logs, &e);
		free(jobs);
		free(logs);
		if (!ok) {
			log_error("%s", e.msg);
			goto out;
		}
	}
	for (size_t i = 0; i < fresh.njobs; i++) {
		char *path = campaign_path(&fresh, fresh.jobs[i].script);
		char *cur = read_file(path);
		bool same = cur && !strcmp(cur, scripts[i]);
		free(cur);
		if (!same && !write_file_atomic(path, scripts[i], 0755, &e)) {
			free(path);
			log_error("%s", e.msg);
			goto out;
		}
		free(path);
	}
	{
		char *wcopy = xasprintf("%s/workflow.yaml", dir), *scopy = xasprintf("%s/site.yaml", dir);
		bool ok = (!strcmp(w.path, wcopy) || copy_file(w.path, wcopy, &e)) &&
			  (!strcmp(s.path, scopy) || copy_file(s.path, scopy, &e));
		free(wcopy);
		free(scopy);
		if (!ok) {
			log_error("%s", e.msg);
			goto out;
		}
	}
	if (dry) {
		for (size_t i = 0; i < fresh.njobs; i++)
			printf("==> %s/%s <==\n%s\n", dir, fresh.jobs[i].script, scripts[i]);
		log_info("dry run: %zu job scripts written to %s/jobs (nothing submitted)", fresh.njobs, dir);
		rc = EXIT_OK;
		goto out;
	}
	if (!state_save(&fresh, &e)) {
		log_error("%s", e.msg);
		goto out;
	}
	log_info("campaign %s: %zu jobs (%s) in %s", fresh.name, fresh.njobs, s.name, dir);
	struct drive_opts o = {(double)timeout, !no_wait, false};
	enum drive_result r = campaign_drive(&fresh, &o, &e);
	rc = finish(&fresh, r, &e);
out:
	if (scripts)
		for (size_t i = 0; i < fresh.njobs; i++)
			free(scripts[i]);
	free(scripts);
	state_unlock(&fresh);
	campaign_free(&fresh);
	campaign_free(&old);
	workflow_free(&w);
	site_free(&s);
	free(history);
	free(dir);
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

/* the campaign in dir, or say why not */
static bool load_campaign(const char *dir, struct campaign *cp)
{
	struct cerr e;
	campaign_init(cp);
	if (state_load(dir, cp, &e))
		return true;
	log_error("%s", e.msg);
	campaign_free(cp);
	return false;
}

static int run_status(int argc, char **argv)
{
	static const struct option opts[] = {{"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, {0}};
	bool json = false;
	int c;
	while ((c = cmd_getopt(argc, argv, "jh", opts, CMD)) != -1) {
		if (c == 'j')
			json = true;
		else
			return EXIT_USAGE;
	}
	const char *dir = dir_arg(argc, argv, "status");
	if (!dir)
		return EXIT_USAGE;
	struct campaign cp;
	struct cerr e;
	if (!load_campaign(dir, &cp))
		return EXIT_FAIL;
	pid_t holder = 0;
	int locked = state_lock(&cp, dir, &holder, &e);
	if (locked == 1 && cp.sched == SCHED_SLURM && !campaign_done(&cp)) {
		/* nobody follows it: ask Slurm once */
		struct drive_opts o = {0, false, true};
		if (campaign_drive(&cp, &o, &e) == DRIVE_ERROR)
			log_warn("%s", e.msg);
	}
	if (locked == 1)
		state_unlock(&cp);
	int rc = EXIT_OK;
	for (size_t i = 0; i < cp.njobs; i++)
		if (cp.jobs[i].state == JS_FAILED || cp.jobs[i].state == JS_SKIPPED || cp.jobs[i].state == JS_CANCELLED)
			rc = EXIT_FAIL;
	if (json) {
		char *path = campaign_path(&cp, "state.json");
		char *text = read_file(path);
		free(path);
		if (text)
			fputs(text, stdout);
		free(text);
	} else {
		campaign_print_status(stdout, &cp, locked == 0 ? holder : 0);
	}
	campaign_free(&cp);
	return rc;
}

/* load, lock and drive DIR (wait and retry) */
static int drive_dir(const char *dir, long timeout, bool follow, char *const *retry, size_t nretry, bool do_retry)
{
	struct campaign cp;
	struct cerr e;
	int rc = EXIT_FAIL;
	if (!load_campaign(dir, &cp))
		return EXIT_FAIL;
	pid_t holder = 0;
	int locked = state_lock(&cp, dir, &holder, &e);
	if (locked < 0) {
		log_error("%s", e.msg);
		goto out;
	}
	if (locked == 0) {
		if (do_retry) {
			log_error("%s: the campaign is being driven by process %ld; retry once it has stopped", dir, (long)holder);
			goto out;
		}
		/* another driver follows it: watch the state file */
		log_info("campaign %s is driven by process %ld; watching its state", cp.name, (long)holder);
		double start = now_wall();
		for (;;) {
			struct campaign w;
			campaign_init(&w);
			if (state_load(dir, &w, &e)) {
				bool done = campaign_done(&w);
				if (done) {
					bool ok = true;
					for (size_t i = 0; i < w.njobs; i++)
						ok &= w.jobs[i].state == JS_COMPLETED;
					rc = finish(&w, ok ? DRIVE_DONE : DRIVE_INCOMPLETE, &e);
					campaign_free(&w);
					goto out;
				}
			}
			campaign_free(&w);
			if (timeout && now_wall() - start >= (double)timeout) {
				log_error("%s: not finished after %ld s", dir, timeout);
				goto out;
			}
			/* the driver may have stopped without finishing: take over */
			pid_t h2;
			struct campaign probe;
			campaign_init(&probe);
			int l2 = state_lock(&probe, dir, &h2, &e);
			if (l2 == 1) {
				state_unlock(&probe);
				campaign_free(&probe);
				campaign_free(&cp);
				return drive_dir(dir, timeout ? timeout - (long)(now_wall() - start) : 0, follow, NULL, 0, false);
			}
			campaign_free(&probe);
			struct timespec ts = {0, 300 * 1000 * 1000};
			nanosleep(&ts, NULL);
		}
	}
	if (do_retry) {
		long n = campaign_reset(&cp, retry, nretry, &e);
		if (n < 0) {
			log_error("%s", e.msg);
			goto out;
		}
		if (n == 0) {
			log_info("nothing to retry in %s (no job failed, was skipped or cancelled)", dir);
			rc = EXIT_OK;
			goto out;
		}
		log_info("retrying %ld jobs of campaign %s", n, cp.name);
		if (!state_save(&cp, &e)) {
			log_error("%s", e.msg);
			goto out;
		}
	}
	struct drive_opts o = {(double)timeout, follow, false};
	enum drive_result r = campaign_drive(&cp, &o, &e);
	rc = finish(&cp, r, &e);
out:
	state_unlock(&cp);
	campaign_free(&cp);
	return rc;
}

static int run_wait(int argc, char **argv)
{
	static const struct option opts[] = {{"timeout", required_argument, NULL, 't'},
					     {"help", no_argument, NULL, 'h'}, {0}};
	long timeout = 0;
	int c;
	while ((c = cmd_getopt(argc, argv, "t:h", opts, CMD)) != -1) {
		if (c != 't' || !cmd_parse_long(CMD, "--timeout", optarg, 1, 100L * 24 * 3600, &timeout))
			return EXIT_USAGE;
	}
	const char *dir = dir_arg(argc, argv, "wait");
	return dir ? drive_dir(dir, timeout, true, NULL, 0, false) : EXIT_USAGE;
}

static int run_retry(int argc, char **argv)
{
	static const struct option opts[] = {{"job", required_argument, NULL, 'j'},
					     {"no-wait", no_argument, NULL, 'W'},
					     {"timeout", required_argument, NULL, 't'},
					     {"help", no_argument, NULL, 'h'}, {0}};
	char **jobs = NULL;
	size_t njobs = 0;
	bool no_wait = false;
	long timeout = 0;
	int c, rc;
	while ((c = cmd_getopt(argc, argv, "j:t:h", opts, CMD)) != -1) {
		if (c == 'j') {
			jobs = xrealloc(jobs, (njobs + 1) * sizeof *jobs);
			jobs[njobs++] = optarg;
		} else if (c == 'W') {
			no_wait = true;
		} else if (c == 't') {
			if (!cmd_parse_long(CMD, "--timeout", optarg, 1, 100L * 24 * 3600, &timeout)) {
				free(jobs);
				return EXIT_USAGE;
			}
		} else {
			free(jobs);
			return EXIT_USAGE;
		}
	}
	const char *dir = dir_arg(argc, argv, "retry");
	rc = dir ? drive_dir(dir, timeout, !no_wait, jobs, njobs, true) : EXIT_USAGE;
	free(jobs);
	return rc;
}

static int run_cancel(int argc, char **argv)
{
	static const struct option opts[] = {{"help", no_argument, NULL, 'h'}, {0}};
	int c;
	while ((c = cmd_getopt(argc, argv, "h", opts, CMD)) != -1)
		return EXIT_USAGE;
	const char *dir = dir_arg(argc, argv, "cancel");
	if (!dir)
		return EXIT_USAGE;
	struct campaign cp;
	struct cerr e;
	if (!load_campaign(dir, &cp))
		return EXIT_FAIL;
	int rc = EXIT_FAIL;
	pid_t holder = 0;
	int locked = state_lock(&cp, dir, &holder, &e);
	if (locked < 0) {
		log_error("%s", e.msg);
	} else if (locked == 0) {
		/* a driver is running: ask it, and wait until it has done it */
		if (!campaign_request_cancel(&cp, &e)) {
			log_error("%s", e.msg);
		} else {
			char *flag = campaign_path(&cp, ".cancel");
			for (int i = 0; i < 600 && access(flag, F_OK) == 0; i++) {
				struct timespec ts = {0, 100 * 1000 * 1000};
				nanosleep(&ts, NULL);
			}
			if (access(flag, F_OK) == 0) {
				log_error("the driver (process %ld) did not act on the cancel request within 60 s", (long)holder);
			} else {
				log_info("campaign %s cancelled (by its driver, process %ld)", cp.name, (long)holder);
				rc = EXIT_OK;
			}
			free(flag);
		}
	} else {
		const struct executor *x = executor_for(&cp);
		if (!x->open(&cp, &e)) {
			log_error("%s", e.msg);
		} else {
			x->adopt(&cp);
			campaign_cancel_all(&cp, x);
			x->close(&cp);
			char *flag = campaign_path(&cp, ".cancel");
			unlink(flag);
			free(flag);
			if (state_save(&cp, &e)) {
				log_info("campaign %s cancelled", cp.name);
				rc = EXIT_OK;
			} else {
				log_error("%s", e.msg);
			}
		}
		state_unlock(&cp);
	}
	campaign_free(&cp);
	return rc;
}

/* ---- schedule ---------------------------------------------------------------------------- */

static int run_schedule(int argc, char **argv)
{
	static const struct option opts[] = {{"site", required_argument, NULL, 's'},
					     {"nightly", required_argument, NULL, 'N'},
					     {"base", required_argument, NULL, 'b'},
					     {"install", no_argument, NULL, 'i'},
					     {"help", no_argument, NULL, 'h'}, {0}};
	const char *site_path = NULL, *nightly = NULL, *base_opt = NULL;
	bool install = false;
	int c;
	while ((c = cmd_getopt(argc, argv, "s:h", opts, CMD)) != -1) {
		switch (c) {
		case 's': site_path = optarg; break;
		case 'N': nightly = optarg; break;
		case 'b': base_opt = optarg; break;
		case 'i': install = true; break;
		default: return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc)
		return cmd_usage_error(CMD, "schedule needs exactly one WORKFLOW file");
	if (!site_path || !nightly)
		return cmd_usage_error(CMD, "schedule needs --site SITE and --nightly HH:MM");
	int hour, minute;
	if (!schedule_parse_time(nightly, &hour, &minute))
		return cmd_usage_error(CMD, "--nightly expects HH:MM (00:00 to 23:59), got '%s'", nightly);
	struct cerr e;
	struct workflow w;
	struct site s;
	if (!load_specs(argv[optind], site_path, &w, &s))
		return EXIT_FAIL;
	int rc = EXIT_FAIL;
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, "/");
	char *base_rel = base_opt ? xstrdup(base_opt) : xasprintf("%s-nightly", w.name);
	char *base = path_absolute(base_rel);
	char *self = ladder_self();
	char *self_abs = path_absolute(self);
	struct schedule_in in = {w.name, self_abs, w.path, s.path, base, cwd, getenv("PATH"),
				 s.scheduler == SCHED_SLURM ? getenv("SLURM_CONF") : NULL, hour, minute,
				 s.scheduler == SCHED_SLURM, s.partition, s.account, s.qos};
	char *block = schedule_entry(&in);
	if (!block) {
		log_error("a path or setting contains a control character; cannot write a cron entry");
		goto out;
	}
	fputs(block, stdout);
	if (install) {
		const char *tool = s.scheduler == SCHED_SLURM ? "scrontab" : "crontab";
		char *argv_l[] = {(char *)tool, "-l", NULL};
		char *cur = NULL, *err = NULL;
		int lr = proc_run(argv_l, NULL, NULL, &cur, &err, 60);
		if (lr < 0) {
			log_error("cannot run %s: %s", tool, err ? err : "");
			free(cur);
			free(err);
			goto out;
		}
		if (lr != 0) {
			/* "no crontab for USER": start from an empty table */
			free(cur);
			cur = xstrdup("");
		}
		free(err);
		char *merged = schedule_merge(cur, w.name, block);
		free(cur);
		char *tmp = xasprintf("/tmp/ladder-%s.%ld", tool, (long)getpid());
		if (!write_file_atomic(tmp, merged, 0600, &e)) {
			log_error("%s", e.msg);
			free(merged);
			free(tmp);
			goto out;
		}
		free(merged);
		char *argv_i[] = {(char *)tool, tmp, NULL};
		err = NULL;
		int ir = proc_run(argv_i, NULL, NULL, NULL, &err, 60);
		unlink(tmp);
		free(tmp);
		if (ir != 0) {
			log_error("%s could not install the entry (status %d): %s", tool, ir, err ? err : "");
			free(err);
			goto out;
		}
		free(err);
		if (!make_dirs(base, &e))
			log_warn("%s", e.msg);
		log_info("installed with %s: campaign %s runs every night at %02d:%02d into %s/YYYY-MM-DD", tool,
			 w.name, hour, minute, base);
	}
	rc = EXIT_OK;
out:
	free(block);
	free(base_rel);
	free(base);
	free(self);
	free(self_abs);
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
	if (!strcmp(sub, "run"))
		return run_run(argc, argv);
	if (!strcmp(sub, "status"))
		return run_status(argc, argv);
	if (!strcmp(sub, "wait"))
		return run_wait(argc, argv);
	if (!strcmp(sub, "retry"))
		return run_retry(argc, argv);
	if (!strcmp(sub, "cancel"))
		return run_cancel(argc, argv);
	if (!strcmp(sub, "schedule"))
		return run_schedule(argc, argv);
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
	"are left out with a note.\n"
	"\n"
	"run       write one script per job into DIR/jobs, then submit/start them and follow the\n"
	"          campaign to its end (exit 0 when every job completed). Running it again on the same\n"
	"          DIR resumes: finished jobs are not redone, jobs still queued or running are followed;\n"
	"          a job whose script changed (the workflow or site changed) runs again with what\n"
	"          depends on it. DIR defaults to ./NAME (the workflow's name).\n"
	"   --dir DIR       the campaign directory\n"
	"   --dated BASE    use BASE/YYYY-MM-DD (today) and point BASE/latest at it (nightly runs)\n"
	"   --dry-run       only write the scripts and print them\n"
	"   --no-wait       Slurm: return once everything is submitted ('wait' follows it later)\n"
	"   --timeout S     stop following after S seconds (exit 1; the jobs go on)\n"
	"status    per job: state, Slurm job id (or pid), attempts, times, exit code, log, and why\n"
	"          (pending reason, failure); a summary with progress. With Slurm and no driver\n"
	"          running, the scheduler is asked once first. --json prints the state file. Exit 1\n"
	"          when a job failed, was skipped or cancelled.\n"
	"wait      follow the campaign until every job is final (after 'run --no-wait', or a driver\n"
	"          that was stopped); if another driver follows it, watch the state file.\n"
	"retry     run failed, skipped and cancelled jobs again (or the --job NAMEs), and every job\n"
	"          depending on them; then follow the campaign.\n"
	"cancel    cancel every unfinished job (through the driver when one runs).\n"
	"schedule  print a crontab (local sites) or scrontab (Slurm sites) entry that runs the\n"
	"          campaign every night at HH:MM into BASE/YYYY-MM-DD (BASE defaults to ./NAME-nightly);\n"
	"          --install adds it to your table, replacing this campaign's earlier entry. The\n"
	"          report stage of every night appends to BASE/history.h5 and flags regressions; a\n"
	"          missed threshold fails it, and so the night's 'campaign run' (exit status 1).\n"
	"\n"
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
	run_campaign,
};
