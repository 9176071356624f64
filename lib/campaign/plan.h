/*
 * plan — from a workflow and a site to a campaign: the ladder (generated, filtered, checked
 * against the site's limits), one job per rung x repetition, the truth runs at target scales
 * (left out where a batch site cannot host them), the merge, the stages (a stage
 * whose command is not part of this build is left out with a note, its consumers inherit its
 * inputs), and each job's script text.
 */
#ifndef LADDER_CAMPAIGN_PLAN_H
#define LADDER_CAMPAIGN_PLAN_H

#include <stdbool.h>

#include "campaign/jobgraph.h"
#include "campaign/campaign_error.h"
#include "campaign/spec.h"

struct plan_env {
	const char *dir;        /* absolute campaign directory */
	const char *prefix;     /* ladder's prefix: PREFIX/bin/ladder, PREFIX/lib/libladder-trace.so */
	const char *ladder;     /* absolute path of the ladder executable */
	/* is `ladder NAME` a command of this build? (NULL: assume so) */
	bool (*have_subcommand)(const char *name);
	bool quiet;             /* no notes */
	const char *history;    /* the report history ({history}): BASE/history.h5 for dated campaigns,
				   NULL for DIR/history.h5 */
};

/* Fill c (initialised, empty) with the jobs; scripts[i] receives job i's script text (array
 * allocated here, c->njobs long). Notes (dropped rungs, skipped stages) go to the log. */
bool plan_build(const struct workflow *w, const struct site *s, const struct plan_env *env,
		struct campaign *c, char ***scripts, struct campaign_error *e);

/* The ladder after generation and filtering (fresh array, count in *n), or NULL with e set. */
long *plan_rungs(const struct workflow *w, const struct site *s, const struct plan_env *env, size_t *n,
		 struct campaign_error *e);

#endif
