/*
 * pmnf — the performance model normal form (Calotoiu et al., SC13, eq. 1):
 *
 *     f(x) = c_0 + sum_k c_k * prod_l x_l^{i_kl} * log2(x_l)^{j_kl}
 *
 * for one parameter (rank count p) or several (p x problem size n): each term is a product of
 * one factor per parameter, a factor (0, 0) meaning the parameter does not appear in the term.
 * This file holds the function type, its evaluation and the asymptotic order of terms; the
 * textual forms (formula, growth class) are in pmnf_format.c, the reader of the formula in
 * pmnf_parse.c.
 */
#ifndef LADDER_MODEL_PMNF_H
#define LADDER_MODEL_PMNF_H

#include <stdbool.h>
#include <stddef.h>

#define PMNF_MAX_PARAMS 4
#define PMNF_MAX_TERMS 8

/* x^i * log2(x)^j */
struct pmnf_factor {
	double i, j;
};

struct pmnf_term {
	double coef;
	struct pmnf_factor f[PMNF_MAX_PARAMS];
};

struct pmnf {
	unsigned nparams;
	double constant;
	unsigned nterms;
	struct pmnf_term term[PMNF_MAX_TERMS];
};

double pmnf_factor_eval(struct pmnf_factor f, double x);
bool pmnf_factor_is_one(struct pmnf_factor f);
/* the value of the term without its coefficient */
double pmnf_term_basis(const struct pmnf_term *t, unsigned nparams, const double *x);
double pmnf_eval(const struct pmnf *f, const double *x);

/* Asymptotic order of two factors: <0 when a grows slower than b, 0 equal, >0 faster
 * (compares i first, then j). */
int pmnf_factor_cmp(struct pmnf_factor a, struct pmnf_factor b);
/* a term dominates another when it grows at least as fast in every parameter and faster in one */
bool pmnf_term_dominates(const struct pmnf_term *a, const struct pmnf_term *b, unsigned nparams);
bool pmnf_term_grows(const struct pmnf_term *t, unsigned nparams);
/* Indices of the asymptotically leading terms: those no other term dominates, and (when the
 * constant is not zero) that do not decay. Returns how many; 0 means the function tends to its
 * constant. */
unsigned pmnf_leading_terms(const struct pmnf *f, unsigned *idx);
/* Same exponents in every parameter (coefficients ignored). */
bool pmnf_term_same_shape(const struct pmnf_term *a, const struct pmnf_term *b, unsigned nparams);
/* The two functions have the same leading terms (shapes only): what "the growth class is right"
 * means in the tests and benchmarks. */
bool pmnf_same_leading(const struct pmnf *a, const struct pmnf *b);

/* Textual forms (pmnf_format.c). names[] holds one parameter name per parameter. */
void pmnf_format(const struct pmnf *f, const char *const *names, char *buf, size_t len);
void pmnf_format_factor(struct pmnf_factor f, const char *name, char *buf, size_t len);
void pmnf_format_exponent(double e, char *buf, size_t len);
/* "constant", "log p", "p^(1/2) log p", "p^2", "1/p", "p log p * n", ... */
void pmnf_growth_class(const struct pmnf *f, const char *const *names, char *buf, size_t len);

/* The formula text pmnf_format writes, over the nparams parameters names[], back into *out
 * (pmnf_parse.c, the one reader of formula text). False, with why saying what and where, when
 * the text is not such a formula. */
bool pmnf_parse(const char *text, const char *const *names, unsigned nparams, struct pmnf *out, char *why,
		size_t whylen);

#endif
