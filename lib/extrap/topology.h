/*
 * topology — the process grid of a run and where each rank sits in it (ScalaExtrap §3.1).
 *
 * The grid comes first from what the tracer recorded: the dims of the run's MPI_Cart_create. A
 * target grid is what MPI_Dims_create would give for the target rank count (balanced, outermost
 * dimension largest), unless the user names it ("32x32").
 *
 * Ranks are put in position classes: per dimension, whether the rank's coordinate (row-major, last
 * dimension fastest, as MPI numbers a Cartesian grid) is the low boundary, interior, or the high
 * boundary. SPMD stencil-like codes behave alike within a class, so a class is the unit that is
 * aligned across rungs and extrapolated: its ranks at the target form one box.
 */
#ifndef LADDER_EXTRAP_TOPOLOGY_H
#define LADDER_EXTRAP_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"
#include "run/run.h"

enum { POS_LOW = 0, POS_INTERIOR = 1, POS_HIGH = 2, POS_SINGLE = 3, POS_KINDS = 4 };

#define TOPOLOGY_POS_CLASSES 64   /* POS_KINDS ^ LAW_MAX_DIMS */
#define TOPOLOGY_MAX_CLASSES (2 * TOPOLOGY_POS_CLASSES)   /* each on and off a grid's part */

/* The grid of the run's first MPI_Cart_create and its periods (periodic[k]). False with why when
 * the run made none or the recorded values are not a grid of its rank count. */
bool topology_from_cart(const struct run *r, struct grid *g, bool *periodic, char *why, size_t whylen);

/* For codes that split row and column communicators by hand (MPI_Comm_split, no Cart_create): the
 * grid whose coordinates the splits' colour and key laws read (run/rank_law.h). False with why when
 * no split colour or key is such a law. */
bool topology_from_splits(const struct run *r, struct grid *g, char *why, size_t whylen);

/* For codes that compute neighbours by hand (ScalaExtrap §3.1): the grid of the dimensionality the
 * run asked MPI_Dims_create for on which every point-to-point peer of every rank is a grid
 * neighbour (row-major, wrap-around allowed). MPI_Dims_create's balanced grid wins when it fits;
 * otherwise exactly one grid must fit. Without MPI_Dims_create the ranks are taken as a line (1-D),
 * which every code without point-to-point calls fits. */
bool topology_from_pattern(const struct run *r, struct grid *g, char *why, size_t whylen);
/* Without MPI_Dims_create, when the ranks are no line: the balanced 2-D or 3-D grid on which the
 * peers are neighbours (one dimension apart, else in the 27-point neighbourhood) and some ranks
 * are not, found by topology_from_pattern. A rung too small to tell (every rank a neighbour of
 * every other) takes the dimensionality the other rungs showed: the balanced grid of ndims
 * dimensions when it explains the peers. */
bool topology_pattern_at(const struct run *r, uint32_t ndims, struct grid *g);
/* For codes that decompose by hand, in their own axis order and factorisation (peer_grid.c): the
 * grids of every rung at once, the rule of the code's decomposition (grid_rule.h) that explains the
 * peers of every rung as grid neighbours (faces first, then the 27-point neighbourhood; fewest
 * dimensions first, only those the code asked MPI_Dims_create for when it did) and tells something
 * at some rung; periodic[k] per dimension, from the peers. False with why: every hypothesis
 * tested, the rung whose peers refuted it and which rank talks to which off its grid. */
bool topology_from_peers(struct run *const *rungs, size_t n, struct grid *grids, bool *periodic, char *why,
			 size_t whylen);
/* the dimensionality the run asked MPI_Dims_create for, or 0 */
uint32_t topology_dims_create_asked(const struct run *r);
/* does some point-to-point peer on grid g need a wrap-around (a neighbour across a dimension of
 * 3 or more)? A hand-made grid is periodic when one does. */
bool topology_wraps(const struct run *r, const struct grid *g);

/* MPI_Dims_create(nranks, ndims) with every dim free: the most balanced factorization, largest
 * dimension first. */
void topology_dims_create(int64_t nranks, uint32_t ndims, struct grid *out);
/* the grid of nranks that the rungs' grids (n of them) lead to (grid_rule_target, the code taken
 * to have asked MPI_Dims_create; MPI_Dims_create's grid where the rules tie): the order of the
 * balanced factors that gave every rung's grid; else, when one dimension changes from rung to rung
 * and the others stay the same (a decomposition along x, as LAMMPS makes of a box long in x), the
 * others kept and that one given the rest; else MPI_Dims_create's (--target AxB names another) */
void topology_target_grid(const struct grid *grids, size_t n, int64_t nranks, struct grid *out);

/* "32x32" or "4x4x4"; false when malformed */
bool topology_parse_grid(const char *s, struct grid *out);

/* The part of a grid: ranks whose behaviour differs within a position class by a law of their
 * coordinates (the diagonal of a q x q grid, where a transpose partner is the rank itself, makes
 * no exchange). A part is c_i == c_j or c_i + c_j == d_j - 1 for dimensions i < j, numbered from
 * 1 (grid.part); the ranks on it form classes of their own, cls + TOPOLOGY_POS_CLASSES. */
uint32_t topology_nparts(void);   /* parts are numbered 1 .. topology_nparts() */
bool topology_on_part(const struct grid *g, int64_t rank);
/* "c0 == c1" */
void topology_part_name(uint32_t part, char *out, size_t outlen);
/* the classes of a grid: position classes, twice when it has a part; the id of the i-th */
uint32_t topology_nclasses(const struct grid *g);
uint32_t topology_class_id(const struct grid *g, uint32_t i);

/* the class of a rank: its position class, and whether it is on the grid's part */
uint32_t topology_class(const struct grid *g, int64_t rank);
/* the position (POS_*) of class cls in dimension k, and the class with that position replaced */
uint32_t topology_class_pos(uint32_t cls, uint32_t ndims, uint32_t k);
uint32_t topology_class_with(uint32_t cls, uint32_t ndims, uint32_t k, uint32_t pos);
/* the class's coordinate range in each dimension (a class on or off a part: of its position); false
 * when the class has no rank on g */
bool topology_class_box(const struct grid *g, uint32_t cls, int64_t *lo, int64_t *hi);
/* "low/interior" per dimension, for messages (" on its part" for a class on a grid's part) */
void topology_class_name(uint32_t cls, uint32_t ndims, char *out, size_t outlen);

#endif
