/*
 * few_rungs — the law of a duration or gap's mean from a ladder of three rungs, fewer than
 * lib/model's PMNF search needs (ScalaExtrap's ladders). Three kinds of law are fitted to the
 * points (p_i, v_i), each by least squares of the relative residuals (v_i - f(p_i)) / v_i, the
 * likelihood under multiplicative noise as in lib/model:
 *   - the constant (weak-scaling work) and c / p (strong-scaling work: the total the same at
 *     every rung), the simple laws of one parameter;
 *   - one power c * p^k, fitted in log-log space, its exponent rounded to a quarter (PMNF's
 *     exponents) and held within the powers the PMNF search considers (p^-2 ... p^3) once it is
 *     selected, so strong-scaling work shrinks as 1/p;
 *   - the constant plus one power a + b * p^k, k in {-1, -1/2, 1/2, 1}: work of which a part
 *     is the same on every rank and a part depends on p (is's counting sort: the keys it
 *     received, and a histogram of the key range over p ranks); a and b not negative, the two
 *     parts of the work.
 * The law of two parameters that fits best replaces the simple law that fits better (the
 * constant or c / p) only when it fits the rungs significantly better (an F-test of the drop in
 * residuals at lib/model's level, FIT_ALPHA, with the one degree of freedom three rungs leave): a
 * trend that the noise of one rung makes (a small rung slowed by the machine, its mean 30% above
 * the others') is not carried to the target, where a power of p would have multiplied it, and a
 * strong-scaling gap whose rungs are noisy (ft's 7.6, 2.9, 2.1 ms at 4, 9, 16 ranks) shrinks as
 * 1/p instead of staying at the largest rung's value, four times the real run's at 64. The value at the target is the largest rung's,
 * scaled by the law's ratio f(target) / f(largest rung).
 */
#ifndef LADDER_EXTRAP_FEW_RUNGS_H
#define LADDER_EXTRAP_FEW_RUNGS_H

#include <stdbool.h>
#include <stddef.h>

enum few_law_kind { FEW_CONSTANT, FEW_POWER, FEW_SHIFTED_POWER };

struct few_law {
	enum few_law_kind kind;
	double a, b, k;   /* f(p) = a + b * p^k (the constant: b = 0; one power: a = 0) */
	double rss;       /* the relative residuals' sum of squares at the rungs */
};

/* f(p) */
double few_law_value(const struct few_law *law, double p);

/* The law of the points (p[i], v[i]), i < n, p ascending, and its value at the target: the last
 * point's scaled by the law. False with fewer than 3 points, one rank count only, or a value not
 * positive and finite. */
bool few_rungs_at(const double *p, const double *v, size_t n, double target, double *value, struct few_law *law);

#endif
