/*
 * candidates — the terms a hypothesis search chooses from, as PMNF term shapes (coefficients
 * unused), and their values at a set of points. One parameter: the exponent set itself. Several
 * parameters: products of the terms found along each parameter (multiparam.c).
 */
#ifndef LADDER_MODEL_CANDIDATES_H
#define LADDER_MODEL_CANDIDATES_H

#include <stddef.h>

#include "model/exponents.h"
#include "model/pmnf.h"

#define CANDIDATES_MAX EXPONENTS_MAX

struct candidates {
	unsigned nparams;
	size_t n;
	struct pmnf_term term[CANDIDATES_MAX];
};

/* the exponent set as single-parameter terms of parameter `param` of nparams */
void candidates_from_exponents(const struct exponent_set *s, unsigned nparams, unsigned param,
			       struct candidates *c);
/* out[k * npoints + i] = value of candidate k at point i (points: npoints x nparams) */
void candidates_basis(const struct candidates *c, const double *points, size_t npoints, double *out);

#endif
