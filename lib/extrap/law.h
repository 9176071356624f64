/*
 * law — one integer parameter as a function of the process grid's dimension sizes (ScalaExtrap
 * §3.3): value = sum of integer coefficients times terms 1, d_j, P = prod d_j, 1/d_j, 1/P, 1/P^2
 * and, in 3-D, the products of two dimensions P/d_j and their inverses d_j/P.
 *
 * A family law is shared by the calls of one call site that differ only by the dimension k they
 * concern (the halo faces of a stencil, one per dimension): its terms are relative to that
 * dimension — d_k, 1/d_k, P/d_k, d_k/P — beside 1 and the P terms, and every point of the fit is
 * a value seen for a member concerning dimension k at a rung. The face count of a strong-scaling
 * stencil, C d_k / P, is such a law: the faces of dimensions that vary across the ladder identify
 * it where one dimension's constant face alone cannot.
 *
 * The coefficients come from a least-squares solve (GSL) over the points; a law is accepted only
 * when it reproduces every point exactly in integer arithmetic and has fewer unknowns than points
 * (the extra point is the check: the residual decides). The smallest set of terms that fits wins;
 * two equally small laws that predict different values at the target are ambiguous. A value equal
 * at every point is that constant.
 *
 * Where no law of these terms reproduces the points, the search is made again with one more term, floor(sqrt(P)):
 * the width of a square grid of the ranks, the trip count of a loop that grows with P (the cells
 * per rank of a diagonal multipartitioning, the depth of a pipeline across such a grid). It comes
 * last so that it never displaces, nor makes ambiguous, a law of the grid's own dimensions.
 */
#ifndef LADDER_EXTRAP_LAW_H
#define LADDER_EXTRAP_LAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/grid.h"

#define LAW_MAX_DIMS GRID_MAX_NDIMS
#define LAW_MAX_TERMS 3       /* at most this many terms in one law */
#define LAW_NO_DIM (-1)       /* a point or evaluation outside any family */

enum law_status {
	LAW_OK,             /* predicted holds the value at the target */
	LAW_TOO_FEW,        /* not enough rungs for the unknowns of any law that could fit */
	LAW_NO_FIT,         /* no law of up to LAW_MAX_TERMS terms reproduces the rungs */
	LAW_AMBIGUOUS,      /* several equally small laws fit and disagree at the target */
	LAW_NOT_INTEGRAL,   /* the law does not give an integer at the target (1/d with d not dividing) */
	LAW_NEGATIVE,       /* a count whose law is negative at the target */
};

struct law_term {
	uint8_t kind;       /* law.c's enum term_kind */
	uint8_t dim;        /* the fixed dimension of d_j terms */
};

struct law {
	enum law_status status;
	bool family;        /* terms relative to the member's dimension */
	uint32_t nterms;    /* 0: the constant `predicted` */
	struct law_term terms[LAW_MAX_TERMS];
	int64_t coef[LAW_MAX_TERMS];
	int64_t predicted;  /* at the target (a family law: for the target dimension asked) */
	char text[200];     /* the law as people read it: "48/d1", "144*d_k/P", "1 - d1", "2*ceil(25/d1)"; or
			       the conflict and the rung that would decide it */
};

/* points of a fit: values[i] observed on grids[i]; dims[i] the dimension the member concerns
 * (family laws), or NULL for a law of the grid alone; counts: the values are counts, so a law
 * negative at the target is no candidate */
struct law_points {
	const int64_t *values;
	const struct grid *grids;
	const int32_t *dims;
	size_t n;
	bool counts;
};

/* Fit values[i] observed on grids[i] (n points) and evaluate at target. Beside the linear laws,
 * the rounded quotients of uneven decompositions (rounded_law.h) are candidates: one that fits
 * where no linear law does is the law; one that fits beside a linear law and disagrees with it
 * at the target is a tie (LAW_AMBIGUOUS), whose text names the rung that would decide it
 * (law_tie.h). A law that gives no integer at the target, or a negative count, is never chosen. */
void law_solve(const int64_t *values, const struct grid *grids, size_t n, const struct grid *target,
	       struct law *out);
/* The same for any points; for a family law, target_dim is the dimension `predicted` is for, and
 * two laws are ambiguous when they disagree at the target for any dimension. */
void law_solve_points(const struct law_points *pts, const struct grid *target, int32_t target_dim, struct law *out);

/* the law's exact value on g (for member dimension dim); false when a 1/x term does not divide */
bool law_eval(const struct law *l, const struct grid *g, int32_t dim, int64_t *out);
/* do two fitted laws give the same values at the target, for every dimension? */
bool law_same_at(const struct law *a, const struct law *b, const struct grid *target);

const char *law_status_name(enum law_status s);

#endif
