/*
 * ladder extrap — the synthetic run of an SPMD application at a rank count nobody ran, from the
 * ladder of a campaign (lib/extrap). Reads one run per rung (the lowest repetition), builds the
 * target's run and writes it atomically, or says precisely why the ladder cannot support it.
 */
#include <limits.h>
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
#include "util/escape.h"
#include "util/exitcode.h"
#include "util/file.h"
#include "util/log.h"
#include "util/xalloc.h"

/* one run per rung, the first repetition of each, and the files read: the campaign and those runs */
struct ladder {
	struct run **rungs;
	size_t n;
	char **inputs;
	int ninputs;
};

static bool read_ladder(const char *campaign, struct ladder *l)
{
	struct campaign_run *runs;
	uint32_t nruns;
	struct h5_err e;
	if (!campaign_read_runs(campaign, &runs, &nruns, &e)) {
		log_error("%s", e.msg);
		return false;
	}
	l->rungs = xcalloc(nruns + 1, sizeof *l->rungs);
	l->inputs = xcalloc(nruns + 2, sizeof *l->inputs);
	l->inputs[l->ninputs++] = xstrdup(campaign);
	bool ok = true;
	for (uint32_t i = 0; ok && i < nruns; i++) {
		char *path = campaign_run_path(campaign, &runs[i]);
		l->inputs[l->ninputs++] = path;   /* every run of the campaign, read or not */
		if (i && runs[i].ranks == runs[i - 1].ranks)
			continue;
		struct run *r = xmalloc(sizeof *r);
		ok = store_read_run(path, r, &e);
		if (ok)
			l->rungs[l->n++] = r;
		else {
			log_error("%s", e.msg);
			free(r);
		}
	}
	campaign_runs_free(runs, nruns);
	return ok;
}

static void free_ladder(struct ladder *l)
{
	for (size_t i = 0; i < l->n; i++) {
		run_free(l->rungs[i]);
		free(l->rungs[i]);
	}
	free(l->rungs);
	for (int i = 0; i < l->ninputs; i++)
		free(l->inputs[i]);
	free(l->inputs);
}

static int parse_target(const char *s, struct extrap_options *o)
{
	if (strchr(s, 'x')) {
		if (!topology_parse_grid(s, &o->target_grid))
			return cmd_usage_error("extrap", "--target: '%s' is not a grid like 32x32 or 4x4x4", s);
		o->target = grid_size(&o->target_grid);
	} else {
		long v;
		if (!cmd_parse_long("extrap", "--target", s, 1, 1L << 62, &v))
			return EXIT_USAGE;
		o->target = v;
	}
	if (o->target > INT_MAX)   /* MPI's communicator sizes are ints */
		return cmd_usage_error("extrap", "--target: %lld ranks is more than an MPI communicator can hold (%d at most)",
				       (long long)o->target, INT_MAX);
	return EXIT_OK;
}

struct extrap_cli {
	struct extrap_options o;
	const char *output;
	long profile_limit;
};

static bool target_option(struct opt_parser *p, const char *arg)
{
	return parse_target(arg, &((struct extrap_cli *)p->opts)->o) == EXIT_OK;
}

static const struct opt extrap_options[] = {
	OPT_CALLBACK('t', "target", "P|AxB", target_option,
		     "the rank count, or the grid (\"32x32\") when MPI_Dims_create's balanced grid is not the one "
		     "the application would use"),
	OPT_STRING('o', "output", "FILE", struct extrap_cli, output,
		   "the synthetic run (default extrap-pP.h5), written atomically; the campaign records it as "
		   "/extrap/pP (a link, with a row in /extrap/index)"),
	OPT_FLAG(0, "lossy", struct extrap_cli, o.lossy,
		 "keep the dominant pattern (ScalaExtrap 3.4): drop what not every rung has and calls whose values "
		 "have no law, approximate data-dependent counts, state count arrays by rule; what was left out is "
		 "printed and kept in the labels lossy_* (see 'ladder help extrap-lossy')"),
	OPT_LONG('p', "profile-limit", "N", struct extrap_cli, profile_limit, 0, 1L << 31,
		 "build the per-rank profile only up to N ranks (default 65536; 0: never)"),
	OPT_END(),
};

/* -1 when the options are fine, else the exit status */
static int parse_extrap_args(int argc, char **argv, struct extrap_cli *cli)
{
	int rc = cmd_parse_options("extrap", extrap_options, argc, argv, cli);
	if (rc >= 0)
		return rc;
	cli->o.profile_limit = cli->profile_limit;
	if (optind != argc - 1)
		return cmd_usage_error("extrap", "needs one campaign container");
	if (!cli->o.target)
		return cmd_usage_error("extrap", "needs --target P (a rank count, or a grid like 32x32)");
	return -1;
}

static void print_result(const char *campaign, const char *output, const struct run *out,
			 const struct extrap_notes *notes)
{
	printf("extrapolated %s to %u ranks: %s (%u groups, %u signatures)\n", campaign, out->nranks, output,
	       out->ngroups, out->nsigs);
	if (run_label(out, "grid") && run_label(out, "grid_rule"))
		printf("grid %s: %s\n", run_label(out, "grid"), run_label(out, "grid_rule"));
	if (run_label(out, "partner_families"))
		printf("partner families: %s\n", term_safe(run_label(out, "partner_families")));
	if (notes->replaced)
		printf("lossy: %llu rank%s of the rungs behaved unlike most of their grid position and were left "
		       "out of the laws\n", (unsigned long long)notes->replaced, notes->replaced == 1 ? "" : "s");
	if (notes->nrungs) {
		char list[EXTRAP_MAX_RUNGS * 48];
		extrap_unaligned_text(notes, list, sizeof list);
		printf("lossy: the rungs' call sequences differ in structure; kept the calls they all share, dropped at "
		       "the rungs %s\n", list);
	}
	if (notes->dropped)
		printf("lossy: dropped %llu of the %llu calls of the aligned classes at the target (%.4f%%); first: %s\n", (unsigned long long)notes->dropped,
		       (unsigned long long)notes->calls, 100.0 * (double)notes->dropped / (double)notes->calls,
		       notes->lossy);
	if (notes->approximated)
		printf("lossy: approximated the counts of %llu of %llu calls (%.4f%%) (sent: at the largest rung; "
		       "received: the largest on the ladder); first: %s\n", (unsigned long long)notes->approximated, (unsigned long long)notes->calls,
		       100.0 * (double)notes->approximated / (double)notes->calls, notes->approximate);
	if (notes->shared)
		printf("lossy: stated the count arrays of %llu of %llu calls (%.4f%%) by rule (their per-rank total "
		       "split evenly over the peers); first: %s\n", (unsigned long long)notes->shared,
		       (unsigned long long)notes->calls, 100.0 * (double)notes->shared / (double)notes->calls, notes->share);
	if (notes->loss.expected_calls || notes->loss.kept_calls)
		printf("lossy: keeps %.2f%% of the %llu calls and %.2f%% of the %llu bytes the application is expected to "
		       "make at %u ranks (projected from every call of the rungs; per function: label "
		       "lossy_kept_by_function)\n", 100.0 * notes->loss.calls_share,
		       (unsigned long long)notes->loss.expected_calls, 100.0 * notes->loss.bytes_share,
		       (unsigned long long)notes->loss.expected_bytes, out->nranks);
	else if (extrap_notes_lossy(notes))
		printf("lossy: the share of the application's calls it keeps at %u ranks was not measured (above "
		       "--profile-limit)\n", out->nranks);
	if (notes->text[0])
		printf("note: %s\n", notes->text);
	if (notes->commands_differ[0])
		printf("warning: the rungs' commands differ beyond the rank count (%s): not one experiment at several "
		       "scales; the target's command is unknown (label rung_commands)\n", notes->commands_differ);
	if (notes->not_replayable[0])
		printf("not replayable (replay and proxy refuse it): %s\n", notes->not_replayable);
	if (notes->meet_unchecked[0])
		printf("not checked: %s\n", notes->meet_unchecked);
}

/* the synthetic run written (over none of the inputs) and recorded in the campaign */
static bool store_result(const char *campaign, const struct ladder *l, const char *output, const struct run *out,
			 const struct extrap_notes *notes)
{
	struct h5_err e;
	const char *grid = run_label(out, "grid");
	if (!store_replace_run(output, out, l->inputs, l->ninputs, &e)) {
		log_error("%s", e.msg);
		return false;
	}
	if (!campaign_write_extrap(campaign, out->nranks, output, grid ? grid : "", notes->text, &e)) {
		log_error("%s", e.msg);
		return false;
	}
	return true;
}

static int run_extrap(int argc, char **argv)
{
	struct extrap_cli cli = {.profile_limit = 65536};
	int rc = parse_extrap_args(argc, argv, &cli);
	if (rc >= 0)
		return rc;
	struct extrap_options o = cli.o;
	const char *output = cli.output;
	const char *campaign = argv[optind];
	char *deflt = xasprintf("extrap-p%lld.h5", (long long)o.target);
	output = output ? output : deflt;
	struct ladder l = {0};
	struct run out;
	struct extrap_notes notes;
	char why[8192];
	rc = EXIT_FAIL;
	bool ok = read_ladder(campaign, &l);
	if (ok && (!output_replaceable(output, why, sizeof why) ||   /* said before the work */
		   !output_not_input(output, l.inputs, l.ninputs, why, sizeof why))) {
		log_error("%s", why);
		ok = false;
	}
	if (ok) {
		if (!extrap_build(l.rungs, l.n, &o, &out, &notes, why, sizeof why)) {
			log_error("%s: cannot extrapolate to %lld ranks: %s", campaign, (long long)o.target, why);
		} else {
			if (store_result(campaign, &l, output, &out, &notes)) {
				print_result(campaign, output, &out, &notes);
				rc = EXIT_OK;
			}
			run_free(&out);
		}
	}
	free_ladder(&l);
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
	"The method: 'ladder help extrap-method' (grids, position classes, laws, what is refused),\n"
	"'ladder help extrap-values' (streamed values, ranks united by a law, timing, the profile),\n"
	"'ladder help extrap-lossy' (--lossy, count arrays by rule, calls that would not meet).\n",
	run_extrap, extrap_options,
	"Exit status: 0 written, 1 the ladder cannot support the extrapolation or a file cannot be read,\n"
	"2 usage error.\n",
};
