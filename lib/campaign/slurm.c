/*
 * slurm — the Slurm executor, over libslurm (sbatch --parsable as the fallback).
 *
 * Submission: one batch job per campaign job, in dependency order, each with
 * "afterok:<ids of its unfinished dependencies>" (finished ones are left out: Slurm refuses a
 * dependency on a purged job) and kill-on-invalid-dependency, so Slurm runs the whole campaign on
 * its own once it is submitted. The job comment "ladder:<campaign id>:<job>" lets a later driver
 * adopt a job whose submission it did not live to record.
 *
 * Polling: one slurm_load_job_user() per interval for all of the campaign's jobs, whatever their
 * number; jobs the controller no longer knows (purged after MinJobAge) are looked up in the job
 * completion file, then in accounting (sacct) when the cluster has it. Requeued jobs (state
 * flags, restart count) are followed. An unreachable controller (restarting, overloaded) is not
 * an error: submissions and polls are retried until the site's controller-timeout.
 *
 * What Slurm's states mean for the campaign is slurm_state.c; jobs the controller has forgotten
 * are resolved in slurm_resolve.c.
 */
#include <errno.h>
#include <signal.h>
#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign/exec.h"
#include "util/spawn.h"
#include "campaign/slurm_int.h"
#include "campaign/statefile.h"
#include "util/file.h"
#include "util/log.h"
#include "util/xalloc.h"

extern char **environ;

static bool inited;
static bool unreachable;         /* the last query failed; said once */

static void fini(void)
{
	if (inited)
		slurm_fini();
}

static bool transient_errno(int err)
{
	return (err >= SLURM_COMMUNICATIONS_CONNECTION_ERROR && err <= SLURM_COMMUNICATIONS_MISSING_SOCKET_ERROR &&
		err != SLURM_PROTOCOL_VERSION_ERROR) ||
	       (err >= SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR && err < SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR + 100) ||
	       (err >= SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV_LENGTH && err < SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV_LENGTH + 100) ||
	       err == EAGAIN || err == ETIMEDOUT || err == ECONNREFUSED || err == ESLURM_NOT_SUPPORTED ||
	       err == SLURM_PROTOCOL_AUTHENTICATION_ERROR;
}

static bool slurm_open(struct campaign *c, struct campaign_error *e)
{
	(void)e;
	if (!inited) {
		if (!getenv("SLURM_CONF") && access("/etc/slurm/slurm.conf", F_OK) && access("/etc/slurm-llnl/slurm.conf", F_OK))
			log_warn("SLURM_CONF is not set and there is no /etc/slurm/slurm.conf: libslurm looks for a "
				 "configless controller through DNS (for the test cluster: eval \"$(tests/slurm/up)\")");
		slurm_init(NULL);
		inited = true;
		atexit(fini);
	}
	slurm_resolve_init(c);
	slurm_conf_t *conf = NULL;
	if (slurm_load_ctl_conf((time_t)0, &conf) == SLURM_SUCCESS && conf) {
		if (!c->jobcomp && conf->job_comp_type && strstr(conf->job_comp_type, "filetxt") && conf->job_comp_loc)
			c->jobcomp = xstrdup(conf->job_comp_loc);
		c->accounting = conf->accounting_storage_type && !strstr(conf->accounting_storage_type, "none");
		slurm_free_ctl_conf(conf);
	} else {
		log_debug("cannot read the controller's configuration: %s (using what the state file knows)",
			  slurm_strerror(slurm_get_errno()));
	}
	return true;
}

static void slurm_close(struct campaign *c)
{
	(void)c;
	slurm_resolve_fini();
}

/* ---- polling ----------------------------------------------------------------------------- */

struct idx {
	uint32_t id;
	uint32_t rec;
};

static int cmp_idx(const void *a, const void *b)
{
	uint32_t x = ((const struct idx *)a)->id, y = ((const struct idx *)b)->id;
	return (x > y) - (x < y);
}

/* one query for all of the user's jobs; NULL when the controller did not answer */
static job_info_msg_t *load_all(struct campaign *c)
{
	job_info_msg_t *m = NULL;
	c->queries++;
	if (slurm_load_job_user(&m, (uint32_t)getuid(), SHOW_ALL) != SLURM_SUCCESS || !m) {
		c->query_errors++;
		if (!unreachable)
			log_warn("cannot ask the Slurm controller about the jobs: %s; retrying",
				 slurm_strerror(slurm_get_errno()));
		unreachable = true;
		return NULL;
	}
	if (unreachable)
		log_info("the Slurm controller answers again");
	unreachable = false;
	return m;
}

static int slurm_poll(struct campaign *c)
{
	size_t nactive = 0;
	for (size_t i = 0; i < c->njobs; i++)
		if (job_active(c->jobs[i].state) && c->jobs[i].id)
			nactive++;
	if (!nactive)
		return 0;
	job_info_msg_t *m = load_all(c);
	if (!m)
		return -1;
	struct idx *ix = xcalloc(m->record_count ? m->record_count : 1, sizeof *ix);
	for (uint32_t i = 0; i < m->record_count; i++)
		ix[i] = (struct idx){m->job_array[i].job_id, i};
	qsort(ix, m->record_count, sizeof *ix, cmp_idx);
	size_t *missing = xcalloc(nactive, sizeof *missing), nmissing = 0;
	int changed = 0;
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		if (!job_active(j->state) || !j->id)
			continue;
		struct idx key = {j->id, 0};
		struct idx *hit = bsearch(&key, ix, m->record_count, sizeof *ix, cmp_idx);
		if (!hit) {
			missing[nmissing++] = i;
			continue;
		}
		j->misses = 0;
		enum job_state before = j->state;
		int restarts = j->restarts;
		slurm_apply_info(c, j, &m->job_array[hit->rec]);
		changed += j->state != before || j->restarts != restarts;
	}
	free(ix);
	slurm_free_job_info_msg(m);
	if (nmissing)
		changed += slurm_resolve_missing(c, missing, nmissing);
	free(missing);
	return changed;
}

/* after a driver restart: jobs submitted but not recorded are found by their comment */
static void slurm_adopt(struct campaign *c)
{
	bool waiting = false;
	for (size_t i = 0; i < c->njobs; i++)
		waiting |= c->jobs[i].state == JS_WAITING;
	if (!waiting || !c->submissions)
		return;
	job_info_msg_t *m = load_all(c);
	if (!m)
		return;
	char *prefix = xasprintf("ladder:%s:", c->id);
	size_t plen = strlen(prefix);
	for (uint32_t i = 0; i < m->record_count; i++) {
		const slurm_job_info_t *r = &m->job_array[i];
		if (!r->comment || strncmp(r->comment, prefix, plen))
			continue;
		struct campaign_job *j = campaign_find_job(c, r->comment + plen);
		if (!j || j->state != JS_WAITING)
			continue;
		/* only a job still in the queue or running: a finished one belongs to an earlier
		 * attempt (a retry puts jobs back to WAITING), and resubmitting is harmless */
		uint32_t base = r->job_state & JOB_STATE_BASE;
		if (base != JOB_PENDING && base != JOB_RUNNING && base != JOB_SUSPENDED)
			continue;
		char idtext[16];
		snprintf(idtext, sizeof idtext, "%u:", r->job_id);
		if (j->history && strstr(j->history, idtext))
			continue;
		j->id = r->job_id;
		j->attempts++;
		j->submitted = (long long)r->submit_time;
		log_info("  %-18s adopted Slurm job %u (submitted by an earlier driver)", j->name, j->id);
		job_transition(c, j, JS_QUEUED);
		slurm_apply_info(c, j, r);
	}
	free(prefix);
	slurm_free_job_info_msg(m);
}

/* ---- submission -------------------------------------------------------------------------- */

static char *dependency(const struct campaign *c, const struct campaign_job *j)
{
	char *s = NULL;
	for (size_t k = 0; k < j->ndeps; k++) {
		const struct campaign_job *d = &c->jobs[j->dep[k]];
		if (d->state == JS_COMPLETED || !d->id)
			continue;
		char *t = s ? xasprintf("%s:%u", s, d->id) : xasprintf("afterok:%u", d->id);
		free(s);
		s = t;
	}
	return s;
}

static int submit_sbatch(struct campaign *c, struct campaign_job *j, const char *dep, uint32_t *id,
			 struct campaign_error *e)
{
	char *script = campaign_path(c, j->script);
	char *comment = xasprintf("--comment=ladder:%s:%s", c->id, j->name);
	char *depopt = dep ? xasprintf("--dependency=%s", dep) : NULL;
	char *argv[8];
	int n = 0;
	argv[n++] = "sbatch";
	argv[n++] = "--parsable";
	argv[n++] = "--kill-on-invalid-dep=yes";
	argv[n++] = comment;
	if (depopt)
		argv[n++] = depopt;
	argv[n++] = script;
	argv[n] = NULL;
	char *out = NULL, *err = NULL;
	int rc = spawn_capture(argv, c->dir, NULL, &out, &err, 300);
	int result;
	char *endp;
	unsigned long v = out ? strtoul(out, &endp, 10) : 0;
	if (rc == 0 && v > 0) {
		*id = (uint32_t)v;
		result = 1;
	} else {
		char *nl = err ? strchr(err, '\n') : NULL;
		if (nl)
			*nl = 0;
		bool transient = rc == -2 || (err && (strstr(err, "Unable to contact") || strstr(err, "timed out") ||
						      strstr(err, "Connection refused") || strstr(err, "temporarily")));
		if (transient) {
			log_debug("sbatch for %s: %s; retrying", j->name, err ? err : "");
			result = 0;
		} else {
			campaign_error_set(e, "submitting job %s with sbatch failed (status %d): %s", j->name, rc,
					   err && *err ? err : "no message");
			result = -1;
		}
	}
	free(out);
	free(err);
	free(script);
	free(comment);
	free(depopt);
	return result;
}

static int submit_lib(struct campaign *c, struct campaign_job *j, const char *dep, uint32_t *id,
		      struct campaign_error *e)
{
	char *path = campaign_path(c, j->script);
	char *text = read_file(path);
	if (!text) {
		campaign_error_set(e, "cannot read %s", path);
		free(path);
		return -1;
	}
	free(path);
	char *name = slurm_name(c, j);
	char *comment = xasprintf("ladder:%s:%s", c->id, j->name);
	char *log = campaign_path(c, j->log);
	uint32_t nenv = 0;
	while (environ[nenv])
		nenv++;
	job_desc_msg_t d;
	slurm_init_job_desc_msg(&d);
	d.name = name;
	d.comment = comment;
	d.script = text;
	d.work_dir = c->dir;
	d.std_out = log;
	d.std_err = log;
	d.environment = environ;
	d.env_size = nenv;
	d.user_id = getuid();
	d.group_id = getgid();
	d.min_nodes = (uint32_t)j->nodes;
	d.max_nodes = (uint32_t)j->nodes;
	d.num_tasks = (uint32_t)j->ranks;
	d.min_cpus = (uint32_t)j->ranks;
	d.bitflags |= JOB_NTASKS_SET | KILL_INV_DEP;
	if (j->nodes > 1)
		d.ntasks_per_node = (uint16_t)j->tasks_per_node;
	d.time_limit = (uint32_t)j->time_limit;
	d.partition = c->partition;
	d.account = c->account;
	d.qos = c->qos;
	d.dependency = (char *)dep;
	submit_response_msg_t *resp = NULL;
	int result;
	if (slurm_submit_batch_job(&d, &resp) == SLURM_SUCCESS && resp) {
		*id = resp->job_id;
		slurm_free_submit_response_response_msg(resp);
		result = 1;
	} else {
		int err = slurm_get_errno();
		if (err == SLURM_PROTOCOL_VERSION_ERROR) {
			log_warn("libslurm cannot talk to this controller (%s); submitting with sbatch from now on",
				 slurm_strerror(err));
			c->use_sbatch = true;
			result = submit_sbatch(c, j, dep, id, e);
		} else if (transient_errno(err) || err == ESLURM_DEPENDENCY) {
			if (!unreachable)
				log_warn("cannot submit %s: %s; retrying", j->name, slurm_strerror(err));
			unreachable = err != ESLURM_DEPENDENCY;
			result = 0;
		} else {
			campaign_error_set(e, "submitting job %s failed: %s", j->name, slurm_strerror(err));
			result = -1;
		}
	}
	free(text);
	free(name);
	free(comment);
	free(log);
	return result;
}

static bool slurm_can_start(struct campaign *c, const struct campaign_job *j)
{
	(void)c;
	(void)j;
	return true;
}

static int slurm_start(struct campaign *c, struct campaign_job *j, struct campaign_error *e)
{
	char *dep = dependency(c, j);
	uint32_t id = 0;
	int r = c->use_sbatch ? submit_sbatch(c, j, dep, &id, e) : submit_lib(c, j, dep, &id, e);
	free(dep);
	if (r <= 0)
		return r;
	if (j->id) {
		char *h = xasprintf("%s%s%u:%s", j->history ? j->history : "", j->history ? " " : "", j->id,
				    job_state_name(j->state));
		free(j->history);
		j->history = h;
	}
	j->id = id;
	j->attempts++;
	j->submitted = (long long)time(NULL);
	j->started = j->ended = 0;
	j->has_exit = false;
	j->misses = 0;
	c->submissions++;
	job_set_reason(j, NULL);
	job_transition(c, j, JS_QUEUED);
	return 1;
}

static bool slurm_cancel(struct campaign *c, struct campaign_job *j)
{
	(void)c;
	if (!j->id)
		return true;
	if (slurm_kill_job(j->id, SIGKILL, 0) == SLURM_SUCCESS)
		return true;
	int err = slurm_get_errno();
	if (err == ESLURM_ALREADY_DONE || err == ESLURM_INVALID_JOB_ID)
		return true;
	char id[16];
	snprintf(id, sizeof id, "%u", j->id);
	char *argv[] = {"scancel", id, NULL};
	return spawn_capture(argv, NULL, NULL, NULL, NULL, 60) == 0;
}

static void slurm_sleep(struct campaign *c, double seconds)
{
	(void)c;
	struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

const struct executor exec_slurm = {
	"slurm", slurm_open, slurm_adopt, slurm_poll, slurm_can_start, slurm_start, slurm_cancel,
	slurm_close, slurm_sleep, true,
};
