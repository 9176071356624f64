/*
 * law — one integer parameter as a function of the process grid's dimension sizes (ScalaExtrap
 * §3.3): value = sum of integer coefficients times terms 1, d_k, P = prod d_k, 1/d_k, 1/P,
 * 1/P^2.
 *
 * The coefficients come from a least-squares solve (GSL) over the ladder's rungs; a law is
 * accepted only when it reproduces every rung exactly in integer arithmetic and has fewer unknowns
 * than rungs (the extra rung is the check: the residual decides). The smallest set of terms that
 * fits wins; two equally small laws that predict different values at the target are ambiguous.
 */
#ifndef LADDER_EXTRAP_LAW_H
#define LADDER_EXTRAP_LAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LAW_MAX_DIMS 3
#define LAW_MAX_TERMS 3       /* at most this many terms in one law */

struct grid {
	uint32_t ndims;
	int64_t dims[LAW_MAX_DIMS];   /* outermost first, as MPI_Dims_create orders them */
};

int64_t grid_size(const struct grid *g);
/* "4x4" */
void grid_format(const struct grid *g, char *out, size_t outlen);

enum law_status {
	LAW_OK,             /* predicted holds the value at the target */
	LAW_TOO_FEW,        /* not enough rungs for the unknowns of any law that could fit */
	LAW_NO_FIT,         /* no law of up to LAW_MAX_TERMS terms reproduces the rungs */
	LAW_AMBIGUOUS,      /* several equally small laws fit and disagree at the target */
	LAW_NOT_INTEGRAL,   /* the law does not give an integer at the target (1/d with d not dividing) */
};

struct law {
	enum law_status status;
	int64_t predicted;
	char text[128];     /* the law as people read it: "48/d1", "d0*d1", "1 - d1"; or the conflict */
};

/* Fit values[i] observed on grids[i] (n points) and evaluate at target. */
void law_solve(const int64_t *values, const struct grid *grids, size_t n, const struct grid *target,
	       struct law *out);

const char *law_status_name(enum law_status s);

#endif
