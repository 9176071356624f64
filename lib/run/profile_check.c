/*
 * profile_check — per rank and function, the profile's calls against the trace's (see the header).
 */
#include "run/profile_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/events.h"
#include "util/xalloc.h"

/* the index into r->fns of a profile node's function, or r->nfns when the run has no such function */
static uint32_t fn_index(const struct run *r, const char *name)
{
	for (uint32_t f = 0; f < r->nfns; f++)
		if (r->fns[f].name && !strcmp(r->fns[f].name, name))
			return f;
	return r->nfns;
}

/* calls per function of one rank, from its events; false with the walk's error */
static bool trace_calls(const struct run *r, uint32_t rank, uint64_t *calls, char *why, size_t whylen)
{
	struct event_iter it;
	event_iter_init(&it, r, rank);
	struct event ev;
	while (event_next(&it, &ev))
		calls[ev.fn - r->fns] += ev.repeat;
	bool ok = !it.error[0];
	if (!ok)
		snprintf(why, whylen, "%s", it.error);
	event_iter_free(&it);
	return ok;
}

static void report_line(uint64_t *ndiffs, uint32_t max_lines, void (*report)(const char *, void *), void *arg,
			const char *line)
{
	if (++*ndiffs <= max_lines)
		report(line, arg);
}

uint64_t run_check_profile(const struct run *r, uint32_t max_lines,
			   void (*report)(const char *what, void *arg), void *arg)
{
	if (!r->nnodes || r->synthetic)
		return 0;
	uint32_t *node_fn = xcalloc(r->nnodes + 1, sizeof *node_fn);
	for (uint32_t i = 0; i < r->nnodes; i++)
		node_fn[i] = r->nodes[i].kind == PNODE_FUNCTION ? fn_index(r, r->nodes[i].name) : UINT32_MAX;
	uint64_t *traced = xcalloc(r->nfns + 1, sizeof *traced), *profiled = xcalloc(r->nfns + 1, sizeof *profiled);
	uint64_t ndiffs = 0;
	char line[512], why[200];
	for (uint32_t q = 0; q < r->nranks; q++) {
		memset(traced, 0, (r->nfns + 1) * sizeof *traced);
		memset(profiled, 0, (r->nfns + 1) * sizeof *profiled);
		if (!trace_calls(r, q, traced, why, sizeof why)) {
			snprintf(line, sizeof line, "rank %u: the trace cannot be walked: %s", q, why);
			report_line(&ndiffs, max_lines, report, arg, line);
			continue;
		}
		for (uint32_t i = 0; i < r->nnodes; i++)
			if (node_fn[i] != UINT32_MAX)
				profiled[node_fn[i]] += r->counts[((size_t)q * r->nnodes + i) * RUN_PC_COUNT + RUN_PC_VISITS];
		for (uint32_t f = 0; f < r->nfns; f++)
			if (traced[f] != profiled[f]) {
				snprintf(line, sizeof line, "rank %u: the profile counts %llu calls of %s, the trace has %llu",
					 q, (unsigned long long)profiled[f], r->fns[f].name,
					 (unsigned long long)traced[f]);
				report_line(&ndiffs, max_lines, report, arg, line);
			}
		if (profiled[r->nfns]) {
			snprintf(line, sizeof line, "rank %u: the profile counts %llu calls of functions the run does not list",
				 q, (unsigned long long)profiled[r->nfns]);
			report_line(&ndiffs, max_lines, report, arg, line);
		}
	}
	if (ndiffs > max_lines) {
		snprintf(line, sizeof line, "... and %llu more differences between the profile and the trace",
			 (unsigned long long)(ndiffs - max_lines));
		report(line, arg);
	}
	free(node_fn);
	free(traced);
	free(profiled);
	return ndiffs;
}
