/*
 * pmnf — evaluation and asymptotic order of performance-model-normal-form functions. See pmnf.h.
 */
#include "model/pmnf.h"

#include <assert.h>
#include <math.h>

double pmnf_factor_eval(struct pmnf_factor f, double x)
{
	double v = 1.0;
	if (f.i != 0.0)
		v = pow(x, f.i);
	if (f.j != 0.0)
		v *= pow(log2(x), f.j);
	return v;
}

bool pmnf_factor_is_one(struct pmnf_factor f)
{
	return f.i == 0.0 && f.j == 0.0;
}

double pmnf_term_basis(const struct pmnf_term *t, unsigned nparams, const double *x)
{
	assert(nparams <= PMNF_MAX_PARAMS);
	double v = 1.0;
	for (unsigned l = 0; l < nparams; l++)
		if (!pmnf_factor_is_one(t->f[l]))
			v *= pmnf_factor_eval(t->f[l], x[l]);
	return v;
}

double pmnf_eval(const struct pmnf *f, const double *x)
{
	assert(f->nterms <= PMNF_MAX_TERMS);
	double v = f->constant;
	for (unsigned k = 0; k < f->nterms; k++)
		v += f->term[k].coef * pmnf_term_basis(&f->term[k], f->nparams, x);
	return v;
}

static int cmp_double(double a, double b)
{
	const double tol = 1e-12;
	if (a < b - tol)
		return -1;
	if (a > b + tol)
		return 1;
	return 0;
}

int pmnf_factor_cmp(struct pmnf_factor a, struct pmnf_factor b)
{
	int c = cmp_double(a.i, b.i);
	return c ? c : cmp_double(a.j, b.j);
}

bool pmnf_term_dominates(const struct pmnf_term *a, const struct pmnf_term *b, unsigned nparams)
{
	bool strictly = false;
	for (unsigned l = 0; l < nparams; l++) {
		int c = pmnf_factor_cmp(a->f[l], b->f[l]);
		if (c < 0)
			return false;
		if (c > 0)
			strictly = true;
	}
	return strictly;
}

bool pmnf_term_grows(const struct pmnf_term *t, unsigned nparams)
{
	static const struct pmnf_factor one = {0, 0};
	for (unsigned l = 0; l < nparams; l++)
		if (pmnf_factor_cmp(t->f[l], one) > 0)
			return true;
	return false;
}

bool pmnf_term_same_shape(const struct pmnf_term *a, const struct pmnf_term *b, unsigned nparams)
{
	for (unsigned l = 0; l < nparams; l++)
		if (pmnf_factor_cmp(a->f[l], b->f[l]) != 0)
			return false;
	return true;
}

unsigned pmnf_leading_terms(const struct pmnf *f, unsigned *idx)
{
	static const struct pmnf_term constant_shape;
	assert(f->nterms <= PMNF_MAX_TERMS && f->nparams <= PMNF_MAX_PARAMS);
	unsigned n = 0;
	for (unsigned k = 0; k < f->nterms; k++) {
		const struct pmnf_term *t = &f->term[k];
		bool dominated = f->constant != 0.0 && pmnf_term_dominates(&constant_shape, t, f->nparams);
		for (unsigned m = 0; m < f->nterms && !dominated; m++)
			dominated = m != k && pmnf_term_dominates(&f->term[m], t, f->nparams);
		if (!dominated)
			idx[n++] = k;
	}
	return n;
}

bool pmnf_same_leading(const struct pmnf *a, const struct pmnf *b)
{
	unsigned ia[PMNF_MAX_TERMS], ib[PMNF_MAX_TERMS];
	unsigned na = pmnf_leading_terms(a, ia), nb = pmnf_leading_terms(b, ib);
	if (a->nparams != b->nparams || na != nb)
		return false;
	for (unsigned x = 0; x < na; x++) {
		bool found = false;
		for (unsigned y = 0; y < nb && !found; y++)
			found = pmnf_term_same_shape(&a->term[ia[x]], &b->term[ib[y]], a->nparams);
		if (!found)
			return false;
	}
	return true;
}
