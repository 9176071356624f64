/*
 * rung_advice — the rank counts that would show a class, under the code's rules of grids. See
 * rung_advice.h.
 */
#include "extrap/rung_advice.h"

#include <stdio.h>
#include <string.h>

#include "extrap/grid_rule.h"
#include "extrap/topology.h"

/* a rule of grids: an order of the balanced factors, or one dimension that grows (grow >= 0) with
 * the others as in base */
struct rule_of_grids {
	struct grid_rule order;
	int grow;
	struct grid base;
};

/* the rule's grid of nranks; false when it has none */
static bool rule_grid(const struct rule_of_grids *r, int64_t nranks, struct grid *out)
{
	if (r->grow < 0) {
		grid_rule_apply(&r->order, nranks, out);
		return true;
	}
	int64_t rest = grid_size(&r->base) / r->base.dims[r->grow];
	if (nranks % rest)
		return false;
	*out = r->base;
	out->dims[r->grow] = nranks / rest;
	return true;
}

/* the rules still in play, their names in names; how many */
static size_t rules_in_play(const struct grid *grids, size_t n, bool dims_create_called,
			    struct rule_of_grids *rules, char (*names)[160])
{
	uint32_t nd = grids[0].ndims;
	size_t m = 0;
	for (uint32_t i = 0; i < grid_rule_count(nd) && m < RUNG_ADVICE_RULES; i++) {
		struct rule_of_grids r = {.grow = -1};
		grid_rule_nth(nd, i, &r.order);
		if (!grid_rule_fits(&r.order, grids, n))
			continue;
		grid_rule_name(&r.order, names[m], sizeof names[m]);
		rules[m++] = r;
		if (i == 0 && dims_create_called)
			return m;
	}
	if (m)
		return m;
	int k = grid_changing_dimension(grids, n);
	if (k >= 0) {
		rules[0] = (struct rule_of_grids){.grow = k, .base = grids[0]};
		snprintf(names[0], sizeof names[0], "dimension %d growing, the others as at every rung", k);
		return 1;
	}
	rules[0] = (struct rule_of_grids){.grow = -1};
	grid_rule_nth(nd, 0, &rules[0].order);
	snprintf(names[0], sizeof names[0], "MPI_Dims_create's order (no rule of the code gives every rung's grid)");
	return 1;
}

/* the smallest counts not on the ladder whose grid under r has class cls */
static void counts_under(const struct rule_of_grids *r, uint32_t cls, const struct grid *grids, size_t n,
			 int64_t bound, struct rung_advice_rule *out)
{
	out->n = 0;
	for (int64_t p = 2; p <= bound && out->n < RUNG_ADVICE_COUNTS; p++) {
		struct grid g;
		int64_t lo[LAW_MAX_DIMS], hi[LAW_MAX_DIMS];
		bool have = false;
		for (size_t i = 0; i < n; i++)
			have = have || grid_size(&grids[i]) == p;
		if (have || !rule_grid(r, p, &g))
			continue;
		g.part = grids[0].part;
		if (!topology_class_box(&g, cls, lo, hi))
			continue;
		out->nranks[out->n] = p;
		out->grids[out->n++] = g;
	}
}

static bool same_advice(const struct rung_advice_rule *a, const struct rung_advice_rule *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->nranks[i] != b->nranks[i] || !grid_equal(&a->grids[i], &b->grids[i]))
			return false;
	return true;
}

/* name appended to rule after sep, cut short when it does not fit */
static void append_name(char *rule, size_t size, const char *sep, const char *name)
{
	size_t used = strlen(rule), ls = strlen(sep), ln = strlen(name);
	if (used + ls >= size)
		return;
	memcpy(rule + used, sep, ls);
	used += ls;
	ln = used + ln < size ? ln : size - used - 1;
	memcpy(rule + used, name, ln);
	rule[used + ln] = 0;
}

void rung_advice_find(uint32_t cls, const struct grid *grids, size_t n, bool dims_create_called,
		      struct rung_advice *out)
{
	struct rule_of_grids rules[RUNG_ADVICE_RULES];
	char names[RUNG_ADVICE_RULES][160];
	size_t m = rules_in_play(grids, n, dims_create_called, rules, names);
	int64_t top = 0;
	for (size_t i = 0; i < n; i++)
		top = grid_size(&grids[i]) > top ? grid_size(&grids[i]) : top;
	out->bound = 4 * top + 64;
	out->nrules = 0;
	for (size_t i = 0; i < m; i++) {
		struct rung_advice_rule a;
		counts_under(&rules[i], cls, grids, n, out->bound, &a);
		size_t j = 0;
		while (j < out->nrules && !same_advice(&out->rules[j], &a))
			j++;
		if (j < out->nrules) {   /* another rule that gives the same grids there */
			append_name(out->rules[j].rule, sizeof out->rules[j].rule, " or ", names[i]);
			continue;
		}
		a.rule[0] = 0;
		append_name(a.rule, sizeof a.rule, "", names[i]);
		out->rules[out->nrules++] = a;
	}
}

void rung_advice_text(const struct rung_advice *a, char *out, size_t outlen)
{
	bool any = false;
	for (size_t i = 0; i < a->nrules; i++)
		any = any || a->rules[i].n;
	size_t used = (size_t)snprintf(out, outlen, "%s", any ? "add rungs whose grid has it: " : "");
	for (size_t i = 0; i < a->nrules && used < outlen; i++) {
		const struct rung_advice_rule *r = &a->rules[i];
		if (i)
			used += (size_t)snprintf(out + used, outlen - used, "; ");
		if (!r->n && used < outlen)
			used += (size_t)snprintf(out + used, outlen - used, "no rank count up to %lld gives a grid that has it",
						 (long long)a->bound);
		for (size_t j = 0; j < r->n && used < outlen; j++) {
			char g[40];
			grid_format(&r->grids[j], g, sizeof g);
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld%s (%s)",
						 !j ? "" : j + 1 < r->n ? ", " : " or ", (long long)r->nranks[j],
						 j ? "" : " ranks", g);
		}
		if (used < outlen)
			used += (size_t)snprintf(out + used, outlen - used, " under %s", r->rule);
	}
}
