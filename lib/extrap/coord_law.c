/*
 * coord_law — laws of a rank's grid coordinates and the grid's sizes. See coord_law.h.
 */
#include "extrap/coord_law.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intlaw/intfit.h"
#include "util/xalloc.h"

enum { CT_ONE, CT_D, CT_C, CT_DC };

#define MAX_CANDIDATES (1 + 2 * LAW_MAX_DIMS + LAW_MAX_DIMS * LAW_MAX_DIMS)

/* every term of an ndims grid, simplest first */
static size_t candidates(uint32_t ndims, struct coord_term *t)
{
	size_t n = 0;
	t[n++] = (struct coord_term){CT_ONE, 0, 0};
	for (uint8_t j = 0; j < ndims; j++)
		t[n++] = (struct coord_term){CT_C, 0, j};
	for (uint8_t i = 0; i < ndims; i++)
		t[n++] = (struct coord_term){CT_D, i, 0};
	for (uint8_t i = 0; i < ndims; i++)
		for (uint8_t j = 0; j < ndims; j++)
			t[n++] = (struct coord_term){CT_DC, i, j};
	return n;
}

static int64_t term_at(const struct coord_term *t, const struct grid *g, int64_t rank)
{
	switch (t->kind) {
	case CT_D: return g->dims[t->d];
	case CT_C: return grid_coord(g, rank, t->c);
	case CT_DC: return g->dims[t->d] * grid_coord(g, rank, t->c);
	default: return 1;
	}
}

int64_t coord_law_eval(const struct coord_law *l, const struct grid *g, int64_t rank)
{
	uint64_t v = 0;
	for (uint32_t k = 0; k < l->nterms; k++)
		v += (uint64_t)l->coef[k] * (uint64_t)term_at(&l->terms[k], g, rank);
	return (int64_t)v;
}

void coord_law_at(const struct coord_law *l, const struct grid *g, struct rank_law *out)
{
	memset(out, 0, sizeof *out);
	out->nterms = g->ndims;
	for (uint32_t j = 0; j < g->ndims; j++)
		out->terms[j] = (struct rank_law_term){0, (uint64_t)grid_stride(g, j), 0, (uint64_t)g->dims[j], 0, 0};
	for (uint32_t k = 0; k < l->nterms; k++) {
		const struct coord_term *t = &l->terms[k];
		int64_t times = t->kind == CT_D || t->kind == CT_DC ? g->dims[t->d] : 1;
		if (t->kind == CT_ONE || t->kind == CT_D)
			out->base += l->coef[k] * times;
		else
			out->terms[t->c].coef += l->coef[k] * times;
	}
}

static void law_text(struct coord_law *l)
{
	size_t used = 0;
	l->text[0] = 0;
	for (uint32_t k = 0; k < l->nterms && used < sizeof l->text; k++) {
		const struct coord_term *t = &l->terms[k];
		long long a = l->coef[k] < 0 ? -(long long)l->coef[k] : (long long)l->coef[k];
		char what[32];
		const char *sep = k == 0 ? (l->coef[k] < 0 ? "-" : "") : (l->coef[k] < 0 ? " - " : " + ");
		if (t->kind == CT_ONE)
			snprintf(what, sizeof what, "%lld", a);
		else if (t->kind == CT_D)
			snprintf(what, sizeof what, "d%u", t->d);
		else if (t->kind == CT_C)
			snprintf(what, sizeof what, "c%u", t->c);
		else
			snprintf(what, sizeof what, "d%u*c%u", t->d, t->c);
		if (t->kind != CT_ONE && a != 1)
			used += (size_t)snprintf(l->text + used, sizeof l->text - used, "%s%lld*%s", sep, a, what);
		else
			used += (size_t)snprintf(l->text + used, sizeof l->text - used, "%s%s", sep, what);
	}
}

/* the terms chosen, fitted and checked on every point */
static bool fit_terms(const struct coord_points *p, struct coord_law *l)
{
	size_t s = l->nterms;
	double *x = xmalloc((p->n * s + 1) * sizeof *x), *y = xmalloc((p->n + 1) * sizeof *y);
	for (size_t i = 0; i < p->n; i++) {
		y[i] = (double)p->values[i];
		for (size_t k = 0; k < s; k++)
			x[i * s + k] = (double)term_at(&l->terms[k], &p->grids[i], p->ranks[i]);
	}
	bool ok = intfit_solve(x, y, p->n, s, l->coef);
	for (size_t i = 0; ok && i < p->n; i++)
		ok = coord_law_eval(l, &p->grids[i], p->ranks[i]) == p->values[i];
	free(x);
	free(y);
	return ok;
}

static bool same_at(const struct coord_law *a, const struct coord_law *b, const struct grid *t)
{
	struct rank_law x, y;
	coord_law_at(a, t, &x);
	coord_law_at(b, t, &y);
	return !memcmp(&x, &y, sizeof x);
}

/* every law of s terms; 1 when one fits, 0 when none, -1 when two disagree at the target */
static int fit_size(const struct coord_points *p, const struct coord_term *all, size_t m, size_t s,
		    const struct grid *target, struct coord_law *out)
{
	size_t idx[COORD_LAW_MAX_TERMS];
	bool found = false;
	for (size_t i = 0; i < s; i++)
		idx[i] = i;
	do {
		struct coord_law cand = {.nterms = (uint32_t)s};
		for (size_t i = 0; i < s; i++)
			cand.terms[i] = all[idx[i]];
		if (!fit_terms(p, &cand))
			continue;
		law_text(&cand);
		if (found && !same_at(out, &cand, target)) {
			char first[56];
			snprintf(first, sizeof first, "%.50s", out->text);
			snprintf(out->text, sizeof out->text, "ambiguous: %s or %.50s", first, cand.text);
			return -1;
		}
		if (!found)
			*out = cand;
		found = true;
	} while (intfit_next_subset(idx, s, m));
	return found;
}

bool coord_law_fit(const struct coord_points *p, const struct grid *target, struct coord_law *out)
{
	struct coord_term all[MAX_CANDIDATES];
	size_t m = candidates(target->ndims, all);
	memset(out, 0, sizeof *out);
	bool zero = true;
	for (size_t i = 0; i < p->n && zero; i++)
		zero = p->values[i] == 0;
	if (zero) {
		snprintf(out->text, sizeof out->text, "0");
		return true;
	}
	for (size_t s = 1; s <= COORD_LAW_MAX_TERMS && s < p->n; s++) {
		int r = fit_size(p, all, m, s, target, out);
		if (r)
			return r > 0;
	}
	snprintf(out->text, sizeof out->text, "no law of up to %d terms in 1, c_j, d_i, d_i*c_j fits",
		 COORD_LAW_MAX_TERMS);
	return false;
}
