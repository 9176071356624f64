/*
 * geometry — peers as moves on the grid. See geometry.h.
 */
#include "extrap/geometry.h"

#include <stdio.h>

#include "extrap/topology.h"

/* the coordinates of the first rank of the class's box, and that rank */
static bool class_corner(const struct grid *g, uint32_t cls, int64_t *c, int64_t *rank)
{
	int64_t hi[LAW_MAX_DIMS];
	if (!topology_class_box(g, cls, c, hi))
		return false;
	*rank = grid_rank_of(g, c);
	return true;
}

static void coords_of(const struct grid *g, int64_t rank, int64_t *c)
{
	for (uint32_t k = 0; k < g->ndims; k++)
		c[k] = grid_coord(g, rank, k);
}

/* where a move of s (-1, 0, +1) from coordinate c lands on a dimension of size d; -1 off the grid */
static int64_t land(int64_t c, int s, int64_t d, bool wrap)
{
	int64_t x = c + s;
	if (x >= 0 && x < d)
		return x;
	return wrap ? (x + d) % d : -1;
}

bool step_of_offset(const struct grid *g, const bool *periodic, uint32_t cls, int64_t offset, struct step *out)
{
	int64_t me[LAW_MAX_DIMS], peer[LAW_MAX_DIMS], rank;
	if (!class_corner(g, cls, me, &rank) || rank + offset < 0 || rank + offset >= grid_size(g))
		return false;
	coords_of(g, rank + offset, peer);
	for (uint32_t k = 0; k < g->ndims; k++) {
		out->mask[k] = 0;
		for (int s = -1; s <= 1; s++)
			if (land(me[k], s, g->dims[k], periodic[k]) == peer[k])
				out->mask[k] |= (uint8_t)(1u << (s + 1));
		if (!out->mask[k])
			return false;
	}
	return true;
}

bool step_meet(struct step *a, const struct step *b, uint32_t ndims)
{
	bool ok = true;
	for (uint32_t k = 0; k < ndims; k++) {
		a->mask[k] &= b->mask[k];
		ok = ok && a->mask[k];
	}
	return ok;
}

int step_dim(const struct step *s, uint32_t ndims)
{
	int dim = -1;
	for (uint32_t k = 0; k < ndims; k++) {
		if (s->mask[k] & STEP_STAY)
			continue;
		if (dim >= 0)
			return -1;
		dim = (int)k;
	}
	return dim;
}

int step_sign(const struct step *s, uint32_t dim)
{
	uint8_t m = s->mask[dim] & (STEP_NEG | STEP_POS);
	return m == STEP_NEG ? -1 : m == STEP_POS ? 1 : 0;
}

bool step_offset(const struct step *s, const struct grid *t, uint32_t cls, int64_t *offset, uint32_t *undecided)
{
	int64_t me[LAW_MAX_DIMS], rank, to = 0;
	if (!class_corner(t, cls, me, &rank))
		return false;
	for (uint32_t k = 0; k < t->ndims; k++) {
		int64_t at = -1;
		for (int m = -1; m <= 1; m++) {
			if (!(s->mask[k] & (1u << (m + 1))))
				continue;
			int64_t x = land(me[k], m, t->dims[k], true);
			if (at >= 0 && x != at) {
				*undecided = k;
				return false;
			}
			at = x;
		}
		to = to * t->dims[k] + at;
	}
	*offset = to - rank;
	return true;
}

void step_format(const struct step *s, uint32_t ndims, char *out, size_t outlen)
{
	static const char *const names[8] = {"?", "-1", "0", "-1|0", "+1", "+-1", "0|+1", "any"};
	size_t used = (size_t)snprintf(out, outlen, "(");
	for (uint32_t k = 0; k < ndims && used < outlen; k++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%s", k ? "," : "", names[s->mask[k] & 7]);
	if (used < outlen)
		snprintf(out + used, outlen - used, ")");
}
