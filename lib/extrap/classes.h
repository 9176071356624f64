/*
 * classes — the rungs' process grids and, per position class, the group it is at each rung.
 */
#ifndef LADDER_EXTRAP_CLASSES_H
#define LADDER_EXTRAP_CLASSES_H

#include <stdbool.h>
#include <stddef.h>

#include "extrap/align.h"
#include "extrap/law.h"
#include "run/run.h"

/* every rung's grid from its MPI_Cart_create, all of one dimensionality */
bool classes_grids(struct run *const *rungs, size_t n, struct grid *grids, char *why, size_t whylen);
/* the class's group at each rung where it exists; refuses non-SPMD classes and classes seen at
 * fewer than two rungs (naming rank counts to add) */
bool classes_rungs(uint32_t cls, struct run *const *rungs, const struct grid *grids, size_t n, struct class_rungs *cr,
		   char *why, size_t whylen);
/* up to three rank counts not in the ladder whose balanced grid has the class: what to add */
void classes_advice(uint32_t cls, const struct grid *grids, struct run *const *rungs, size_t n, char *out,
		    size_t outlen);
void class_rungs_free(struct class_rungs *cr);

#endif
