/*
 * heldout — the held-out synthetic set of accuracy_model. See heldout.h.
 */
#include "heldout.h"

#include <gsl/gsl_randist.h>
#include <math.h>

#include "model/exponents.h"

/* the level of every function at its reference point */
#define LEVEL 100.0

void heldout_ladders(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid)
{
	synth_ladder_geometric(five, 8, 2, 5);
	synth_ladder_geometric(seven, 1, 2, 7);
	synth_ladder_grid(grid, 4, 2, 5, 8, 2, 5);
}

static struct pmnf_term factor_term(unsigned param, struct pmnf_factor f)
{
	struct pmnf_term t = {.coef = 1};
	t.f[param] = f;
	return t;
}

/* t scaled to the value `value` at x */
static struct pmnf_term worth(struct pmnf_term t, unsigned nparams, const double *x, double value)
{
	t.coef = value / pmnf_term_basis(&t, nparams, x);
	return t;
}

static bool in_default_space(struct pmnf_factor f)
{
	struct exponent_set s;
	exponents_model_default(&s);
	if (pmnf_factor_is_one(f))
		return true;
	for (size_t k = 0; k < s.n; k++)
		if (!pmnf_factor_cmp(s.f[k], f))
			return true;
	return false;
}

bool heldout_leading_in_space(const struct pmnf *f)
{
	unsigned idx[PMNF_MAX_TERMS], n = pmnf_leading_terms(f, idx);
	for (unsigned k = 0; k < n; k++)
		for (unsigned l = 0; l < f->nparams; l++)
			if (!in_default_space(f->term[idx[k]].f[l]))
				return false;
	return true;
}

/* c0 + c t with t worth `share` of LEVEL at the largest point */
static struct pmnf one_term(const struct synth_ladder *l, struct pmnf_factor f, double share)
{
	double x[2];
	synth_reference_point(l, false, x);
	struct pmnf out = {.nparams = 1, .nterms = 1, .constant = LEVEL * (1 - share)};
	out.term[0] = worth(factor_term(0, f), 1, x, LEVEL * share);
	return out;
}

static size_t one_terms(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap)
{
	static const double off_i[] = {0.25, 1.0 / 3, 2.0 / 3, 0.75, 1.25, 4.0 / 3, 1.75, 2.25};
	struct exponent_set s;
	exponents_default(&s);
	size_t n = 0;
	for (size_t k = 0; k < s.n && n < cap; k++)
		out[n++].f = one_term(l, s.f[k], gsl_ran_flat(rng, 0.3, 0.95));
	for (size_t k = 0; k < sizeof off_i / sizeof off_i[0]; k++)
		for (int j = 0; j < 2 && n < cap; j++)
			out[n++].f = one_term(l, (struct pmnf_factor){off_i[k], j}, gsl_ran_flat(rng, 0.3, 0.95));
	return n;
}

/* every fifth pair of the default space from the third; the slower term worth 10-45% at the
 * largest point, the faster 30-70%, together at most 95% */
static size_t two_terms(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap)
{
	struct exponent_set s;
	exponents_default(&s);
	double x[2];
	synth_reference_point(l, false, x);
	size_t n = 0, pair = 0;
	for (size_t a = 0; a < s.n; a++)
		for (size_t b = a + 1; b < s.n && n < cap; b++, pair++) {
			if (pair % 5 != 2)
				continue;
			double s1 = gsl_ran_flat(rng, 0.1, 0.45), s2 = gsl_ran_flat(rng, 0.3, 0.7), sum = s1 + s2;
			if (sum > 0.95) {
				s1 *= 0.95 / sum;
				s2 *= 0.95 / sum;
			}
			struct pmnf f = {.nparams = 1, .nterms = 2, .constant = LEVEL * (1 - s1 - s2)};
			f.term[0] = worth(factor_term(0, s.f[a]), 1, x, LEVEL * s1);
			f.term[1] = worth(factor_term(0, s.f[b]), 1, x, LEVEL * s2);
			out[n++].f = f;
		}
	return n;
}

/* per decay: c/p^i + d; c/p^i + d g(p) without a constant; c/p^i + d g(p) + e, the growing
 * terms g taken in turn from log p, p^(1/2), p */
static size_t strong(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap)
{
	static const double decay[] = {-1.0 / 3, -0.5, -0.75, -1, -1.5, -2};
	static const struct pmnf_factor grow[] = {{0, 1}, {0.5, 0}, {1, 0}};
	double lo[2], hi[2];
	synth_reference_point(l, true, lo);
	synth_reference_point(l, false, hi);
	size_t n = 0;
	for (size_t d = 0; d < sizeof decay / sizeof decay[0] && n + 3 <= cap; d++) {
		struct pmnf_term c = factor_term(0, (struct pmnf_factor){decay[d], 0});
		double share = gsl_ran_flat(rng, 0.5, 0.95);
		struct pmnf f = {.nparams = 1, .nterms = 1, .constant = LEVEL * (1 - share)};
		f.term[0] = worth(c, 1, lo, LEVEL * share);
		out[n++].f = f;
		for (int with_constant = 0; with_constant < 2; with_constant++) {
			struct pmnf g = {.nparams = 1, .nterms = 2};
			g.term[0] = worth(c, 1, lo, LEVEL * gsl_ran_flat(rng, 0.5, 0.9));
			g.term[1] = worth(factor_term(0, grow[(d + (size_t)with_constant) % 3]), 1, hi,
					  LEVEL * gsl_ran_flat(rng, 0.2, 0.6));
			g.constant = with_constant ? gsl_ran_flat(rng, 3, 15) : 0;
			out[n++].f = g;
		}
	}
	return n;
}

/* every second of: c0 + a t(p) u(n) and c0 + a t(p) + b u(n) */
static size_t two_params(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap)
{
	static const struct pmnf_factor fs[] = {{0, 1}, {0.5, 1}, {1, 0}, {0.75, 0}, {1.5, 0}};
	double x[2];
	synth_reference_point(l, false, x);
	size_t n = 0, k = 0;
	for (size_t a = 0; a < 5; a++)
		for (size_t b = 0; b < 5; b++)
			for (int sum = 0; sum < 2 && n < cap; sum++, k++) {
				if (k % 2)
					continue;
				struct pmnf f = {.nparams = 2};
				struct pmnf_term tp = factor_term(0, fs[a]), un = factor_term(1, fs[b]);
				if (sum) {
					double s1 = gsl_ran_flat(rng, 0.2, 0.45), s2 = gsl_ran_flat(rng, 0.2, 0.45);
					f.term[f.nterms++] = worth(tp, 2, x, LEVEL * s1);
					f.term[f.nterms++] = worth(un, 2, x, LEVEL * s2);
					f.constant = LEVEL * (1 - s1 - s2);
				} else {
					double s = gsl_ran_flat(rng, 0.4, 0.9);
					tp.f[1] = fs[b];
					f.term[f.nterms++] = worth(tp, 2, x, LEVEL * s);
					f.constant = LEVEL * (1 - s);
				}
				out[n++].f = f;
			}
	return n;
}

size_t heldout_truths(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap)
{
	size_t n = 0, k;
	if (l->nparams == 2) {
		n = two_params(l, rng, out, cap);
		for (k = 0; k < n; k++)
			out[k].family = F_PARAMS;
	} else {
		size_t a = one_terms(l, rng, out, cap), b = two_terms(l, rng, out + a, cap - a);
		size_t c = strong(l, rng, out + a + b, cap - a - b);
		for (k = 0; k < a + b + c; k++)
			out[k].family = k < a ? F_ONE : k < a + b ? F_TWO : F_STRONG;
		n = a + b + c;
	}
	for (k = 0; k < n; k++)
		out[k].in_space = heldout_leading_in_space(&out[k].f);
	return n;
}
