/*
 * placement — whether the proxy binds its ranks to cores (runtime.inc: place) and what each
 * group's ranks weigh there. A proxy posts the source each wildcard receive matched, so it keeps
 * the recorded split of messages among the senders: one run's outcome of which ranks shared a
 * core. On a node with more ranks than cores the program packs its ranks onto the cores by their
 * recorded compute, so that the rank with most of the work has a core to itself as it had.
 * Written only for runs whose wildcard receives took sends (run/pace.h pairs them), so every
 * other proxy is as before.
 */
#include <stdio.h>

#include "proxy/proxy.h"
#include "run/pace.h"
#include "run/summary.h"

void px_find_placed(struct proxy_gen *g)
{
	struct run_pace pace;
	char why[256];
	if (run_pace_build(g->r, &pace, why, sizeof why))
		g->placed = pace.npaced > 0;
	else
		fprintf(stderr, "ladder proxy: the sends wildcard receives took are not known, so ranks are not placed: %s\n",
			why);
	run_pace_free(&pace);
}

void px_emit_placement_define(struct proxy_gen *g)
{
	if (g->placed)
		px_puts(&g->text, "#define PROXY_PLACED 1   /* wildcard receives took sends: ranks are placed by their compute */\n");
}

double px_group_compute(const struct proxy_gen *g, uint32_t group)
{
	const struct run_group *grp = &g->r->groups[group];
	uint64_t gaps;
	double wall, cpu;
	run_group_gap_totals(grp, &gaps, &wall, &cpu);
	return grp->nranks ? (g->r->cpu_time != RUN_CPU_NONE ? cpu : wall) / grp->nranks : 0;
}
