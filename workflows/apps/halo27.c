/*
 * halo27 — a 27-point 3-D halo exchange whose message counts depend on the neighbour's position
 * and, in a repeating way, on the iteration: the pattern of codes with face, edge and corner
 * neighbours and a halo depth that changes from step to step (multi-stage integrators, adaptive
 * halo widths). It shows how the tracer stores values that differ from call to call at one call
 * site but repeat.
 *
 * Ranks form a periodic 3-D grid from MPI_Dims_create's factorisation (computed by hand, no
 * MPI_Cart_* call: neighbours are world ranks, row-major, the last dimension fastest). Each rank
 * owns an N^3 block (--size N, per rank: weak scaling only). Per iteration the halo depth is
 * h = 1 + (iteration mod 2); for each of the 26 directions (dx, dy, dz) in {-1,0,1}^3 \ {0} the
 * message holds one double per halo cell: h*N*N for a face, h*h*N for an edge, h*h*h for a corner.
 * One loop posts the 26 MPI_Irecv (from the neighbour at -direction, tag = direction index), one
 * loop the 26 MPI_Isend (to the neighbour at +direction, same tag), then one MPI_Waitall of the 52
 * requests. Every --allreduce-every K iterations an MPI_Allreduce (SUM) of the received sums.
 *
 * The data: element e of the message in direction k at iteration i is a hash of (sender, k, i,
 * e); the receiver checks none and sums them all into the checksum (order-independent, so the
 * checksum only depends on P and the options).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

struct geom {
	int dims[3], coords[3];
	int to[26], from[26];     /* world rank at +direction and at -direction */
	int dir[26][3];
};

static void geom_init(int P, int rank, struct geom *g)
{
	g->dims[0] = g->dims[1] = g->dims[2] = 0;
	grid_dims(P, 3, g->dims);
	for (int d = 2, rem = rank; d >= 0; d--) {
		g->coords[d] = rem % g->dims[d];
		rem /= g->dims[d];
	}
	int k = 0;
	for (int dx = -1; dx <= 1; dx++)
		for (int dy = -1; dy <= 1; dy++)
			for (int dz = -1; dz <= 1; dz++) {
				if (!dx && !dy && !dz)
					continue;
				int d3[3] = {dx, dy, dz}, up = 0, down = 0;
				for (int d = 0; d < 3; d++) {
					g->dir[k][d] = d3[d];
					up = up * g->dims[d] + (g->coords[d] + d3[d] + g->dims[d]) % g->dims[d];
					down = down * g->dims[d] + (g->coords[d] - d3[d] + g->dims[d]) % g->dims[d];
				}
				g->to[k] = up;
				g->from[k] = down;
				k++;
			}
}

/* cells of the halo in direction k at depth h for an N^3 block */
static long halo_cells(const struct geom *g, int k, long N, long h)
{
	long c = 1;
	for (int d = 0; d < 3; d++)
		c *= g->dir[k][d] ? h : N;
	return c;
}

static long depth_of(long iteration) { return 1 + iteration % 2; }

static int halo_check(const struct params *p, int P, char *msg, size_t len)
{
	if (p->scaling != SCALING_WEAK) {
		snprintf(msg, len, "only --scaling weak is supported (--size is per rank)");
		return -1;
	}
	(void)P;
	if (p->sendrecv || p->manual_neighbours || p->periodic) {
		snprintf(msg, len, "--sendrecv, --manual-neighbours and --periodic do not apply (the grid is always periodic)");
		return -1;
	}
	return check_cells(p->size, (double)(p->size + 4) * (double)(p->size + 4) * (double)(p->size + 4), msg, len);
}

static void halo_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t I = (uint64_t)p->iterations;
	for (int r = 0; r < P; r++) {
		struct geom g;
		geom_init(P, r, &g);
		uint64_t bytes = 0;
		for (long it = 0; it < p->iterations; it++)
			for (int k = 0; k < 26; k++)
				bytes += 8 * (uint64_t)halo_cells(&g, k, p->size, depth_of(it));
		expect_add(t, r, "MPI_Irecv", 26 * I, 0, bytes);
		expect_add(t, r, "MPI_Isend", 26 * I, bytes, 0);
		expect_add(t, r, "MPI_Waitall", I, 0, 0);
		if (p->allreduce_every > 0) {
			uint64_t n = I / (uint64_t)p->allreduce_every;
			expect_add(t, r, "MPI_Allreduce", n, 8 * n, 8 * n);
		}
	}
}

static void halo_run(const struct params *p, struct run *r)
{
	struct geom g;
	geom_init(r->size, r->rank, &g);
	long most = halo_cells(&g, 4, p->size, 2);   /* a face at depth 2: the largest message */
	double *sbuf = app_alloc((size_t)(26 * most), sizeof(double));
	double *rbuf = app_alloc((size_t)(26 * most), sizeof(double));
	MPI_Request req[52];
	uint64_t sum = 0;
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		long h = depth_of(it);
		for (int k = 0; k < 26; k++)
			MPI_Irecv(rbuf + k * most, (int)halo_cells(&g, k, p->size, h), MPI_DOUBLE, g.from[k], k,
				  MPI_COMM_WORLD, &req[k]);
		compute_begin(r);
		for (int k = 0; k < 26; k++)
			for (long e = 0; e < halo_cells(&g, k, p->size, h); e++)
				sbuf[k * most + e] = unit_hash(mix64((uint64_t)r->rank * 1000003u + (uint64_t)k) ^
							       ((uint64_t)it << 32) ^ (uint64_t)e);
		compute_end(r);
		for (int k = 0; k < 26; k++)
			MPI_Isend(sbuf + k * most, (int)halo_cells(&g, k, p->size, h), MPI_DOUBLE, g.to[k], k,
				  MPI_COMM_WORLD, &req[26 + k]);
		MPI_Waitall(52, req, MPI_STATUSES_IGNORE);
		double local = 0;
		for (int k = 0; k < 26; k++)
			for (long e = 0; e < halo_cells(&g, k, p->size, h); e++) {
				local += rbuf[k * most + e];
				sum += mix64(dbits(rbuf[k * most + e]));
			}
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
		.name = "halo27",
		.summary = "27-point 3-D halo exchange: face/edge/corner counts, halo depth alternating 1, 2.",
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
