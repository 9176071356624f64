/*
 * law_tie — the rung that would decide between two laws. See law_tie.h.
 */
#include "extrap/law_tie.h"

#include <stdio.h>
#include <string.h>

#include "extrap/topology.h"

#define MAX_SEARCH 65536   /* rank counts tried, from 2 up */

/* do a and b give different integer values on g, for some member dimension of a family law? */
static bool differ_on(const struct law *a, const struct law *b, const struct grid *g)
{
	uint32_t n = a->family || b->family ? g->ndims : 1;
	for (uint32_t k = 0; k < n; k++) {
		int64_t va, vb;
		int32_t dim = a->family || b->family ? (int32_t)k : LAW_NO_DIM;
		if (law_eval(a, g, dim, &va) && law_eval(b, g, dim, &vb) && va != vb)
			return true;
	}
	return false;
}

static bool on_ladder(const struct law_points *pts, int64_t p)
{
	for (size_t i = 0; i < pts->n; i++)
		if (grid_size(&pts->grids[i]) == p)
			return true;
	return false;
}

static bool all_wide(const struct grid *g)
{
	for (uint32_t k = 0; k < g->ndims; k++)
		if (g->dims[k] < 3)
			return false;
	return true;
}

bool law_tie_rung(const struct law *a, const struct law *b, const struct law_points *pts, const struct grid *target,
		  struct grid *out)
{
	int64_t top = grid_size(target);
	for (int wide = 1; wide >= 0; wide--)
		for (int64_t p = 2; p <= top && p <= MAX_SEARCH; p++) {
			struct grid g;
			if (on_ladder(pts, p))
				continue;
			topology_dims_create(p, target->ndims, &g);
			if ((!wide || all_wide(&g)) && differ_on(a, b, &g)) {
				*out = g;
				return true;
			}
		}
	return false;
}

void law_tie_text(const struct law *a, const char *b_text, const struct law *b, const struct law_points *pts,
		  const struct grid *target, char *out, size_t outlen)
{
	struct grid g;
	char text[sizeof a->text], at[48];
	snprintf(text, sizeof text, "%s", a->text);
	if (!law_tie_rung(a, b, pts, target, &g)) {
		snprintf(out, outlen, "%.80s or %.80s", text, b_text);
		return;
	}
	grid_format(&g, at, sizeof at);
	snprintf(out, outlen, "%.80s or %.80s: a rung of %lld ranks (%s) would decide", text, b_text,
		 (long long)grid_size(&g), at);
}
