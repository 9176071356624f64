/*
 * remainder_law — the per-coordinate counts of an uneven decomposition. See remainder_law.h.
 */
#include "extrap/remainder_law.h"

#include <stdio.h>
#include <string.h>

#include "util/gcd.h"

#define MAX_MULTIPLE 4096   /* the multiples a tried: divisors of the values' gcd up to this */

/* the interval of N over which a * ceil((N - c_j) / d_j) reproduces every point; false when empty */
static bool meet(const struct coord_points *p, uint32_t j, int64_t a, int64_t *lo, int64_t *hi)
{
	*lo = 1;
	*hi = INT64_MAX / 4;
	for (size_t i = 0; i < p->n; i++) {
		const struct grid *g = &p->grids[i];
		if (j >= g->ndims || p->values[i] % a)
			return false;
		int64_t d = g->dims[j], c = grid_coord(g, p->ranks[i], j), q = p->values[i] / a;
		if (q > (INT64_MAX / 8) / d)
			return false;
		int64_t l = (q - 1) * d + c + 1, h = q * d + c;
		*lo = l > *lo ? l : *lo;
		*hi = h < *hi ? h : *hi;
		if (*lo > *hi)
			return false;
	}
	return true;
}

bool remainder_law_fit(const struct coord_points *p, struct remainder_law *out)
{
	int64_t g = 0;
	memset(out, 0, sizeof *out);
	if (p->n < 3)
		return false;
	for (size_t i = 0; i < p->n; i++) {
		if (p->values[i] <= 0)
			return false;
		g = gcd_int64(p->values[i], g);
	}
	for (uint32_t j = 0; j < p->grids[0].ndims; j++)
		for (int64_t a = 1; a <= g && a <= MAX_MULTIPLE; a++) {
			if (g % a || !meet(p, j, a, &out->lo, &out->hi))
				continue;
			out->dim = j, out->a = a;
			char n[48];
			if (out->hi > out->lo)
				snprintf(n, sizeof n, "N");
			else
				snprintf(n, sizeof n, "%lld", (long long)out->lo);
			int used;
			if (a == 1)
				used = snprintf(out->text, sizeof out->text, "floor(%s/d%u) + (c%u < %s mod d%u)", n, j, j, n, j);
			else
				used = snprintf(out->text, sizeof out->text, "%lld*(floor(%s/d%u) + (c%u < %s mod d%u))",
						(long long)a, n, j, j, n, j);
			if (out->hi > out->lo)
				snprintf(out->text + used, sizeof out->text - (size_t)used, ", N from %lld to %lld", (long long)out->lo,
					 (long long)out->hi);
			return true;
		}
	return false;
}

int64_t remainder_law_eval(const struct remainder_law *l, const struct grid *g, int64_t rank)
{
	int64_t d = g->dims[l->dim], c = grid_coord(g, rank, l->dim), n = l->lo;
	return l->a * (n / d + (c < n % d));
}

void remainder_law_at(const struct remainder_law *l, const struct grid *g, struct rank_law *out)
{
	int64_t d = g->dims[l->dim], n = l->lo, stride = grid_stride(g, l->dim);
	memset(out, 0, sizeof *out);
	out->base = l->a * (n / d);
	out->nterms = 1;
	out->terms[0] = rank_law_step(l->a, (uint64_t)stride, l->dim ? (uint64_t)d : 0, (uint64_t)(n % d));
}
