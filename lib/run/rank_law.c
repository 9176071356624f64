/*
 * rank_law — integers as functions of the rank: evaluation, checks, text, and the fit over the
 * grids of a rank count. See rank_law.h.
 */
#include "run/rank_law.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/signature.h"
#include "util/xalloc.h"

int64_t rank_law_eval(const struct rank_law *l, uint64_t rank)
{
	uint64_t v = (uint64_t)l->base;
	for (uint32_t k = 0; k < l->nterms && k < RANK_LAW_MAX_TERMS; k++) {
		const struct rank_law_term *t = &l->terms[k];
		uint64_t x = rank / (t->divisor ? t->divisor : 1) + t->shift;
		if (t->modulus)
			x %= t->modulus;
		if (t->step)
			x = x < t->below;
		v += (uint64_t)t->coef * x;
	}
	return (int64_t)v;
}

struct rank_law_term rank_law_step(int64_t coef, uint64_t divisor, uint64_t modulus, uint64_t below)
{
	return (struct rank_law_term){.coef = coef, .divisor = divisor, .modulus = modulus, .step = 1, .below = below};
}

bool rank_law_check(const struct rank_law *l, char *why, size_t whylen)
{
	if (l->nterms > RANK_LAW_MAX_TERMS) {
		snprintf(why, whylen, "a law of %u terms (at most %d)", l->nterms, RANK_LAW_MAX_TERMS);
		return false;
	}
	for (uint32_t k = 0; k < l->nterms; k++) {
		const struct rank_law_term *t = &l->terms[k];
		if (!t->divisor) {
			snprintf(why, whylen, "term %u of a law divides by 0", k);
			return false;
		}
		if (t->step > 1 || (!t->step && t->below)) {
			snprintf(why, whylen, "term %u of a law is a step %" PRIu64 " below %" PRIu64
				 " (a step is 0 or 1, a threshold only on a step term)", k, t->step, t->below);
			return false;
		}
		if (t->step && (t->below > INT64_MAX || (t->modulus && t->below > t->modulus))) {
			snprintf(why, whylen, "term %u of a law is a step below %" PRIu64 ", past its coordinate's %" PRIu64
				 " values", k, t->below, t->modulus);
			return false;
		}
	}
	return true;
}

void rank_law_format(const struct rank_law *l, char *out, size_t outlen)
{
	size_t n = (size_t)snprintf(out, outlen, "%" PRId64, l->base);
	for (uint32_t k = 0; k < l->nterms && n < outlen; k++) {
		const struct rank_law_term *t = &l->terms[k];
		char x[96];
		if (t->shift)
			snprintf(x, sizeof x, "(rank/%" PRIu64 "+%" PRIu64 ")", t->divisor, t->shift);
		else
			snprintf(x, sizeof x, "rank/%" PRIu64, t->divisor);
		char mod[32] = "", below[40] = "";
		if (t->modulus)
			snprintf(mod, sizeof mod, "%%%" PRIu64, t->modulus);
		if (t->step)
			snprintf(below, sizeof below, " < %" PRIu64, t->below);
		n += (size_t)snprintf(out + n, outlen - n, " %c %" PRIu64 "*%s%s%s%s%s", t->coef < 0 ? '-' : '+',
				      t->coef < 0 ? -(uint64_t)t->coef : (uint64_t)t->coef, t->step ? "(" : "", x, mod,
				      below, t->step ? ")" : "");
	}
}

/* ---- fitting ---------------------------------------------------------------------------------- */

static void add_term(struct rank_law *l, int64_t coef, uint64_t divisor, uint64_t shift, uint64_t modulus)
{
	if (coef && l->nterms < RANK_LAW_MAX_TERMS)
		l->terms[l->nterms++] = (struct rank_law_term){coef, divisor, shift, modulus, 0, 0};
}

/* a - b without undefined behaviour on overflow (the result is then compared, never trusted) */
static int64_t diff_of(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

/* T[c] == a*c + b*((c + o) mod d) + k for every c (T[0] == 0) */
static bool shifted_fits(const int64_t *T, uint64_t d, int64_t a, int64_t b, uint64_t o, int64_t k)
{
	for (uint64_t c = 0; c < d; c++) {
		int64_t x, y;
		if (__builtin_mul_overflow(a, (int64_t)c, &x) || __builtin_mul_overflow(b, (int64_t)((c + o) % d), &y) ||
		    __builtin_add_overflow(x, y, &x) || __builtin_add_overflow(x, k, &x) || x != T[c])
			return false;
	}
	return true;
}

/* T = a*c + b*((c + o) mod d) + k where the differences T[c+1] - T[c] are g = a + b except at
 * c = wrap, where the shifted coordinate wraps to 0 */
static bool solve_shifted(const int64_t *T, uint64_t d, uint64_t wrap, int64_t g, int64_t *a, int64_t *b,
			  uint64_t *o, int64_t *k)
{
	int64_t h = diff_of(T[wrap + 1], T[wrap]), diff;
	if (__builtin_sub_overflow(g, h, &diff) || diff % (int64_t)d)
		return false;
	*b = diff / (int64_t)d;
	*o = d - 1 - wrap;
	if (__builtin_sub_overflow(g, *b, a) || __builtin_mul_overflow(-*b, (int64_t)*o, k))
		return false;
	return *b && shifted_fits(T, d, *a, *b, *o, *k);
}

/* the position where the differences of T break their common value, and that value */
static bool find_wrap(const int64_t *T, uint64_t d, uint64_t try, uint64_t *wrap, int64_t *g)
{
	if (d == 3) {   /* two differences: either may be the break; the other, the smaller, first */
		int64_t d0 = diff_of(T[1], T[0]), d1 = diff_of(T[2], T[1]);
		bool small0 = (d0 < 0 ? -(uint64_t)d0 : (uint64_t)d0) <= (d1 < 0 ? -(uint64_t)d1 : (uint64_t)d1);
		*wrap = (try == 0) == small0 ? 1 : 0;
		*g = *wrap ? d0 : d1;
		return try < 2;
	}
	if (try)
		return false;
	int64_t d0 = diff_of(T[1], T[0]), d1 = diff_of(T[2], T[1]), d2 = diff_of(T[3], T[2]);
	*g = d0 == d1 || d0 == d2 ? d0 : d1 == d2 ? d1 : INT64_MIN;
	if (*g == INT64_MIN)
		return false;
	uint64_t breaks = 0;
	for (uint64_t c = 0; c + 1 < d; c++)
		if (diff_of(T[c + 1], T[c]) != *g) {
			*wrap = c;
			breaks++;
		}
	return breaks == 1;
}

/* T (T[0] = 0) is 0 on coordinates 0..b-1 and h != 0 on b..d-1, 2 <= b <= d - 2: a step inside
 * the dimension, h - h*(c < b) */
static bool fit_step(const int64_t *T, uint64_t d, uint64_t stride, bool outermost, struct rank_law *l)
{
	uint64_t b = 1;
	while (b < d && T[b] == 0)
		b++;
	if (b < 2 || b + 2 > d || l->nterms + 1 > RANK_LAW_MAX_TERMS || T[b] == INT64_MIN)
		return false;
	for (uint64_t c = b; c < d; c++)
		if (T[c] != T[b])
			return false;
	l->terms[l->nterms++] = rank_law_step(-T[b], stride, outermost ? 0 : d, b);
	l->base += T[b];
	return true;
}

/* one dimension's function T (T[0] = 0) as terms: linear in the coordinate, or in a shifted one,
 * or a step inside it */
static bool fit_dimension(const int64_t *T, uint64_t d, uint64_t stride, bool outermost, struct rank_law *l)
{
	bool zero = true, linear = true;
	int64_t slope = T[1];
	for (uint64_t c = 0; c < d; c++) {
		int64_t x;
		zero &= T[c] == 0;
		linear &= !__builtin_mul_overflow(slope, (int64_t)c, &x) && x == T[c];
	}
	if (zero)
		return true;
	if (d == 2 && T[1] == -2 * (int64_t)stride && l->nterms + 2 <= RANK_LAW_MAX_TERMS) {
		/* the neighbour one step along a periodic dimension of 2, relative: as on larger grids */
		add_term(l, -(int64_t)stride, stride, 0, outermost ? 0 : d);
		add_term(l, (int64_t)stride, stride, 1, d);
		l->base -= (int64_t)stride;
		return true;
	}
	if (linear) {
		add_term(l, slope, stride, 0, outermost ? 0 : d);
		return true;
	}
	for (uint64_t try = 0; d >= 3; try++) {
		uint64_t wrap = 0, o;
		int64_t g, a, b, k;
		if (!find_wrap(T, d, try, &wrap, &g))
			return fit_step(T, d, stride, outermost, l);
		if (!solve_shifted(T, d, wrap, g, &a, &b, &o, &k) || l->nterms + 2 > RANK_LAW_MAX_TERMS)
			continue;
		add_term(l, a, stride, 0, outermost ? 0 : d);
		add_term(l, b, stride, o, d);
		l->base += k;
		return true;
	}
	return false;
}

static bool law_reproduces(const struct rank_law *l, const int64_t *v, uint64_t n)
{
	for (uint64_t q = 0; q < n; q++)
		if (rank_law_eval(l, q) != v[q])
			return false;
	return true;
}

/* v as base + sum of one function per dimension of the grid: the tables T (per dimension, its
 * values minus the base along the axis through rank 0), false when v is not such a sum */
static bool separable(const int64_t *v, uint64_t n, const struct grid *g, const uint64_t *stride, int64_t **T)
{
	for (uint32_t i = 0; i < g->ndims; i++)
		for (uint64_t c = 0; c < (uint64_t)g->dims[i]; c++)
			if (__builtin_sub_overflow(v[c * stride[i]], v[0], &T[i][c]))
				return false;
	for (uint64_t q = 0; q < n; q++) {
		int64_t sum = v[0];
		for (uint32_t i = 0; i < g->ndims; i++)
			if (__builtin_add_overflow(sum, T[i][grid_coord(g, (int64_t)q, i)], &sum))
				return false;
		if (sum != v[q])
			return false;
	}
	return true;
}

/* v as a law on g (of n ranks): one function per dimension */
static bool fit_on(const int64_t *v, uint64_t n, const struct grid *g, struct rank_law *out)
{
	uint64_t stride[GRID_MAX_NDIMS];
	int64_t *T[GRID_MAX_NDIMS] = {0};
	for (uint32_t i = 0; i < g->ndims; i++) {
		stride[i] = (uint64_t)grid_stride(g, i);
		T[i] = xmalloc((uint64_t)g->dims[i] * sizeof *T[i]);
	}
	struct rank_law l;
	memset(&l, 0, sizeof l);
	l.base = v[0];
	bool ok = separable(v, n, g, stride, T);
	for (uint32_t i = 0; i < g->ndims && ok; i++)
		ok = fit_dimension(T[i], (uint64_t)g->dims[i], stride[i], i == 0, &l);
	ok = ok && law_reproduces(&l, v, n);
	for (uint32_t i = 0; i < g->ndims; i++)
		free(T[i]);
	if (ok)
		*out = l;
	return ok;
}

static uint64_t largest(const struct grid *g)
{
	uint64_t m = 0;
	for (uint32_t i = 0; i < g->ndims; i++)
		m = (uint64_t)g->dims[i] > m ? (uint64_t)g->dims[i] : m;
	return m;
}

/* the most balanced first (the smallest largest dimension: the finest grid, as MPI_Dims_create
 * makes it); then fewer dimensions; then larger outer dimensions first, as MPI_Dims_create orders
 * them */
static int grid_order(const void *pa, const void *pb)
{
	const struct grid *a = pa, *b = pb;
	uint64_t ma = largest(a), mb = largest(b);
	if (ma != mb)
		return ma < mb ? -1 : 1;
	if (a->ndims != b->ndims)
		return a->ndims < b->ndims ? -1 : 1;
	for (uint32_t i = 0; i < a->ndims; i++)
		if (a->dims[i] != b->dims[i])
			return (uint64_t)a->dims[i] > (uint64_t)b->dims[i] ? -1 : 1;
	return 0;
}

struct grid *rank_law_grids(uint64_t n, size_t *count)
{
	size_t cap = 16, k = 0;
	struct grid *g = xmalloc(cap * sizeof *g);
	g[k++] = (struct grid){1, {(int64_t)n, 0, 0}, 0};
	for (uint64_t a = 2; a <= n / 2; a++) {
		if (n % a)
			continue;
		XGROW(g, cap, k + 1);
		g[k++] = (struct grid){2, {(int64_t)a, (int64_t)(n / a), 0}, 0};
		for (uint64_t b = 2; b <= n / a / 2; b++)
			if ((n / a) % b == 0) {
				XGROW(g, cap, k + 1);
				g[k++] = (struct grid){3, {(int64_t)a, (int64_t)b, (int64_t)(n / a / b)}, 0};
			}
	}
	qsort(g, k, sizeof *g, grid_order);
	*count = k;
	return g;
}

/* no symbolic value; a constant is its own law */
static bool trivial(const int64_t *v, uint64_t n, struct rank_law *out, bool *done)
{
	memset(out, 0, sizeof *out);
	*done = true;
	if (!n)
		return false;
	for (uint64_t q = 0; q < n; q++)
		if (sv_is_symbolic(v[q]) || v[q] == INT64_MIN)
			return false;
	out->base = v[0];
	*done = n == 1 || law_reproduces(out, v, n);
	return true;
}

bool rank_law_fit_grid(const int64_t *v, uint64_t n, const struct grid *g, struct rank_law *out)
{
	bool done;
	if (!trivial(v, n, out, &done))
		return false;
	uint64_t size = 1;
	for (uint32_t i = 0; i < g->ndims; i++)
		size *= (uint64_t)g->dims[i];
	return done || (size == n && fit_on(v, n, g, out));
}

bool rank_law_fit(const int64_t *v, uint64_t n, struct rank_law *out)
{
	bool done;
	if (!trivial(v, n, out, &done))
		return false;
	if (done)
		return true;
	size_t ngrids;
	struct grid *grids = rank_law_grids(n, &ngrids);
	bool ok = false;
	for (size_t i = 0; i < ngrids && (!ok || out->nterms > 1); i++) {
		struct rank_law l;
		if (fit_on(v, n, &grids[i], &l) && (!ok || l.nterms < out->nterms)) {
			*out = l;
			ok = true;
		}
	}
	free(grids);
	return ok;
}
