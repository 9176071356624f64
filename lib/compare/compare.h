/*
 * compare — semantic equality of two runs (ScalaExtrap §5.1, the fixed point of trace and replay):
 * the same number of ranks and, for every rank, the same calls in the same order with the same
 * parameters. Call sites, timing and the tracer's compression (grammar shape, what was streamed)
 * do not matter: calls are compared as `ladder decode` prints them, with these exceptions:
 *
 *  - Requests are compared by the call that created them: the k-th request-creating call of a rank
 *    names its request k, and a later use of the request's (pool, slot) name means that call. Pool
 *    keys hash the call site, so the raw names of an application and of its replay differ.
 *  - Polls are timing. Failed polls (Test*, Iprobe, Improbe, Request_get_status that found nothing)
 *    are left out. Polls that change nothing even when they find something (MPI_Iprobe,
 *    MPI_Request_get_status) are left out too. A successful Test/Testany/Testsome/Testall/Improbe
 *    is taken out of the order of calls: per rank, the requests completed by successful polls
 *    must be the same multiset (and so must successful polls that completed nothing, such as an
 *    MPI_Improbe, compared with their parameters) — when a poll finds its request is timing.
 *  - Completion groups. A maximal run of consecutive calls to the same one of MPI_Waitany and
 *    MPI_Waitsome with the same array length is one group; the two runs must have the same groups,
 *    and in each the same multiset of completed requests (the requests at the returned index or
 *    indices). Which other requests the arrays held, the order of completion within the group and
 *    how many calls it took are not compared.
 *  - Wildcard groups. A maximal run of consecutive calls posted with MPI_ANY_SOURCE that are equal
 *    but for the actual source and the request they create is one group; the two runs must have
 *    the same groups, each with the same calls (requests included) and the same multiset of
 *    actual sources.
 *
 *  - Datatypes. Predefined datatypes are compared by what they mean (signature.h, dtype_meaning):
 *    MPI_DOUBLE_PRECISION and MPI_DOUBLE of the same size are the same (a Fortran code and its C
 *    twin agree), unless exact names are asked for (CMP_TYPES_EXACT).
 *
 * With counts only, the runs' profiles are compared instead: per rank and function, calls and
 * bytes sent and received (the calls of functions that poll are left out: they are timing, like
 * failed polls; functions the tracer only counted are reported, not compared).
 */
#ifndef LADDER_COMPARE_COMPARE_H
#define LADDER_COMPARE_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "run/run.h"

struct cmp_diff {
	uint32_t rank;
	uint64_t a_call, b_call;   /* 1-based, as `ladder decode --rank R` numbers lines; 0: none */
	char *a_line, *b_line;     /* NULL: that run has no such call */
	char *why;
};

struct cmp_result {
	bool equal;
	char *header;              /* a difference before any call (rank count), or NULL */
	uint32_t ndiffs;           /* ranks (or rank x function with counts) that differ */
	struct cmp_diff *diffs;    /* the first max_diffs of them */
	uint32_t kept, max_diffs;
	uint64_t a_calls, b_calls; /* compared calls (failed polls left out) */
	char *note;                /* something not compared, or NULL */
	int unwalkable;            /* 1 or 2 when run A or B could not be walked (a stream ran out,
				      the walk bound or the profile was passed): its error is in
				      walk_error, the header says the same for the printout */
	char *walk_error;
};

enum cmp_types { CMP_TYPES_BY_MEANING, CMP_TYPES_EXACT };

/* semantic comparison of every rank's calls */
bool compare_runs(const struct run *a, const struct run *b, uint32_t max_diffs, enum cmp_types types,
		  struct cmp_result *res);
/* per-function calls and volumes from the profiles; false with res->header when one has none */
bool compare_counts(const struct run *a, const struct run *b, uint32_t max_diffs, struct cmp_result *res);
void cmp_result_print(const struct cmp_result *res, const char *a_name, const char *b_name, FILE *out);
void cmp_result_free(struct cmp_result *res);

#endif
