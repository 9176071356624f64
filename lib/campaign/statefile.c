/*
 * statefile — the state file (JSON, atomic rewrite) and the driver lock (flock). See statefile.h.
 */
#include "campaign/statefile.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/file.h"
#include "util/xalloc.h"

#define STATE_FORMAT "ladder-campaign-state"
#define STATE_VERSION 1

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *job_json(const struct campaign_job *j)
{
	json_t *deps = json_array();
	for (size_t i = 0; i < j->ndeps; i++)
		json_array_append_new(deps, json_string(j->deps[i]));
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(j->name));
	json_object_set_new(o, "kind", json_string(job_kind_name(j->kind)));
	json_object_set_new(o, "stage", json_string(j->stage));
	json_object_set_new(o, "ranks", json_integer(j->ranks));
	json_object_set_new(o, "nodes", json_integer(j->nodes));
	json_object_set_new(o, "tasks_per_node", json_integer(j->tasks_per_node));
	json_object_set_new(o, "rep", json_integer(j->rep));
	json_object_set_new(o, "size", json_integer(j->size));
	json_object_set_new(o, "target", json_integer(j->target));
	json_object_set_new(o, "time_limit", json_integer(j->time_limit));
	json_object_set_new(o, "deps", deps);
	json_object_set_new(o, "script", json_string(j->script));
	json_object_set_new(o, "log", json_string(j->log));
	json_object_set_new(o, "output", str_or_null(j->output));
	json_object_set_new(o, "hash", json_string(j->hash));
	json_object_set_new(o, "state", json_string(job_state_name(j->state)));
	json_object_set_new(o, "id", json_integer(j->id));
	json_object_set_new(o, "pid", json_integer(j->pid));
	json_object_set_new(o, "submitted", json_integer(j->submitted));
	json_object_set_new(o, "started", json_integer(j->started));
	json_object_set_new(o, "ended", json_integer(j->ended));
	json_object_set_new(o, "exit_code", j->has_exit ? json_integer(j->exit_code) : json_null());
	json_object_set_new(o, "attempts", json_integer(j->attempts));
	json_object_set_new(o, "restarts", json_integer(j->restarts));
	json_object_set_new(o, "reason", str_or_null(j->reason));
	json_object_set_new(o, "history", str_or_null(j->history));
	return o;
}

bool state_save(struct campaign *c, struct campaign_error *e)
{
	c->updated = (long long)time(NULL);
	if (!c->created)
		c->created = c->updated;
	json_t *root = json_object();
	json_object_set_new(root, "format", json_string(STATE_FORMAT));
	json_object_set_new(root, "version", json_integer(STATE_VERSION));
	json_t *camp = json_object();
	json_object_set_new(camp, "name", json_string(c->name));
	json_object_set_new(camp, "id", json_string(c->id));
	json_object_set_new(camp, "dir", json_string(c->dir));
	json_object_set_new(camp, "scheduler", json_string(c->sched == SCHED_SLURM ? "slurm" : "local"));
	json_object_set_new(camp, "workflow", str_or_null(c->workflow_src));
	json_object_set_new(camp, "site", str_or_null(c->site_src));
	json_object_set_new(camp, "created", json_integer(c->created));
	json_object_set_new(camp, "updated", json_integer(c->updated));
	json_object_set_new(root, "campaign", camp);
	json_t *site = json_object();
	json_object_set_new(site, "partition", str_or_null(c->partition));
	json_object_set_new(site, "account", str_or_null(c->account));
	json_object_set_new(site, "qos", str_or_null(c->qos));
	json_object_set_new(site, "submit", json_string(c->use_sbatch ? "sbatch" : "libslurm"));
	json_object_set_new(site, "max_ranks", json_integer(c->max_ranks));
	json_object_set_new(site, "poll_interval", json_real(c->poll_min));
	json_object_set_new(site, "poll_max", json_real(c->poll_max));
	json_object_set_new(site, "controller_timeout", json_integer(c->controller_timeout));
	json_object_set_new(site, "jobcomp", str_or_null(c->jobcomp));
	json_object_set_new(site, "accounting", json_boolean(c->accounting));
	json_object_set_new(root, "site", site);
	json_t *cnt = json_object();
	json_object_set_new(cnt, "queries", json_integer(c->queries));
	json_object_set_new(cnt, "query_errors", json_integer(c->query_errors));
	json_object_set_new(cnt, "jobcomp_reads", json_integer(c->jobcomp_reads));
	json_object_set_new(cnt, "acct_queries", json_integer(c->acct_queries));
	json_object_set_new(cnt, "submissions", json_integer(c->submissions));
	json_object_set_new(root, "counters", cnt);
	json_t *jobs = json_array();
	for (size_t i = 0; i < c->njobs; i++)
		json_array_append_new(jobs, job_json(&c->jobs[i]));
	json_object_set_new(root, "jobs", jobs);
	char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
	json_decref(root);
	if (!text)
		return campaign_error_set(e, "cannot encode the campaign state");
	char *withnl = xasprintf("%s\n", text);
	free(text);
	char *path = campaign_path(c, "state.json");
	bool ok = write_file_atomic(path, withnl, 0644, e->msg, sizeof e->msg);
	free(path);
	free(withnl);
	return ok;
}

bool state_exists(const char *dir)
{
	char *p = xasprintf("%s/state.json", dir);
	bool ok = access(p, F_OK) == 0;
	free(p);
	return ok;
}

/* ---- loading ----------------------------------------------------------------------------- */

struct jreader {
	const char *path;
	struct campaign_error *e;
	bool bad;
};

static const char *get_str(struct jreader *r, json_t *o, const char *key, bool nullable, const char *where)
{
	json_t *v = json_object_get(o, key);
	if (nullable && (!v || json_is_null(v)))
		return NULL;
	if (!json_is_string(v)) {
		if (!r->bad)
			campaign_error_set(r->e, "%s: %s: '%s' is missing or not a string", r->path, where, key);
		r->bad = true;
		return NULL;
	}
	return json_string_value(v);
}

static long long get_int(struct jreader *r, json_t *o, const char *key, const char *where)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_integer(v)) {
		if (!r->bad)
			campaign_error_set(r->e, "%s: %s: '%s' is missing or not an integer", r->path, where, key);
		r->bad = true;
		return 0;
	}
	return json_integer_value(v);
}

static double get_num(struct jreader *r, json_t *o, const char *key, const char *where)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_number(v)) {
		if (!r->bad)
			campaign_error_set(r->e, "%s: %s: '%s' is missing or not a number", r->path, where, key);
		r->bad = true;
		return 0;
	}
	return json_number_value(v);
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* a path of state.json stays inside the campaign directory: relative, without '..' components */
static bool confined(const char *rel)
{
	if (!rel)
		return true;
	if (!*rel || rel[0] == '/')
		return false;
	for (const char *p = rel; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return false;
	}
	return true;
}

static bool load_job(struct jreader *r, json_t *o, struct campaign *c, size_t idx)
{
	char where[64];
	snprintf(where, sizeof where, "jobs[%zu]", idx);
	if (!json_is_object(o)) {
		campaign_error_set(r->e, "%s: %s is not an object", r->path, where);
		return false;
	}
	const char *name = get_str(r, o, "name", false, where);
	const char *kind = get_str(r, o, "kind", false, where);
	const char *stage = get_str(r, o, "stage", false, where);
	const char *state = get_str(r, o, "state", false, where);
	if (r->bad)
		return false;
	enum job_kind k;
	enum job_state s;
	if (!job_kind_parse(kind, &k) || !job_state_parse(state, &s)) {
		campaign_error_set(r->e, "%s: %s: unknown kind '%s' or state '%s'", r->path, where, kind, state);
		return false;
	}
	struct campaign_job *j = campaign_add_job(c, name, k, stage);
	j->state = s;
	j->ranks = get_int(r, o, "ranks", where);
	j->nodes = get_int(r, o, "nodes", where);
	j->tasks_per_node = get_int(r, o, "tasks_per_node", where);
	j->rep = get_int(r, o, "rep", where);
	j->size = get_int(r, o, "size", where);
	j->target = get_int(r, o, "target", where);
	j->time_limit = get_int(r, o, "time_limit", where);
	j->script = dup_or_null(get_str(r, o, "script", false, where));
	j->log = dup_or_null(get_str(r, o, "log", false, where));
	j->output = dup_or_null(get_str(r, o, "output", true, where));
	const char *paths[] = {j->script, j->log, j->output}, *keys[] = {"script", "log", "output"};
	for (int i = 0; i < 3; i++)
		if (!confined(paths[i])) {
			campaign_error_set(r->e, "%s: %s: '%s' is '%s', a path outside the campaign directory; expected "
					   "a relative path inside it", r->path, where, keys[i], paths[i]);
			return false;
		}
	const char *hash = get_str(r, o, "hash", false, where);
	if (hash)
		snprintf(j->hash, sizeof j->hash, "%s", hash);
	j->id = (uint32_t)get_int(r, o, "id", where);
	j->pid = (long)get_int(r, o, "pid", where);
	j->submitted = get_int(r, o, "submitted", where);
	j->started = get_int(r, o, "started", where);
	j->ended = get_int(r, o, "ended", where);
	json_t *ec = json_object_get(o, "exit_code");
	if (json_is_integer(ec)) {
		j->has_exit = true;
		j->exit_code = (int)json_integer_value(ec);
	}
	j->attempts = (int)get_int(r, o, "attempts", where);
	j->restarts = (int)get_int(r, o, "restarts", where);
	j->reason = dup_or_null(get_str(r, o, "reason", true, where));
	j->history = dup_or_null(get_str(r, o, "history", true, where));
	json_t *deps = json_object_get(o, "deps");
	if (!json_is_array(deps)) {
		campaign_error_set(r->e, "%s: %s: 'deps' is missing or not a list", r->path, where);
		return false;
	}
	size_t i;
	json_t *d;
	json_array_foreach(deps, i, d)
	{
		if (!json_is_string(d)) {
			campaign_error_set(r->e, "%s: %s: 'deps' holds a non-string", r->path, where);
			return false;
		}
		job_add_dep(j, json_string_value(d));
	}
	return !r->bad;
}

bool state_load(const char *dir, struct campaign *c, struct campaign_error *e)
{
	char *path = xasprintf("%s/state.json", dir);
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	if (!root) {
		if (access(path, F_OK))
			campaign_error_set(e, "%s: not a campaign directory (no state.json)", dir);
		else
			campaign_error_set(e, "%s:%d: malformed state file: %s", path, je.line, je.text);
		free(path);
		return false;
	}
	struct jreader r = {path, e, false};
	bool ok = false;
	const char *fmt = get_str(&r, root, "format", false, "top level");
	if (r.bad || strcmp(fmt, STATE_FORMAT)) {
		campaign_error_set(e, "%s: not a ladder campaign state file", path);
		goto out;
	}
	long long version = get_int(&r, root, "version", "top level");
	if (r.bad || version != STATE_VERSION) {
		campaign_error_set(e, "%s: state format version %lld; this ladder reads version %d", path, version, STATE_VERSION);
		goto out;
	}
	json_t *camp = json_object_get(root, "campaign"), *site = json_object_get(root, "site"),
	       *cnt = json_object_get(root, "counters"), *jobs = json_object_get(root, "jobs");
	if (!json_is_object(camp) || !json_is_object(site) || !json_is_object(cnt) || !json_is_array(jobs)) {
		campaign_error_set(e, "%s: 'campaign', 'site', 'counters' or 'jobs' is missing", path);
		goto out;
	}
	char *real = realpath(dir, NULL);
	c->dir = real ? real : xstrdup(dir);
	const char *recorded = get_str(&r, camp, "dir", true, "campaign");
	if (recorded && strcmp(recorded, c->dir))
		c->moved_from = xstrdup(recorded);
	c->name = dup_or_null(get_str(&r, camp, "name", false, "campaign"));
	c->id = dup_or_null(get_str(&r, camp, "id", false, "campaign"));
	const char *sched = get_str(&r, camp, "scheduler", false, "campaign");
	c->sched = sched && !strcmp(sched, "slurm") ? SCHED_SLURM : SCHED_LOCAL;
	c->workflow_src = dup_or_null(get_str(&r, camp, "workflow", true, "campaign"));
	c->site_src = dup_or_null(get_str(&r, camp, "site", true, "campaign"));
	c->created = get_int(&r, camp, "created", "campaign");
	c->updated = get_int(&r, camp, "updated", "campaign");
	c->partition = dup_or_null(get_str(&r, site, "partition", true, "site"));
	c->account = dup_or_null(get_str(&r, site, "account", true, "site"));
	c->qos = dup_or_null(get_str(&r, site, "qos", true, "site"));
	const char *submit = get_str(&r, site, "submit", false, "site");
	c->use_sbatch = submit && !strcmp(submit, "sbatch");
	c->max_ranks = get_int(&r, site, "max_ranks", "site");
	c->poll_min = get_num(&r, site, "poll_interval", "site");
	c->poll_max = get_num(&r, site, "poll_max", "site");
	c->controller_timeout = get_int(&r, site, "controller_timeout", "site");
	c->jobcomp = dup_or_null(get_str(&r, site, "jobcomp", true, "site"));
	c->accounting = json_is_true(json_object_get(site, "accounting"));
	c->queries = get_int(&r, cnt, "queries", "counters");
	c->query_errors = get_int(&r, cnt, "query_errors", "counters");
	c->jobcomp_reads = get_int(&r, cnt, "jobcomp_reads", "counters");
	c->acct_queries = get_int(&r, cnt, "acct_queries", "counters");
	c->submissions = get_int(&r, cnt, "submissions", "counters");
	if (r.bad)
		goto out;
	size_t i;
	json_t *o;
	json_array_foreach(jobs, i, o)
	{
		if (!load_job(&r, o, c, i))
			goto out;
	}
	ok = campaign_link(c, e);
out:
	json_decref(root);
	free(path);
	return ok;
}

/* ---- the driver lock --------------------------------------------------------------------- */

int state_lock(struct campaign *c, const char *dir, pid_t *holder, struct campaign_error *e)
{
	char *path = xasprintf("%s/.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		campaign_error_set(e, "cannot open %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int err = errno;
		if (holder) {
			char buf[32] = "";
			ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
			*holder = k > 0 ? (pid_t)atol(buf) : 0;
		}
		close(fd);
		if (err == EWOULDBLOCK)
			return 0;
		campaign_error_set(e, "cannot lock %s/.lock: %s", dir, strerror(err));
		return -1;
	}
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, buf, (size_t)n, 0) != n) {
		/* the pid is only for messages */
	}
	c->lockfd = fd;
	return 1;
}

void state_unlock(struct campaign *c)
{
	if (c->lockfd >= 0)
		close(c->lockfd);
	c->lockfd = -1;
}
