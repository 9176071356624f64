/*
 * rules — the program's shape: one C function per grammar rule of each group (Pilgrim §3),
 * `for` loops for repetition counts, and main() choosing a rank's group by the group's ranklist,
 * so that the program's size follows the grammars, not the rank or iteration count.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "proxy/proxy.h"
#include "run/ranklist.h"

static void indent_to(struct buf *b, int indent)
{
	for (int i = 0; i < indent; i++)
		buf_put_u8(b, '\t');
}

/* the first terminal a rule expands to (names the rule) */
static uint32_t first_terminal(const struct grammar *gr, uint32_t rule)
{
	for (;;) {
		const struct gsymbol *s = grammar_rule_syms(gr, rule);
		if (!grammar_rule_len(gr, rule))
			return UINT32_MAX;
		if (!gsym_is_rule(s[0]))
			return (uint32_t)s[0].val;
		rule = gsym_rule(s[0]);
	}
}

/* a rule's name is made of numbers only: nothing of the file becomes an identifier */
static void rule_name(struct proxy_gen *g, uint32_t rule, char *out, size_t outlen)
{
	if (rule == 0)
		snprintf(out, outlen, "group%u", g->group);
	else
		snprintf(out, outlen, "group%u_rule%u", g->group, rule);
}

/* the comment naming the call a rule starts with */
static void rule_comment(struct proxy_gen *g, uint32_t rule)
{
	uint32_t t = rule ? first_terminal(&g->r->groups[g->group].g, rule) : UINT32_MAX;
	if (t == UINT32_MAX)
		return;
	px_puts(&g->text, "\n/* starts with ");
	px_callsite_text(g, t, &g->text);
	px_puts(&g->text, " */");
}

static bool emit_terminal(struct proxy_gen *g, uint32_t sig, uint64_t exp, int indent)
{
	struct buf *b = &g->text;
	int inner = indent;
	if (exp > 1) {
		indent_to(b, indent);
		px_printf(b, "for (long repeat = 0; repeat < %" PRIu64 "; repeat++) {\n", exp);
		inner++;
	}
	px_emit_gap(g, sig, inner);
	if (!px_emit_call(g, sig, inner))
		return false;
	if (exp > 1) {
		indent_to(b, indent);
		px_puts(b, "}\n");
	}
	return true;
}

static bool emit_rule(struct proxy_gen *g, uint32_t rule)
{
	const struct grammar *gr = &g->r->groups[g->group].g;
	char name[128];
	rule_name(g, rule, name, sizeof name);
	rule_comment(g, rule);
	px_printf(&g->text, "\nstatic void %s(void)\n{\n", name);
	const struct gsymbol *syms = grammar_rule_syms(gr, rule);
	for (uint64_t i = 0; i < grammar_rule_len(gr, rule); i++) {
		struct gsymbol s = syms[i];
		if (!gsym_is_rule(s)) {
			if (!emit_terminal(g, (uint32_t)s.val, s.exp, 1))
				return false;
			continue;
		}
		char callee[128];
		rule_name(g, gsym_rule(s), callee, sizeof callee);
		if (s.exp > 1)
			px_printf(&g->text, "\tfor (long repeat = 0; repeat < %" PRIu64 "; repeat++)\n\t\t%s();\n", s.exp, callee);
		else
			px_printf(&g->text, "\t%s();\n", callee);
	}
	px_puts(&g->text, "}\n");
	return true;
}

static void emit_ranklist(struct proxy_gen *g)
{
	const struct run_group *grp = &g->r->groups[g->group];
	const struct ranklist *rl = &grp->ranks;
	char text[256];
	ranklist_format(rl->v, rl->len, text, sizeof text);
	px_printf(&g->text, "\n/* ---- group %u: ranks %s (%u ranks, %u rules) ---- */\n\n", g->group, text,
		  grp->nranks, grp->g.nrules);
	px_printf(&g->text, "static const long long group%u_ranks[] = {", g->group);
	for (size_t i = 0; i < rl->len; i++)
		px_printf(&g->text, "%s%" PRId64, i ? ", " : "", rl->v[i]);
	px_printf(&g->text, "};\nenum { GROUP%u_BOXES = %zu };\n", g->group, ranklist_boxes(rl->v, rl->len));
}

bool px_emit_groups(struct proxy_gen *g)
{
	for (g->group = 0; g->group < g->r->ngroups; g->group++) {
		const struct grammar *gr = &g->r->groups[g->group].g;
		px_homes_build(g);
		if (g->homes > g->most_homes)
			g->most_homes = g->homes;
		emit_ranklist(g);
		px_emit_gap_tables(g);
		/* rules call each other in any order: declare them all first */
		px_puts(&g->text, "\n");
		for (uint32_t rule = 0; rule < gr->nrules; rule++) {
			char name[128];
			rule_name(g, rule, name, sizeof name);
			px_printf(&g->text, "static void %s(void);\n", name);
		}
		for (uint32_t rule = 0; rule < gr->nrules; rule++)
			if (!emit_rule(g, rule))
				return false;
	}
	return true;
}

static void emit_init(struct proxy_gen *g)
{
	const struct run_signature *s = &g->r->sigs[g->init_sig];
	const struct fn_desc *d = &g->r->fns[s->fn];
	if (strcmp(d->name, "MPI_Init_thread")) {
		px_puts(&g->text, "\tMPI_Init(&argc, &argv);\n");
		return;
	}
	uint32_t w;
	const int64_t *required = px_group_values(g, g->init_sig, 2, &w);
	px_printf(&g->text, "\tint provided;\n\tMPI_Init_thread(&argc, &argv, %" PRId64 ", &provided);\n",
		  required && !sv_is_symbolic(required[0]) ? required[0] : 0);
}

void px_emit_main(struct proxy_gen *g)
{
	struct buf *b = &g->text;
	px_puts(b, "\n/* ---- main: each rank runs its group's calls ---- */\n\nint main(int argc, char **argv)\n{\n");
	px_puts(b, "\tcalibrate_compute();   /* before MPI_Init: the time is from its return */\n");
	emit_init(g);
	px_printf(b, "\tstart(argc, argv, %u, %u);   /* ranks, request homes */\n", g->r->nranks, g->most_homes);
	for (uint32_t i = 0; i < g->r->ngroups; i++) {
		px_printf(b, "\t%sif (in_ranklist(group%u_ranks, GROUP%u_BOXES, world_rank))", i ? "else " : "", i, i);
		if (g->placed)   /* every rank places itself (a collective of the node's ranks), then runs */
			px_printf(b, " {\n\t\tplace(%.6g);   /* CPU seconds a rank of group %u computed */\n\t\tgroup%u();\n\t}\n",
				  px_group_compute(g, i), i, i);
		else
			px_printf(b, "\n\t\tgroup%u();\n", i);
	}
	px_puts(b, "\treturn finish();\n}\n");
}
