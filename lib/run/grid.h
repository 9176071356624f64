/*
 * grid — a process grid of ranks: ndims dimensions d_0 x ... x d_{n-1}, outermost first, row-major
 * with the last dimension fastest (as MPI numbers a Cartesian grid and MPI_Dims_create orders its
 * dimensions). The coordinate of a rank in dimension i is (rank / s_i) mod d_i, with the stride
 * s_i = d_{i+1} * ... * d_{n-1} (1 for the last dimension); a rank is the sum of its coordinates
 * times their strides.
 *
 * The one grid type of the run model (rank_law's fits), extrapolation (the rungs' and the target's
 * grids) and the streams' laws. part is extrapolation's own refinement (extrap/topology.h): 0 but
 * where its classes also split by a law of the coordinates; nothing here reads it.
 */
#ifndef LADDER_RUN_GRID_H
#define LADDER_RUN_GRID_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#define GRID_MAX_NDIMS 3

struct grid {
	uint32_t ndims;
	int64_t dims[GRID_MAX_NDIMS];   /* outermost first; row-major, the last dimension fastest */
	uint32_t part;                  /* extrap/topology.h's topology_part; 0: by position only */
};

/* the number of ranks: the product of the dimensions */
int64_t grid_size(const struct grid *g);
/* "4x4" */
void grid_format(const struct grid *g, char *out, size_t outlen);
/* the stride of dimension dim: the product of the dimensions after it */
int64_t grid_stride(const struct grid *g, uint32_t dim);
/* the coordinate of rank in dimension dim: (rank / stride) mod d_dim */
int64_t grid_coord(const struct grid *g, int64_t rank, uint32_t dim);
/* the rank at coordinates coords[0..ndims): the sum of each coordinate times its stride */
int64_t grid_rank_of(const struct grid *g, const int64_t *coords);
/* the same dimensions in the same order (part aside) */
bool grid_equal(const struct grid *a, const struct grid *b);

#endif
