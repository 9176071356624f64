/*
 * law — integer laws in the grid's dimension sizes, solved by least squares (GSL) and accepted
 * only when exact. See law.h.
 */
#include "extrap/law.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/law_tie.h"
#include "extrap/rounded_law.h"
#include "intlaw/intfit.h"
#include "util/xalloc.h"

/* a term's value is num/den on a grid; the K terms are relative to a family member's dimension */
enum term_kind {
	T_ONE, T_DIM, T_SIZE, T_CODIM, T_KDIM, T_KCODIM,                       /* integers */
	T_INV_DIM, T_INV_SIZE, T_INV_CODIM, T_INV_KDIM, T_INV_KCODIM, T_INV_SIZE_SQ,   /* fractions */
	T_SQRT_SIZE,   /* floor(sqrt(P)): the width of a square grid of the P ranks */
};

#define MAX_TERMS (4 + 4 * LAW_MAX_DIMS + 4 + 1)

const char *law_status_name(enum law_status s)
{
	static const char *const names[] = {"ok", "too few rungs", "no law fits", "ambiguous", "not an integer",
					    "negative"};
	return names[s];
}

/* the candidate terms, simplest first. P and 1/P only mean something for more than one
 * dimension, the products of two dimensions (P/d_j) for three; a family's terms replace the
 * fixed dimensions by the member's (families exist from two dimensions on). With widths, the
 * width of a square grid of the ranks, floor(sqrt(P)), joins them last. */
static size_t terms_of(uint32_t ndims, bool family, bool widths, struct law_term *t)
{
	static const uint8_t fixed[] = {T_ONE, T_DIM, T_SIZE, T_CODIM, T_INV_DIM, T_INV_SIZE, T_INV_CODIM, T_INV_SIZE_SQ};
	static const uint8_t relative[] = {T_ONE, T_KDIM, T_SIZE, T_KCODIM, T_INV_KDIM, T_INV_SIZE, T_INV_KCODIM,
					   T_INV_SIZE_SQ};
	const uint8_t *list = family ? relative : fixed;
	size_t n = 0;
	for (size_t i = 0; i < sizeof fixed; i++) {
		uint8_t k = list[i];
		bool per_dim = k == T_DIM || k == T_CODIM || k == T_INV_DIM || k == T_INV_CODIM;
		if ((k == T_SIZE || k == T_INV_SIZE || k == T_KDIM || k == T_INV_KDIM) && ndims < 2)
			continue;
		if ((k == T_CODIM || k == T_INV_CODIM) && ndims < 3)
			continue;
		if ((k == T_KCODIM || k == T_INV_KCODIM) && ndims < 2)
			continue;
		for (uint32_t j = 0; j < (per_dim ? ndims : 1); j++)
			t[n++] = (struct law_term){k, (uint8_t)j};
	}
	if (widths)
		t[n++] = (struct law_term){T_SQRT_SIZE, 0};
	return n;
}

/* floor(sqrt(p)) exactly, for p >= 0 */
static int64_t isqrt64(int64_t p)
{
	int64_t q = (int64_t)sqrt((double)p);
	while (q > 0 && q * q > p)
		q--;
	while ((q + 1) * (q + 1) <= p)
		q++;
	return q;
}

/* the term's value num/den on g for member dimension k */
static void term_ratio(const struct law_term *t, const struct grid *g, int32_t k, int64_t *num, int64_t *den)
{
	int64_t p = grid_size(g), dj = g->dims[t->dim], dk = k >= 0 ? g->dims[k] : 1;
	*num = 1, *den = 1;
	switch (t->kind) {
	case T_DIM: *num = dj; break;
	case T_SIZE: *num = p; break;
	case T_CODIM: *num = p / dj; break;
	case T_KDIM: *num = dk; break;
	case T_KCODIM: *num = p / dk; break;
	case T_INV_DIM: *den = dj; break;
	case T_INV_SIZE: *den = p; break;
	case T_INV_CODIM: *num = dj, *den = p; break;
	case T_INV_KDIM: *den = dk; break;
	case T_INV_KCODIM: *num = dk, *den = p; break;
	case T_INV_SIZE_SQ: *den = p * p; break;
	case T_SQRT_SIZE: *num = isqrt64(p); break;
	default: break;
	}
}

/* exact integer value of sum coef[i] * term[i] on g; false when a fraction does not divide */
static bool evaluate(const struct law_term *t, const int64_t *coef, size_t s, const struct grid *g, int32_t k,
		     int64_t *out)
{
	__int128 v = 0;
	for (size_t i = 0; i < s; i++) {
		int64_t num, den;
		term_ratio(&t[i], g, k, &num, &den);
		__int128 x = (__int128)coef[i] * num;
		if (den == 0 || x % den)
			return false;
		v += x / den;
	}
	if (v > INT64_MAX / 2 || v < -(INT64_MAX / 2))
		return false;
	*out = (int64_t)v;
	return true;
}

bool law_eval(const struct law *l, const struct grid *g, int32_t dim, int64_t *out)
{
	if (rounded_law_is(l))
		return rounded_law_eval(l, g, dim, out);
	if (!l->nterms) {
		*out = l->predicted;
		return true;
	}
	return evaluate(l->terms, l->coef, l->nterms, g, l->family ? dim : LAW_NO_DIM, out);
}

static double term_value(const struct law_term *t, const struct grid *g, int32_t k)
{
	int64_t num, den;
	term_ratio(t, g, k, &num, &den);
	return (double)num / (double)den;
}

/* least squares over the chosen terms, coefficients rounded (intfit.h); true when the law is exact */
static bool fit_subset(const struct law_term *t, size_t s, const struct law_points *pts, int64_t *coef)
{
	size_t n = pts->n;
	double *x = xmalloc((n * s + 1) * sizeof *x), *y = xmalloc((n + 1) * sizeof *y);
	for (size_t i = 0; i < n; i++) {
		y[i] = (double)pts->values[i];
		for (size_t j = 0; j < s; j++)
			x[i * s + j] = term_value(&t[j], &pts->grids[i], pts->dims ? pts->dims[i] : LAW_NO_DIM);
	}
	bool ok = intfit_solve(x, y, n, s, coef);
	for (size_t i = 0; ok && i < n; i++) {
		int64_t v;
		ok = evaluate(t, coef, s, &pts->grids[i], pts->dims ? pts->dims[i] : LAW_NO_DIM, &v) && v == pts->values[i];
	}
	free(x);
	free(y);
	return ok;
}

static void term_base(const struct law_term *t, char *base, size_t len)
{
	static const char *const names[] = {
		[T_SIZE] = "P", [T_INV_SIZE] = "P", [T_INV_SIZE_SQ] = "P^2", [T_KDIM] = "d_k", [T_INV_KDIM] = "d_k",
		[T_KCODIM] = "P/d_k", [T_INV_KCODIM] = "d_k/P", [T_SQRT_SIZE] = "floor(sqrt(P))",
	};
	if (t->kind == T_DIM || t->kind == T_INV_DIM)
		snprintf(base, len, "d%u", t->dim);
	else if (t->kind == T_CODIM)
		snprintf(base, len, "P/d%u", t->dim);
	else if (t->kind == T_INV_CODIM)
		snprintf(base, len, "d%u/P", t->dim);
	else
		snprintf(base, len, "%s", names[t->kind] ? names[t->kind] : "1");
}

static void law_text(const struct law_term *t, const int64_t *coef, size_t s, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = 0;
	for (size_t i = 0; i < s && used < outlen; i++) {
		char base[24];
		term_base(&t[i], base, sizeof base);
		const char *sep = i == 0 ? (coef[i] < 0 ? "-" : "") : (coef[i] < 0 ? " - " : " + ");
		long long a = coef[i] < 0 ? -(long long)coef[i] : (long long)coef[i];
		bool ratio = t[i].kind == T_INV_CODIM || t[i].kind == T_INV_KCODIM;
		if (t[i].kind == T_ONE)
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld", sep, a);
		else if (ratio)
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld*%s", sep, a, base);
		else if (t[i].kind >= T_INV_DIM && t[i].kind != T_SQRT_SIZE)
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld/%s", sep, a, base);
		else if (a == 1)
			used += (size_t)snprintf(out + used, outlen - used, "%s%s", sep, base);
		else
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld*%s", sep, a, base);
	}
}

/* the law's values at the target for the dimensions that matter: all of a family's, or the grid's */
static bool predictions(const struct law *l, const struct grid *target, int64_t *v)
{
	uint32_t n = l->family ? target->ndims : 1;
	for (uint32_t k = 0; k < n; k++)
		if (!law_eval(l, target, l->family ? (int32_t)k : LAW_NO_DIM, &v[k]))
			return false;
	return true;
}

bool law_same_at(const struct law *a, const struct law *b, const struct grid *target)
{
	int64_t va[LAW_MAX_DIMS], vb[LAW_MAX_DIMS];
	if (a->family != b->family || !predictions(a, target, va) || !predictions(b, target, vb))
		return false;
	return !memcmp(va, vb, (a->family ? target->ndims : 1) * sizeof *va);
}

/* is a law's value at the target one a count can have (pts->counts: not negative)? */
static bool fit_for_target(const struct law_points *pts, const struct law *l, const int64_t *v, const struct grid *target)
{
	for (uint32_t k = 0; pts->counts && k < (l->family ? target->ndims : 1); k++)
		if (v[k] < 0)
			return false;
	return true;
}

/* the first law that fits is kept; a later one that disagrees at the target makes it ambiguous. A
 * law with no integer at the target or a negative count is no candidate: the first such is kept
 * (its status says why) only while no other law fits. */
static void consider(struct law *out, bool *found, const struct law *cand, const struct law_points *pts,
		     const struct grid *target, int32_t target_dim)
{
	int64_t v[LAW_MAX_DIMS];
	bool integral = predictions(cand, target, v), usable = integral && fit_for_target(pts, cand, v, target);
	if (!*found || (out->status != LAW_OK && out->status != LAW_AMBIGUOUS && usable)) {
		if (*found && !usable)
			return;
		*found = true;
		*out = *cand;
		out->status = usable ? LAW_OK : integral ? LAW_NEGATIVE : LAW_NOT_INTEGRAL;
		out->predicted = integral ? v[cand->family && target_dim >= 0 ? target_dim : 0] : 0;
	} else if (out->status == LAW_OK && usable && !law_same_at(out, cand, target)) {
		struct law first = *out;
		out->status = LAW_AMBIGUOUS;
		law_tie_text(&first, cand->text, cand, pts, target, out->text, sizeof out->text);
	}
}

/* try every law of s terms; true when at least one fits (out decided) */
static bool solve_size(size_t s, const struct law_term *all, size_t m, const struct law_points *pts,
		       const struct grid *target, int32_t target_dim, struct law *out)
{
	size_t idx[LAW_MAX_TERMS];
	bool found = false;
	for (size_t i = 0; i < s; i++)
		idx[i] = i;
	do {
		struct law cand = {.family = pts->dims != NULL, .nterms = (uint32_t)s};
		for (size_t i = 0; i < s; i++)
			cand.terms[i] = all[idx[i]];
		if (!fit_subset(cand.terms, s, pts, cand.coef))
			continue;
		law_text(cand.terms, cand.coef, s, cand.text, sizeof cand.text);
		consider(out, &found, &cand, pts, target, target_dim);
	} while (intfit_next_subset(idx, s, m));
	return found;
}

static bool constant(const struct law_points *pts, struct law *out)
{
	bool equal = pts->n >= 2;
	for (size_t i = 1; equal && i < pts->n; i++)
		equal = pts->values[i] == pts->values[0];
	if (!equal)
		return false;
	out->status = LAW_OK;
	out->predicted = pts->values[0];
	snprintf(out->text, sizeof out->text, "%lld", (long long)pts->values[0]);
	return true;
}

/* does the law have the term floor(sqrt(P))? */
static bool has_width(const struct law *l)
{
	for (uint32_t i = 0; !rounded_law_is(l) && i < l->nterms; i++)
		if (l->terms[i].kind == T_SQRT_SIZE)
			return true;
	return false;
}

/* The rounded law of an uneven decomposition (two unknowns, a and N) beside the linear one in out:
 * the law where no linear law is usable, the same law where both agree at the target, a tie where
 * they do not. A linear law of fewer unknowns (a constant, 48/d1) is the simpler and wins; one
 * with a width, found only where no other reproduces the rungs, is not: a rounded law that fits
 * beside it and disagrees at the target ties with it. */
static void weigh_rounded(const struct law_points *p, const struct grid *target, int32_t target_dim, struct law *out)
{
	struct law r;
	memset(&r, 0, sizeof r);
	if (out->status == LAW_AMBIGUOUS || (out->status == LAW_OK && out->nterms < 2 && !has_width(out)) ||
	    !rounded_law_solve(p, target, target_dim, &r))
		return;
	if (out->status != LAW_OK) {
		*out = r;
		return;
	}
	if (r.status == LAW_OK && law_same_at(out, &r, target))
		return;
	struct law linear = *out;
	out->status = LAW_AMBIGUOUS;
	if (r.status == LAW_AMBIGUOUS)   /* its text names the rung that decides among the rounded laws */
		snprintf(out->text, sizeof out->text, "%.60s or %.130s", linear.text, r.text);
	else
		law_tie_text(&linear, r.text, &r, p, target, out->text, sizeof out->text);
}

/* the smallest laws of the terms (with widths: and floor(sqrt(P))) that reproduce the points. A
 * width is a step of P (1 up to 3 ranks, 2 up to 8) that small rungs match by chance, so a law
 * with it needs a second point beyond its unknowns to check it. */
static void search_laws(const struct law_points *p, const struct grid *target, int32_t target_dim, bool widths,
			struct law *out)
{
	struct law_term all[MAX_TERMS];
	size_t m = terms_of(target->ndims, p->dims != NULL, widths, all), spare = widths ? 2 : 1;
	memset(out, 0, sizeof *out);
	out->status = LAW_TOO_FEW;
	for (size_t s = 1; s <= LAW_MAX_TERMS && s <= m; s++) {
		if (s + spare > p->n) {   /* too few points left to check the law */
			out->status = LAW_TOO_FEW;
			snprintf(out->text, sizeof out->text, "%zu rung%s cannot confirm a law of %zu unknown%s", p->n,
				 p->n == 1 ? "" : "s", s, s == 1 ? "" : "s");
			break;
		}
		if (solve_size(s, all, m, p, target, target_dim, out))
			break;
		out->status = LAW_NO_FIT;
		snprintf(out->text, sizeof out->text, "no law of up to %zu terms in %s%s fits", s,
			 p->dims ? "1, d_k, P, P/d_k, 1/d_k, 1/P, d_k/P, 1/P^2" : "1, d_j, P, 1/d_j, 1/P, 1/P^2",
			 widths ? ", floor(sqrt(P))" : "");
	}
}

void law_solve_points(const struct law_points *pts, const struct grid *target, int32_t target_dim, struct law *out)
{
	struct law_points p = *pts;
	if (target->ndims < 2)
		p.dims = NULL;   /* in one dimension the member's dimension is the grid */
	memset(out, 0, sizeof *out);
	out->status = LAW_TOO_FEW;
	if (constant(&p, out))   /* zero included, which a fitted coefficient cannot be */
		return;
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	search_laws(&p, target, target_dim, false, out);
	/* a trip count that grows as a grid's width, where no law reproduces the rungs (one that does
	 * but gives no count at the target stays, for the rounded laws to weigh) */
	if (out->status == LAW_TOO_FEW || out->status == LAW_NO_FIT) {
		struct law w;
		search_laws(&p, target, target_dim, true, &w);
		if (w.status == LAW_OK || w.status == LAW_AMBIGUOUS)
			*out = w;
	}
	gsl_set_error_handler(old);
	weigh_rounded(&p, target, target_dim, out);
}

void law_solve(const int64_t *values, const struct grid *grids, size_t n, const struct grid *target, struct law *out)
{
	struct law_points pts = {.values = values, .grids = grids, .n = n};
	law_solve_points(&pts, target, LAW_NO_DIM, out);
}
