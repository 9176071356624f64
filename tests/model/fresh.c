/*
 * fresh — the third synthetic set of accuracy_model. See fresh.h.
 */
#include "fresh.h"

#include <gsl/gsl_randist.h>
#include <math.h>

#include "model/exponents.h"

#define LEVEL 100.0

void fresh_ladders(struct synth_ladder *five, struct synth_ladder *seven, struct synth_ladder *grid)
{
	synth_ladder_geometric(five, 6, 2, 5);
	synth_ladder_geometric(seven, 3, 2, 7);
	synth_ladder_grid(grid, 3, 2, 5, 32, 2, 5);
}

/* a term of parameter param with the value `value` at x */
static struct pmnf_term term_worth(unsigned nparams, unsigned param, struct pmnf_factor f, const double *x, double value)
{
	struct pmnf_term t = {.coef = 1};
	t.f[param] = f;
	t.coef = value / pmnf_term_basis(&t, nparams, x);
	return t;
}

static size_t add(struct truth *out, size_t n, size_t cap, const struct pmnf *f, enum accuracy_family family)
{
	if (n < cap)
		out[n++] = (struct truth){.f = *f, .family = family, .in_space = heldout_leading_in_space(f)};
	return n;
}

static size_t named(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t n, size_t cap)
{
	double lo[2], hi[2];
	synth_reference_point(l, true, lo);
	synth_reference_point(l, false, hi);
	static const struct {
		double c;                       /* share of the constant at the largest rung */
		struct pmnf_factor a, b;        /* a: worth its share at the smallest rung, b at the largest */
	} shapes[] = {
		{0, {1, 0}, {1, 1}}, {0, {-1, 0}, {0, 1}}, {0.3, {0.5, 0}, {2, 0}},
		{0, {-0.5, 0}, {0.5, 0}}, {0.3, {0, 1}, {1, 1}}, {0.2, {-2, 0}, {0, 0}},
	};
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
		for (int draw = 0; draw < 2; draw++) {
			struct pmnf f = {.nparams = 1, .nterms = 1, .constant = LEVEL * shapes[s].c};
			double sa = gsl_ran_flat(rng, 0.3, 0.8), sb = gsl_ran_flat(rng, 0.1, 0.6);
			bool grows = shapes[s].a.i > 0 || shapes[s].a.j > 0;
			f.term[0] = term_worth(1, 0, shapes[s].a, grows ? hi : lo, LEVEL * sa);
			if (shapes[s].b.i != 0 || shapes[s].b.j != 0)
				f.term[f.nterms++] = term_worth(1, 0, shapes[s].b, hi, LEVEL * sb);
			else
				f.constant += LEVEL * sb;
			n = add(out, n, cap, &f, F_STRONG);
		}
	return n;
}

size_t fresh_truths(const struct synth_ladder *l, gsl_rng *rng, struct truth *out, size_t cap)
{
	struct exponent_set s;
	exponents_default(&s);
	double x[2];
	synth_reference_point(l, false, x);
	size_t n = 0;
	if (l->nparams == 2) {
		for (int k = 0; k < 16; k++) {
			struct pmnf f = {.nparams = 2, .nterms = 1};
			double share = gsl_ran_flat(rng, 0.3, 0.9);
			struct pmnf_term t = term_worth(2, 0, s.f[gsl_rng_uniform_int(rng, s.n)], x, 1);
			t.f[1] = s.f[gsl_rng_uniform_int(rng, s.n)];
			t.coef = 1;
			t.coef = LEVEL * share / pmnf_term_basis(&t, 2, x);
			f.term[0] = t;
			f.constant = LEVEL * (1 - share);
			n = add(out, n, cap, &f, F_PARAMS);
		}
		return n;
	}
	for (int k = 0; k < 24; k++) {
		double share = gsl_ran_flat(rng, 0.2, 0.9);
		struct pmnf f = {.nparams = 1, .nterms = 1, .constant = LEVEL * (1 - share)};
		f.term[0] = term_worth(1, 0, s.f[gsl_rng_uniform_int(rng, s.n)], x, LEVEL * share);
		n = add(out, n, cap, &f, F_ONE);
	}
	for (int k = 0; k < 24; k++) {
		size_t a = gsl_rng_uniform_int(rng, s.n), b = gsl_rng_uniform_int(rng, s.n);
		if (a == b)
			b = (b + 1) % s.n;
		if (a > b) {
			size_t t = a;
			a = b;
			b = t;
		}
		double s1 = gsl_ran_flat(rng, 0.1, 0.5), s2 = gsl_ran_flat(rng, 0.05, 0.6);
		struct pmnf f = {.nparams = 1, .nterms = 2, .constant = LEVEL * fmax(0.05, 1 - s1 - s2)};
		f.term[0] = term_worth(1, 0, s.f[a], x, LEVEL * s1);
		f.term[1] = term_worth(1, 0, s.f[b], x, LEVEL * s2);
		n = add(out, n, cap, &f, F_TWO);
	}
	return named(l, rng, out, n, cap);
}
