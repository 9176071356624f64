/*
 * exact — exact integer laws of the rank count for counts (visits, messages, bytes) of
 * deterministic SPMD codes, tried before any PMNF search: value = sum of integer coefficients
 * times terms 1, p, log2 p, ceil(log2 p), sqrt p, cbrt p, the width and the height of the 2-D
 * grid MPI_Dims_create makes of p, the width of its 3-D grid, ceil(log2) of the 2-D width,
 * p log2 p, p^2 and 1/p. The coefficients come from the integer least squares the
 * extrapolation's laws use (intlaw/intfit.h); a law is accepted only when it reproduces every
 * rung exactly and has fewer unknowns than rungs (at least one rung checks it), and its value at
 * the target must be an integer.
 *
 * The smallest laws win; the interval is the hull of the values at the target of every law of
 * that size and of one more unknown (when EXACT_MIN_CHECKS rungs still check those): equal
 * values make a point interval the rungs back, different ones an ambiguity the ladder cannot
 * settle (ambiguous, and the hull says how far apart they are). A law only one rung checks
 * could be luck among the many pairs of terms: it supports no prediction (EXACT_MIN_CHECKS). A
 * count equal at the two largest rungs may have stopped growing: its value there competes too,
 * unless the ladder shows the count growing again after such a pause (paused).
 *
 *     struct exact_law l;
 *     if (exact_law_solve(p, y, n, target, &l)) ... l.value, l.lo, l.hi, l.text ...
 */
#ifndef LADDER_MODEL_EXACT_H
#define LADDER_MODEL_EXACT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/pmnf.h"

#define EXACT_MAX_UNKNOWNS 3
/* rungs beyond the unknowns a law needs to support a prediction */
#define EXACT_MIN_CHECKS 2

struct exact_law {
	unsigned nterms;
	unsigned term[EXACT_MAX_UNKNOWNS];     /* exact.c's enum exact_term */
	int64_t coef[EXACT_MAX_UNKNOWNS];
	double value;                          /* at the target, an integer */
	double lo, hi;                         /* the hull of the competing laws' values there */
	bool ambiguous;                        /* laws the rungs cannot tell apart disagree there */
	bool paused;                           /* the two largest rungs agree, as a count that stopped
						  growing would, and the law grows on (exact.c) */
	unsigned spare;                        /* rungs beyond the unknowns: the checks */
	char text[128];                        /* "2*ceil(log2 p) + 1" */
};

/* Do the n values y (at rank counts p) look like counts: integers, the same at every
 * repetition (the caller checks that) and not all zero? */
bool exact_values_are_counts(const double *y, size_t n);

/* The smallest exact law of y over p (n rungs) whose value at target is an integer; false when
 * none reproduces every rung. */
bool exact_law_solve(const double *p, const double *y, size_t n, double target, struct exact_law *out);

/* the value of the law at rank count p */
double exact_law_eval(const struct exact_law *l, double p);

/* The PMNF of the law's asymptotic shape (ceil(log2 p) as log2 p, the grid widths as powers of
 * p) for what reads /models' formulas; the exact law is l->text. */
void exact_law_pmnf(const struct exact_law *l, struct pmnf *out);

#endif
