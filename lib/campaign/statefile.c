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

#include "campaign/state_fields.h"
#include "util/file.h"
#include "util/xalloc.h"

#define STATE_FORMAT "ladder-campaign-state"
#define STATE_VERSION 1

/* the top-level objects after "format" and "version", each written and read by its field table */
static const struct state_table *const sections[] = {&state_campaign_table, &state_site_table,
						    &state_counters_table};

bool state_save(struct campaign *c, struct campaign_error *e)
{
	c->updated = (long long)time(NULL);
	if (!c->created)
		c->created = c->updated;
	json_t *root = json_object();
	json_object_set_new(root, "format", json_string(STATE_FORMAT));
	json_object_set_new(root, "version", json_integer(STATE_VERSION));
	for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++)
		json_object_set_new(root, sections[s]->key, state_fields_write(sections[s], c));
	json_t *jobs = json_array();
	for (size_t i = 0; i < c->njobs; i++)
		json_array_append_new(jobs, state_fields_write(&state_job_table, &c->jobs[i]));
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

/* "format" and "version": a ladder campaign state file this ladder reads */
static bool check_header(json_t *root, const char *path, struct campaign_error *e)
{
	json_t *fmt = json_object_get(root, "format"), *version = json_object_get(root, "version");
	if (!json_is_string(fmt) || strcmp(json_string_value(fmt), STATE_FORMAT))
		return campaign_error_set(e, "%s: not a ladder campaign state file", path);
	if (!json_is_integer(version) || json_integer_value(version) != STATE_VERSION)
		return campaign_error_set(e, "%s: state format version %lld; this ladder reads version %d", path,
					  json_is_integer(version) ? (long long)json_integer_value(version) : 0LL,
					  STATE_VERSION);
	return true;
}

static bool load_jobs(json_t *jobs, const char *path, struct campaign *c, struct campaign_error *e)
{
	if (!json_is_array(jobs))
		return campaign_error_set(e, "%s: 'jobs' is missing or not a list", path);
	size_t i;
	json_t *o;
	json_array_foreach(jobs, i, o)
	{
		char where[64];
		snprintf(where, sizeof where, "jobs[%zu]", i);
		struct campaign_job *j = campaign_add_job(c, "", JK_BUILD, "");
		if (!state_fields_read(&state_job_table, o, j, path, where, e))
			return false;
	}
	return true;
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
	bool ok = check_header(root, path, e);
	if (ok) {
		char *real = realpath(dir, NULL);
		c->dir = real ? real : xstrdup(dir);
	}
	for (size_t s = 0; ok && s < sizeof sections / sizeof sections[0]; s++)
		ok = state_fields_read(sections[s], json_object_get(root, sections[s]->key), c, path, sections[s]->key, e);
	ok = ok && load_jobs(json_object_get(root, "jobs"), path, c, e) && campaign_link(c, e);
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
