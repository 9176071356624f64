/*
 * ownhalo — a halo exchange on a process grid the code factors and numbers itself, as codes in
 * the field do it (no MPI_Cart_*, no MPI_Dims_create): the pattern of hand-decomposed CFD and
 * particle codes whose grid order is not MPI's.
 *
 * The decomposition: P is factored into ND (--dims 2 or 3, default 3) factors as balanced as
 * possible by trial division (the largest factor not above the ND-th root of what is left, taken
 * last), largest first: px >= py (>= pz). --order decides how ranks lie on them:
 *   x-fastest (default)  the largest factor on x and the rank index fastest along x:
 *                        rank = x + px*(y + py*z); at 8 ranks in 2-D, 2 rows of 4 columns
 *   z-fastest            the largest factor on x, the rank index fastest along the last axis, as
 *                        MPI numbers a Cartesian grid: rank = z + pz*(y + py*x)
 * A 3-D run on 4 ranks is 2x2x1: its z axis has one rank.
 *
 * Per iteration every rank exchanges a halo with its face neighbours (--points 7 in 3-D, 5 in
 * 2-D: the default) or with every rank of its 27- (9-) point neighbourhood (--points 27 or 9):
 * one loop posts an MPI_Irecv from the neighbour at -direction, one loop an MPI_Isend to the
 * neighbour at +direction (tag = the direction's index), then one MPI_Waitall. A corner of a
 * non-periodic 27-point halo talks to 7 ranks; with --skip-edges the neighbours beyond a
 * non-periodic edge are not called at all; --periodic wraps every axis. Without --skip-edges such neighbours are MPI_PROC_NULL and the
 * calls are made (they move no bytes), as stencil codes write it. A message holds one double per halo cell of the block:
 * the product of the block's extents along the axes the direction does not cross (a face n*n, an
 * edge n, a corner 1). Every --allreduce-every K iterations an MPI_Allreduce (SUM) of the
 * received sums.
 *
 * --comm dup: the halo and the reductions run on a duplicate of MPI_COMM_WORLD (MPI_Comm_dup at
 * the start, MPI_Comm_free at the end), as libraries do. --splits: the code also makes an
 * MPI_Comm_split with one colour for everybody and one with colour = rank (a communicator of
 * itself), reduces once over each and frees them: neither is a grid dimension.
 *
 * Weak scaling: --size N cells per axis per rank. Strong: --size N cells per axis globally, and
 * every factor must divide N. The data: element e of the message in direction k at iteration i is
 * a hash of (sender, k, i, e); the receiver sums them into the checksum (order-independent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

enum order { X_FASTEST, Z_FASTEST };

static struct {
	int nd, points, dup, splits, skip;
	enum order order;
} own = {3, 0, 0, 0, 0, X_FASTEST};

struct geom {
	int p[3];           /* ranks along x, y, z (1 beyond nd) */
	int c[3];           /* this rank's coordinates */
	long n[3];          /* block extent along each axis (1 beyond nd) */
	int ndir;
	int dir[26][3];
	int to[26], from[26];   /* rank at +direction and at -direction, -1: none */
};

/* P as nd factors, balanced, largest first (the code's own factorisation, by trial division) */
static void factor(int P, int nd, int *f)
{
	int left = P;
	for (int k = 0; k < 3; k++)
		f[k] = 1;
	for (int k = nd - 1; k > 0; k--) {
		int best = 1;
		for (int d = 1; d <= left; d++) {
			long pow = 1;
			for (int j = 0; j <= k; j++)
				pow *= d;
			if (pow > left)
				break;
			if (left % d == 0)
				best = d;
		}
		f[k] = best;
		left /= best;
	}
	f[0] = left;
	for (int i = 0; i < nd; i++)   /* largest first */
		for (int j = i + 1; j < nd; j++)
			if (f[j] > f[i]) {
				int t = f[i];
				f[i] = f[j], f[j] = t;
			}
}

static int rank_at(const struct geom *g, const int *c)
{
	if (own.order == X_FASTEST)
		return c[0] + g->p[0] * (c[1] + g->p[1] * c[2]);
	return c[2] + g->p[2] * (c[1] + g->p[1] * c[0]);
}

static void coords_of(const struct geom *g, int rank, int *c)
{
	if (own.order == X_FASTEST) {
		c[0] = rank % g->p[0], c[1] = rank / g->p[0] % g->p[1], c[2] = rank / (g->p[0] * g->p[1]);
	} else {
		c[2] = rank % g->p[2], c[1] = rank / g->p[2] % g->p[1], c[0] = rank / (g->p[2] * g->p[1]);
	}
}

/* the rank one step along d from c; off a non-periodic edge -1 (--skip-edges) or MPI_PROC_NULL */
static int step(const struct geom *g, const int *c, const int *d, int sign, int periodic)
{
	int to[3];
	for (int k = 0; k < 3; k++) {
		to[k] = c[k] + sign * d[k];
		if (to[k] < 0 || to[k] >= g->p[k]) {
			if (!periodic)
				return own.skip ? -1 : MPI_PROC_NULL;
			to[k] = (to[k] + g->p[k]) % g->p[k];
		}
	}
	return rank_at(g, to);
}

static void geom_init(const struct params *p, int P, int rank, struct geom *g)
{
	factor(P, own.nd, g->p);
	coords_of(g, rank, g->c);
	for (int k = 0; k < 3; k++)
		g->n[k] = k >= own.nd ? 1 : p->scaling == SCALING_WEAK ? p->size : p->size / g->p[k];
	g->ndir = 0;
	int full = own.points == 27 || own.points == 9;
	for (int dz = -(own.nd == 3); dz <= (own.nd == 3); dz++)
		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++) {
				int d[3] = {dx, dy, dz}, moved = !!dx + !!dy + !!dz;
				if (!moved || (!full && moved > 1))
					continue;
				memcpy(g->dir[g->ndir], d, sizeof d);
				g->to[g->ndir] = step(g, g->c, d, 1, p->periodic);
				g->from[g->ndir] = step(g, g->c, d, -1, p->periodic);
				g->ndir++;
			}
}

/* doubles in the halo message along direction k */
static long halo_cells(const struct geom *g, int k)
{
	long c = 1;
	for (int a = 0; a < own.nd; a++)
		c *= g->dir[k][a] ? 1 : g->n[a];
	return c;
}

static int own_check(const struct params *p, int P, char *msg, size_t len)
{
	if (p->manual_neighbours || p->sendrecv) {
		snprintf(msg, len, "--manual-neighbours and --sendrecv do not apply (neighbours are always by hand)");
		return -1;
	}
	int full = own.nd == 3 ? 27 : 9, face = own.nd == 3 ? 7 : 5;
	if (own.points && own.points != full && own.points != face) {
		snprintf(msg, len, "--points expects %d or %d in %d-D, got %d", face, full, own.nd, own.points);
		return -1;
	}
	int f[3];
	factor(P, own.nd, f);
	for (int k = 0; k < own.nd && p->scaling == SCALING_STRONG; k++)
		if (p->size % f[k]) {
			snprintf(msg, len, "strong scaling needs every factor of the grid to divide --size %ld; %d does not",
				 p->size, f[k]);
			return -1;
		}
	double cells = 1;
	for (int k = 0; k < own.nd; k++)
		cells *= (double)(p->scaling == SCALING_WEAK ? p->size : p->size / f[k]) + 2;
	return check_cells(p->size, cells, msg, len);
}

static void own_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t I = (uint64_t)p->iterations;
	for (int r = 0; r < P; r++) {
		struct geom g;
		geom_init(p, P, r, &g);
		uint64_t sends = 0, recvs = 0, sent = 0, got = 0;
		for (int k = 0; k < g.ndir; k++) {
			uint64_t b = 8 * (uint64_t)halo_cells(&g, k);
			sends += g.to[k] != -1, recvs += g.from[k] != -1;
			sent += g.to[k] >= 0 ? b : 0;
			got += g.from[k] >= 0 ? b : 0;
		}
		if (recvs)
			expect_add(t, r, "MPI_Irecv", recvs * I, 0, got * I);
		if (sends)
			expect_add(t, r, "MPI_Isend", sends * I, sent * I, 0);
		expect_add(t, r, "MPI_Waitall", I, 0, 0);
		uint64_t n = p->allreduce_every > 0 ? I / (uint64_t)p->allreduce_every : 0;
		n += own.splits ? 2 : 0;
		if (n)
			expect_add(t, r, "MPI_Allreduce", n, 8 * n, 8 * n);
		if (own.dup)
			expect_add(t, r, "MPI_Comm_dup", 1, 0, 0);
		if (own.splits)
			expect_add(t, r, "MPI_Comm_split", 2, 0, 0);
		if (own.dup || own.splits)
			expect_add(t, r, "MPI_Comm_free", (uint64_t)(own.dup + 2 * own.splits), 0, 0);
	}
}

/* reduce once over a split of comm with one colour, once over one with colour = rank */
static void split_reductions(MPI_Comm comm, int rank)
{
	MPI_Comm all, self;
	double v = rank, out;
	MPI_Comm_split(comm, 0, rank, &all);
	MPI_Comm_split(comm, rank, 0, &self);
	MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, all);
	sink(dbits(out));
	MPI_Allreduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, self);
	sink(dbits(out));
	MPI_Comm_free(&all);
	MPI_Comm_free(&self);
}

static void own_run(const struct params *p, struct run *r)
{
	struct geom g;
	geom_init(p, r->size, r->rank, &g);
	MPI_Comm comm = MPI_COMM_WORLD;
	if (own.dup)
		MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	if (own.splits)
		split_reductions(comm, r->rank);
	long most = 1;
	for (int k = 0; k < g.ndir; k++)
		most = halo_cells(&g, k) > most ? halo_cells(&g, k) : most;
	double *sbuf = app_alloc((size_t)(g.ndir * most), sizeof(double));
	double *rbuf = app_alloc((size_t)(g.ndir * most), sizeof(double));
	MPI_Request req[52];
	uint64_t sum = 0;
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		int nreq = 0;
		for (int k = 0; k < g.ndir; k++)
			if (g.from[k] != -1)
				MPI_Irecv(rbuf + k * most, (int)halo_cells(&g, k), MPI_DOUBLE, g.from[k], k, comm, &req[nreq++]);
		compute_begin(r);
		for (int k = 0; k < g.ndir; k++)
			for (long e = 0; e < halo_cells(&g, k); e++)
				sbuf[k * most + e] = unit_hash(mix64((uint64_t)r->rank * 1000003u + (uint64_t)k) ^
							       ((uint64_t)it << 32) ^ (uint64_t)e);
		compute_end(r);
		for (int k = 0; k < g.ndir; k++)
			if (g.to[k] != -1)
				MPI_Isend(sbuf + k * most, (int)halo_cells(&g, k), MPI_DOUBLE, g.to[k], k, comm, &req[nreq++]);
		MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
		double local = 0;
		for (int k = 0; k < g.ndir; k++)
			for (long e = 0; g.from[k] >= 0 && e < halo_cells(&g, k); e++) {
				local += rbuf[k * most + e];
				sum += mix64(dbits(rbuf[k * most + e]));
			}
		if (p->allreduce_every > 0 && (it + 1) % p->allreduce_every == 0) {
			double all;
			MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_SUM, comm);
			sink(dbits(all));
		}
	}
	loop_end(r);
	r->checksum = sum;
	if (own.dup)
		MPI_Comm_free(&comm);
	free(sbuf);
	free(rbuf);
}

/* this app's own options, taken out of argv before the common ones are parsed; 0, or 2 after a
 * usage message */
static int own_options(int *argc, char **argv)
{
	int out = 1;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i], *v = i + 1 < *argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--comm") && v && (!strcmp(v, "dup") || !strcmp(v, "world"))) {
			own.dup = !strcmp(v, "dup");
			i++;
		} else if (!strcmp(a, "--skip-edges")) {
			own.skip = 1;
		} else if (!strcmp(a, "--splits")) {
			own.splits = 1;
		} else if (!strcmp(a, "--dims") && v && (!strcmp(v, "2") || !strcmp(v, "3"))) {
			own.nd = atoi(v);
			i++;
		} else if (!strcmp(a, "--points") && v && atoi(v) > 0) {
			own.points = atoi(v);
			i++;
		} else if (!strcmp(a, "--order") && v && (!strcmp(v, "x-fastest") || !strcmp(v, "z-fastest"))) {
			own.order = !strcmp(v, "x-fastest") ? X_FASTEST : Z_FASTEST;
			i++;
		} else if (!strcmp(a, "--comm") || !strcmp(a, "--dims") || !strcmp(a, "--points") || !strcmp(a, "--order")) {
			fprintf(stderr, "ownhalo: %s expects %s\n", a,
				!strcmp(a, "--comm") ? "world or dup" : !strcmp(a, "--dims") ? "2 or 3"
				: !strcmp(a, "--points") ? "7 or 27 (3-D), 5 or 9 (2-D)" : "x-fastest or z-fastest");
			return 2;
		} else {
			argv[out++] = argv[i];
		}
	}
	*argc = out;
	argv[out] = NULL;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct app app = {
		.name = "ownhalo",
		.summary = "halo exchange on a grid the code factors and numbers itself; own options: --dims 2|3, "
			   "--order x-fastest|z-fastest, --points 7|27 (5|9 in 2-D), --skip-edges, --comm world|dup, --splits",
		.size_help = "cells per axis: globally (strong, every factor divides it) or per rank (weak)",
		.rule = "any P (strong: every factor of the grid divides --size)",
		.default_size = 8,
		.groups = OPT_STENCIL,
		.check = own_check,
		.expect = own_expect,
		.run = own_run,
	};
	if (own_options(&argc, argv))
		return 2;
	if (!own.points)
		own.points = own.nd == 3 ? 7 : 5;
	return app_main(&app, argc, argv);
}
