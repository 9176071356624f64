/*
 * slurm_resolve — jobs the controller no longer knows (purged after MinJobAge, or never seen by a
 * restarted controller): their end is read from the job completion file (JobCompType=
 * jobcomp/filetxt), incrementally, or asked from accounting with one sacct call for all of them.
 * A job found nowhere for five polls in a row is FAILED with a reason that says so. See
 * slurm_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/exec.h"
#include "campaign/jobcomp.h"
#include "util/spawn.h"
#include "campaign/slurm_int.h"
#include "util/log.h"
#include "util/xalloc.h"

static struct jobcomp_rec *recs; /* latest completion record per job index */
static size_t nrecs;

void slurm_resolve_init(struct campaign *c)
{
	free(recs);
	nrecs = c->njobs;
	recs = xcalloc(nrecs ? nrecs : 1, sizeof *recs);
	c->jobcomp_offset = 0;
}

void slurm_resolve_fini(void)
{
	free(recs);
	recs = NULL;
	nrecs = 0;
}

char *slurm_name(const struct campaign *c, const struct campaign_job *j)
{
	return xasprintf("%s.%s", c->name, j->name);
}

static void remember(const struct jobcomp_rec *r, void *arg)
{
	struct campaign *c = arg;
	for (size_t i = 0; i < c->njobs && i < nrecs; i++)
		if (c->jobs[i].id == r->id) {
			char *want = slurm_name(c, &c->jobs[i]);
			if (!r->name[0] || !strcmp(r->name, want))
				recs[i] = *r;
			free(want);
		}
}

static void resolve_from_sacct(struct campaign *c, size_t *missing, size_t nmissing)
{
	char *ids = xstrdup("");
	for (size_t k = 0; k < nmissing; k++) {
		char *t = xasprintf("%s%s%u", ids, k ? "," : "", c->jobs[missing[k]].id);
		free(ids);
		ids = t;
	}
	char *argv[] = {"sacct", "-n", "-P", "-X", "-j", ids, "-o", "JobIDRaw,JobName,State,ExitCode,Start,End", NULL};
	char *out = NULL;
	c->acct_queries++;
	int rc = spawn_capture(argv, NULL, NULL, &out, NULL, 60);
	free(ids);
	if (rc != 0 || !out) {
		free(out);
		return;
	}
	for (char *save = NULL, *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[6] = {0};
		char *p = line;
		for (int i = 0; i < 6 && p; i++) {
			f[i] = p;
			p = strchr(p, '|');
			if (p)
				*p++ = 0;
		}
		if (!f[5])
			continue;
		struct jobcomp_rec r = {0};
		r.id = (uint32_t)strtoul(f[0], NULL, 10);
		snprintf(r.name, sizeof r.name, "%s", f[1]);
		snprintf(r.state, sizeof r.state, "%s", f[2]);
		r.exit_code = slurm_exit_parse(f[3]);
		r.start = slurm_time_parse(f[4]);
		r.end = slurm_time_parse(f[5]);
		remember(&r, c);
	}
	free(out);
}

int slurm_resolve_missing(struct campaign *c, size_t *missing, size_t nmissing)
{
	int changed = 0;
	if (c->jobcomp) {
		c->jobcomp_reads++;
		if (jobcomp_scan(c->jobcomp, &c->jobcomp_offset, remember, c) < 0)
			log_debug("cannot read the job completion file %s", c->jobcomp);
	}
	size_t left = 0;
	for (size_t k = 0; k < nmissing; k++) {
		struct campaign_job *j = &c->jobs[missing[k]];
		if (missing[k] < nrecs && recs[missing[k]].id == j->id && slurm_apply_record(c, j, &recs[missing[k]])) {
			log_debug("%s: Slurm job %u resolved from %s: %s", j->name, j->id, c->jobcomp, recs[missing[k]].state);
			changed++;
			continue;
		}
		missing[left++] = missing[k];
	}
	if (left && c->accounting) {
		resolve_from_sacct(c, missing, left);
		size_t still = 0;
		for (size_t k = 0; k < left; k++) {
			struct campaign_job *j = &c->jobs[missing[k]];
			if (missing[k] < nrecs && recs[missing[k]].id == j->id && slurm_apply_record(c, j, &recs[missing[k]])) {
				changed++;
				continue;
			}
			missing[still++] = missing[k];
		}
		left = still;
	}
	for (size_t k = 0; k < left; k++) {
		struct campaign_job *j = &c->jobs[missing[k]];
		if (++j->misses >= 5) {
			job_set_reason(j, "Slurm job %u vanished without a completion record (no job completion file "
					"or accounting to ask)", j->id);
			job_transition(c, j, JS_FAILED);
			changed++;
		}
	}
	return changed;
}

