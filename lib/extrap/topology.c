/*
 * topology — grids from MPI_Cart_create, MPI_Dims_create's factorization, position classes.
 * See topology.h.
 */
#include "extrap/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "extrap/grid_rule.h"
#include "extrap/peer_pairs.h"
#include "util/xalloc.h"

/* the values of the dims and periods groups of an MPI_Cart_create signature */
static bool cart_values(const struct run *r, const struct run_signature *s, const int64_t **dims,
			const int64_t **periods, int64_t *ndims)
{
	const int64_t *d = run_param(r, s, PK_INTS, "dims", NULL), *p = run_param(r, s, PK_INTS, "periods", NULL);
	if (!d || !p || d[0] == SV_STREAMED || p[0] == SV_STREAMED)
		return false;
	*dims = d + 1, *periods = p + 1, *ndims = d[0];
	return true;
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
		for (uint32_t k = 0; k < g->ndims; k++) {
			g->dims[k] = dims[k];
			periodic[k] = periods[k] != 0;
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
	/* n's divisors up to cap, largest first: the pairs (d, n / d) below its square root, not every
	 * number below n (a million ranks took milliseconds) */
	int64_t *small = NULL, *large = NULL;
	size_t nsmall = 0, nlarge = 0, capsmall = 0, caplarge = 0;
	for (int64_t d = 1; d * d <= n; d++)
		if (n % d == 0) {
			XGROW(small, capsmall, nsmall + 1);
			small[nsmall++] = d;
			if (d * d != n) {
				XGROW(large, caplarge, nlarge + 1);
				large[nlarge++] = n / d;
			}
		}
	for (size_t i = 0; i < nlarge + nsmall; i++) {
		int64_t f = i < nlarge ? large[i] : small[nsmall - 1 - (i - nlarge)];
		if (f > cap)
			continue;
		cur[depth] = f;
		factor(n / f, left - 1, f, cur, depth + 1, best, best_spread);
	}
	free(small);
	free(large);
}

void topology_dims_create(int64_t nranks, uint32_t ndims, struct grid *out)
{
	int64_t cur[LAW_MAX_DIMS], spread = -1;
	out->ndims = ndims;
	out->part = 0;
	factor(nranks, ndims, nranks, cur, 0, out->dims, &spread);
}

void topology_target_grid(const struct grid *grids, size_t n, int64_t nranks, struct grid *out)
{
	char rule[200], why[600];
	if (!grid_rule_target(grids, n, nranks, true, out, rule, sizeof rule, why, sizeof why))
		topology_dims_create(nranks, grids[0].ndims, out);
}

bool topology_parse_grid(const char *s, struct grid *out)
{
	out->ndims = 0;
	out->part = 0;
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

uint32_t topology_nparts(void) { return LAW_MAX_DIMS * (LAW_MAX_DIMS - 1); }

/* the dimensions i < j of a part and whether it is the anti-diagonal */
static void part_dims(uint32_t part, uint32_t *i, uint32_t *j, bool *anti)
{
	uint32_t n = 0;
	for (uint32_t kind = 0; kind < 2; kind++)
		for (uint32_t a = 0; a < LAW_MAX_DIMS; a++)
			for (uint32_t b = a + 1; b < LAW_MAX_DIMS; b++)
				if (++n == part)
					*i = a, *j = b, *anti = kind;
}

/* does (ci, cj) lie on the part of dimensions i, j (size dj of j)? */
static bool on_part(bool anti, int64_t ci, int64_t cj, int64_t dj) { return anti ? ci + cj == dj - 1 : ci == cj; }

bool topology_on_part(const struct grid *g, int64_t rank)
{
	uint32_t i = 0, j = 0;
	bool anti = false;
	if (!g->part)
		return false;
	part_dims(g->part, &i, &j, &anti);
	return j < g->ndims && on_part(anti, grid_coord(g, rank, i), grid_coord(g, rank, j), g->dims[j]);
}

void topology_part_name(uint32_t part, char *out, size_t outlen)
{
	uint32_t i = 0, j = 0;
	bool anti = false;
	part_dims(part, &i, &j, &anti);
	if (anti)
		snprintf(out, outlen, "c%u + c%u == d%u - 1", i, j, j);
	else
		snprintf(out, outlen, "c%u == c%u", i, j);
}

uint32_t topology_nclasses(const struct grid *g)
{
	uint32_t n = 1;
	for (uint32_t k = 0; k < g->ndims; k++)
		n *= POS_KINDS;
	return g->part ? 2 * n : n;
}

uint32_t topology_class_id(const struct grid *g, uint32_t i)
{
	uint32_t n = g->part ? topology_nclasses(g) / 2 : topology_nclasses(g);
	return i < n ? i : i - n + TOPOLOGY_POS_CLASSES;
}

uint32_t topology_class(const struct grid *g, int64_t rank)
{
	uint32_t cls = topology_on_part(g, rank) ? TOPOLOGY_POS_CLASSES : 0, weight = 1;
	for (int k = (int)g->ndims - 1; k >= 0; k--) {
		int64_t c = grid_coord(g, rank, (uint32_t)k);
		uint32_t pos = g->dims[k] == 1 ? POS_SINGLE : c == 0 ? POS_LOW : c == g->dims[k] - 1 ? POS_HIGH : POS_INTERIOR;
		cls += pos * weight;
		weight *= POS_KINDS;
	}
	return cls;
}

static uint32_t class_pos(uint32_t cls, uint32_t ndims, uint32_t k)
{
	cls %= TOPOLOGY_POS_CLASSES;
	for (uint32_t j = ndims - 1; j > k; j--)
		cls /= POS_KINDS;
	return cls % POS_KINDS;
}

uint32_t topology_class_pos(uint32_t cls, uint32_t ndims, uint32_t k)
{
	return class_pos(cls, ndims, k);
}

uint32_t topology_class_with(uint32_t cls, uint32_t ndims, uint32_t k, uint32_t pos)
{
	uint32_t weight = 1;
	for (uint32_t j = ndims - 1; j > k; j--)
		weight *= POS_KINDS;
	return cls - class_pos(cls, ndims, k) * weight + pos * weight;
}

/* has the box ranks on (off) the grid's part? */
static bool box_meets_part(const struct grid *g, bool on, const int64_t *lo, const int64_t *hi)
{
	uint32_t i = 0, j = 0;
	bool anti = false;
	part_dims(g->part, &i, &j, &anti);
	if (j >= g->ndims)
		return !on;
	int64_t jlo = anti ? g->dims[j] - 1 - hi[j] : lo[j], jhi = anti ? g->dims[j] - 1 - lo[j] : hi[j];
	bool meets = jlo <= hi[i] && lo[i] <= jhi;   /* some ci equals the coordinate cj asks for */
	bool single = lo[i] == hi[i] && lo[j] == hi[j];
	return on ? meets : !(single && on_part(anti, lo[i], lo[j], g->dims[j]));
}

bool topology_class_box(const struct grid *g, uint32_t cls, int64_t *lo, int64_t *hi)
{
	if (cls >= TOPOLOGY_POS_CLASSES && !g->part)
		return false;
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
	return !g->part || box_meets_part(g, cls >= TOPOLOGY_POS_CLASSES, lo, hi);
}

void topology_class_name(uint32_t cls, uint32_t ndims, char *out, size_t outlen)
{
	static const char *const names[] = {"low", "interior", "high", "single"};
	size_t used = 0;
	out[0] = 0;
	for (uint32_t k = 0; k < ndims && used < outlen; k++)
		used += (size_t)snprintf(out + used, outlen - used, "%s%s", k ? "/" : "", names[class_pos(cls, ndims, k)]);
	if (cls >= TOPOLOGY_POS_CLASSES && used < outlen)
		snprintf(out + used, outlen - used, " on its part");
}

bool topology_wraps(const struct run *r, const struct grid *g)
{
	struct peer_pairs p;
	bool wraps[LAW_MAX_DIMS], ok, wrapped = false;
	peer_pairs_collect(r, &p);
	ok = peer_grid_explains(&p, r->nranks, g, false, wraps, NULL) ||
	     peer_grid_explains(&p, r->nranks, g, true, wraps, NULL);
	peer_pairs_free(&p);
	for (uint32_t k = 0; k < g->ndims; k++)
		wrapped = wrapped || wraps[k];
	return ok && wrapped;
}

uint32_t topology_dims_create_asked(const struct run *r)
{
	for (uint32_t i = 0; i < r->nsigs; i++) {
		const struct run_signature *s = &r->sigs[i];
		const int64_t *v = r->sigvals + s->voff;
		if (!strcmp(r->fns[s->fn].name, "MPI_Dims_create") && s->nvals >= 2 && v[1] >= 1 && v[1] <= LAW_MAX_DIMS)
			return (uint32_t)v[1];
	}
	return 0;
}

/* every ordered factorization of the rank count into ndims factors, through fn */
static void each_grid(struct grid *g, uint32_t k, int64_t left, void (*fn)(const struct grid *, void *), void *arg)
{
	if (k + 1 == g->ndims) {
		g->dims[k] = left;
		fn(g, arg);
		return;
	}
	for (int64_t f = 1; f <= left; f++)
		if (left % f == 0) {
			g->dims[k] = f;
			each_grid(g, k + 1, left / f, fn, arg);
		}
}

struct detection {
	const struct peer_pairs *pairs;
	int64_t nranks;
	bool moore;
	struct grid balanced, found;
	uint32_t nfound;
	bool balanced_fits;
};

static void try_grid(const struct grid *g, void *arg)
{
	struct detection *d = arg;
	bool wraps[LAW_MAX_DIMS];
	if (!peer_grid_explains(d->pairs, d->nranks, g, d->moore, wraps, NULL))
		return;
	if (!memcmp(g->dims, d->balanced.dims, g->ndims * sizeof *g->dims))
		d->balanced_fits = true;
	if (d->nfound++ == 0)
		d->found = *g;
}

/* the ndims grids on which the pairs are neighbours: one to one dimension first, then the
 * 27-point neighbourhood; d holds what was found */
static void detect(const struct peer_pairs *p, int64_t nranks, uint32_t ndims, struct detection *d)
{
	for (int moore = 0; moore < 2; moore++) {
		*d = (struct detection){.pairs = p, .nranks = nranks, .moore = moore};
		topology_dims_create(nranks, ndims, &d->balanced);
		struct grid cand = {ndims, {0}, 0};
		each_grid(&cand, 0, nranks, try_grid, d);
		if (d->nfound)
			return;
	}
}

/* on a grid where every rank is a neighbour of every other (2x2x2 or 3x2x2 in the 27-point
 * neighbourhood) any pattern fits: such a fit says nothing about the grid */
static bool informative(const struct grid *g, bool moore)
{
	uint32_t wide = 0;
	for (uint32_t k = 0; k < g->ndims; k++) {
		if (g->dims[k] >= 4)
			return true;
		wide += g->dims[k] >= 2;
	}
	return !moore && wide >= 2;
}

/* a rank that talks to every other (the master of a master-worker code), or -1 */
static int64_t hub_rank(const struct peer_pairs *p, int64_t nranks)
{
	if (nranks < 3)
		return -1;
	uint32_t *peers = xcalloc((size_t)nranks, sizeof *peers);
	int64_t hub = -1;
	for (size_t i = 0; i < p->n && hub < 0; i++)   /* pairs are distinct: a count is of distinct peers */
		if (p->me[i] >= 0 && p->me[i] < nranks && ++peers[p->me[i]] >= (uint64_t)nranks - 1)
			hub = p->me[i];
	free(peers);
	return hub;
}

/* why no grid explains the peers, in words a user can act on: what was tried, a pair off the
 * balanced grid, and whether the code (a master that talks to everyone) or ladder (a partner law
 * it does not know yet) is the likely cause */
static void explain_no_grid(const struct peer_pairs *p, int64_t nranks, uint32_t ndims, bool asked, char *why,
			    size_t whylen)
{
	struct grid bal;
	topology_dims_create(nranks, ndims, &bal);
	char text[64];
	grid_format(&bal, text, sizeof text);
	bool wraps[LAW_MAX_DIMS];
	size_t failed = 0;
	bool off = !peer_grid_explains(p, nranks, &bal, true, wraps, &failed) && failed < p->n;
	int64_t hub = hub_rank(p, nranks);
	char example[160] = "";
	if (off)
		snprintf(example, sizeof example, "; on %s, rank %lld talks to rank %lld, which is no neighbour of it",
			 text, (long long)p->me[failed], (long long)(p->me[failed] + p->off[failed]));
	char cause[240];
	if (hub >= 0)
		snprintf(cause, sizeof cause, "rank %lld talks to every other rank, as the master of a master-worker code "
			 "does: its partners follow the code's data, and more rungs would not help", (long long)hub);
	else
		snprintf(cause, sizeof cause, "the partners may follow a law ladder does not know yet (distance 2^k, "
			 "XOR, a transpose or a skew, coarse levels) or the code's data");
	char dims[80] = "grid";
	if (asked)
		snprintf(dims, sizeof dims, "%u-D grid (the dimensions MPI_Dims_create was asked for)", ndims);
	snprintf(why, whylen,
		 "no %s of %lld ranks has every point-to-point peer as a grid neighbour (tried: every "
		 "factorisation in every axis order, face neighbours and the 27-point neighbourhood%s)%s; %s",
		 dims, (long long)nranks, asked ? "" : ", 1-D and balanced 2-D and 3-D grids", example, cause);
}

bool topology_from_pattern(const struct run *r, struct grid *g, char *why, size_t whylen)
{
	uint32_t asked = topology_dims_create_asked(r), ndims = asked ? asked : 1;
	struct peer_pairs p;
	struct detection d;
	peer_pairs_collect(r, &p);
	detect(&p, r->nranks, ndims, &d);
	/* nothing tells the dimensionality and the ranks are no line: the fewest dimensions whose
	 * balanced factorisation of the rank count (MPI_Dims_create's rule computed by hand) explains
	 * the peers, where some ranks are no neighbours (a 3-D halo's 4x2x2 at 16 ranks) */
	for (uint32_t k = 2; !asked && !d.nfound && k <= LAW_MAX_DIMS; k++) {
		struct detection more;
		detect(&p, r->nranks, k, &more);
		if (more.balanced_fits && informative(&more.balanced, more.moore))
			d = more, ndims = k;
	}
	bool ok = d.balanced_fits || d.nfound == 1;
	if (ok)
		*g = d.balanced_fits ? d.balanced : d.found;
	else if (!d.nfound)
		explain_no_grid(&p, r->nranks, asked ? ndims : 2, asked, why, whylen);
	else
		snprintf(why, whylen, "%u %u-D grids of %u ranks explain the point-to-point peers equally", d.nfound, ndims,
			 r->nranks);
	peer_pairs_free(&p);
	return ok;
}

bool topology_pattern_at(const struct run *r, uint32_t ndims, struct grid *g)
{
	struct peer_pairs p;
	struct detection d;
	peer_pairs_collect(r, &p);
	detect(&p, r->nranks, ndims, &d);
	peer_pairs_free(&p);
	if (d.balanced_fits)
		*g = d.balanced;
	return d.balanced_fits;
}
