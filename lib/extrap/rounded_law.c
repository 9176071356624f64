/*
 * rounded_law — a multiple of a quotient rounded up or down, the counts of uneven decompositions.
 * See rounded_law.h.
 */
#include "extrap/rounded_law.h"

#include <stdio.h>
#include <string.h>

#include "extrap/law_tie.h"
#include "util/gcd.h"

#define MAX_DIVISORS 4096   /* the multipliers a tried: divisors of the values' gcd up to this */

bool rounded_law_is(const struct law *l)
{
	return l->nterms == 1 && (l->terms[0].kind == ROUNDED_CEIL || l->terms[0].kind == ROUNDED_FLOOR);
}

/* the divisor x of a point: the member's dimension (family), dimension j, or P */
static int64_t divisor_of(uint8_t over, bool family, const struct grid *g, int32_t dim)
{
	if (family && (dim < 0 || (uint32_t)dim >= g->ndims))
		return 0;
	if (family)
		return over == ROUNDED_OVER_CODIM ? grid_size(g) / g->dims[dim] : g->dims[dim];
	if (over == ROUNDED_OVER_P)
		return grid_size(g);
	return over < g->ndims ? g->dims[over] : 0;
}

static int64_t rounded(int kind, int64_t n, int64_t x)
{
	return kind == ROUNDED_CEIL ? (n + x - 1) / x : n / x;
}

bool rounded_law_eval(const struct law *l, const struct grid *g, int32_t dim, int64_t *out)
{
	int64_t x = divisor_of(l->terms[0].dim, l->family, g, dim);
	if (x <= 0 || l->coef[1] <= 0)
		return false;
	*out = l->coef[0] * rounded(l->terms[0].kind, l->coef[1], x);
	return true;
}

/* the interval of N over which kind(N / x) * a reproduces every point; false when empty */
static bool meet(const struct law_points *pts, int kind, uint8_t over, bool family, int64_t a, int64_t *lo,
		 int64_t *hi)
{
	*lo = 1;
	*hi = INT64_MAX / 4;
	for (size_t i = 0; i < pts->n; i++) {
		int64_t x = divisor_of(over, family, &pts->grids[i], family ? pts->dims[i] : LAW_NO_DIM);
		int64_t q = pts->values[i] / a;
		if (x <= 0 || q > (INT64_MAX / 4) / x)
			return false;
		int64_t l = kind == ROUNDED_CEIL ? (q - 1) * x + 1 : q * x, h = kind == ROUNDED_CEIL ? q * x : (q + 1) * x - 1;
		if (l > *lo)
			*lo = l;
		if (h < *hi)
			*hi = h;
	}
	return *lo <= *hi;
}

static void text_of(const struct law *l, char *out, size_t len)
{
	char x[16];
	if (l->family)
		snprintf(x, sizeof x, l->terms[0].dim == ROUNDED_OVER_CODIM ? "(P/d_k)" : "d_k");
	else if (l->terms[0].dim == ROUNDED_OVER_P)
		snprintf(x, sizeof x, "P");
	else
		snprintf(x, sizeof x, "d%u", (unsigned)l->terms[0].dim);
	const char *op = l->terms[0].kind == ROUNDED_CEIL ? "ceil" : "floor";
	if (l->coef[0] == 1)
		snprintf(out, len, "%s(%lld/%s)", op, (long long)l->coef[1], x);
	else
		snprintf(out, len, "%lld*%s(%lld/%s)", (long long)l->coef[0], op, (long long)l->coef[1], x);
}

/* the law's values at the target: one per dimension for a family, else one */
static bool at_target(const struct law *l, const struct grid *target, int64_t *v, uint32_t *n)
{
	*n = l->family ? target->ndims : 1;
	for (uint32_t k = 0; k < *n; k++)
		if (!rounded_law_eval(l, target, l->family ? (int32_t)k : LAW_NO_DIM, &v[k]))
			return false;
	return true;
}

bool rounded_law_solve(const struct law_points *pts, const struct grid *target, int32_t target_dim, struct law *out)
{
	bool family = pts->dims != NULL;
	int64_t g = 0;
	if (pts->n < 3)
		return false;
	for (size_t i = 0; i < pts->n; i++) {
		if (pts->values[i] <= 0)
			return false;
		g = gcd_int64(pts->values[i], g);
	}
	struct law first = {0};
	int64_t first_v[LAW_MAX_DIMS];
	uint32_t nv = 0;
	bool found = false;
	const uint32_t nover = family ? 2 : pts->grids[0].ndims + 1;
	for (uint32_t o = 0; o < nover; o++) {
		uint8_t over = family ? (o ? ROUNDED_OVER_CODIM : 0) : o == pts->grids[0].ndims ? ROUNDED_OVER_P : (uint8_t)o;
		for (int kind = ROUNDED_CEIL; kind <= ROUNDED_FLOOR; kind++)
			for (int64_t a = 1; a <= g && a <= MAX_DIVISORS; a++) {
				int64_t lo, hi;
				if (g % a || !meet(pts, kind, over, family, a, &lo, &hi))
					continue;
				/* every N in [lo, hi] is a law; rounding is monotone in N, so its ends bound the values */
				struct law lo_law = {.status = LAW_OK, .family = family, .nterms = 1};
				lo_law.terms[0] = (struct law_term){(uint8_t)kind, over};
				lo_law.coef[0] = a;
				lo_law.coef[1] = lo;
				struct law hi_law = lo_law;
				hi_law.coef[1] = hi;
				int64_t vl[LAW_MAX_DIMS], vh[LAW_MAX_DIMS];
				uint32_t n;
				if (!at_target(&lo_law, target, vl, &n) || !at_target(&hi_law, target, vh, &n))
					continue;
				char t[64];
				text_of(&lo_law, t, sizeof t);
				if (memcmp(vl, vh, n * sizeof *vl)) {
					*out = lo_law;
					out->status = LAW_AMBIGUOUS;
					snprintf(lo_law.text, sizeof lo_law.text, "%.40s (N from %lld to %lld fits every rung)", t,
						 (long long)lo, (long long)hi);
					text_of(&hi_law, hi_law.text, sizeof hi_law.text);
					law_tie_text(&lo_law, hi_law.text, &hi_law, pts, target, out->text, sizeof out->text);
					return true;
				}
				if (!found) {
					found = true;
					first = lo_law;
					memcpy(first_v, vl, n * sizeof *vl);
					nv = n;
					if (hi > lo)   /* every N in the meet agrees at the target */
						snprintf(first.text, sizeof first.text, "%.60s, N from %lld to %lld", t, (long long)lo,
							 (long long)hi);
					else
						snprintf(first.text, sizeof first.text, "%s", t);
				} else if (memcmp(first_v, vl, nv * sizeof *vl)) {
					*out = first;
					out->status = LAW_AMBIGUOUS;
					law_tie_text(&first, t, &lo_law, pts, target, out->text, sizeof out->text);
					return true;
				}
			}
	}
	if (!found)
		return false;
	*out = first;
	out->predicted = first_v[family && target_dim >= 0 ? target_dim : 0];
	return true;
}
