/*
 * ladder validate — check files against their schema (hdf5-schema/) and their invariants;
 * every violation is listed, exit 0 only when every file conforms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "meet/balance.h"
#include "store/schema.h"
#include "store/campaign_extrap.h"
#include "store/campaign_h5.h"
#include "store/store.h"
#include "util/exitcode.h"
#include "util/log.h"

static void print_violation(const char *line, void *arg)
{
	(void)arg;
	fprintf(stderr, "%s\n", line);
}

static int synthetic_calls_unmet(const char *path);

/* the synthetic runs a campaign records (/extrap/index): how many of them do not meet */
static int campaign_extraps_unmet(const char *campaign)
{
	struct campaign_extrap *x;
	uint32_t n;
	struct h5_err e;
	if (!campaign_read_extraps(campaign, &x, &n, &e))
		return 0;   /* the schema check has said why */
	int bad = 0;
	for (uint32_t i = 0; i < n; i++) {
		char *path = campaign_member_path(campaign, x[i].path);
		bad += synthetic_calls_unmet(path);
		free(path);
	}
	campaign_extraps_free(x, n);
	return bad;
}

/* a synthetic run whose calls would not meet (meet/balance.h) and that does not say so in its
 * label not_replayable, or a campaign that records one: 1 with the violation reported, else 0 */
static int synthetic_calls_unmet(const char *path)
{
	struct store_identity id;
	struct h5_err e;
	if (!store_identify(path, &id, &e))
		return 0;
	if (!strcmp(id.kind, "campaign"))
		return campaign_extraps_unmet(path) > 0;
	if (strcmp(id.kind, "run"))
		return 0;
	struct run r;
	if (!store_read_run(path, &r, &e))
		return 0;   /* the schema check has said why */
	char why[600];
	int bad = r.synthetic && !run_label(&r, "not_replayable") && !run_p2p_balanced(&r, why, sizeof why);
	if (bad)
		fprintf(stderr, "%s: a synthetic run whose calls would not meet (and not labelled not_replayable): %s\n",
			path, why);
	run_free(&r);
	return bad;
}

static const struct opt validate_options[] = {
	CMD_MAX_CALLS_OPT,
	CMD_MAX_RANKS_OPT,
	OPT_END(),
};

static int run_validate(int argc, char **argv)
{
	int rc = cmd_parse_options("validate", validate_options, argc, argv, NULL);
	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return cmd_usage_error("validate", "needs at least one FILE");
	int bad = 0;
	for (int i = optind; i < argc; i++) {
		int v = schema_validate(argv[i], print_violation, NULL);
		if (!v)
			v = synthetic_calls_unmet(argv[i]);
		if (v)
			bad++;
		else
			log_info("%s: valid", argv[i]);
	}
	if (bad && argc - optind > 1)
		log_error("%d of %d files do not conform", bad, argc - optind);
	return bad ? EXIT_FAIL : EXIT_OK;
}

const struct command command_validate = {
	"validate", "check containers against their schema",
	"usage: ladder validate [--max-calls N] [--max-ranks N] FILE...\n"
	"\n"
	"Check each file against the schema of its kind (hdf5-schema/run.yaml, campaign.yaml,\n"
	"history.yaml): root attributes, groups, datasets, their types, dimensions and fields,\n"
	"chunking; then its contents: every cross-reference, every checksum, and a full walk of every\n"
	"rank's grammar and value streams; the profile's calls per rank and function must equal the\n"
	"trace's. For a campaign, every linked run is checked too. A synthetic run (ladder extrap) must\n"
	"have calls that meet (every send its receive, every collective its members, every request its\n"
	"completion), unless its label not_replayable says they do not.\n"
	"\n"
	"Each violation is one line on stderr naming the file and the object. Exit status 0 only when\n"
	"every file conforms.\n",
	run_validate, validate_options, NULL,
};
