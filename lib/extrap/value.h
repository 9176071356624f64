/*
 * value — one parameter value of an aligned call, as what it is across the ladder rather than as
 * a number: a constant, a law in the grid sizes (law.h), a move on the grid (geometry.h), the rank
 * count or one of the grid's dimensions (what MPI_Comm_size, MPI_Dims_create and MPI_Cart_create
 * say at any scale), or the request of another call. Two classes' values can be compared and
 * united in this form (compose.h) before anything is evaluated at the target.
 */
#ifndef LADDER_EXTRAP_VALUE_H
#define LADDER_EXTRAP_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/geometry.h"
#include "extrap/law.h"

enum xval_kind {
	XV_CONST,      /* v at every rung */
	XV_LAW,        /* *law in the grid sizes; a family law is evaluated for dimension dim */
	XV_STEP,       /* a peer: the neighbour `step` away */
	XV_NRANKS,     /* the run's rank count */
	XV_GRID_DIM,   /* the grid's dimension dim */
	XV_CREATOR,    /* a request, named by the call that created it: occurrence v */
	XV_PENDING,    /* differs across rungs, not yet decided (family.h, then a law of its own) */
};

struct xval {
	uint8_t kind;
	int8_t dim;
	int64_t v;
	struct step step;
	struct law *law;   /* owned */
};

void xval_free(struct xval *x);
void xval_copy(struct xval *dst, const struct xval *src);
/* the value a solved law gives at the target: a constant, or the law (copied) when it has terms */
void xval_of_law(struct xval *x, const struct law *law);
/* the same value at the target (moves: candidates in common, which a keeps) */
bool xval_agree(struct xval *a, const struct xval *b, const struct grid *target);
/* the value at the target for the ranks of class cls; false with why when a move is undecided
 * or a law gives no integer */
bool xval_eval(const struct xval *x, const struct grid *target, uint32_t cls, int64_t *out, char *why, size_t whylen);
/* why a neighbour along dimension dim is undecided: -1 or +1 on a dimension of 2 at every rung */
void step_undecided_why(uint32_t dim, char *why, size_t whylen);
/* for messages: "PROC_NULL", "the neighbour (0,+1,0)", "48/d1", "P" */
void xval_describe(const struct xval *x, uint32_t ndims, char *out, size_t outlen);

#endif
