/*
 * partner_family — the partner laws of partner_family.h: evaluated on a grid, and stated as laws of
 * the rank.
 */
#include "extrap/partner_family.h"

#include <stdio.h>
#include <string.h>

#include "util/xalloc.h"

static const uint8_t kinds[] = {PARTNER_XOR,    PARTNER_RING_UP, PARTNER_RING_DOWN,
				PARTNER_MIRROR, PARTNER_NEXT,    PARTNER_PREV};

/* the skews: per dimension d, per other dimension e, up and down */
static uint32_t skew_count(uint32_t ndims) { return ndims >= 2 ? 2 * ndims * (ndims - 1) : 0; }

uint32_t partner_family_count(uint32_t ndims)
{
	return (uint32_t)(sizeof kinds) * ndims * 2 + (ndims == 2) + skew_count(ndims);
}

void partner_family_nth(uint32_t ndims, uint32_t i, struct partner_family *out)
{
	uint32_t per = (uint32_t)(sizeof kinds) * 2;
	if (i < per * ndims) {
		*out = (struct partner_family){kinds[(i % per) / 2], (uint8_t)(i / per), (i % 2) == 1, 0};
		return;
	}
	i -= per * ndims;
	if (ndims == 2 && i == 0) {
		*out = (struct partner_family){PARTNER_TRANSPOSE, 0, false, 0};
		return;
	}
	i -= ndims == 2;
	uint32_t pair = i / 2, d = ndims > 1 ? pair / (ndims - 1) : 0, e = ndims > 1 ? pair % (ndims - 1) : 0;
	*out = (struct partner_family){i % 2 ? PARTNER_SKEW_DOWN : PARTNER_SKEW_UP, (uint8_t)d, false,
				       (uint8_t)(e < d ? e : e + 1)};
}

bool partner_is_piecewise(const struct partner_family *f)
{
	return f->kind == PARTNER_SKEW_UP || f->kind == PARTNER_SKEW_DOWN;
}

static uint64_t index_k(const struct partner_family *f, uint64_t j, uint64_t L)
{
	if (f->kind == PARTNER_NEXT || f->kind == PARTNER_PREV || f->kind == PARTNER_MIRROR)
		return 0;   /* the same partner in every call */
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
	if (partner_is_piecewise(f)) {
		if (f->by >= g->ndims || f->by == f->dim)
			return -1;
		int64_t d = g->dims[f->dim], c = grid_coord(g, rank, f->dim), e = grid_coord(g, rank, f->by) % d;
		int64_t to = f->kind == PARTNER_SKEW_UP ? (c + e) % d : (c - e + d) % d;
		return rank + (to - c) * grid_stride(g, f->dim);
	}
	uint64_t k = index_k(f, j, L);
	int64_t d = g->dims[f->dim], c = grid_coord(g, rank, f->dim), to, bit;
	if (k >= 62)
		return -1;
	bit = INT64_C(1) << k;
	switch (f->kind) {
	case PARTNER_XOR: to = c ^ bit; break;
	case PARTNER_NEXT:
	case PARTNER_RING_UP: to = (c + bit % d) % d; break;
	case PARTNER_PREV:
	case PARTNER_RING_DOWN: to = ((c - bit % d) % d + d) % d; break;
	default: to = d - 1 - c; break;
	}
	if (to < 0 || to >= d)
		return -1;
	return rank + (to - c) * grid_stride(g, f->dim);
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
	if (partner_is_piecewise(f)) {
		snprintf(why, whylen, "%s: no law of the rank, but one partner on each piece of the grid", name);
		return false;
	}
	uint64_t k = index_k(f, j, L);
	int64_t d = g->dims[f->dim], s = grid_stride(g, f->dim);
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
	case PARTNER_NEXT:
	case PARTNER_PREV:
	case PARTNER_RING_UP:
	case PARTNER_RING_DOWN: {
		bool up = f->kind == PARTNER_RING_UP || f->kind == PARTNER_NEXT;
		int64_t shift = up ? bit % d : (d - bit % d) % d;
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
	case PARTNER_NEXT: snprintf(out, outlen, "+1 on the ring of dimension %u", f->dim); break;
	case PARTNER_PREV: snprintf(out, outlen, "-1 on the ring of dimension %u", f->dim); break;
	case PARTNER_SKEW_UP:
	case PARTNER_SKEW_DOWN:
		snprintf(out, outlen, "shift by %sc%u on the ring of dimension %u", f->kind == PARTNER_SKEW_UP ? "+" : "-",
			 f->by, f->dim);
		break;
	default: snprintf(out, outlen, "transpose"); break;
	}
}

/* where the skew f wraps along its dimension on the line c_by = e: the first coordinate past it */
static int64_t wrap_at(const struct partner_family *f, int64_t d, int64_t e)
{
	e %= d;
	return f->kind == PARTNER_SKEW_UP ? d - e : e;
}

size_t partner_pieces(const struct partner_family *f, size_t n, const struct grid *g, const int64_t *lo,
		      const int64_t *hi, struct partner_piece **out, char *why, size_t whylen)
{
	*out = NULL;
	if (!n || f[0].dim >= g->ndims || f[0].by >= g->ndims || f[0].by == f[0].dim) {
		snprintf(why, whylen, "no skew on the grid");
		return 0;
	}
	uint32_t dim = f[0].dim, by = f[0].by;
	for (size_t i = 0; i < n; i++)
		if (!partner_is_piecewise(&f[i]) || f[i].dim != dim || f[i].by != by) {
			char a[80], b[80];
			partner_family_name(&f[0], a, sizeof a);
			partner_family_name(&f[i], b, sizeof b);
			snprintf(why, whylen, "one call's partners are %s and %s: skews of different dimensions", a, b);
			return 0;
		}
	int64_t d = g->dims[dim];
	size_t count = 0, cap = (size_t)(hi[by] - lo[by] + 1) * (n + 1);
	*out = xcalloc(cap, sizeof **out);
	for (int64_t e = lo[by]; e <= hi[by]; e++) {
		int64_t cut[8];
		size_t ncut = 0;
		for (size_t i = 0; i < n && ncut < 8; i++) {   /* the wraps inside lo..hi, ascending, once each */
			int64_t w = wrap_at(&f[i], d, e);
			if (w <= lo[dim] || w > hi[dim])
				continue;
			size_t at = 0;
			while (at < ncut && cut[at] < w)
				at++;
			if (at < ncut && cut[at] == w)
				continue;
			memmove(cut + at + 1, cut + at, (ncut - at) * sizeof *cut);
			cut[at] = w, ncut++;
		}
		int64_t from = lo[dim];
		for (size_t c = 0; c <= ncut; c++) {
			struct partner_piece *p = &(*out)[count++];
			for (uint32_t x = 0; x < g->ndims; x++)
				p->lo[x] = lo[x], p->hi[x] = hi[x];
			p->lo[by] = p->hi[by] = e;
			p->lo[dim] = from;
			p->hi[dim] = c < ncut ? cut[c] - 1 : hi[dim];
			from = p->hi[dim] + 1;
		}
	}
	return count;
}
