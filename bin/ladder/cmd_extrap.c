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
	if (run_attr(out, "grid") && run_attr(out, "grid_rule"))
		printf("grid %s: %s\n", run_attr(out, "grid"), run_attr(out, "grid_rule"));
	if (run_attr(out, "partner_families"))
		printf("partner families: %s\n", term_safe(run_attr(out, "partner_families")));
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
	const char *grid = run_attr(out, "grid");
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
	struct extrap_options o = {.profile_limit = 65536};
	const char *output = NULL;
	int rc = parse_extrap_args(argc, argv, &o, &output);
	if (rc >= 0)
		return rc;
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
	"How: every rung's process grid is taken from its MPI_Cart_create; for codes that split row and\n"
	"column communicators by hand, from the laws of their MPI_Comm_split colours and keys (divisors\n"
	"and moduli are the grid's strides); or it is found from the point-to-point peers for codes\n"
	"that compute neighbours by hand (streamed peers read; one dimension apart, else the 27-point\n"
	"neighbourhood; without MPI_Dims_create, the balanced 2-D or 3-D grid on which some ranks are\n"
	"no neighbours, smaller rungs taking its dimensionality; the rungs' stream laws are then read\n"
	"on that grid). A code that decomposes by hand is read from the peers of every rung at once:\n"
	"the balanced factors in the code's own order (largest first as MPI_Dims_create, largest last\n"
	"with the rank index fastest along it, any other), the one order whose grid at every rung\n"
	"makes every peer a neighbour, periodic along a dimension of 3 or more only where a peer wraps\n"
	"around it. The target's grid follows the order the rungs' grids show (printed, and kept in\n"
	"the label grid_rule); orders that fit the rungs and differ at the target are refused with a\n"
	"rank count that would decide. A split with one colour or with colour = rank is no grid\n"
	"dimension; a duplicate of MPI_COMM_WORLD is world. Ranks are put in position classes (low\n"
	"boundary, interior, high boundary in each dimension); each class's call sequence is aligned\n"
	"across the rungs where it exists (same grammar shape, same functions at the same call sites)\n"
	"and every value is decided across the ladder: a peer is a move on the grid (the neighbour at\n"
	"-1, 0 or +1 along each dimension, periodic or not), evaluated on the target grid; the rank\n"
	"count and grid that MPI_Comm_size, MPI_Dims_create and MPI_Cart_create report are the\n"
	"target's; the counts of the calls of one call site (or function) that concern different\n"
	"dimensions share one law in d_k (a strong-scaling face is C*d_k/P); any other value that\n"
	"differs is an exact integer law in d0, d1, ... and P (terms 1, d_k, P, 1/d_k, 1/P, 1/P^2 and,\n"
	"in 3-D, P/d_k and d_k/P; least squares, accepted only when every rung is reproduced and at\n"
	"least one rung is left over to check it; refused when equally simple laws disagree at P).\n"
	"A value equal at every rung is taken as that constant.\n"
	"\n"
	"A class no rung has because a dimension is never wider than 2 on the ladder (3-D rungs 2x2x2,\n"
	"3x2x2, 4x2x2) is composed as the union of its low and high sides along that dimension: what\n"
	"both do alike, and the neighbour where one side calls MPI_PROC_NULL; the rule is first checked\n"
	"where the ladder shows an interior. A class only one rung has (the interiors of 3x3x3 on a\n"
	"ladder of cubes) is composed alike from its sides and taken when on that rung's grid it makes\n"
	"the calls the rung shows; a move across the dimension, diagonal too, beside MPI_PROC_NULL is\n"
	"the interior's neighbour. On a periodic dimension of 2 the neighbours at -1 and +1\n"
	"are one rank; the order of directions along a dimension the ladder widens decides them.\n"
	"\n"
	"Timing: where a class was seen at 4 rungs or more, durations and gaps are scaled to\n"
	"lib/model's PMNF prediction at P; each prediction and its 95% interval is a row of\n"
	"/extrap/intervals (a replay sums them into a range), their sum the labels timing_modeled_s,\n"
	"_lo_s and _hi_s. From 3 rungs a law of three rungs scales them instead (no interval): one\n"
	"power of P (fitted in log-log space, its exponent rounded to a quarter and held within\n"
	"P^-2 ... P^3, the powers the PMNF search considers), so strong-scaling compute shrinks, or\n"
	"the constant plus one power (a + b*P^k, k -1, -1/2, 1/2 or 1, a and b not negative: work of\n"
	"a part the same on every rank and a part that depends on P, like is's counting sort over a\n"
	"key range split P ways), whichever fits the rungs better, and only where it fits them\n"
	"significantly better (an F-test at 5%) than the simple law that fits better, the constant\n"
	"(weak scaling: the largest rung's value; a trend that one slow rung makes is noise) or c/P\n"
	"(strong scaling: the largest rung's value times its P over the target's). From fewer rungs\n"
	"they are the largest rung's.\n"
	"A gap's CPU time has a model of its own when every rung measured CPU times, and raises its\n"
	"wall time where it exceeds it. The profile (visits, bytes, messages per rank and function)\n"
	"is counted from the synthetic trace.\n"
	"\n"
	"Refused, with the class, call and parameter named: runs without a grid, ranks of one\n"
	"grid position that behave differently (not SPMD, e.g. master-worker; values without a law of\n"
	"the coordinates are named), a class seen at fewer than\n"
	"two rungs and not composable (the rank counts to add are named), values with no law or two laws\n"
	"that disagree at the target (give the grid with --target AxB, or add rungs), data-dependent\n"
	"(streamed) values without a law. Nothing is written then.\n"
	"\n"
	"Streamed values (a call's values that change from call to call or rank to rank, stored as a\n"
	"head and a period with laws of the rank) are extrapolated when the stream the class's ranks\n"
	"read has one shape at every rung and each of its numbers (length, cells, the rank laws' bases,\n"
	"coefficients, divisors, shifts, moduli) is a constant or a law of the grid sizes (a law's term\n"
	"that reads a coordinate keeps reading it: its divisor the dimension's stride, its modulus its\n"
	"size, at the target too): stored once\n"
	"for the class's ranks at the target (MPI_Comm_split's colours and keys, say).\n"
	"\n"
	"Ranks that make the same calls with a peer, source, tag or count that changes from rank to rank\n"
	"(cg's transpose partner, (d0-1)*(c1-c0) ranks away) are united first: the value is fitted over\n"
	"every rank of every rung as an exact integer law of the rank's coordinates c_j and the sizes\n"
	"d_i (sum a_ij*d_i*c_j + b_j*c_j + e_i*d_i + f, at most 4 terms, least squares) and streamed as\n"
	"a law of the rank. Where the ranks of one grid position still differ (cg's diagonal makes no\n"
	"exchange), the classes are split on and off a part of the grid, c_i == c_j or\n"
	"c_i + c_j == d_j - 1; a class that only one rung has (the interior off the diagonal) takes the\n"
	"laws of a class whose ranks are in its group at every rung that has it.\n"
	"\n"
	"The profile is per rank: it is built only up to --profile-limit ranks, so that the container's\n"
	"size does not depend on P beyond that. Exclusive times in it are the largest rung's.\n"	"\n"
	"Count arrays by rule (lossy mode): MPI_Alltoallv's (and Ialltoallv's) send and receive counts\n"
	"and displacements over MPI_COMM_WORLD, and Reduce_scatter's receive counts, whose entries have\n"
	"no law (is's bucket sizes) but whose sum, the rank's total, is the same on every rank and call\n"
	"of a rung and a law across the rungs (a constant in weak scaling, N/P in strong): the total T\n"
	"at the target is split evenly, rank i sending rank j T/P plus one when (j - i) mod P < T mod P,\n"
	"a rule both sides of every pair evaluate alike; displacements are its prefix sums. Stored as\n"
	"four numbers per array (hdf5-schema/run.yaml), whatever P; decode, replay, compare and the\n"
	"proxy write the arrays out. Each rank sends what it did; what it receives is the even share,\n"
	"not the real run's (the keys decide that). Alltoallw (per-peer datatypes), Gatherv, Scatterv\n"
	"and Allgatherv, and totals that differ from rank to rank or have no law, are dropped as before.\n"
	"\n"
	"Compute around dropped calls (lossy mode): the target goes from the call before dropped ones\n"
	"straight to the next kept call; that gap holds the largest rung's mean gaps along the way (wall\n"
	"and CPU time), so a replay or proxy computes there what the application did. The dropped calls'\n"
	"own durations (communication) are not added.\n"
	"\n"
	"Calls that would not meet: every synthetic run, exact or lossy, up to --profile-limit ranks,\n"
	"has every rank's sends and receives counted per communicator, pair of ranks and tag (a\n"
	"wildcard receive counts for any), its collective calls per communicator member, and its\n"
	"requests followed to their Wait, Test or Request_free. An exact run where some do not meet\n"
	"(a law wrong at the target) is refused, naming the first mismatch, the call, its class and\n"
	"its value laws; nothing is written. A lossy run where some do not meet (lossy mode dropped\n"
	"a receive only some ranks make) is written, the first mismatch printed, and labelled\n"
	"not_replayable: replay and proxy refuse it at once instead of hanging (and count the calls of\n"
	"a synthetic run of up to 4096 ranks themselves first); ladder validate finds such a run\n"
	"without the label invalid. Beyond the limit a lossy run is labelled unchecked.\n"
	"\n"
	"Periodic neighbours are moves on the grid: a streamed peer (c + shift) mod d whose dimension\n"
	"has one width d at every rung is the neighbour at +1 (shift 1) or -1 (shift d - 1, d - 1 at\n"
	"the target too); any other shift cannot be told from d minus a constant there and is\n"
	"refused, naming the law and asking for a rung where that dimension has another width.\n"
	"\n"
	"Commands: every rung's command line is kept (label rung_commands); the synthetic run's command\n"
	"is theirs with the target's rank count where they differ only by their rank count, else said\n"
	"unknown, with a warning (rungs run with --iterations 20, 30, 40 are not one experiment).\n"
	"\n"
	"Options:\n"
	"  -t, --target P|AxB   the rank count, or the grid (\"32x32\") when MPI_Dims_create's balanced\n"
	"                       grid is not the one the application would use\n"
	"  -o, --output FILE    the synthetic run (default extrap-pP.h5), written atomically; the\n"
	"                       campaign records it as /extrap/pP (a link, with a row in /extrap/index)\n"
	"  --lossy              keep the dominant pattern (ScalaExtrap 3.4): call sequences whose structure\n"
	"                       differs across the ladder are aligned by a longest common subsequence\n"
	"                       weighted by the calls each symbol stands for, loops against loops (rules\n"
	"                       of pairs that merely repeated are inlined first), and what not every rung\n"
	"                       has is dropped; so are calls and repetitions whose values have no law;\n"
	"                       data-dependent counts a rank sends take their value at the largest rung, a\n"
	"                       collective's the largest the ladder shows for the call; a point-to-point\n"
	"                       receive count that is no law of the grid sizes (a constant, or\n"
	"                       approximated) is raised to the largest any receive at its call site shows\n"
	"                       on the ladder, so that it holds what it meets, whichever rank's count the\n"
	"                       send took (a message may be smaller than its receive, never larger); count\n"
	"                       arrays with one entry per rank whose entries are data (an Alltoallv's) are\n"
	"                       stated by rule when every rank of every rung sends the same total and it is\n"
	"                       a law of the grid sizes (see below), else dropped. Printed and stored in\n"
	"                       the run's labels: per rung the calls alignment left out (lossy_unaligned),\n"
	"                       the calls dropped and their share at the target (lossy_dropped_calls,\n"
	"                       _share), the calls with an approximated count (lossy_approximated_calls,\n"
	"                       _share), those with count arrays by rule (lossy_shared_calls, _share),\n"
	"                       ranks of a rung unlike most of their grid position\n"
	"                       (lossy_replaced_rung_ranks); and, up to --profile-limit ranks, the loss\n"
	"                       at the target: the calls and bytes the application is expected to make\n"
	"                       at P, projected per function from every call of the rungs\n"
	"                       (lossy_expected_calls, _bytes), the shares the run keeps of them\n"
	"                       (lossy_kept_calls_share, _bytes_share) and per function\n"
	"                       (lossy_kept_by_function). A Get_count that reads the status of a dropped\n"
	"                       call is dropped with it, as a dropped request's Wait or Test is\n"
	"  --profile-limit N    build the per-rank profile only up to N ranks (default 65536; 0: never)\n"
	"\n"
	"Exit status: 0 written, 1 the ladder cannot support the extrapolation or a file cannot be read,\n"
	"2 usage error.\n",
	run_extrap,
};
