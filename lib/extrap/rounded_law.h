/*
 * rounded_law — the counts of uneven decompositions (issue 30, pattern 4): a value that is a
 * multiple of a quotient rounded up or down,
 *
 *     v = a * ceil(N / x)     or     v = a * floor(N / x),
 *
 * with x a dimension size d_j, P, or (a family law) the member's dimension d_k or P / d_k (the face
 * normal to dimension k of a 2-D block holds a share of the other dimension); a >= 1 and N >= 1
 * integers. A code that deals N cells over d ranks and sizes a buffer for the largest share sends
 * 2 * ceil(N / d); the first coordinate of a dimension holds ceil(N / d) cells when the remainder
 * goes to the first N mod d coordinates, the last floor(N / d).
 *
 * Fitting is exact, not least squares: for each choice of x, rounding and a dividing every value,
 * each point bounds N to an interval ((q - 1) x, q x] for ceil, [q x, (q + 1) x) for floor, with
 * q = v / a; the law holds when the intervals meet. Every N left in the meet is a law that
 * reproduces every rung; the law is accepted only when all of them, and all the other choices that
 * fit, give one value at the target (a quotient rounded is never fractional nor, with a and N
 * positive, negative). Otherwise it is ambiguous, and the text says which N and which values: a
 * rung whose x splits them would decide. Two unknowns (a and N): three points at least, one left
 * over to check; the rung that would decide a tie is named (law_tie.h). law_solve_points weighs
 * these laws against the linear ones (law.h).
 */
#ifndef LADDER_EXTRAP_ROUNDED_LAW_H
#define LADDER_EXTRAP_ROUNDED_LAW_H

#include <stdbool.h>

#include "extrap/law.h"

/* the term kinds of a rounded law in struct law (terms[0].kind; terms[0].dim is j, or
 * ROUNDED_OVER_P; coef[0] = a, coef[1] = N; nterms 1) */
enum {
	ROUNDED_CEIL = 0xc0,
	ROUNDED_FLOOR = 0xc1,
};
#define ROUNDED_OVER_P 0xff
#define ROUNDED_OVER_CODIM 0xfe   /* a family law's P / d_k: in 2-D the other dimension */

/* is l a rounded law? */
bool rounded_law_is(const struct law *l);
/* its value on g (for member dimension dim of a family law) */
bool rounded_law_eval(const struct law *l, const struct grid *g, int32_t dim, int64_t *out);
/* Fit pts (all values positive) and evaluate at target; true when some rounded law reproduces every
 * point, out then holds it (LAW_OK) or the ambiguity (LAW_AMBIGUOUS); false leaves out untouched. */
bool rounded_law_solve(const struct law_points *pts, const struct grid *target, int32_t target_dim, struct law *out);

#endif
