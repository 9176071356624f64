/*
 * jobgraph — the job graph and per-job state. See jobgraph.h.
 */
#include "campaign/jobgraph.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char *const state_names[] = {"WAITING", "QUEUED", "RUNNING", "COMPLETED", "FAILED",
	"CANCELLED", "SKIPPED"};
static const char *const kind_names[] = {"build", "run", "merge", "stage"};

const char *job_state_name(enum job_state s)
{
	return (unsigned)s < sizeof state_names / sizeof state_names[0] ? state_names[s] : "UNKNOWN";
}

bool job_state_parse(const char *name, enum job_state *s)
{
	for (size_t i = 0; i < sizeof state_names / sizeof state_names[0]; i++)
		if (!strcmp(name, state_names[i])) {
			*s = (enum job_state)i;
			return true;
		}
	return false;
}

const char *job_kind_name(enum job_kind k)
{
	return (unsigned)k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "unknown";
}

bool job_kind_parse(const char *name, enum job_kind *k)
{
	for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
		if (!strcmp(name, kind_names[i])) {
			*k = (enum job_kind)i;
			return true;
		}
	return false;
}

void campaign_init(struct campaign *c)
{
	memset(c, 0, sizeof *c);
	c->lockfd = -1;
	c->poll_min = 1;
	c->poll_max = 30;
	c->controller_timeout = 3600;
}

static void job_free(struct campaign_job *j)
{
	free(j->name);
	free(j->stage);
	for (size_t i = 0; i < j->ndeps; i++)
		free(j->deps[i]);
	free(j->deps);
	free(j->dep);
	free(j->script);
	free(j->log);
	free(j->output);
	free(j->reason);
	free(j->history);
}

void campaign_free(struct campaign *c)
{
	for (size_t i = 0; i < c->njobs; i++)
		job_free(&c->jobs[i]);
	free(c->jobs);
	free(c->dir);
	free(c->moved_from);
	free(c->name);
	free(c->id);
	free(c->workflow_src);
	free(c->site_src);
	free(c->partition);
	free(c->account);
	free(c->qos);
	free(c->jobcomp);
	int fd = c->lockfd;
	memset(c, 0, sizeof *c);
	c->lockfd = fd;
}

struct campaign_job *campaign_add_job(struct campaign *c, const char *name, enum job_kind kind, const char *stage)
{
	c->jobs = xrealloc(c->jobs, (c->njobs + 1) * sizeof *c->jobs);
	struct campaign_job *j = &c->jobs[c->njobs++];
	memset(j, 0, sizeof *j);
	j->name = xstrdup(name);
	j->kind = kind;
	j->stage = xstrdup(stage);
	j->ranks = j->nodes = j->tasks_per_node = 1;
	return j;
}

void job_add_dep(struct campaign_job *j, const char *name)
{
	for (size_t i = 0; i < j->ndeps; i++)
		if (!strcmp(j->deps[i], name))
			return;
	j->deps = xrealloc(j->deps, (j->ndeps + 1) * sizeof *j->deps);
	j->deps[j->ndeps++] = xstrdup(name);
}

void job_set_reason(struct campaign_job *j, const char *fmt, ...)
{
	free(j->reason);
	j->reason = NULL;
	if (!fmt)
		return;
	va_list ap;
	va_start(ap, fmt);
	j->reason = xvasprintf(fmt, ap);
	va_end(ap);
}

struct campaign_job *campaign_find_job(struct campaign *c, const char *name)
{
	for (size_t i = 0; i < c->njobs; i++)
		if (!strcmp(c->jobs[i].name, name))
			return &c->jobs[i];
	return NULL;
}

bool campaign_link(struct campaign *c, struct campaign_error *e)
{
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		free(j->dep);
		j->dep = xcalloc(j->ndeps ? j->ndeps : 1, sizeof *j->dep);
		for (size_t k = 0; k < j->ndeps; k++) {
			struct campaign_job *d = campaign_find_job(c, j->deps[k]);
			if (!d)
				return campaign_error_set(e, "job %s depends on %s, which is not part of the campaign", j->name, j->deps[k]);
			/* jobs are kept in an order where dependencies come first: no cycles */
			if (d >= j)
				return campaign_error_set(e, "job %s depends on %s, which comes after it", j->name, d->name);
			j->dep[k] = (size_t)(d - c->jobs);
		}
	}
	return true;
}

char *campaign_path(const struct campaign *c, const char *rel)
{
	return xasprintf("%s/%s", c->dir, rel);
}

void campaign_count(const struct campaign *c, size_t *counts)
{
	memset(counts, 0, (JS_SKIPPED + 1) * sizeof *counts);
	for (size_t i = 0; i < c->njobs; i++)
		counts[c->jobs[i].state]++;
}

bool campaign_done(const struct campaign *c)
{
	for (size_t i = 0; i < c->njobs; i++)
		if (!job_final(c->jobs[i].state))
			return false;
	return true;
}

void hash_text(const char *text, char out[17])
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		h ^= *p;
		h *= 1099511628211ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}
