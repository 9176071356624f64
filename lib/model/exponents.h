/*
 * exponents — the set of terms x^i * log2(x)^j the hypothesis search may use for one
 * parameter. The default is the paper's (Calotoiu et al., SC13, §2.3): I = {0, 1/2, 1, 3/2, 2,
 * 5/2, 3}, J = {0, 1, 2}, i.e. 20 terms besides the constant, ordered from perfect to poor
 * scalability.
 *
 * A SPEC names a set as a union of items separated by ';':
 *   default             the paper's set
 *   strong              negative exponents for strong scaling: x^i log2(x)^j, i in {-1/2, -1,
 *                       -3/2, -2}, j in {0, 1} (1/p, log p / p, ...)
 *   i=LIST[;j=LIST]     the products I x J (LIST: comma-separated numbers or fractions like 1/3;
 *                       a missing j= means {0}, a missing i= means {0})
 *   terms=I:J,I:J,...   explicit terms, e.g. terms=1:0,1/2:1,-1:0
 * e.g. "default;strong", "i=0,1/4,1/3,1/2,2/3,3/4,1;j=0,1". The constant is always available.
 */
#ifndef LADDER_MODEL_EXPONENTS_H
#define LADDER_MODEL_EXPONENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/error.h"
#include "model/pmnf.h"

#define EXPONENTS_MAX 128

struct exponent_set {
	size_t n;
	struct pmnf_factor f[EXPONENTS_MAX];   /* sorted by asymptotic order, no (0,0), no duplicates */
};

void exponents_default(struct exponent_set *s);
/* the set model_options_init chooses: the paper's and the strong-scaling terms ("default;strong"),
 * so that strong scaling (c/p + d) needs no flag */
void exponents_model_default(struct exponent_set *s);
/* -1 with a message naming the bad item */
int exponents_parse(const char *spec, struct exponent_set *s, struct model_error *err);
/* a term needs x > 0 (logarithms, negative or fractional powers) */
bool exponents_need_positive(const struct exponent_set *s);
/* a term needs x >= 1 (fractional powers of the logarithm) */
bool exponents_need_log_nonnegative(const struct exponent_set *s);

#endif
