/*
 * sweep — a Sweep3D-like wavefront. An N x N x N block of cells (global for strong scaling, per rank
 * for weak) is decomposed in x and y over a PX x PY process grid (--grid, or MPI_Dims_create; rank =
 * y * PX + x); z is local and swept in blocks of --kblock planes to pipeline the wavefront. For each
 * of the four corner directions in turn, for each z block: blocking MPI_Recv of the inflow faces from
 * the upstream x and y neighbours, the block update, blocking MPI_Send of the outflow faces to the
 * downstream neighbours. Ranks on the grid edge make no call for a missing neighbour, so call counts
 * differ by position. After the four sweeps the source is updated from the accumulated flux.
 *
 * Every cell is computed from its upstream neighbours with the same arithmetic wherever it lives,
 * so the checksum of the flux does not depend on the decomposition.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"

static const int DIRS[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

struct sgeom {
	int px, py, x, y;
	long lx, ly, lz; /* local block */
	long nx, ny;     /* global extent in x and y */
};

static void sgeom_init(const struct params *p, int P, int rank, struct sgeom *g)
{
	int dims[2] = {p->grid[0], p->grid[1]};
	grid_dims(P, 2, dims);
	g->px = dims[0];
	g->py = dims[1];
	g->x = rank % g->px;
	g->y = rank / g->px;
	int strong = p->scaling == SCALING_STRONG;
	g->lx = strong ? p->size / g->px : p->size;
	g->ly = strong ? p->size / g->py : p->size;
	g->lz = p->size;
	g->nx = g->lx * g->px;
	g->ny = g->ly * g->py;
}

/* the rank at grid position (x, y), or -1 off the grid */
static int at(const struct sgeom *g, int x, int y)
{
	return x >= 0 && x < g->px && y >= 0 && y < g->py ? y * g->px + x : -1;
}

static int sweep_check(const struct params *p, int P, char *msg, size_t len)
{
	if (p->grid[0] && (long)p->grid[0] * p->grid[1] != P) {
		snprintf(msg, len, "--grid %dx%d needs %ld ranks, not %d", p->grid[0], p->grid[1],
			 (long)p->grid[0] * p->grid[1], P);
		return -1;
	}
	struct sgeom g;
	sgeom_init(p, P, 0, &g);
	if (p->scaling == SCALING_STRONG && (p->size % g.px || p->size % g.py)) {
		snprintf(msg, len,
			 "--size %ld is not divisible by the %dx%d process grid (strong scaling splits --size evenly "
			 "over both grid dimensions)",
			 p->size, g.px, g.py);
		return -1;
	}
	return check_cells(p->size, (double)g.lx * (double)g.ly * (double)g.lz, msg, len);
}

static void sweep_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t I = (uint64_t)p->iterations, nb = (uint64_t)((p->size + p->kblock - 1) / p->kblock);
	for (int r = 0; r < P; r++) {
		struct sgeom g;
		sgeom_init(p, P, r, &g);
		expect_add(t, r, "MPI_Dims_create", 1, 0, 0);
		for (int d = 0; d < 4; d++) {
			int sx = DIRS[d][0], sy = DIRS[d][1];
			uint64_t ux = at(&g, g.x - sx, g.y) >= 0, uy = at(&g, g.x, g.y - sy) >= 0;
			uint64_t dx = at(&g, g.x + sx, g.y) >= 0, dy = at(&g, g.x, g.y + sy) >= 0;
			uint64_t lx = (uint64_t)g.lx, ly = (uint64_t)g.ly, lz = (uint64_t)g.lz;
			expect_add(t, r, "MPI_Recv", I * nb * (ux + uy), 0, I * 8 * lz * (ux * ly + uy * lx));
			expect_add(t, r, "MPI_Send", I * nb * (dx + dy), I * 8 * lz * (dx * ly + dy * lx), 0);
		}
	}
}

static void sweep_run(const struct params *p, struct run *r)
{
	struct sgeom g;
	sgeom_init(p, r->size, r->rank, &g);
	int dims[2] = {p->grid[0], p->grid[1]};
	MPI_Dims_create(r->size, 2, dims);
	if (dims[0] != g.px || dims[1] != g.py)
		app_abort("MPI_Dims_create gave a %dx%d grid, expected %dx%d", dims[0], dims[1], g.px, g.py);

	const long lx = g.lx, ly = g.ly, lz = g.lz, B = p->kblock < g.lz ? p->kblock : g.lz;
	size_t cells = (size_t)(lx * ly * lz);
	double *q = app_alloc(cells, sizeof *q), *src = app_alloc(cells, sizeof *src);
	double *psi = app_alloc(cells, sizeof *psi), *phi = app_alloc(cells, sizeof *phi);
	double *xin = app_alloc((size_t)(ly * B), sizeof *xin), *xout = app_alloc((size_t)(ly * B), sizeof *xout);
	double *yin = app_alloc((size_t)(lx * B), sizeof *yin), *yout = app_alloc((size_t)(lx * B), sizeof *yout);
#define AT(i, j, k) (((size_t)(i) * (size_t)ly + (size_t)(j)) * (size_t)lz + (size_t)(k))
#define GLOBAL(i, j, k) (((uint64_t)(g.x * lx + (i)) * (uint64_t)g.ny + (uint64_t)(g.y * ly + (j))) * (uint64_t)lz + (uint64_t)(k))
	for (long i = 0; i < lx; i++)
		for (long j = 0; j < ly; j++)
			for (long k = 0; k < lz; k++)
				src[AT(i, j, k)] = q[AT(i, j, k)] = unit_hash(GLOBAL(i, j, k));
	const double w = 0.5, cw = 1.0 / (1.0 + 3.0 * w);

	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		for (size_t c = 0; c < cells; c++)
			phi[c] = 0;
		for (int d = 0; d < 4; d++) {
			const int sx = DIRS[d][0], sy = DIRS[d][1];
			const int upx = at(&g, g.x - sx, g.y), upy = at(&g, g.x, g.y - sy);
			const int downx = at(&g, g.x + sx, g.y), downy = at(&g, g.x, g.y + sy);
			for (long k0 = 0; k0 < lz; k0 += B) {
				const long bz = k0 + B <= lz ? B : lz - k0;
				if (upx >= 0)
					MPI_Recv(xin, (int)(ly * bz), MPI_DOUBLE, upx, d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				if (upy >= 0)
					MPI_Recv(yin, (int)(lx * bz), MPI_DOUBLE, upy, d, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
				compute_begin(r);
				uint64_t acc = 0;
				for (long ii = 0; ii < lx; ii++) {
					const long i = sx > 0 ? ii : lx - 1 - ii;
					for (long jj = 0; jj < ly; jj++) {
						const long j = sy > 0 ? jj : ly - 1 - jj;
						for (long k = k0; k < k0 + bz; k++) {
							double xu = ii > 0 ? psi[AT(i - sx, j, k)] : upx >= 0 ? xin[(k - k0) * ly + j] : 0.0;
							double yu = jj > 0 ? psi[AT(i, j - sy, k)] : upy >= 0 ? yin[(k - k0) * lx + i] : 0.0;
							double zu = k > 0 ? psi[AT(i, j, k - 1)] : 0.0;
							double v = (src[AT(i, j, k)] + w * (xu + yu + zu)) * cw;
							psi[AT(i, j, k)] = v;
							phi[AT(i, j, k)] += 0.25 * v;
							acc ^= busywork(dbits(v), p->compute);
						}
					}
				}
				sink(acc);
				compute_end(r);
				if (downx >= 0) {
					const long i = sx > 0 ? lx - 1 : 0;
					for (long k = k0; k < k0 + bz; k++)
						for (long j = 0; j < ly; j++)
							xout[(k - k0) * ly + j] = psi[AT(i, j, k)];
					MPI_Send(xout, (int)(ly * bz), MPI_DOUBLE, downx, d, MPI_COMM_WORLD);
				}
				if (downy >= 0) {
					const long j = sy > 0 ? ly - 1 : 0;
					for (long k = k0; k < k0 + bz; k++)
						for (long i = 0; i < lx; i++)
							yout[(k - k0) * lx + i] = psi[AT(i, j, k)];
					MPI_Send(yout, (int)(lx * bz), MPI_DOUBLE, downy, d, MPI_COMM_WORLD);
				}
			}
		}
		compute_begin(r);
		for (size_t c = 0; c < cells; c++)
			src[c] = q[c] + 0.4 * phi[c];
		compute_end(r);
	}
	loop_end(r);

	for (long i = 0; i < lx; i++)
		for (long j = 0; j < ly; j++)
			for (long k = 0; k < lz; k++)
				r->checksum += cell_term(GLOBAL(i, j, k), dbits(phi[AT(i, j, k)]));
#undef AT
#undef GLOBAL
	free(q);
	free(src);
	free(psi);
	free(phi);
	free(xin);
	free(xout);
	free(yin);
	free(yout);
}

int main(int argc, char **argv)
{
	const struct app app = {
		.name = "sweep",
		.summary = "Sweep3D-like wavefront on a 2-D process grid: blocking Recv from upstream, compute, Send "
			   "downstream, for the four corner directions in turn.",
		.size_help = "cells per dimension of the N x N x N block",
		.rule = "PX x PY = P (--grid, or MPI_Dims_create); for strong scaling PX and PY must divide --size",
		.default_size = 48,
		.groups = OPT_SWEEP,
		.check = sweep_check,
		.expect = sweep_expect,
		.run = sweep_run,
	};
	return app_main(&app, argc, argv);
}
