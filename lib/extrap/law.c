/*
 * law — integer laws in the grid's dimension sizes, solved by least squares (GSL) and accepted
 * only when exact. See law.h.
 */
#include "extrap/law.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum term_kind { TERM_ONE, TERM_DIM, TERM_SIZE, TERM_INV_DIM, TERM_INV_SIZE, TERM_INV_SIZE_SQ };

struct term {
	enum term_kind kind;
	uint32_t dim;
};

#define MAX_TERMS (4 + 2 * LAW_MAX_DIMS)

int64_t grid_size(const struct grid *g)
{
	int64_t p = 1;
	for (uint32_t k = 0; k < g->ndims; k++)
		p *= g->dims[k];
	return p;
}

void grid_format(const struct grid *g, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = 0;
	for (uint32_t k = 0; k < g->ndims && used < outlen; k++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%lld", k ? "x" : "", (long long)g->dims[k]);
}

const char *law_status_name(enum law_status s)
{
	static const char *const names[] = {"ok", "too few rungs", "no law fits", "ambiguous", "not an integer"};
	return names[s];
}

/* the candidate terms, simplest first; 1/d and P only mean something for more than one dim */
static size_t terms_of(uint32_t ndims, struct term *t)
{
	size_t n = 0;
	t[n++] = (struct term){TERM_ONE, 0};
	for (uint32_t k = 0; k < ndims; k++)
		t[n++] = (struct term){TERM_DIM, k};
	if (ndims > 1)
		t[n++] = (struct term){TERM_SIZE, 0};
	for (uint32_t k = 0; k < ndims; k++)
		t[n++] = (struct term){TERM_INV_DIM, k};
	if (ndims > 1)
		t[n++] = (struct term){TERM_INV_SIZE, 0};
	t[n++] = (struct term){TERM_INV_SIZE_SQ, 0};   /* an all-to-all's block of a distributed 2-D array */
	return n;
}

static int64_t term_base(const struct term *t, const struct grid *g)
{
	switch (t->kind) {
	case TERM_ONE:
		return 1;
	case TERM_DIM: case TERM_INV_DIM:
		return g->dims[t->dim];
	case TERM_INV_SIZE_SQ:
		return grid_size(g) * grid_size(g);
	default:
		return grid_size(g);
	}
}

static bool term_inverse(const struct term *t)
{
	return t->kind == TERM_INV_DIM || t->kind == TERM_INV_SIZE || t->kind == TERM_INV_SIZE_SQ;
}

/* exact integer value of sum coef[i] * term[i] on g; false when a 1/x term does not divide */
static bool evaluate(const struct term *t, const int64_t *coef, size_t s, const struct grid *g, int64_t *out)
{
	int64_t v = 0;
	for (size_t i = 0; i < s; i++) {
		int64_t b = term_base(&t[i], g);
		if (term_inverse(&t[i])) {
			if (b == 0 || coef[i] % b)
				return false;
			v += coef[i] / b;
		} else
			v += coef[i] * b;
	}
	*out = v;
	return true;
}

static double term_value(const struct term *t, const struct grid *g)
{
	double b = (double)term_base(t, g);
	return term_inverse(t) ? 1.0 / b : b;
}

/* least squares over the chosen terms, coefficients rounded; true when the law is exact */
static bool fit_subset(const struct term *t, size_t s, const int64_t *values, const struct grid *grids, size_t n,
		       int64_t *coef)
{
	gsl_matrix *x = gsl_matrix_alloc(n, s);
	gsl_vector *y = gsl_vector_alloc(n), *c = gsl_vector_alloc(s);
	gsl_matrix *cov = gsl_matrix_alloc(s, s);
	gsl_multifit_linear_workspace *w = gsl_multifit_linear_alloc(n, s);
	for (size_t i = 0; i < n; i++) {
		gsl_vector_set(y, i, (double)values[i]);
		for (size_t j = 0; j < s; j++)
			gsl_matrix_set(x, i, j, term_value(&t[j], &grids[i]));
	}
	double chisq;
	bool ok = gsl_multifit_linear(x, y, c, cov, &chisq, w) == GSL_SUCCESS;
	for (size_t j = 0; ok && j < s; j++) {
		double v = gsl_vector_get(c, j);
		ok = isfinite(v) && fabs(v) < 9e15 && llround(v) != 0;
		coef[j] = ok ? llround(v) : 0;
	}
	for (size_t i = 0; ok && i < n; i++) {
		int64_t v;
		ok = evaluate(t, coef, s, &grids[i], &v) && v == values[i];
	}
	gsl_multifit_linear_free(w);
	gsl_matrix_free(cov);
	gsl_matrix_free(x);
	gsl_vector_free(y);
	gsl_vector_free(c);
	return ok;
}

static void law_text(const struct term *t, const int64_t *coef, size_t s, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = 0;
	for (size_t i = 0; i < s && used < outlen; i++) {
		char base[16];
		if (t[i].kind == TERM_SIZE || t[i].kind == TERM_INV_SIZE)
			snprintf(base, sizeof base, "P");
		else if (t[i].kind == TERM_INV_SIZE_SQ)
			snprintf(base, sizeof base, "P^2");
		else
			snprintf(base, sizeof base, "d%u", t[i].dim);
		const char *sep = i == 0 ? (coef[i] < 0 ? "-" : "") : (coef[i] < 0 ? " - " : " + ");
		long long a = coef[i] < 0 ? -(long long)coef[i] : (long long)coef[i];
		if (t[i].kind == TERM_ONE)
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld", sep, a);
		else if (term_inverse(&t[i]))
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld/%s", sep, a, base);
		else if (a == 1)
			used += (size_t)snprintf(out + used, outlen - used, "%s%s", sep, base);
		else
			used += (size_t)snprintf(out + used, outlen - used, "%s%lld*%s", sep, a, base);
	}
}

/* next s-subset of {0..m-1} in lexicographic order */
static bool next_subset(size_t *idx, size_t s, size_t m)
{
	size_t i = s;
	while (i > 0 && idx[i - 1] == m - s + i - 1)
		i--;
	if (i == 0)
		return false;
	idx[i - 1]++;
	for (size_t j = i; j < s; j++)
		idx[j] = idx[j - 1] + 1;
	return true;
}

/* try every law of s terms; true when at least one fits (out decided) */
static bool solve_size(size_t s, const struct term *all, size_t m, const int64_t *values, const struct grid *grids,
		       size_t n, const struct grid *target, struct law *out)
{
	size_t idx[LAW_MAX_TERMS];
	bool found = false;
	for (size_t i = 0; i < s; i++)
		idx[i] = i;
	do {
		struct term t[LAW_MAX_TERMS];
		int64_t coef[LAW_MAX_TERMS], v;
		for (size_t i = 0; i < s; i++)
			t[i] = all[idx[i]];
		if (!fit_subset(t, s, values, grids, n, coef))
			continue;
		char text[64];
		law_text(t, coef, s, text, sizeof text);
		bool integral = evaluate(t, coef, s, target, &v);
		if (!found) {
			found = true;
			out->status = integral ? LAW_OK : LAW_NOT_INTEGRAL;
			out->predicted = integral ? v : 0;
			snprintf(out->text, sizeof out->text, "%s", text);
		} else if (out->status == LAW_OK && (!integral || v != out->predicted)) {
			char first[128];
			snprintf(first, sizeof first, "%s", out->text);
			out->status = LAW_AMBIGUOUS;
			snprintf(out->text, sizeof out->text, "%.60s or %.60s", first, text);
		}
	} while (next_subset(idx, s, m));
	return found;
}

void law_solve(const int64_t *values, const struct grid *grids, size_t n, const struct grid *target, struct law *out)
{
	struct term all[MAX_TERMS];
	size_t m = terms_of(target->ndims, all);
	memset(out, 0, sizeof *out);
	gsl_error_handler_t *old = gsl_set_error_handler_off();
	out->status = LAW_TOO_FEW;
	bool constant = n >= 2;
	for (size_t i = 1; constant && i < n; i++)
		constant = values[i] == values[0];
	if (constant) {   /* zero included, which a fitted coefficient cannot be */
		out->status = LAW_OK;
		out->predicted = values[0];
		snprintf(out->text, sizeof out->text, "%lld", (long long)values[0]);
		gsl_set_error_handler(old);
		return;
	}
	for (size_t s = 1; s <= LAW_MAX_TERMS && s <= m; s++) {
		if (s >= n) {   /* as many unknowns as rungs: no rung left to check the law */
			out->status = LAW_TOO_FEW;
			snprintf(out->text, sizeof out->text, "%zu rung%s cannot confirm a law of %zu unknown%s", n,
				 n == 1 ? "" : "s", s, s == 1 ? "" : "s");
			break;
		}
		if (solve_size(s, all, m, values, grids, n, target, out))
			break;
		out->status = LAW_NO_FIT;
		snprintf(out->text, sizeof out->text, "no law of up to %zu terms in 1, d_k, P, 1/d_k, 1/P, 1/P^2 fits", s);
	}
	gsl_set_error_handler(old);
}
