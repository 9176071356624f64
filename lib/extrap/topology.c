/*
 * topology — grids from MPI_Cart_create, MPI_Dims_create's factorization, position classes.
 * See topology.h.
 */
#include "extrap/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the values of the dims and periods groups of an MPI_Cart_create signature */
static bool cart_values(const struct run *r, const struct run_signature *s, const int64_t **dims,
			const int64_t **periods, int64_t *ndims)
{
	const struct fn_desc *d = &r->fns[s->fn];
	const int64_t *v = r->sigvals + s->voff;
	uint32_t i = 0;
	*dims = *periods = NULL;
	for (uint32_t p = 0; p < d->nparams; p++) {
		bool bad = false;
		uint32_t w = group_width(d->params[p].kind, v, i, s->nvals, &bad);
		if (bad)
			return false;
		if (d->params[p].kind == PK_INTS && v[i] != SV_STREAMED) {
			if (!strcmp(d->params[p].name, "dims"))
				*dims = v + i + 1, *ndims = v[i];
			else if (!strcmp(d->params[p].name, "periods"))
				*periods = v + i + 1;
		}
		i += w;
	}
	return *dims && *periods;
}

bool topology_from_cart(const struct run *r, struct grid *g, bool *periodic, char *why, size_t whylen)
{
	for (uint32_t i = 0; i < r->nsigs; i++) {
		if (strcmp(r->fns[r->sigs[i].fn].name, "MPI_Cart_create"))
			continue;
		const int64_t *dims, *periods;
		int64_t ndims = 0;
		if (!cart_values(r, &r->sigs[i], &dims, &periods, &ndims) || ndims < 1 || ndims > LAW_MAX_DIMS) {
			snprintf(why, whylen, "MPI_Cart_create's dims are not recorded as a grid of 1 to %d dimensions",
				 LAW_MAX_DIMS);
			return false;
		}
		g->ndims = (uint32_t)ndims;
		*periodic = false;
		for (uint32_t k = 0; k < g->ndims; k++) {
			g->dims[k] = dims[k];
			*periodic = *periodic || periods[k];
		}
		if (grid_size(g) != r->nranks) {
			char text[64];
			grid_format(g, text, sizeof text);
			snprintf(why, whylen, "MPI_Cart_create's grid %s does not hold the run's %u ranks", text, r->nranks);
			return false;
		}
		return true;
	}
	snprintf(why, whylen, "the run made no MPI_Cart_create call");
	return false;
}

/* best factorization of n into `left` factors, each <= cap, non-increasing; spread = max - min */
static void factor(int64_t n, uint32_t left, int64_t cap, int64_t *cur, uint32_t depth, int64_t *best,
		   int64_t *best_spread)
{
	if (left == 1) {
		if (n > cap)
			return;
		cur[depth] = n;
		int64_t spread = cur[0] - n;
		if (*best_spread < 0 || spread < *best_spread) {
			*best_spread = spread;
			memcpy(best, cur, (depth + 1) * sizeof *cur);
		}
		return;
	}
	for (int64_t f = cap < n ? cap : n; f >= 1; f--) {
		if (n % f)
			continue;
		cur[depth] = f;
		factor(n / f, left - 1, f, cur, depth + 1, best, best_spread);
	}
}

void topology_dims_create(int64_t nranks, uint32_t ndims, struct grid *out)
{
	int64_t cur[LAW_MAX_DIMS], spread = -1;
	out->ndims = ndims;
	factor(nranks, ndims, nranks, cur, 0, out->dims, &spread);
}

bool topology_parse_grid(const char *s, struct grid *out)
{
	out->ndims = 0;
	for (;;) {
		char *end;
		long long v = strtoll(s, &end, 10);
		if (end == s || v < 1 || v > (1LL << 30) || out->ndims == LAW_MAX_DIMS)
			return false;
		out->dims[out->ndims++] = v;
		if (*end == 0)
			return grid_size(out) <= (1LL << 31);
		if (*end != 'x')
			return false;
		s = end + 1;
	}
}

uint32_t topology_class(const struct grid *g, int64_t rank)
{
	uint32_t cls = 0, weight = 1;
	for (int k = (int)g->ndims - 1; k >= 0; k--) {
		int64_t c = rank % g->dims[k];
		rank /= g->dims[k];
		uint32_t pos = g->dims[k] == 1 ? POS_SINGLE : c == 0 ? POS_LOW : c == g->dims[k] - 1 ? POS_HIGH : POS_INTERIOR;
		cls += pos * weight;
		weight *= POS_KINDS;
	}
	return cls;
}

static uint32_t class_pos(uint32_t cls, uint32_t ndims, uint32_t k)
{
	for (uint32_t j = ndims - 1; j > k; j--)
		cls /= POS_KINDS;
	return cls % POS_KINDS;
}

bool topology_class_box(const struct grid *g, uint32_t cls, int64_t *lo, int64_t *hi)
{
	for (uint32_t k = 0; k < g->ndims; k++) {
		int64_t d = g->dims[k];
		switch (class_pos(cls, g->ndims, k)) {
		case POS_LOW: lo[k] = 0, hi[k] = 0; break;
		case POS_HIGH: lo[k] = d - 1, hi[k] = d - 1; break;
		case POS_INTERIOR: lo[k] = 1, hi[k] = d - 2; break;
		default: lo[k] = 0, hi[k] = d == 1 ? 0 : -1; break;
		}
		if (d == 1 ? class_pos(cls, g->ndims, k) != POS_SINGLE : hi[k] < lo[k])
			return false;
	}
	return true;
}

void topology_class_name(uint32_t cls, uint32_t ndims, char *out, size_t outlen)
{
	static const char *const names[] = {"low", "interior", "high", "single"};
	size_t used = 0;
	out[0] = 0;
	for (uint32_t k = 0; k < ndims && used < outlen; k++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%s", k ? "/" : "", names[class_pos(cls, ndims, k)]);
}
