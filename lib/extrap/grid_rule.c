/*
 * grid_rule — the code's rule of grids, read from the rungs' grids. See grid_rule.h.
 */
#include "extrap/grid_rule.h"

#include <stdio.h>
#include <string.h>

#include "extrap/topology.h"

uint32_t grid_rule_count(uint32_t ndims)
{
	uint32_t n = 1;
	for (uint32_t k = 2; k <= ndims; k++)
		n *= k;
	return n;
}

/* the identity first, the reverse second, then the other permutations in lexicographic order */
void grid_rule_nth(uint32_t ndims, uint32_t i, struct grid_rule *out)
{
	uint32_t count = grid_rule_count(ndims);
	i = i == 0 ? 0 : i == 1 ? count - 1 : i - 1;
	uint8_t left[LAW_MAX_DIMS];
	uint32_t nleft = ndims;
	out->ndims = ndims;
	for (uint32_t k = 0; k < ndims; k++)
		left[k] = (uint8_t)k;
	for (uint32_t k = 0; k < ndims; k++) {
		uint32_t block = grid_rule_count(ndims - k - 1), pick = i / block;
		i %= block;
		out->order[k] = left[pick];
		memmove(left + pick, left + pick + 1, (nleft - pick - 1) * sizeof *left);
		nleft--;
	}
}

void grid_rule_apply(const struct grid_rule *r, int64_t nranks, struct grid *out)
{
	struct grid balanced;
	topology_dims_create(nranks, r->ndims, &balanced);
	*out = balanced;
	for (uint32_t k = 0; k < r->ndims; k++)
		out->dims[k] = balanced.dims[r->order[k]];
}

static bool is_identity(const struct grid_rule *r)
{
	for (uint32_t k = 0; k < r->ndims; k++)
		if (r->order[k] != k)
			return false;
	return true;
}

static bool is_reverse(const struct grid_rule *r)
{
	for (uint32_t k = 0; k < r->ndims; k++)
		if (r->order[k] != r->ndims - 1 - k)
			return false;
	return true;
}

void grid_rule_name(const struct grid_rule *r, char *out, size_t outlen)
{
	if (is_identity(r)) {
		snprintf(out, outlen, "MPI_Dims_create's order (balanced factors, largest first)");
		return;
	}
	if (is_reverse(r)) {
		snprintf(out, outlen, "balanced factors, largest last (the rank index fastest along the largest factor)");
		return;
	}
	size_t used = (size_t)snprintf(out, outlen, "balanced factors in the order ");
	for (uint32_t k = 0; k < r->ndims && used < outlen; k++)
		used += (size_t)snprintf(out + used, outlen - used, "%sf%u", k ? "x" : "", r->order[k]);
	if (used < outlen)
		snprintf(out + used, outlen - used, " (f0 the largest)");
}

bool grid_rule_fits(const struct grid_rule *r, const struct grid *grids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct grid g;
		grid_rule_apply(r, grid_size(&grids[i]), &g);
		if (!grid_equal(&g, &grids[i]))
			return false;
	}
	return true;
}

int grid_changing_dimension(const struct grid *grids, size_t n)
{
	int which = -1;
	for (uint32_t k = 0; k < grids[0].ndims; k++)
		for (size_t i = 1; i < n; i++)
			if (grids[i].dims[k] != grids[0].dims[k]) {
				if (which >= 0 && which != (int)k)
					return -1;
				which = (int)k;
			}
	return which;
}

/* the smallest rank count above 1 not on the ladder at which rules a and b give different grids */
static int64_t deciding_rung(const struct grid_rule *a, const struct grid_rule *b, const struct grid *grids, size_t n)
{
	for (int64_t p = 2; p <= 1024; p++) {
		bool have = false;
		for (size_t i = 0; i < n; i++)
			have = have || grid_size(&grids[i]) == p;
		struct grid ga, gb;
		grid_rule_apply(a, p, &ga);
		grid_rule_apply(b, p, &gb);
		if (!have && !grid_equal(&ga, &gb))
			return p;
	}
	return 0;
}

static void tie_text(const struct grid_rule *a, const struct grid_rule *b, const struct grid *grids, size_t n,
		     int64_t nranks, char *why, size_t whylen)
{
	char na[120], nb[120], ta[32], tb[32], da[32], db[32];
	struct grid ga, gb, xa, xb;
	int64_t p = deciding_rung(a, b, grids, n);
	grid_rule_name(a, na, sizeof na);
	grid_rule_name(b, nb, sizeof nb);
	grid_rule_apply(a, nranks, &ga);
	grid_rule_apply(b, nranks, &gb);
	grid_rule_apply(a, p, &xa);
	grid_rule_apply(b, p, &xb);
	grid_format(&ga, ta, sizeof ta);
	grid_format(&gb, tb, sizeof tb);
	grid_format(&xa, da, sizeof da);
	grid_format(&xb, db, sizeof db);
	snprintf(why, whylen,
		 "the rungs' grids fit two rules of the code's decomposition that differ at %lld ranks: %s (%s) and %s "
		 "(%s); a rung of %lld ranks would decide (%s against %s), or name the target's grid with --target",
		 (long long)nranks, na, ta, nb, tb, (long long)p, da, db);
}

bool grid_rule_target(const struct grid *grids, size_t n, int64_t nranks, bool dims_create_called, struct grid *out,
		      char *rule, size_t rulelen, char *why, size_t whylen)
{
	uint32_t nd = grids[0].ndims;
	struct grid_rule first = {0}, r;
	bool found = false, identity = false;
	for (uint32_t i = 0; i < grid_rule_count(nd); i++) {
		grid_rule_nth(nd, i, &r);
		if (!grid_rule_fits(&r, grids, n))
			continue;
		if (!found) {
			first = r, found = true, identity = i == 0;
			continue;
		}
		struct grid a, b;
		grid_rule_apply(&first, nranks, &a);
		grid_rule_apply(&r, nranks, &b);
		if (grid_equal(&a, &b) || (identity && dims_create_called))
			continue;
		tie_text(&first, &r, grids, n, nranks, why, whylen);
		return false;
	}
	if (found) {
		grid_rule_apply(&first, nranks, out);
		grid_rule_name(&first, rule, rulelen);
		return true;
	}
	topology_dims_create(nranks, nd, out);
	int k = grid_changing_dimension(grids, n);
	int64_t rest = k < 0 ? 0 : grid_size(&grids[0]) / grids[0].dims[k];
	if (rest > 0 && nranks % rest == 0) {
		*out = grids[0];
		out->dims[k] = nranks / rest;
		out->part = 0;
		snprintf(rule, rulelen, "dimension %d grows, the others stay as at every rung", k);
		return true;
	}
	snprintf(rule, rulelen, "MPI_Dims_create's order (no rule of the code gives every rung's grid)");
	return true;
}
