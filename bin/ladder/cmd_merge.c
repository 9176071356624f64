/*
 * ladder merge — combine the run containers of one ladder (every rung and repetition) into a
 * campaign container.
 */
#include <stdio.h>
#include <stdlib.h>

#include "command.h"
#include "extrap/commands.h"
#include "store/campaign_h5.h"
#include "util/xalloc.h"
#include "util/exitcode.h"
#include "util/log.h"

/* a warning when the rungs' commands (the first repetition of each) differ beyond the rank count */
static void warn_commands_differ(const char *campaign)
{
	struct campaign_run *runs;
	uint32_t n, m = 0;
	struct h5_err e;
	if (!campaign_read_runs(campaign, &runs, &n, &e))
		return;
	const char **cmds = xcalloc(n + 1, sizeof *cmds);
	uint32_t *ranks = xcalloc(n + 1, sizeof *ranks);
	for (uint32_t i = 0; i < n; i++)
		if (!i || runs[i].ranks != runs[i - 1].ranks)
			cmds[m] = runs[i].command, ranks[m++] = runs[i].ranks;
	char why[400], *at = NULL;
	if (m > 1 && !commands_at_target(cmds, ranks, m, ranks[m - 1], &at, why, sizeof why))
		log_warn("%s: the rungs' commands differ beyond the rank count (%s): not one experiment at several "
			 "scales; an extrapolation from them says the target's command is unknown", campaign, why);
	free(at);
	free(cmds);
	free(ranks);
	campaign_runs_free(runs, n);
}

struct merge_opts {
	const char *out;
	bool copy;
};

static const struct opt merge_options[] = {
	OPT_STRING('o', "output", "FILE", struct merge_opts, out, "the campaign container (written atomically)"),
	OPT_FLAG('c', "copy", struct merge_opts, copy, "copy the runs into the campaign: one self-contained file"),
	OPT_END(),
};

static int run_merge(int argc, char **argv)
{
	struct merge_opts o = {0};
	int rc = cmd_parse_options("merge", merge_options, argc, argv, &o);
	if (rc >= 0)
		return rc;
	const char *out = o.out;
	bool copy = o.copy;
	if (!out)
		return cmd_usage_error("merge", "needs --output CAMPAIGN.h5");
	if (optind >= argc)
		return cmd_usage_error("merge", "needs at least one run container");
	struct h5_err e;
	if (!campaign_merge(out, argv + optind, argc - optind, copy, &e)) {
		log_error("%s", e.msg);
		return EXIT_FAIL;
	}
	log_info("wrote %s with %d runs", out, argc - optind);
	warn_commands_differ(out);
	return EXIT_OK;
}

const struct command command_merge = {
	"merge", "combine the runs of a ladder into a campaign container",
	"usage: ladder merge -o CAMPAIGN.h5 [--copy] RUN.h5...\n"
	"\n"
	"Build a campaign container from the run containers of one ladder: every rung and repetition.\n"
	"Runs are linked (HDF5 external links, relative to the campaign file), not copied, unless\n"
	"--copy. The rung is the run's rank count; the repetition comes from the run's 'repetition'\n"
	"label (set by campaigns) or from the order given.\n"
	"\n"
	"Refused, with the file named: runs of different applications, a run whose 'rung' label\n"
	"differs from its rank count, two runs claiming the same rung and repetition, and runs of one\n"
	"rung with different problem sizes. Rungs whose command lines differ other than by their rank\n"
	"count (--iterations 20 at one rung, 30 at another) are merged with a warning.\n",
	run_merge, merge_options, NULL,
};
