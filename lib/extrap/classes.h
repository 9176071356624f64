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

/* every rung's grid from its MPI_Cart_create (or its pattern), all of one dimensionality; per
 * dimension whether it is periodic (Cart_create's periods; a hand-made grid is periodic in every
 * dimension when some peer wraps around) */
bool classes_grids(struct run *const *rungs, size_t n, struct grid *grids, bool *periodic, char *why, size_t whylen);
/* When the ranks of some position class are in several groups at a rung: the part of the grid
 * (topology.h) on and off which every class is in one group at every rung, set in every grid
 * (0 when none is; the classes are then refused as they are). */
void classes_part(struct run *const *rungs, size_t n, struct grid *grids);
/* the class's group at each rung where it exists (cr->n of them); refuses non-SPMD classes.
 * pruned[i][group]: rung i's groups' grammars as lossy alignment pruned them, or pruned NULL. */
bool classes_rungs(uint32_t cls, struct run *const *rungs, const struct grid *grids, struct grammar *const *pruned,
		   size_t n, struct class_rungs *cr, char *why, size_t whylen);
/* the refusal of a class seen at fewer than two rungs, naming rank counts to add */
void classes_too_few(uint32_t cls, const struct class_rungs *cr, const struct grid *grids, struct run *const *rungs,
		     size_t n, char *why, size_t whylen);
/* what to add: under each rule of grids the rungs allow (rung_advice.h), up to three rank counts
 * not in the ladder whose grid has the class, with their grids; or that none up to a bound does */
void classes_advice(uint32_t cls, const struct grid *grids, struct run *const *rungs, size_t n, char *out,
		    size_t outlen);
/* up to three rank counts above the ladder's whose balanced grid widens a dimension that is the
 * same at every one of grids[0..n) (or, when none is, any dimension) */
void classes_widening_advice(const struct grid *grids, size_t n, char *out, size_t outlen);
void class_rungs_free(struct class_rungs *cr);

#endif
