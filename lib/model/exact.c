/*
 * exact — exact integer laws of the rank count, solved with intlaw's integer least squares and
 * accepted only when they reproduce every rung. See exact.h.
 */
#include "model/exact.h"
#include "util/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "intlaw/intfit.h"

enum exact_term {
	X_ONE, X_P, X_CEIL_LOG2, X_LOG2, X_SQRT, X_CBRT, X_WIDTH2, X_HEIGHT2, X_WIDTH3, X_CEIL_LOG2_WIDTH2,
	X_P_LOG2, X_P2, X_INV_P, X_TERMS
};

static const char *const term_names[X_TERMS] = {
	"1", "p", "ceil(log2 p)", "log2 p", "sqrt(p)", "cbrt(p)", "width2(p)", "height2(p)", "width3(p)",
	"ceil(log2 width2(p))", "p log2 p", "p^2", "1/p",
};

/* values within this of an integer are integers (counts read back from doubles) */
#define INTEGRAL_TOL 1e-9

static bool integral(double v)
{
	return isfinite(v) && fabs(v - nearbyint(v)) <= INTEGRAL_TOL * fmax(1.0, fabs(v));
}

/* the largest dimension of the balanced 2-D grid of p ranks (MPI_Dims_create(p, 2)) */
static double width2(long p)
{
	long best = p;
	for (long d = 1; d * d <= p; d++)
		if (p % d == 0)
			best = p / d;
	return (double)best;
}

/* the largest dimension of the balanced 3-D grid of p ranks: the triple with the smallest
 * largest dimension, then the largest smallest one */
static double width3(long p)
{
	long best_a = p, best_c = 1;
	for (long c = 1; c * c * c <= p; c++) {
		if (p % c)
			continue;
		for (long b = c; b * b <= p / c; b++) {
			if ((p / c) % b)
				continue;
			long a = p / c / b;
			if (a < best_a || (a == best_a && c > best_c)) {
				best_a = a;
				best_c = c;
			}
		}
	}
	return (double)best_a;
}

static double term_value(unsigned t, double p)
{
	long ip = (long)llround(p);
	bool whole = fabs(p - (double)ip) < 1e-9 && ip >= 1;
	switch (t) {
	case X_ONE: return 1;
	case X_P: return p;
	case X_CEIL_LOG2: return ceil(log2(p) - 1e-12);
	case X_LOG2: return log2(p);
	case X_SQRT: return sqrt(p);
	case X_CBRT: return cbrt(p);
	case X_WIDTH2: return whole ? width2(ip) : NAN;
	case X_HEIGHT2: return whole ? p / width2(ip) : NAN;
	case X_WIDTH3: return whole ? width3(ip) : NAN;
	case X_CEIL_LOG2_WIDTH2: return whole ? ceil(log2(width2(ip)) - 1e-12) : NAN;
	case X_P_LOG2: return p * log2(p);
	case X_P2: return p * p;
	case X_INV_P: return 1 / p;
	default: return NAN;
	}
}

double exact_law_eval(const struct exact_law *l, double p)
{
	double v = 0;
	for (unsigned k = 0; k < l->nterms; k++)
		v += (double)l->coef[k] * term_value(l->term[k], p);
	return v;
}

bool exact_values_are_counts(const double *y, size_t n)
{
	bool nonzero = false;
	for (size_t i = 0; i < n; i++) {
		if (!integral(y[i]) || y[i] < 0)
			return false;
		nonzero |= y[i] != 0;
	}
	return nonzero;
}

static void law_text(struct exact_law *l)
{
	size_t used = 0;
	l->text[0] = 0;
	for (unsigned k = 0; k < l->nterms && used < sizeof l->text; k++) {
		long long c = (long long)l->coef[k], a = c < 0 ? -c : c;
		const char *sep = k == 0 ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ");
		if (l->term[k] == X_ONE)
			used += (size_t)snprintf(l->text + used, sizeof l->text - used, "%s%lld", sep, a);
		else if (a == 1)
			used += (size_t)snprintf(l->text + used, sizeof l->text - used, "%s%s", sep, term_names[l->term[k]]);
		else
			used += (size_t)snprintf(l->text + used, sizeof l->text - used, "%s%lld*%s", sep, a, term_names[l->term[k]]);
	}
}

/* the law of these terms when its rounded least-squares coefficients reproduce every rung and
 * give an integer at the target */
static bool fit_terms(const unsigned *terms, size_t s, const double *p, const double *y, size_t n, double target,
		      struct exact_law *l)
{
	double x[n * s];
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < s; j++) {
			x[i * s + j] = term_value(terms[j], p[i]);
			if (!isfinite(x[i * s + j]))
				return false;
		}
	*l = (struct exact_law){.nterms = (unsigned)s, .spare = (unsigned)(n - s)};
	memcpy(l->term, terms, s * sizeof *terms);
	if (!intfit_solve(x, y, n, s, l->coef))
		return false;
	for (size_t i = 0; i < n; i++) {
		double v = exact_law_eval(l, p[i]);
		if (fabs(v - y[i]) > INTEGRAL_TOL * fmax(1.0, fabs(y[i])))
			return false;
	}
	l->value = exact_law_eval(l, target);
	if (!integral(l->value) || l->value < 0)
		return false;
	l->value = nearbyint(l->value);
	l->lo = l->hi = l->value;
	law_text(l);
	return true;
}

/* every law of s terms: the first found into *first (when *found is false), the hull of their
 * values at the target widened into first */
static void laws_of_size(size_t s, const double *p, const double *y, size_t n, double target, struct exact_law *first,
			 bool *found)
{
	size_t idx[EXACT_MAX_UNKNOWNS];
	for (size_t i = 0; i < s; i++)
		idx[i] = i;
	do {
		unsigned terms[EXACT_MAX_UNKNOWNS];
		for (size_t i = 0; i < s; i++)
			terms[i] = (unsigned)idx[i];
		struct exact_law l;
		if (!fit_terms(terms, s, p, y, n, target, &l))
			continue;
		if (!*found) {
			*first = l;
			*found = true;
			continue;
		}
		first->lo = fmin(first->lo, l.value);
		first->hi = fmax(first->hi, l.value);
	} while (intfit_next_subset(idx, s, X_TERMS));
}

/* A count equal at the two largest rungs may have stopped growing (a halo's neighbours once the
 * grid has an interior: 0, 2, 4, 4 on 1, 4, 9, 16 ranks, which 2*ceil(log2 p) reproduces too), so
 * that value competes at the target, unless the ladder shows the count growing again after such a
 * pause (a law of ceil(log2) of a grid width steps in pairs: 4, 6, 6, 8, 8). */
static void widen_by_pause(const double *p, const double *y, size_t n, struct exact_law *l)
{
	size_t *by_p = xcalloc(n, sizeof *by_p);
	for (size_t i = 0; i < n; i++) {   /* insertion sort of the rungs by rank count */
		size_t j = i;
		for (; j > 0 && p[by_p[j - 1]] > p[i]; j--)
			by_p[j] = by_p[j - 1];
		by_p[j] = i;
	}
	bool resumed = false;
	for (size_t i = 0; i + 2 < n; i++)
		resumed |= y[by_p[i]] == y[by_p[i + 1]] && y[by_p[i + 2]] != y[by_p[i + 1]];
	double last = y[by_p[n - 1]];
	if (n >= 2 && !resumed && last == y[by_p[n - 2]] && last != l->value) {
		l->lo = fmin(l->lo, last);
		l->hi = fmax(l->hi, last);
		l->paused = true;
	}
	free(by_p);
}

bool exact_law_solve(const double *p, const double *y, size_t n, double target, struct exact_law *out)
{
	if (n < 2 || !exact_values_are_counts(y, n))
		return false;
	bool found = false;
	size_t s = 1;
	for (; s <= EXACT_MAX_UNKNOWNS && s < n && !found; s++)
		laws_of_size(s, p, y, n, target, out, &found);
	if (!found)
		return false;
	/* the laws of one more unknown that enough rungs still check compete too */
	if (s <= EXACT_MAX_UNKNOWNS && s + EXACT_MIN_CHECKS <= n) {
		bool more = false;
		struct exact_law other;
		laws_of_size(s, p, y, n, target, &other, &more);
		if (more) {
			out->lo = fmin(out->lo, other.lo);
			out->hi = fmax(out->hi, other.hi);
		}
	}
	out->paused = false;
	widen_by_pause(p, y, n, out);
	out->ambiguous = out->lo < out->hi;
	return true;
}

void exact_law_pmnf(const struct exact_law *l, struct pmnf *out)
{
	/* each term's asymptotic PMNF factor and the factor its coefficient takes on */
	static const struct {
		double i, j, scale;
	} shape[X_TERMS] = {
		[X_ONE] = {0, 0, 1}, [X_P] = {1, 0, 1}, [X_CEIL_LOG2] = {0, 1, 1}, [X_LOG2] = {0, 1, 1},
		[X_SQRT] = {0.5, 0, 1}, [X_CBRT] = {1.0 / 3, 0, 1}, [X_WIDTH2] = {0.5, 0, 1}, [X_HEIGHT2] = {0.5, 0, 1},
		[X_WIDTH3] = {1.0 / 3, 0, 1}, [X_CEIL_LOG2_WIDTH2] = {0, 1, 0.5}, [X_P_LOG2] = {1, 1, 1},
		[X_P2] = {2, 0, 1}, [X_INV_P] = {-1, 0, 1},
	};
	memset(out, 0, sizeof *out);
	out->nparams = 1;
	for (unsigned k = 0; k < l->nterms; k++) {
		double c = (double)l->coef[k] * shape[l->term[k]].scale;
		if (l->term[k] == X_ONE) {
			out->constant += c;
			continue;
		}
		bool merged = false;
		for (unsigned t = 0; t < out->nterms && !merged; t++)
			if (out->term[t].f[0].i == shape[l->term[k]].i && out->term[t].f[0].j == shape[l->term[k]].j) {
				out->term[t].coef += c;
				merged = true;
			}
		if (!merged && out->nterms < PMNF_MAX_TERMS) {
			struct pmnf_term *t = &out->term[out->nterms++];
			t->coef = c;
			t->f[0] = (struct pmnf_factor){shape[l->term[k]].i, shape[l->term[k]].j};
		}
	}
}
