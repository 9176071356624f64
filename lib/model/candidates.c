/*
 * candidates — candidate term lists and their values at points. See candidates.h.
 */
#include "model/candidates.h"

#include <string.h>

void candidates_from_exponents(const struct exponent_set *s, unsigned nparams, unsigned param,
			       struct candidates *c)
{
	memset(c, 0, sizeof *c);
	c->nparams = nparams;
	for (size_t k = 0; k < s->n && k < CANDIDATES_MAX; k++)
		c->term[c->n++].f[param] = s->f[k];
}

void candidates_basis(const struct candidates *c, const double *points, size_t npoints, double *out)
{
	for (size_t k = 0; k < c->n; k++)
		for (size_t i = 0; i < npoints; i++)
			out[k * npoints + i] = pmnf_term_basis(&c->term[k], c->nparams, points + i * c->nparams);
}
