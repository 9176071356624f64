/*
 * prepare — a campaign directory made ready to drive, which is everything `ladder campaign run`
 * does before it follows the jobs:
 *
 *   1. the directory: --dir DIR, ./NAME, or BASE/YYYY-MM-DD (today) with BASE/latest pointing
 *      at it (nightly runs), created with its parents and made absolute;
 *   2. the driver lock (statefile.h), refused with the holder's pid when another process drives;
 *   3. the plan (plan.h): jobs and their script texts;
 *   4. resume: when the directory holds the same campaign, its state is taken over job by job
 *      (resume.h); else the campaign gets a fresh random id;
 *   5. DIR/jobs/NAME.sh rewritten only when the text changed, DIR/logs, copies of the workflow
 *      and site (DIR/workflow.yaml, DIR/site.yaml);
 *   6. the state file, except for a dry run (which is refused in a directory holding a campaign).
 */
#ifndef LADDER_CAMPAIGN_PREPARE_H
#define LADDER_CAMPAIGN_PREPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign/campaign_error.h"
#include "campaign/jobgraph.h"
#include "campaign/spec.h"

struct prepare_options {
	const char *dir;          /* the campaign directory; NULL: ./NAME (the workflow's name) */
	const char *dated_base;   /* instead of dir: BASE/YYYY-MM-DD and BASE/latest */
	const char *prefix;       /* ladder's prefix: PREFIX/lib/libladder-trace.so */
	const char *ladder;       /* absolute path of the ladder executable */
	/* is `ladder NAME` a command of this build? (stages of other commands are left out) */
	bool (*have_subcommand)(const char *name);
	bool dry_run;             /* scripts only: no state file */
};

/* What campaign_prepare made; release with prepared_free (which also lets go of the lock). */
struct prepared {
	struct campaign campaign;  /* planned, resumed, locked, saved (unless a dry run) */
	char **scripts;            /* scripts[i]: the text of campaign.jobs[i]'s script */
	bool resumed;              /* an earlier run of the campaign was taken over */
};

bool campaign_prepare(const struct workflow *w, const struct site *s, const struct prepare_options *o,
		      struct prepared *p, struct campaign_error *e);
void prepared_free(struct prepared *p);

#endif
