/*
 * ladder merge — combine the run containers of one ladder (every rung and repetition) into a
 * campaign container.
 */
#include <stdio.h>

#include "command.h"
#include "store/campaign_h5.h"
#include "util/exitcode.h"
#include "util/log.h"

static int run_merge(int argc, char **argv)
{
	static const struct option opts[] = {{"output", required_argument, NULL, 'o'},
					     {"copy", no_argument, NULL, 'c'},
					     {"help", no_argument, NULL, 'h'}, {0}};
	const char *out = NULL;
	bool copy = false;
	int c;
	while ((c = cmd_getopt(argc, argv, "o:ch", opts, "merge")) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'c')
			copy = true;
		else
			return EXIT_USAGE;
	}
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
	"rung with different problem sizes.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE   the campaign container (written atomically)\n"
	"  --copy              copy the runs into the campaign: one self-contained file\n",
	run_merge,
};
