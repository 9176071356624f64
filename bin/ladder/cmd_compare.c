/*
 * ladder compare — are two runs semantically equal? The logic is lib/compare/compare.c; this
 * command reads the two containers, prints the verdict and the first differences, and answers
 * with its exit status.
 */
#include <stdio.h>

#include "command.h"
#include "compare/compare.h"
#include "store/store.h"
#include "util/exitcode.h"
#include "util/log.h"

struct compare_opts {
	bool counts, strict;
	long max_diffs;
};

static const struct opt compare_options[] = {
	OPT_FLAG('c', "counts", struct compare_opts, counts,
		 "compare only calls and bytes sent and received per rank and function, from the profiles "
		 "(calls of polling functions are not compared, being timing; functions the tracer only counted "
		 "are listed, not compared)"),
	OPT_FLAG('s', "strict", struct compare_opts, strict,
		 "datatypes by their exact names (a replay must reproduce them exactly)"),
	OPT_LONG('m', "max-diffs", "N", struct compare_opts, max_diffs, 1, 100000, "differences to print (default 10)"),
	CMD_MAX_CALLS_OPT,
	CMD_MAX_RANKS_OPT,
	OPT_END(),
};

static int run_compare(int argc, char **argv)
{
	struct compare_opts o = {.max_diffs = 10};
	int rc = cmd_parse_options("compare", compare_options, argc, argv, &o);
	if (rc >= 0)
		return rc;
	bool counts = o.counts;
	enum cmp_types types = o.strict ? CMP_TYPES_EXACT : CMP_TYPES_BY_MEANING;
	long max_diffs = o.max_diffs;
	if (optind != argc - 2)
		return cmd_usage_error("compare", "needs two run containers");
	struct run a, b;
	struct h5_err e;
	if (!store_read_run(argv[optind], &a, &e)) {
		log_error("%s", e.msg);
		return EXIT_FAIL;
	}
	if (!store_read_run(argv[optind + 1], &b, &e)) {
		log_error("%s", e.msg);
		run_free(&a);
		return EXIT_FAIL;
	}
	if (!cmd_ranks_bounded(argv[optind], &a) || !cmd_ranks_bounded(argv[optind + 1], &b) ||
	    (!counts && (!cmd_walk_bounded(argv[optind], &a) || !cmd_walk_bounded(argv[optind + 1], &b)))) {
		run_free(&a);
		run_free(&b);
		return EXIT_FAIL;
	}
	struct cmp_result res;
	bool equal = counts ? compare_counts(&a, &b, (uint32_t)max_diffs, &res)
			    : compare_runs(&a, &b, (uint32_t)max_diffs, types, &res);
	if (res.unwalkable)   /* not a difference: a run that cannot be read to its end */
		log_error("%s: %s", argv[optind + res.unwalkable - 1], res.walk_error);
	else
		cmp_result_print(&res, argv[optind], argv[optind + 1], stdout);
	cmp_result_free(&res);
	run_free(&a);
	run_free(&b);
	return equal ? EXIT_OK : EXIT_FAIL;
}

const struct command command_compare = {
	"compare", "tell whether two runs made the same calls",
	"usage: ladder compare [--counts] [--strict] [--max-diffs N] [--max-calls N] [--max-ranks N] A.h5 B.h5\n"
	"\n"
	"Semantic equality of two runs: the same number of ranks and, on every rank, the same calls in\n"
	"the same order with the same parameters, as `ladder decode` prints them. Call sites, timing and\n"
	"how the tracer compressed the trace do not matter. Used to check that tracing a replay gives\n"
	"back the trace that was replayed (the fixed point), or that two runs of an application agree.\n"
	"\n"
	"What is not compared literally:\n"
	"  requests           compared by the call that created them (the k-th request-creating call of\n"
	"                     the rank), not by name: names hash the call site.\n"
	"  polls              timing: failed polls (Test*, Iprobe, Improbe, Request_get_status that found\n"
	"                     nothing) are left out, and so are MPI_Iprobe and MPI_Request_get_status\n"
	"                     altogether (they change nothing). Successful Test/Testany/Testsome/Testall/\n"
	"                     Improbe calls are taken out of the order: per rank, the requests they\n"
	"                     completed must be the same multiset (a successful poll that completed\n"
	"                     nothing counts with its parameters).\n"
	"  completion groups  a maximal run of consecutive calls to the same one of MPI_Waitany and\n"
	"                     MPI_Waitsome with the same array length is a group; both runs must have the\n"
	"                     same groups and in each the same multiset of completed requests (those at\n"
	"                     the returned index or indices). The rest of the arrays, the order within\n"
	"                     the group and its number of calls may differ.\n"
	"  wildcard groups    a maximal run of consecutive receives or probes posted with MPI_ANY_SOURCE\n"
	"                     that are equal but for the actual source and the request they create is a\n"
	"                     group; both runs must have the same groups, call for call, with the same\n"
	"                     multiset of actual sources.\n"
	"  datatypes          predefined datatypes by what they mean, at the size the trace recorded:\n"
	"                     MPI_DOUBLE_PRECISION, MPI_REAL8 and MPI_DOUBLE (8 bytes) are the same\n"
	"                     real, MPI_INTEGER8 and MPI_INT64_T the same integer, so a Fortran code and\n"
	"                     its C twin compare equal; signed and unsigned integers, MPI_BYTE, MPI_PACKED,\n"
	"                     MPI_LOGICAL and MPI_C_BOOL stay apart.\n"
	"\n"
	"Prints the first difference of each rank (up to --max-diffs): the rank, the call's number in\n"
	"`ladder decode --rank R` of each run, both calls and what differs.\n",
	run_compare, compare_options,
	"Exit status: 0 equal, 1 different (or a file cannot be read), 2 usage error.\n",
};
