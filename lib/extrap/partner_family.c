/*
 * partner_family — the partner laws of partner_family.h: evaluated on a grid, and stated as laws of
 * the rank.
 */
#include "extrap/partner_family.h"

#include <stdio.h>
#include <string.h>

static const uint8_t kinds[] = {PARTNER_XOR, PARTNER_RING_UP, PARTNER_RING_DOWN, PARTNER_MIRROR};

uint32_t partner_family_count(uint32_t ndims)
{
	return (uint32_t)(sizeof kinds) * ndims * 2 + (ndims == 2);
}

void partner_family_nth(uint32_t ndims, uint32_t i, struct partner_family *out)
{
	uint32_t per = (uint32_t)(sizeof kinds) * 2;
	if (i >= per * ndims) {
		*out = (struct partner_family){PARTNER_TRANSPOSE, 0, false};
		return;
	}
	*out = (struct partner_family){kinds[(i % per) / 2], (uint8_t)(i / per), (i % 2) == 1};
}

static int64_t stride_of(const struct grid *g, uint32_t d)
{
	int64_t s = 1;
	for (uint32_t i = d + 1; i < g->ndims; i++)
		s *= g->dims[i];
	return s;
}

static int64_t coord_of(const struct grid *g, int64_t rank, uint32_t d)
{
	return rank / stride_of(g, d) % g->dims[d];
}

static uint64_t index_k(const struct partner_family *f, uint64_t j, uint64_t L)
{
	return f->down ? L - 1 - j : j;
}

int64_t partner_of(const struct partner_family *f, const struct grid *g, int64_t rank, uint64_t j, uint64_t L)
{
	if (j >= L || rank < 0 || rank >= grid_size(g))
		return -1;
	if (f->kind == PARTNER_TRANSPOSE) {
		if (g->ndims != 2 || g->dims[0] != g->dims[1])
			return -1;
		int64_t q = g->dims[0];
		return rank % q * q + rank / q;
	}
	if (f->dim >= g->ndims)
		return -1;
	uint64_t k = index_k(f, j, L);
	int64_t d = g->dims[f->dim], c = coord_of(g, rank, f->dim), to, bit;
	if (k >= 62)
		return -1;
	bit = INT64_C(1) << k;
	switch (f->kind) {
	case PARTNER_XOR: to = c ^ bit; break;
	case PARTNER_RING_UP: to = (c + bit % d) % d; break;
	case PARTNER_RING_DOWN: to = ((c - bit % d) % d + d) % d; break;
	default: to = d - 1 - c; break;
	}
	if (to < 0 || to >= d)
		return -1;
	return rank + (to - c) * stride_of(g, f->dim);
}

static void add_term(struct rank_law *l, int64_t coef, int64_t divisor, int64_t shift, int64_t modulus)
{
	l->terms[l->nterms++] = (struct rank_law_term){coef, (uint64_t)divisor, (uint64_t)shift, (uint64_t)modulus, 0, 0};
}

bool partner_rank_law(const struct partner_family *f, const struct grid *g, uint64_t j, uint64_t L,
		      struct rank_law *out, char *why, size_t whylen)
{
	memset(out, 0, sizeof *out);
	char name[80];
	partner_family_name(f, name, sizeof name);
	if (j >= L) {
		snprintf(why, whylen, "%s: call %llu of a loop of %llu", name, (unsigned long long)j, (unsigned long long)L);
		return false;
	}
	if (f->kind == PARTNER_TRANSPOSE) {
		if (g->ndims != 2 || g->dims[0] != g->dims[1]) {
			snprintf(why, whylen, "%s: the target grid is not square", name);
			return false;
		}
		int64_t q = g->dims[0];   /* (q - 1)(c1 - c0) */
		add_term(out, q - 1, 1, 0, q);
		add_term(out, -(q - 1), q, 0, q);
		return true;
	}
	if (f->dim >= g->ndims) {
		snprintf(why, whylen, "%s: the target grid has %u dimensions", name, g->ndims);
		return false;
	}
	uint64_t k = index_k(f, j, L);
	int64_t d = g->dims[f->dim], s = stride_of(g, f->dim);
	if (k >= 40 || (f->kind == PARTNER_XOR && d % (INT64_C(2) << k))) {
		snprintf(why, whylen, "%s: k = %llu, but dimension %u of the target is %lld wide", name,
			 (unsigned long long)k, f->dim, (long long)d);
		return false;
	}
	int64_t bit = INT64_C(1) << k;
	switch (f->kind) {
	case PARTNER_XOR:   /* +2^k where bit k of c is 0, -2^k where it is 1 */
		out->base = s * bit;
		add_term(out, -2 * s * bit, s * bit, 0, 2);
		break;
	case PARTNER_RING_UP:
	case PARTNER_RING_DOWN: {
		int64_t shift = f->kind == PARTNER_RING_UP ? bit % d : (d - bit % d) % d;
		add_term(out, s, s, shift, d);
		add_term(out, -s, s, 0, d);
		break;
	}
	default:   /* mirror: s (d - 1 - 2c) */
		out->base = s * (d - 1);
		add_term(out, -2 * s, s, 0, d);
		break;
	}
	return true;
}

void partner_family_name(const struct partner_family *f, char *out, size_t outlen)
{
	const char *k = f->down ? "k = L-1-j" : "k = j";
	switch (f->kind) {
	case PARTNER_XOR: snprintf(out, outlen, "xor 2^k in dimension %u (%s)", f->dim, k); break;
	case PARTNER_RING_UP: snprintf(out, outlen, "distance +2^k on the ring of dimension %u (%s)", f->dim, k); break;
	case PARTNER_RING_DOWN: snprintf(out, outlen, "distance -2^k on the ring of dimension %u (%s)", f->dim, k); break;
	case PARTNER_MIRROR: snprintf(out, outlen, "mirror in dimension %u", f->dim); break;
	default: snprintf(out, outlen, "transpose"); break;
	}
}
