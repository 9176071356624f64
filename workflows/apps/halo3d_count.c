/*
 * halo3d_count — a periodic 3-D halo exchange written the way field codes often write it: the
 * process grid from MPI_Dims_create, the neighbours computed by hand on MPI_COMM_WORLD (row-major,
 * the last dimension fastest, no MPI_Cart_* call), and per dimension two MPI_Sendrecv (to the
 * neighbour at +1 receiving from the one at -1, then the other way round), each followed by an
 * MPI_Get_count of its status to learn how much arrived. Two fields are exchanged every iteration
 * through the code's one halo routine (one call site, twelve peers and tags: more variants than the
 * tracer keeps in the grammar, so its peers and tags are streamed as laws of the rank).
 *
 * Each rank owns an N^3 block (--size N, per rank: weak scaling only). The message of a face is
 * N*N doubles, tag 6*field + 2*d for the +1 direction and 6*field + 2*d + 1 for the -1 direction. On a dimension 2 wide
 * both neighbours are one rank; on one 1 wide a rank exchanges with itself. Every --allreduce-every
 * K iterations an MPI_Allreduce (SUM) of the received sums.
 *
 * Ladders such as 8, 12, 18, 27 ranks (grids 2x2x2, 3x2x2, 3x3x2, 3x3x3) keep a dimension 3 wide at
 * every rung but one: on it the neighbour at -1, (c + d - 1) mod d, reads the same as (c + 2) mod 3,
 * so a law that cannot tell d - 1 from a constant is wrong at 4x4x4.
 *
 * The data: element e of the face sent in direction k at iteration i is a hash of (sender, k, i,
 * e); the receiver sums what Get_count says arrived into the checksum (order-independent, so the
 * checksum only depends on P and the options).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

#define ND 3
#define FIELDS 2   /* the fields exchanged every iteration (velocity and pressure, say) */

struct geom {
	int dims[ND], coords[ND];
	int up[ND], down[ND];   /* world rank at +1 and at -1 along each dimension (periodic) */
};

static int world_rank(const struct geom *g, const int c[ND])
{
	int r = 0;
	for (int d = 0; d < ND; d++)
		r = r * g->dims[d] + c[d];
	return r;
}

static void geom_init(const int dims[ND], int rank, struct geom *g)
{
	for (int d = ND - 1, rem = rank; d >= 0; d--) {
		g->dims[d] = dims[d];
		g->coords[d] = rem % dims[d];
		rem /= dims[d];
	}
	for (int d = 0; d < ND; d++) {
		int c[ND] = {g->coords[0], g->coords[1], g->coords[2]};
		c[d] = (g->coords[d] + 1) % g->dims[d];
		g->up[d] = world_rank(g, c);
		c[d] = (g->coords[d] - 1 + g->dims[d]) % g->dims[d];
		g->down[d] = world_rank(g, c);
	}
}

static int halo_check(const struct params *p, int P, char *msg, size_t len)
{
	(void)P;
	if (p->scaling != SCALING_WEAK) {
		snprintf(msg, len, "only --scaling weak is supported (--size is per rank)");
		return -1;
	}
	if (p->sendrecv || p->manual_neighbours || p->periodic) {
		snprintf(msg, len, "--sendrecv, --manual-neighbours and --periodic do not apply (always all three)");
		return -1;
	}
	return check_cells(p->size, (double)p->size * (double)p->size * (double)p->size, msg, len);
}

static void halo_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t I = (uint64_t)p->iterations, face = 8 * (uint64_t)p->size * (uint64_t)p->size;
	for (int r = 0; r < P; r++) {
		expect_add(t, r, "MPI_Dims_create", 1, 0, 0);
		const uint64_t faces = FIELDS * 2 * ND * I;
		expect_add(t, r, "MPI_Sendrecv", faces, faces * face, faces * face);
		expect_add(t, r, "MPI_Get_count", faces, 0, 0);
		if (p->allreduce_every > 0) {
			uint64_t n = I / (uint64_t)p->allreduce_every;
			expect_add(t, r, "MPI_Allreduce", n, 8 * n, 8 * n);
		}
	}
}

static void fill_face(double *buf, long n, int rank, int k, long it)
{
	for (long e = 0; e < n; e++)
		buf[e] = unit_hash(mix64((uint64_t)rank * 1000003u + (uint64_t)k) ^ ((uint64_t)it << 32) ^ (uint64_t)e);
}

/* the sum of what arrived, into the checksum */
static double take_face(const double *buf, const MPI_Status *st, uint64_t *sum)
{
	int got = 0;
	MPI_Get_count(st, MPI_DOUBLE, &got);
	double local = 0;
	for (int e = 0; e < got; e++) {
		local += buf[e];
		*sum += mix64(dbits(buf[e]));
	}
	return local;
}

/* one face of one field: the code's one halo routine, so one call site for every direction and field */
static double exchange_face(const struct geom *g, int d, int dir, int field, long it, double *sbuf, double *rbuf,
			    long n, struct run *r, uint64_t *sum)
{
	int tag = field * 2 * ND + 2 * d + dir, to = dir ? g->down[d] : g->up[d];
	int from = dir ? g->up[d] : g->down[d];
	MPI_Status st;
	compute_begin(r);
	fill_face(sbuf, n, r->rank, tag, it);
	compute_end(r);
	MPI_Sendrecv(sbuf, (int)n, MPI_DOUBLE, to, tag, rbuf, (int)n, MPI_DOUBLE, from, tag, MPI_COMM_WORLD, &st);
	return take_face(rbuf, &st, sum);
}

static void halo_run(const struct params *p, struct run *r)
{
	int dims[ND] = {0, 0, 0};
	MPI_Dims_create(r->size, ND, dims);
	struct geom g;
	geom_init(dims, r->rank, &g);
	long n = p->size * p->size;
	double *sbuf = app_alloc((size_t)n, sizeof(double)), *rbuf = app_alloc((size_t)n, sizeof(double));
	uint64_t sum = 0;
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		double local = 0;
		for (int field = 0; field < FIELDS; field++)
			for (int d = 0; d < ND; d++)
				for (int dir = 0; dir < 2; dir++)
					local += exchange_face(&g, d, dir, field, it, sbuf, rbuf, n, r, &sum);
		if (p->allreduce_every > 0 && (it + 1) % p->allreduce_every == 0) {
			double all;
			MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
			sink(dbits(all));
		}
	}
	loop_end(r);
	r->checksum = sum;
	free(sbuf);
	free(rbuf);
}

int main(int argc, char **argv)
{
	static const struct app app = {
		.name = "halo3d_count",
		.summary = "periodic 3-D halo by hand: MPI_Sendrecv along each dimension, then MPI_Get_count.",
		.size_help = "cells per dimension of each rank's block (weak scaling only)",
		.rule = "any P (weak scaling only)",
		.default_size = 8,
		.groups = OPT_STENCIL,
		.check = halo_check,
		.expect = halo_expect,
		.run = halo_run,
	};
	return app_main(&app, argc, argv);
}
