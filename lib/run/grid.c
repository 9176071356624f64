/* grid — a process grid's size, name, strides and the coordinates of its ranks (grid.h) */
#include "run/grid.h"

#include <stdio.h>
#include <string.h>

int64_t grid_size(const struct grid *g)
{
	int64_t p = 1;
	for (uint32_t k = 0; k < g->ndims; k++)
		p *= g->dims[k];
	return p;
}

void grid_format(const struct grid *g, char *out, size_t outlen)
{
	size_t used = 0;
	out[0] = 0;
	for (uint32_t k = 0; k < g->ndims && used < outlen; k++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%lld", k ? "x" : "", (long long)g->dims[k]);
}

int64_t grid_stride(const struct grid *g, uint32_t dim)
{
	int64_t s = 1;
	for (uint32_t k = dim + 1; k < g->ndims; k++)
		s *= g->dims[k];
	return s;
}

int64_t grid_coord(const struct grid *g, int64_t rank, uint32_t dim)
{
	return rank / grid_stride(g, dim) % g->dims[dim];
}

int64_t grid_rank_of(const struct grid *g, const int64_t *coords)
{
	int64_t rank = 0;
	for (uint32_t k = 0; k < g->ndims; k++)
		rank = rank * g->dims[k] + coords[k];
	return rank;
}

bool grid_equal(const struct grid *a, const struct grid *b)
{
	return a->ndims == b->ndims && !memcmp(a->dims, b->dims, a->ndims * sizeof *a->dims);
}
