/*
 * verify — the fourth synthetic set of accuracy_model. See verify.h.
 */
#include "verify.h"

#include <gsl/gsl_randist.h>

#include "model/exponents.h"

#define LEVEL 100.0

void verify_ladders(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid)
{
	synth_ladder_geometric(five, 12, 2, 5);
	synth_ladder_geometric(seven, 5, 2, 7);
	synth_ladder_grid(grid, 6, 2, 5, 10, 2, 5);
}

void verify_ladders_second(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid)
{
	synth_ladder_geometric(five, 10, 2, 5);
	synth_ladder_geometric(seven, 6, 2, 7);
	synth_ladder_grid(grid, 5, 2, 5, 12, 2, 5);
}

void verify_ladders_third(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid)
{
	synth_ladder_geometric(five, 7, 2, 5);
	synth_ladder_geometric(seven, 9, 2, 7);
	synth_ladder_grid(grid, 7, 2, 5, 6, 2, 5);
}

/* a term of factors f (parameter 0) and g (parameter 1, nparams 2) worth `value` at x */
static struct pmnf_term worth(unsigned nparams, struct pmnf_factor f, struct pmnf_factor g, const double *x,
			      double value)
{
	struct pmnf_term t = {.coef = 1};
	t.f[0] = f;
	if (nparams > 1)
		t.f[1] = g;
	t.coef = value / pmnf_term_basis(&t, nparams, x);
	return t;
}

static struct pmnf_factor drawn(const struct exponent_set *s, gsl_rng *rng)
{
	return s->f[gsl_rng_uniform_int(rng, s->n)];
}

/* two different factors of s, the slower first */
static void drawn_pair(const struct exponent_set *s, gsl_rng *rng, struct pmnf_factor *a, struct pmnf_factor *b)
{
	size_t i = gsl_rng_uniform_int(rng, s->n), j = gsl_rng_uniform_int(rng, s->n - 1);
	if (j >= i)
		j++;
	*a = s->f[i < j ? i : j];
	*b = s->f[i < j ? j : i];
}

static size_t add(struct truth *out, size_t n, size_t cap, const struct pmnf *f, enum accuracy_family family)
{
	if (n < cap)
		out[n++] = (struct truth){.f = *f, .family = family, .in_space = heldout_leading_in_space(f)};
	return n;
}

static size_t two_params(const struct exponent_set *s, const double *x, gsl_rng *rng, struct truth *out, size_t cap)
{
	struct pmnf_factor one = {0, 0};
	size_t n = 0;
	for (int k = 0; k < 16; k++) {
		struct pmnf f = {.nparams = 2};
		double s1 = gsl_ran_flat(rng, 0.3, 0.8), s2 = gsl_ran_flat(rng, 0.1, 0.25);
		if (k < 8) {
			f.term[f.nterms++] = worth(2, drawn(s, rng), drawn(s, rng), x, LEVEL * s1);
			s2 = 0;
		} else if (k < 12) {
			f.term[f.nterms++] = worth(2, drawn(s, rng), one, x, LEVEL * s1 / 2);
			f.term[f.nterms++] = worth(2, one, drawn(s, rng), x, LEVEL * s1 / 2);
			s2 = 0;
		} else {
			f.term[f.nterms++] = worth(2, drawn(s, rng), drawn(s, rng), x, LEVEL * s1);
			f.term[f.nterms++] = worth(2, drawn(s, rng), one, x, LEVEL * s2);
		}
		f.constant = LEVEL * (1.05 - s1 - s2);
		n = add(out, n, cap, &f, F_PARAMS);
	}
	return n;
}

size_t verify_truths(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap)
{
	static const double decays[] = {-0.5, -1, -1.5, -2};
	static const struct pmnf_factor grows[] = {{0, 1}, {0.5, 0}, {1, 0}, {0, 2}, {1, 1}};
	struct exponent_set s;
	exponents_default(&s);
	struct pmnf_factor one = {0, 0};
	double lo[2], hi[2];
	synth_reference_point(l, true, lo);
	synth_reference_point(l, false, hi);
	if (l->nparams == 2)
		return two_params(&s, hi, rng, out, cap);
	size_t n = 0;
	for (int k = 0; k < 18; k++) {
		double share = gsl_ran_flat(rng, 0.25, 0.95);
		struct pmnf f = {.nparams = 1, .nterms = 1, .constant = LEVEL * (1 - share)};
		f.term[0] = worth(1, drawn(&s, rng), one, hi, LEVEL * share);
		n = add(out, n, cap, &f, F_ONE);
	}
	for (int k = 0; k < 18; k++) {
		struct pmnf_factor a, b;
		drawn_pair(&s, rng, &a, &b);
		double s1 = gsl_ran_flat(rng, 0.1, 0.4), s2 = gsl_ran_flat(rng, 0.2, 0.65);
		struct pmnf f = {.nparams = 1, .nterms = 2, .constant = LEVEL * (1.02 - s1 - s2)};
		f.term[0] = worth(1, a, one, hi, LEVEL * s1);
		f.term[1] = worth(1, b, one, hi, LEVEL * s2);
		n = add(out, n, cap, &f, F_TWO);
	}
	for (int k = 0; k < 10; k++) {
		struct pmnf_factor a, b, d = {decays[gsl_rng_uniform_int(rng, 4)], 0};
		drawn_pair(&s, rng, &a, &b);
		double s1 = gsl_ran_flat(rng, 0.1, 0.4), s2 = gsl_ran_flat(rng, 0.2, 0.5);
		struct pmnf f = {.nparams = 1, .nterms = 3, .constant = 0};
		f.term[0] = worth(1, d, one, lo, LEVEL * gsl_ran_flat(rng, 0.4, 0.8));
		f.term[1] = worth(1, a, one, hi, LEVEL * s1);
		f.term[2] = worth(1, b, one, hi, LEVEL * s2);
		if (pmnf_factor_is_one(a)) {   /* a constant term: fold it into the constant */
			f.constant = f.term[1].coef;
			f.term[1] = f.term[2];
			f.nterms = 2;
		}
		n = add(out, n, cap, &f, F_TWO);
	}
	for (int k = 0; k < 10; k++) {
		struct pmnf_factor d = {decays[gsl_rng_uniform_int(rng, 4)], 0}, g = grows[gsl_rng_uniform_int(rng, 5)];
		struct pmnf f = {.nparams = 1, .nterms = 2, .constant = LEVEL * gsl_ran_flat(rng, 0.02, 0.15)};
		f.term[0] = worth(1, d, one, lo, LEVEL * gsl_ran_flat(rng, 0.5, 0.9));
		f.term[1] = worth(1, g, one, hi, LEVEL * gsl_ran_flat(rng, 0.2, 0.6));
		n = add(out, n, cap, &f, F_STRONG);
	}
	return n;
}
