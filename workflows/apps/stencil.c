/*
 * stencil — Jacobi iteration on a 1-, 2- or 3-D grid, block-decomposed over a Cartesian process
 * grid from MPI_Dims_create. Per iteration: halo exchange with the 2*nd face neighbours
 * (Irecv x 2nd, Isend x 2nd, one Waitall; or with --sendrecv, 2nd MPI_Sendrecv), then the update
 * new = (u + sum of the 2*nd neighbours) / (2*nd + 1) with K busy-work units per cell; every K'
 * iterations an MPI_Allreduce (MAX) of the largest change.
 *
 * Topology: MPI_Cart_create (reorder = 0, so ranks are unchanged), MPI_Cart_coords, one
 * MPI_Cart_shift per dimension, and MPI_Comm_free of the Cartesian communicator at the end. With
 * --manual-neighbours none of the MPI_Cart_* calls is made: coordinates and neighbours are
 * computed by hand (row-major, the last dimension fastest, as MPI does) and the exchange runs on
 * MPI_COMM_WORLD. Non-periodic boundaries keep the ghost cells at 1.0 and exchange with
 * MPI_PROC_NULL (the calls are made, they move 0 bytes).
 *
 * Strong scaling: --size N cells per dimension globally, each grid dimension must divide N.
 * Weak scaling: N cells per dimension per rank. Cell values depend only on global positions, so the
 * checksum does not depend on the decomposition.
 */
#include "stencil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static int ND; /* the dimension of this app */

struct geom {
	int dims[3], coords[3];
	int lo[3], hi[3];   /* neighbour ranks per dimension, or MPI_PROC_NULL */
	long n[3];          /* local interior extent (1 beyond ND) */
	long g[3];          /* ghost width: 1 within ND, 0 beyond */
	long G[3];          /* global extent */
	long off[3];        /* global index of the first local cell */
	long face[3];       /* cells in a face normal to each dimension */
	long st[3];         /* array strides, ghosts included */
};

static int rank_of(const struct geom *g, const int c[3])
{
	int r = 0;
	for (int d = 0; d < ND; d++)
		r = r * g->dims[d] + c[d];
	return r;
}

/* everything about one rank's block, computed by hand (used by check, --expect and every run) */
static void geom_init(const struct params *p, int P, int rank, struct geom *g)
{
	*g = (struct geom){.dims = {0, 0, 0}};
	grid_dims(P, ND, g->dims);
	for (int d = ND - 1, rem = rank; d >= 0; d--) {
		g->coords[d] = rem % g->dims[d];
		rem /= g->dims[d];
	}
	for (int d = 0; d < 3; d++) {
		int in = d < ND;
		g->n[d] = !in ? 1 : p->scaling == SCALING_STRONG ? p->size / g->dims[d] : p->size;
		g->g[d] = in;
		g->G[d] = in ? g->n[d] * g->dims[d] : 1;
		g->off[d] = in ? g->coords[d] * g->n[d] : 0;
		g->lo[d] = g->hi[d] = MPI_PROC_NULL;
	}
	for (int d = 0; d < ND; d++) {
		int c[3] = {g->coords[0], g->coords[1], g->coords[2]};
		for (int s = -1; s <= 1; s += 2) {
			c[d] = g->coords[d] + s;
			if (p->periodic)
				c[d] = (c[d] + g->dims[d]) % g->dims[d];
			int nb = c[d] >= 0 && c[d] < g->dims[d] ? rank_of(g, c) : MPI_PROC_NULL;
			*(s < 0 ? &g->lo[d] : &g->hi[d]) = nb;
		}
		g->face[d] = 1;
		for (int e = 0; e < ND; e++)
			if (e != d)
				g->face[d] *= g->n[e];
	}
	g->st[2] = 1;
	g->st[1] = g->n[2] + 2 * g->g[2];
	g->st[0] = g->st[1] * (g->n[1] + 2 * g->g[1]);
}

static size_t idx(const struct geom *g, long i, long j, long k)
{
	return (size_t)((i + g->g[0]) * g->st[0] + (j + g->g[1]) * g->st[1] + (k + g->g[2]));
}

static int stencil_check(const struct params *p, int P, char *msg, size_t len)
{
	int dims[3] = {0, 0, 0};
	grid_dims(P, ND, dims);
	double cells = 1;
	for (int d = 0; d < ND; d++) {
		if (p->scaling == SCALING_STRONG && p->size % dims[d]) {
			char grid[64];
			grid_format(dims, ND, grid, sizeof grid);
			snprintf(msg, len,
				 "--size %ld is not divisible by the %s process grid MPI_Dims_create gives for %d ranks "
				 "(strong scaling splits --size evenly along every dimension)",
				 p->size, grid, P);
			return -1;
		}
		cells *= (double)(p->scaling == SCALING_STRONG ? p->size / dims[d] : p->size);
	}
	return check_cells(p->size, cells, msg, len);
}

static void stencil_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t I = (uint64_t)p->iterations;
	for (int r = 0; r < P; r++) {
		struct geom g;
		geom_init(p, P, r, &g);
		uint64_t bytes = 0; /* per iteration, the same sent as received */
		for (int d = 0; d < ND; d++)
			bytes += 8 * (uint64_t)g.face[d] * ((g.lo[d] != MPI_PROC_NULL) + (g.hi[d] != MPI_PROC_NULL));
		expect_add(t, r, "MPI_Dims_create", 1, 0, 0);
		if (!p->manual_neighbours) {
			expect_add(t, r, "MPI_Cart_create", 1, 0, 0);
			expect_add(t, r, "MPI_Cart_coords", 1, 0, 0);
			expect_add(t, r, "MPI_Cart_shift", (uint64_t)ND, 0, 0);
			expect_add(t, r, "MPI_Comm_free", 1, 0, 0);
		}
		if (p->sendrecv) {
			expect_add(t, r, "MPI_Sendrecv", 2 * (uint64_t)ND * I, I * bytes, I * bytes);
		} else {
			expect_add(t, r, "MPI_Irecv", 2 * (uint64_t)ND * I, 0, I * bytes);
			expect_add(t, r, "MPI_Isend", 2 * (uint64_t)ND * I, I * bytes, 0);
			expect_add(t, r, "MPI_Waitall", I, 0, 0);
		}
		if (p->allreduce_every > 0) {
			uint64_t n = I / (uint64_t)p->allreduce_every;
			expect_add(t, r, "MPI_Allreduce", n, 8 * n, 8 * n);
		}
	}
}

/* copy one layer (index `layer` along dimension d) between the array and a contiguous buffer */
static void face_copy(const struct geom *g, double *a, int d, long layer, double *buf, int to_buf)
{
	long lo[3] = {0, 0, 0}, hi[3] = {g->n[0], g->n[1], g->n[2]};
	lo[d] = layer;
	hi[d] = layer + 1;
	size_t m = 0;
	for (long i = lo[0]; i < hi[0]; i++)
		for (long j = lo[1]; j < hi[1]; j++)
			for (long k = lo[2]; k < hi[2]; k++, m++) {
				double *c = a + idx(g, i, j, k);
				if (to_buf)
					buf[m] = *c;
				else
					*c = buf[m];
			}
}

/* halo exchange: buffers[d][0] faces the low neighbour, [d][1] the high one */
static void exchange(const struct params *p, const struct geom *g, MPI_Comm comm, double *u, double *sbuf[3][2],
		     double *rbuf[3][2])
{
	for (int d = 0; d < ND; d++) {
		face_copy(g, u, d, 0, sbuf[d][0], 1);
		face_copy(g, u, d, g->n[d] - 1, sbuf[d][1], 1);
	}
	if (p->sendrecv) {
		for (int d = 0; d < ND; d++) {
			int n = (int)g->face[d];
			MPI_Sendrecv(sbuf[d][1], n, MPI_DOUBLE, g->hi[d], 2 * d, rbuf[d][0], n, MPI_DOUBLE, g->lo[d],
				     2 * d, comm, MPI_STATUS_IGNORE);
			MPI_Sendrecv(sbuf[d][0], n, MPI_DOUBLE, g->lo[d], 2 * d + 1, rbuf[d][1], n, MPI_DOUBLE,
				     g->hi[d], 2 * d + 1, comm, MPI_STATUS_IGNORE);
		}
	} else {
		MPI_Request req[12];
		int nr = 0;
		for (int d = 0; d < ND; d++) {
			int n = (int)g->face[d];
			MPI_Irecv(rbuf[d][0], n, MPI_DOUBLE, g->lo[d], 2 * d, comm, &req[nr++]);
			MPI_Irecv(rbuf[d][1], n, MPI_DOUBLE, g->hi[d], 2 * d + 1, comm, &req[nr++]);
		}
		for (int d = 0; d < ND; d++) {
			int n = (int)g->face[d];
			MPI_Isend(sbuf[d][1], n, MPI_DOUBLE, g->hi[d], 2 * d, comm, &req[nr++]);
			MPI_Isend(sbuf[d][0], n, MPI_DOUBLE, g->lo[d], 2 * d + 1, comm, &req[nr++]);
		}
		MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
	}
	for (int d = 0; d < ND; d++) {
		if (g->lo[d] != MPI_PROC_NULL)
			face_copy(g, u, d, -1, rbuf[d][0], 0);
		if (g->hi[d] != MPI_PROC_NULL)
			face_copy(g, u, d, g->n[d], rbuf[d][1], 0);
	}
}

/* one Jacobi sweep from u into v with busy-work; returns the largest change */
static double update(const struct params *p, const struct geom *g, const double *u, double *v)
{
	const double w = 1.0 / (2 * ND + 1);
	double maxdiff = 0;
	uint64_t acc = 0;
	for (long i = 0; i < g->n[0]; i++)
		for (long j = 0; j < g->n[1]; j++)
			for (long k = 0; k < g->n[2]; k++) {
				size_t c = idx(g, i, j, k);
				double s = u[c];
				for (int d = 0; d < ND; d++) {
					s += u[c - (size_t)g->st[d]];
					s += u[c + (size_t)g->st[d]];
				}
				v[c] = s * w;
				maxdiff = fmax(maxdiff, fabs(v[c] - u[c]));
				acc ^= busywork(dbits(v[c]), p->compute);
			}
	sink(acc);
	return maxdiff;
}

static uint64_t gindex(const struct geom *g, long i, long j, long k)
{
	return ((uint64_t)(g->off[0] + i) * (uint64_t)g->G[1] + (uint64_t)(g->off[1] + j)) * (uint64_t)g->G[2] +
	       (uint64_t)(g->off[2] + k);
}

static void stencil_run(const struct params *p, struct run *r)
{
	struct geom g;
	geom_init(p, r->size, r->rank, &g);
	int dims[3] = {0, 0, 0};
	MPI_Dims_create(r->size, ND, dims);
	for (int d = 0; d < ND; d++)
		if (dims[d] != g.dims[d])
			app_abort("MPI_Dims_create gave dimension %d = %d, expected %d", d, dims[d], g.dims[d]);
	MPI_Comm comm = MPI_COMM_WORLD;
	if (!p->manual_neighbours) {
		int periods[3] = {p->periodic, p->periodic, p->periodic}, coords[3];
		MPI_Cart_create(MPI_COMM_WORLD, ND, dims, periods, 0, &comm);
		MPI_Cart_coords(comm, r->rank, ND, coords);
		for (int d = 0; d < ND; d++) {
			int lo, hi;
			MPI_Cart_shift(comm, d, 1, &lo, &hi);
			if (coords[d] != g.coords[d] || lo != g.lo[d] || hi != g.hi[d])
				app_abort("MPI_Cart_* disagree with the computed topology in dimension %d", d);
		}
	}

	size_t cells = (size_t)g.st[0] * (size_t)(g.n[0] + 2 * g.g[0]);
	double *u = app_alloc(cells, sizeof *u), *v = app_alloc(cells, sizeof *v);
	for (size_t c = 0; c < cells; c++)
		u[c] = v[c] = 1.0; /* the fixed boundary value, kept by ghosts facing MPI_PROC_NULL */
	for (long i = 0; i < g.n[0]; i++)
		for (long j = 0; j < g.n[1]; j++)
			for (long k = 0; k < g.n[2]; k++)
				u[idx(&g, i, j, k)] = unit_hash(gindex(&g, i, j, k));
	double *sbuf[3][2], *rbuf[3][2];
	for (int d = 0; d < ND; d++)
		for (int s = 0; s < 2; s++) {
			sbuf[d][s] = app_alloc((size_t)g.face[d], sizeof(double));
			rbuf[d][s] = app_alloc((size_t)g.face[d], sizeof(double));
		}

	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		exchange(p, &g, comm, u, sbuf, rbuf);
		compute_begin(r);
		double diff = update(p, &g, u, v);
		compute_end(r);
		double *t = u;
		u = v;
		v = t;
		if (p->allreduce_every > 0 && (it + 1) % p->allreduce_every == 0) {
			double all;
			MPI_Allreduce(&diff, &all, 1, MPI_DOUBLE, MPI_MAX, comm);
			sink(dbits(all));
		}
	}
	loop_end(r);

	for (long i = 0; i < g.n[0]; i++)
		for (long j = 0; j < g.n[1]; j++)
			for (long k = 0; k < g.n[2]; k++)
				r->checksum += cell_term(gindex(&g, i, j, k), dbits(u[idx(&g, i, j, k)]));
	if (!p->manual_neighbours)
		MPI_Comm_free(&comm);
	for (int d = 0; d < ND; d++)
		for (int s = 0; s < 2; s++) {
			free(sbuf[d][s]);
			free(rbuf[d][s]);
		}
	free(u);
	free(v);
}

int stencil_main(int nd, int argc, char **argv)
{
	static const char *names[] = {"stencil1d", "stencil2d", "stencil3d"};
	static const char *summaries[] = {
		"1-D 3-point Jacobi stencil: halo exchange with 2 neighbours, an Allreduce every K iterations.",
		"2-D 5-point Jacobi stencil: halo exchange with 4 neighbours, an Allreduce every K iterations.",
		"3-D 7-point Jacobi stencil: halo exchange with 6 neighbours, an Allreduce every K iterations.",
	};
	static const long sizes[] = {5040, 240, 48};
	ND = nd;
	const struct app app = {
		.name = names[nd - 1],
		.summary = summaries[nd - 1],
		.size_help = "cells per dimension",
		.rule = "any P for weak scaling; for strong scaling every dimension of the MPI_Dims_create grid "
			"must divide --size",
		.default_size = sizes[nd - 1],
		.groups = OPT_STENCIL,
		.check = stencil_check,
		.expect = stencil_expect,
		.run = stencil_run,
	};
	return app_main(&app, argc, argv);
}
