/*
 * pace — the proxy's tables of paced compute (run/pace.h): for each rank a send of which a wildcard
 * receive took, the turns of the gap before each call of its group's paced signatures and the
 * length of a turn; select_pace() finds the rank's table at startup. Written only for runs with
 * such sends, so every other proxy is as before.
 */
#include <inttypes.h>

#include "proxy/proxy.h"

void px_emit_pace_define(struct proxy_gen *g)
{
	if (g->pace.npaced)
		px_puts(&g->text, "#define PROXY_PACED 1     /* sends a wildcard receive took: their compute is paced */\n");
}

static void emit_table(struct proxy_gen *g, uint32_t rank, const struct pace_rank *pr)
{
	px_printf(&g->text, "static const int pace_turns_r%u[] = {", rank);
	for (uint32_t i = 0; i < pr->n; i++)
		px_printf(&g->text, "%s%s%" PRId32, i ? "," : "", i % 32 ? "" : "\n\t", pr->turns[i]);
	px_puts(&g->text, "\n};\n");
}

void px_emit_pace_tables(struct proxy_gen *g)
{
	const struct run_pace *p = &g->pace;
	if (!p->npaced)
		return;
	px_puts(&g->text, "\n/* compute before the sends a wildcard receive took, paced by the recorded order: per rank,\n"
			  " * the turns of the gap before each call of a paced send (-1: its histogram), and the\n"
			  " * seconds of one turn (wall, CPU), the same for every sender of a receiver */\n");
	for (uint32_t k = 0; k < p->nranks; k++)
		if (p->ranks[k].turns)
			emit_table(g, k, &p->ranks[k]);
	px_puts(&g->text, "static const struct pace paces[] = {\n");
	for (uint32_t k = 0; k < p->nranks; k++)
		if (p->ranks[k].turns)
			px_printf(&g->text, "\t{%u, %u, %.9g, %.9g, pace_turns_r%u},   /* paced by rank %u */\n", k,
				  p->ranks[k].n, p->ranks[k].wall, p->ranks[k].cpu, k, p->ranks[k].receiver);
	px_puts(&g->text, "};\n\nstatic inline void select_pace(void)\n{\n"
			  "\tfor (size_t i = 0; i < sizeof paces / sizeof paces[0]; i++)\n"
			  "\t\tif (paces[i].rank == world_rank)\n\t\t\tmy_pace = &paces[i];\n}\n");
}
