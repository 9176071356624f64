/*
 * prepare — the campaign directory made ready to drive: directory, lock, plan, resume, scripts,
 * copies of the specs, state. See prepare.h.
 */
#include "campaign/prepare.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "campaign/plan.h"
#include "campaign/resume.h"
#include "campaign/statefile.h"
#include "util/file.h"
#include "util/log.h"
#include "util/path.h"
#include "util/xalloc.h"

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

/* BASE/YYYY-MM-DD for today (local time) */
static char *dated_dir(const char *base)
{
	char day[32];
	time_t t = time(NULL);
	struct tm tm;
	localtime_r(&t, &tm);
	strftime(day, sizeof day, "%Y-%m-%d", &tm);
	return xasprintf("%s/%s", base, day);
}

/* point DIR/../latest at DIR (relative link, replaced atomically; best effort) */
static void link_latest(const char *dir)
{
	char *link = xasprintf("%s/../latest", dir), *tmp = xasprintf("%s/../.latest.%ld", dir, (long)getpid());
	const char *slash = strrchr(dir, '/');
	if (symlink(slash ? slash + 1 : dir, tmp) == 0 && rename(tmp, link))
		unlink(tmp);
	free(link);
	free(tmp);
}

/* the names a campaign writes at the top of its directory (a dry run leaves some of them) */
static bool campaign_entry(const char *name)
{
	static const char *const own[] = {".", "..", ".lock", "jobs", "logs", "workflow.yaml", "site.yaml"};
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
		if (!strcmp(name, own[i]))
			return true;
	return false;
}

/* true when dir may hold the campaign: absent, holding only what a campaign writes (empty, or
 * left by a dry run), or a campaign directory already (whose workflow resume_earlier checks);
 * anything else is refused, so that no file of it is overwritten */
static bool dir_free_for_campaign(const char *dir, struct campaign_error *e)
{
	struct stat st;
	if (stat(dir, &st))
		return true;
	if (!S_ISDIR(st.st_mode))
		return campaign_error_set(e, "%s: exists and is not a directory; choose another --dir", dir);
	if (state_exists(dir))
		return true;
	DIR *d = opendir(dir);
	if (!d)
		return campaign_error_set(e, "%s: %s", dir, strerror(errno));
	bool own = true;
	for (struct dirent *ent; own && (ent = readdir(d));)
		own = campaign_entry(ent->d_name);
	closedir(d);
	return own || campaign_error_set(e, "%s: exists and is not a campaign directory (no state.json); "
					   "choose a new or empty directory", dir);
}

/* the campaign directory, created and absolute; NULL (e) when it cannot be created */
static char *campaign_dir(const struct workflow *w, const struct prepare_options *o, struct campaign_error *e)
{
	char *dir;
	if (o->dated_base) {
		if (!make_dirs(o->dated_base, e->msg, sizeof e->msg))
			return NULL;
		char *base = path_absolute(o->dated_base);
		dir = dated_dir(base);
		free(base);
	} else {
		dir = xstrdup(o->dir ? o->dir : w->name);
		if (!dir_free_for_campaign(dir, e)) {
			free(dir);
			return NULL;
		}
	}
	if (!make_dirs(dir, e->msg, sizeof e->msg)) {
		free(dir);
		return NULL;
	}
	char *abs = path_absolute(dir);
	free(dir);
	if (o->dated_base)
		link_latest(abs);
	return abs;
}

/* take the driver lock of dir: 1 taken, 0 another process drives it (e says which), -1 error */
static int campaign_lock_dir(struct campaign *c, const char *dir, struct campaign_error *e)
{
	pid_t holder = 0;
	int r = state_lock(c, dir, &holder, e);
	if (r == 0) {
		if (holder)
			campaign_error_set(e, "%s: the campaign is being driven by process %ld; 'ladder campaign status %s' "
					   "shows its progress", dir, (long)holder, dir);
		else
			campaign_error_set(e, "%s: the campaign is being driven by another process", dir);
	}
	return r;
}

/* A campaign moved or copied from old->moved_from: its jobs' scripts name the old directory, so
 * their hashes differ from the fresh ones. A job whose script, planned at the old directory, is
 * the one recorded did not change: it takes the fresh hash and keeps its state. */
static void adopt_move(struct campaign *old, const struct campaign *fresh, const struct workflow *w,
		       const struct site *s, const struct plan_env *env)
{
	struct plan_env at_old = *env;
	at_old.dir = old->moved_from;
	at_old.quiet = true;
	struct campaign before;
	campaign_init(&before);
	char **scripts = NULL;
	struct campaign_error ignored;
	size_t adopted = 0;
	if (plan_build(w, s, &at_old, &before, &scripts, &ignored)) {
		for (size_t i = 0; i < old->njobs; i++) {
			struct campaign_job *o = &old->jobs[i];
			const struct campaign_job *b = campaign_find_job(&before, o->name);
			const struct campaign_job *n = campaign_find_job((struct campaign *)fresh, o->name);
			if (b && n && !strcmp(b->hash, o->hash)) {
				snprintf(o->hash, sizeof o->hash, "%s", n->hash);
				adopted++;
			}
		}
		for (size_t i = 0; i < before.njobs; i++)
			free(scripts[i]);
		free(scripts);
	}
	campaign_free(&before);
	log_info("the campaign was moved from %s to %s: %zu of its %zu jobs carry over", old->moved_from, fresh->dir,
		 adopted, old->njobs);
}

/* take over the state of the campaign already in dir, if any; else a fresh id */
static bool resume_earlier(struct campaign *fresh, const char *dir, const struct workflow *w, const struct site *s,
			   const struct plan_env *env, bool *resumed, struct campaign_error *e)
{
	if (!state_exists(dir)) {
		fresh->id = random_id();
		return true;
	}
	struct campaign old;
	campaign_init(&old);
	bool ok = state_load(dir, &old, e);
	if (ok && strcmp(old.name, fresh->name))
		ok = campaign_error_set(e, "%s holds campaign '%s', not '%s'; use another --dir", dir, old.name,
					fresh->name);
	if (ok && old.moved_from)
		adopt_move(&old, fresh, w, s, env);
	ok = ok && campaign_resume(fresh, &old, e);
	campaign_free(&old);
	*resumed = ok;
	return ok;
}

/* DIR/jobs/NAME.sh for every job, rewritten only when its text changed; DIR/logs */
static bool write_scripts(const struct campaign *c, char *const *scripts, struct campaign_error *e)
{
	char *jobs = campaign_path(c, "jobs"), *logs = campaign_path(c, "logs");
	bool ok = make_dirs(jobs, e->msg, sizeof e->msg) && make_dirs(logs, e->msg, sizeof e->msg);
	free(jobs);
	free(logs);
	for (size_t i = 0; ok && i < c->njobs; i++) {
		char *path = campaign_path(c, c->jobs[i].script);
		char *current = read_file(path);
		bool same = current && !strcmp(current, scripts[i]);
		free(current);
		ok = same || write_file_atomic(path, scripts[i], 0755, e->msg, sizeof e->msg);
		free(path);
	}
	return ok;
}

/* copy from to `to` (atomically), unless they are the same path */
static bool copy_file(const char *from, const char *to, struct campaign_error *e)
{
	if (!strcmp(from, to))
		return true;
	char *text = read_file(from);
	if (!text)
		return campaign_error_set(e, "cannot read %s: %s", from, strerror(errno));
	bool ok = write_file_atomic(to, text, 0644, e->msg, sizeof e->msg);
	free(text);
	return ok;
}

static bool copy_specs(const struct workflow *w, const struct site *s, const char *dir, struct campaign_error *e)
{
	char *workflow_copy = xasprintf("%s/workflow.yaml", dir), *site_copy = xasprintf("%s/site.yaml", dir);
	bool ok = copy_file(w->path, workflow_copy, e) && copy_file(s->path, site_copy, e);
	free(workflow_copy);
	free(site_copy);
	return ok;
}

static void warn_missing_tracer(const char *prefix)
{
	char *tracer = xasprintf("%s/lib/libladder-trace.so", prefix);
	if (access(tracer, R_OK))
		log_warn("%s is missing: the run jobs will fail (build ladder with 'make')", tracer);
	free(tracer);
}

bool campaign_prepare(const struct workflow *w, const struct site *s, const struct prepare_options *o,
		      struct prepared *p, struct campaign_error *e)
{
	memset(p, 0, sizeof *p);
	campaign_init(&p->campaign);
	struct campaign *c = &p->campaign;
	char *dir = campaign_dir(w, o, e);
	if (!dir)
		return false;
	bool ok = campaign_lock_dir(c, dir, e) == 1;
	if (ok && o->dry_run && state_exists(dir))
		ok = campaign_error_set(e, "%s already holds a campaign; --dry-run writes scripts only into a new "
					"directory", dir);
	/* nightly: one report history for every night, BASE/history.h5 */
	char *history = o->dated_base ? xasprintf("%.*s/history.h5", (int)(strrchr(dir, '/') - dir), dir) : NULL;
	struct plan_env env = {dir, o->prefix, o->ladder, o->have_subcommand, false, history};
	if (ok) {
		warn_missing_tracer(o->prefix);
		ok = plan_build(w, s, &env, c, &p->scripts, e);
	}
	ok = ok && resume_earlier(c, dir, w, s, &env, &p->resumed, e) && write_scripts(c, p->scripts, e) &&
	     copy_specs(w, s, dir, e) && (o->dry_run || state_save(c, e));
	free(history);
	free(dir);
	return ok;
}

void prepared_free(struct prepared *p)
{
	if (p->scripts)
		for (size_t i = 0; i < p->campaign.njobs; i++)
			free(p->scripts[i]);
	free(p->scripts);
	p->scripts = NULL;
	state_unlock(&p->campaign);
	campaign_free(&p->campaign);
}
