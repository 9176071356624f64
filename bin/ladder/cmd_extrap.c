/*
 * ladder extrap — the synthetic run of an SPMD application at a rank count nobody ran, from the
 * ladder of a campaign (lib/extrap). Reads one run per rung (the lowest repetition), builds the
 * target's run and writes it atomically, or says precisely why the ladder cannot support it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "extrap/extrap.h"
#include "extrap/topology.h"
#include "store/campaign_extrap.h"
#include "store/campaign_h5.h"
#include "store/store.h"
#include "util/exitcode.h"
#include "util/log.h"
#include "util/xalloc.h"

/* one run per rung: the first repetition of each */
static bool read_ladder(const char *campaign, struct run ***out, size_t *n)
{
	struct campaign_run *runs;
	uint32_t nruns;
	struct h5_err e;
	if (!campaign_read_runs(campaign, &runs, &nruns, &e)) {
		log_error("%s", e.msg);
		return false;
	}
	*out = xcalloc(nruns + 1, sizeof **out);
	*n = 0;
	bool ok = true;
	for (uint32_t i = 0; ok && i < nruns; i++) {
		if (i && runs[i].ranks == runs[i - 1].ranks)
			continue;
		char *path = campaign_run_path(campaign, &runs[i]);
		struct run *r = xmalloc(sizeof *r);
		ok = store_read_run(path, r, &e);
		if (ok)
			(*out)[(*n)++] = r;
		else {
			log_error("%s", e.msg);
			free(r);
		}
		free(path);
	}
	campaign_runs_free(runs, nruns);
	return ok;
}

static void free_ladder(struct run **rungs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		run_free(rungs[i]);
		free(rungs[i]);
	}
	free(rungs);
}

static int parse_target(const char *s, struct extrap_options *o)
{
	if (strchr(s, 'x')) {
		if (!topology_parse_grid(s, &o->target_grid))
			return cmd_usage_error("extrap", "--target: '%s' is not a grid like 32x32 or 4x4x4", s);
		o->target = grid_size(&o->target_grid);
		return EXIT_OK;
	}
	long v;
	if (!cmd_parse_long("extrap", "--target", s, 1, 1L << 31, &v))
		return EXIT_USAGE;
	o->target = v;
	return EXIT_OK;
}

static bool write_atomically(const char *path, const struct run *r)
{
	char *tmp = xasprintf("%s.tmp%ld", path, (long)getpid());
	struct h5_err e;
	bool ok = store_write_run(tmp, r, &e);
	if (!ok)
		log_error("%s", e.msg);
	else if (rename(tmp, path)) {
		log_error("%s: cannot rename the output into place", path);
		ok = false;
	}
	if (!ok)
		unlink(tmp);
	free(tmp);
	return ok;
}

/* -1 when the options are fine, else the exit status */
static int parse_extrap_args(int argc, char **argv, struct extrap_options *o, const char **output)
{
	static const struct option opts[] = {{"target", required_argument, NULL, 't'},
					     {"output", required_argument, NULL, 'o'},
					     {"profile-limit", required_argument, NULL, 'p'},
					     {"lossy", no_argument, NULL, 'l'},
					     {"help", no_argument, NULL, 'h'}, {0}};
	int c, rc;
	long v;
	while ((c = cmd_getopt(argc, argv, "t:o:p:h", opts, "extrap")) != -1) {
		if (c == 't') {
			if ((rc = parse_target(optarg, o)) != EXIT_OK)
				return rc;
		} else if (c == 'o') {
			*output = optarg;
		} else if (c == 'l') {
			o->lossy = true;
		} else if (c == 'p') {
			if (!cmd_parse_long("extrap", "--profile-limit", optarg, 0, 1L << 31, &v))
				return EXIT_USAGE;
			o->profile_limit = v;
		} else {
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return cmd_usage_error("extrap", "needs one campaign container");
	if (!o->target)
		return cmd_usage_error("extrap", "needs --target P (a rank count, or a grid like 32x32)");
	return -1;
}

static void print_result(const char *campaign, const char *output, const struct run *out,
			 const struct extrap_notes *notes)
{
	printf("extrapolated %s to %u ranks: %s (%u groups, %u signatures)\n", campaign, out->nranks, output,
	       out->ngroups, out->nsigs);
	if (notes->replaced)
		printf("lossy: %llu rank%s of the rungs behaved unlike most of their grid position and were left "
		       "out of the laws\n", (unsigned long long)notes->replaced, notes->replaced == 1 ? "" : "s");
	if (notes->dropped)
		printf("lossy: dropped %llu of %llu calls (%.4f%%); first: %s\n", (unsigned long long)notes->dropped,
		       (unsigned long long)notes->calls, 100.0 * (double)notes->dropped / (double)notes->calls,
		       notes->lossy);
	if (notes->text[0])
		printf("note: %s\n", notes->text);
}

/* the synthetic run written and recorded in the campaign */
static bool store_result(const char *campaign, const char *output, const struct run *out,
			 const struct extrap_notes *notes)
{
	struct h5_err e;
	const char *grid = run_attr(out, "grid");
	if (!write_atomically(output, out))
		return false;
	if (!campaign_write_extrap(campaign, out->nranks, output, grid ? grid : "", notes->text, &e)) {
		log_error("%s", e.msg);
		return false;
	}
	return true;
}

static int run_extrap(int argc, char **argv)
{
	struct extrap_options o = {.profile_limit = 65536};
	const char *output = NULL;
	int rc = parse_extrap_args(argc, argv, &o, &output);
	if (rc >= 0)
		return rc;
	const char *campaign = argv[optind];
	char *deflt = xasprintf("extrap-p%lld.h5", (long long)o.target);
	output = output ? output : deflt;
	struct run **rungs = NULL, out;
	struct extrap_notes notes;
	size_t n = 0;
	char why[1024];
	rc = EXIT_FAIL;
	if (read_ladder(campaign, &rungs, &n)) {
		if (!extrap_build(rungs, n, &o, &out, &notes, why, sizeof why)) {
			log_error("%s: cannot extrapolate to %lld ranks: %s", campaign, (long long)o.target, why);
		} else {
			if (store_result(campaign, output, &out, &notes)) {
				print_result(campaign, output, &out, &notes);
				rc = EXIT_OK;
			}
			run_free(&out);
		}
	}
	free_ladder(rungs, n);
	free(deflt);
	return rc;
}

const struct command command_extrap = {
	"extrap", "extrapolate a campaign's trace to a rank count nobody ran",
	"usage: ladder extrap CAMPAIGN.h5 --target P [-o OUT.h5] [--lossy] [--profile-limit N]\n"
	"\n"
	"Build the run an SPMD application would produce at P ranks from the ladder of its traced runs\n"
	"(the first repetition of each rung): who calls what, with which peers, counts, communicators and\n"
	"loop trip counts. The result is an ordinary run container marked synthetic, which decode,\n"
	"compare, replay and inspect accept unchanged; its size does not depend on P.\n"
	"\n"
	"How: every rung's process grid is taken from its MPI_Cart_create, or found from the point-to-\n"
	"point peers for codes that compute neighbours by hand. Ranks are put in position\n"
	"classes (low boundary, interior, high boundary in each dimension); each class's call sequence\n"
	"is aligned across the rungs where it exists (same grammar shape, same functions at the same call\n"
	"sites) and every value that differs across rungs - relative peers, counts, sizes, repetition\n"
	"counts - is solved as an exact integer law in the grid's dimension sizes d0, d1, ... and P\n"
	"(terms 1, d_k, P, 1/d_k, 1/P; least squares, accepted only when every rung is reproduced and at\n"
	"least one rung is left over to check it). Timing: where a class was seen at 4 rungs or more,\n"
	"durations and gaps are scaled to lib/model's PMNF prediction at P (the 95% interval summed into\n"
	"the labels timing_modeled_lo_s/_hi_s); otherwise they are the largest rung's. A gap's CPU time\n"
	"has a model of its own when every rung measured CPU times, and stays at most its wall time.\n"
	"\n"
	"Refused, with the class, call and parameter named: runs without a grid, ranks of one\n"
	"grid position that behave differently (not SPMD, e.g. master-worker), a class seen at fewer than\n"
	"two rungs (the rank counts to add are named), values with no law or two laws that disagree at\n"
	"the target (give the grid with --target AxB, or add rungs), data-dependent (streamed) values.\n"
	"Nothing is written then.\n"
	"\n"
	"The profile (visits, bytes and messages per rank and call path) follows the same laws per class\n"
	"but is per rank: it is built only up to --profile-limit ranks, so that the container's size does\n"
	"not depend on P beyond that. Exclusive times in it are the largest rung's, not extrapolated.\n"
	"\n"
	"Options:\n"
	"  -t, --target P|AxB   the rank count, or the grid (\"32x32\") when MPI_Dims_create's balanced\n"
	"                       grid is not the one the application would use\n"
	"  -o, --output FILE    the synthetic run (default extrap-pP.h5), written atomically; the\n"
	"                       campaign records it as /extrap/pP (a link, with a row in /extrap/index)\n"
	"  --lossy              keep what extrapolates and drop the calls whose values have no law (the\n"
	"                       same function, call site and shape at every rung are still required);\n"
	"                       the number and share of calls dropped are printed and stored in the\n"
	"                       run's labels (lossy_dropped_calls, lossy_dropped_share); ranks of a\n"
	"                       rung that behave unlike most of their grid position are left out of\n"
	"                       the laws (counted in lossy_replaced_rung_ranks)\n"
	"  --profile-limit N    build the per-rank profile only up to N ranks (default 65536; 0: never)\n"
	"\n"
	"Exit status: 0 written, 1 the ladder cannot support the extrapolation or a file cannot be read,\n"
	"2 usage error.\n",
	run_extrap,
};
