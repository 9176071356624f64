/*
 * resume — state carried over between drivers, and retries. See resume.h.
 */
#include "campaign/resume.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/log.h"
#include "util/xalloc.h"

static void copy_state(struct campaign_job *to, const struct campaign_job *from)
{
	to->state = from->state;
	to->id = from->id;
	to->pid = from->pid;
	to->submitted = from->submitted;
	to->started = from->started;
	to->ended = from->ended;
	to->exit_code = from->exit_code;
	to->has_exit = from->has_exit;
	to->attempts = from->attempts;
	to->restarts = from->restarts;
	free(to->reason);
	to->reason = from->reason ? xstrdup(from->reason) : NULL;
	free(to->history);
	to->history = from->history ? xstrdup(from->history) : NULL;
}

static void add_history(struct campaign_job *j)
{
	if (!j->id && !j->attempts)
		return;
	char *h = xasprintf("%s%s%u:%s", j->history ? j->history : "", j->history ? " " : "", j->id,
			    job_state_name(j->state));
	free(j->history);
	j->history = h;
}

static void to_waiting(struct campaign_job *j, const char *why)
{
	if (j->state != JS_WAITING)
		add_history(j);
	j->state = JS_WAITING;
	j->id = 0;
	j->pid = 0;
	j->submitted = j->started = j->ended = 0;
	j->has_exit = false;
	j->misses = 0;
	job_set_reason(j, "%s", why);
}

/* a completed job's output (if it has one) is still there */
static bool output_present(const struct campaign *c, const struct campaign_job *j)
{
	if (!j->output)
		return true;
	char *path = campaign_path(c, j->output);
	struct stat st;
	bool there = !stat(path, &st) && st.st_size > 0;
	free(path);
	return there;
}

/* every job after a reset one is reset too (jobs are in dependency order) */
static void reset_dependants(struct campaign *c, bool *reset)
{
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		if (reset[i])
			continue;
		for (size_t k = 0; k < j->ndeps; k++)
			if (reset[j->dep[k]]) {
				reset[i] = true;
				if (j->state != JS_WAITING)
					to_waiting(j, "runs again after the jobs it depends on");
				break;
			}
	}
}

bool campaign_resume(struct campaign *fresh, const struct campaign *old, struct campaign_error *e)
{
	for (size_t i = 0; i < old->njobs; i++) {
		const struct campaign_job *o = &old->jobs[i];
		struct campaign_job *n = campaign_find_job(fresh, o->name);
		if (job_active(o->state) && (!n || strcmp(n->hash, o->hash)))
			return campaign_error_set(e, "job %s is %s with a script that the workflow or site no longer produces; "
					"cancel the campaign first ('ladder campaign cancel %s') or use another --dir",
					o->name, job_state_name(o->state), old->dir);
		if (!n && o->state == JS_COMPLETED)
			log_info("note: job %s is no longer part of the campaign (its outputs stay)", o->name);
	}
	bool *reset = xcalloc(fresh->njobs ? fresh->njobs : 1, sizeof *reset);
	for (size_t i = 0; i < fresh->njobs; i++) {
		struct campaign_job *n = &fresh->jobs[i];
		const struct campaign_job *o = NULL;
		for (size_t k = 0; k < old->njobs && !o; k++)
			if (!strcmp(old->jobs[k].name, n->name))
				o = &old->jobs[k];
		if (!o)
			continue;
		copy_state(n, o);
		if (strcmp(n->hash, o->hash) && n->state != JS_WAITING) {
			log_info("note: job %s changed (its script differs); it runs again", n->name);
			to_waiting(n, "its script changed");
			reset[i] = true;
		} else if (n->state == JS_COMPLETED && !output_present(fresh, n)) {
			log_info("note: job %s completed but its output %s is gone; it runs again", n->name, n->output);
			to_waiting(n, "its output disappeared");
			reset[i] = true;
		}
	}
	reset_dependants(fresh, reset);
	free(reset);
	fresh->created = old->created;
	fresh->queries = old->queries;
	fresh->query_errors = old->query_errors;
	fresh->jobcomp_reads = old->jobcomp_reads;
	fresh->acct_queries = old->acct_queries;
	fresh->submissions = old->submissions;
	if (!fresh->jobcomp && old->jobcomp)
		fresh->jobcomp = xstrdup(old->jobcomp);
	fresh->accounting = old->accounting;
	free(fresh->id);
	fresh->id = xstrdup(old->id);
	return true;
}

long campaign_reset(struct campaign *c, char *const *names, size_t n, struct campaign_error *e)
{
	bool *reset = xcalloc(c->njobs ? c->njobs : 1, sizeof *reset);
	long count = 0;
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		bool pick = false;
		if (names) {
			for (size_t k = 0; k < n; k++)
				pick |= !strcmp(names[k], j->name);
		} else {
			pick = j->state == JS_FAILED || j->state == JS_CANCELLED || j->state == JS_SKIPPED;
		}
		if (!pick)
			continue;
		if (job_active(j->state)) {
			free(reset);
			return campaign_error_set(e, "job %s is %s; wait for it or cancel the campaign first", j->name,
					job_state_name(j->state)), -1;
		}
		reset[i] = true;
		to_waiting(j, "retried");
	}
	for (size_t k = 0; names && k < n; k++)
		if (!campaign_find_job(c, names[k])) {
			free(reset);
			return campaign_error_set(e, "no job named '%s' in campaign %s", names[k], c->name), -1;
		}
	reset_dependants(c, reset);
	for (size_t i = 0; i < c->njobs; i++)
		count += reset[i];
	free(reset);
	return count;
}
