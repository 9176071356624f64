/*
 * script — writing one job script: the #SBATCH header (Slurm sites), the site's modules,
 * environment and setup lines, then the job's command. Run jobs get the tracer preloaded into
 * the launch line and labels for their container; the script fails with a message when the
 * application fails or leaves no trace. Every value is shell-quoted (campaign/shquote.h); a value
 * with a control character is refused with an error naming the job.
 *
 * The same script runs under Slurm and under the local executor: it needs nothing from its
 * environment except what the site's lines set up.
 */
#ifndef LADDER_CAMPAIGN_SCRIPT_H
#define LADDER_CAMPAIGN_SCRIPT_H

#include <stddef.h>

#include "campaign/jobgraph.h"
#include "campaign/campaign_error.h"
#include "campaign/spec.h"

struct script_in {
	const struct site *site;
	const struct workflow *wf;
	const struct campaign *c;
	const struct campaign_job *job;
	char **launcher;        /* expanded launcher words, or NULL */
	size_t nlauncher;
	char **cmd;             /* expanded command words */
	size_t ncmd;
	char **prepare;         /* expanded words of a step before the command, not launched; NULL none */
	size_t nprepare;
	const char *workdir;    /* absolute: where the command runs (created) */
	const char *tracer;     /* absolute path of libladder-trace.so (run jobs) */
	const char *ladder;     /* absolute path of the ladder executable */
	const char *describe;   /* one line for the comment at the top */
};

/* the script's text (fresh), or NULL with e set */
char *script_render(const struct script_in *in, struct campaign_error *e);

/* true when DIR can appear in #SBATCH lines (no white space, quotes, backslash or '%') */
bool script_slurm_path_ok(const char *dir, char *bad);

#endif
