/*
 * uneven — a 2-D halo exchange on a decomposition that does not divide: a global N x N grid
 * (strong scaling) on the non-periodic grid of MPI_Dims_create (rows x cols, row-major;
 * MPI_Cart_create, or by hand with --manual-neighbours: procgrid.h). Along each dimension of width d the N cells are dealt as codes deal them: each
 * coordinate c holds floor(N/d) cells and the first N mod d coordinates one more, so a rank's block
 * is nx x ny with nx = N/cols + (col < N mod cols) and ny likewise. Per iteration, with
 * MPI_Irecv/MPI_Isend/MPI_Waitall: ny doubles to and from the left and right neighbours, nx to and
 * from the up and down ones (MPI_PROC_NULL at the boundary), then an MPI_Allreduce of the column
 * sums into a buffer sized, as codes size it, by the largest block: 2 * ceil(N/cols) doubles.
 * So message counts depend on the coordinate (a per-coordinate remainder) and on ceilings.
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "procgrid.h"

/* cells of coordinate c when N cells are dealt over d coordinates, the first N mod d one more */
static long share(long N, int d, int c) { return N / d + (c < N % d); }
static long ceil_div(long a, long b) { return (a + b - 1) / b; }

static int uneven_check(const struct params *p, int P, char *msg, size_t len)
{
	int dims[2];
	if (procgrid_check_options(p, msg, len))
		return -1;
	if (p->scaling != SCALING_STRONG) {
		snprintf(msg, len, "only --scaling strong is supported (--size is the global N)");
		return -1;
	}
	procgrid_dims(P, dims);
	if (p->size < dims[0] || p->size < dims[1]) {
		snprintf(msg, len, "--size %ld is smaller than the %dx%d process grid", p->size, dims[0], dims[1]);
		return -1;
	}
	double n = (double)ceil_div(p->size, dims[0]) * (double)ceil_div(p->size, dims[1]);
	return check_cells(p->size, n, msg, len);
}

static void neighbours(const struct procgrid *g, int nb[4])
{
	nb[0] = procgrid_rank(g, g->row, g->col - 1);
	nb[1] = procgrid_rank(g, g->row, g->col + 1);
	nb[2] = procgrid_rank(g, g->row - 1, g->col);
	nb[3] = procgrid_rank(g, g->row + 1, g->col);
}

static void uneven_expect(const struct params *p, int P, struct expect *t)
{
	int dims[2];
	procgrid_dims(P, dims);
	const uint64_t I = (uint64_t)p->iterations, red = 8 * 2 * (uint64_t)ceil_div(p->size, dims[1]);
	procgrid_expect(p, P, t);
	for (int r = 0; r < P; r++) {
		struct procgrid g = {.dims = {dims[0], dims[1]}, .row = r / dims[1], .col = r % dims[1]};
		int row = g.row, col = g.col, nb[4];
		uint64_t nx = (uint64_t)share(p->size, dims[1], col), ny = (uint64_t)share(p->size, dims[0], row), b = 0;
		neighbours(&g, nb);
		for (int k = 0; k < 4; k++)
			if (nb[k] != MPI_PROC_NULL)
				b += 8 * (k < 2 ? ny : nx);
		expect_add(t, r, "MPI_Irecv", 4 * I, 0, I * b);
		expect_add(t, r, "MPI_Isend", 4 * I, I * b, 0);
		expect_add(t, r, "MPI_Waitall", I, 0, 0);
		expect_add(t, r, "MPI_Allreduce", I, I * red, I * red);
	}
}

static void uneven_run(const struct params *p, struct run *r)
{
	struct procgrid g;
	int nb[4];
	procgrid_open(p, r, 0, &g);
	const int *dims = g.dims, row = g.row, col = g.col;
	const long N = p->size, nx = share(N, dims[1], col), ny = share(N, dims[0], row);
	const long wide = 2 * ceil_div(N, dims[1]);
	neighbours(&g, nb);
	double *u = app_alloc((size_t)(nx * ny), sizeof *u), *in = app_alloc((size_t)(2 * (nx + ny)), sizeof *in);
	double *out = app_alloc((size_t)(2 * (nx + ny)), sizeof *out);
	double *sums = app_alloc((size_t)wide, sizeof *sums), *all = app_alloc((size_t)wide, sizeof *all);
	for (long i = 0; i < nx * ny; i++)
		u[i] = unit_hash((uint64_t)r->rank * 1000003u + (uint64_t)i);
	const long off[4] = {0, ny, 2 * ny, 2 * ny + nx}, len[4] = {ny, ny, nx, nx};
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		MPI_Request req[8];
		for (int k = 0; k < 4; k++)
			MPI_Irecv(in + off[k], (int)len[k], MPI_DOUBLE, nb[k], k ^ 1, g.comm, &req[k]);
		compute_begin(r);
		for (long j = 0; j < ny; j++) {
			out[off[0] + j] = u[j * nx];
			out[off[1] + j] = u[j * nx + nx - 1];
		}
		for (long i = 0; i < nx; i++) {
			out[off[2] + i] = u[i];
			out[off[3] + i] = u[(ny - 1) * nx + i];
		}
		sink(busywork((uint64_t)it, p->compute * nx * ny));
		compute_end(r);
		for (int k = 0; k < 4; k++)
			MPI_Isend(out + off[k], (int)len[k], MPI_DOUBLE, nb[k], k, g.comm, &req[4 + k]);
		MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
		compute_begin(r);
		for (long i = 0; i < wide; i++)
			sums[i] = 0;
		for (long i = 0; i < nx * ny; i++)
			u[i] = 0.5 * u[i] + 0.125 * (in[i % (2 * (nx + ny))]);
		for (long i = 0; i < nx; i++)
			sums[i] = u[i];
		compute_end(r);
		MPI_Allreduce(sums, all, (int)wide, MPI_DOUBLE, MPI_SUM, g.comm);
	}
	loop_end(r);
	for (long i = 0; i < nx * ny; i++)
		r->checksum += mix64(dbits(u[i]));
	procgrid_close(&g);
	free(u);
	free(in);
	free(out);
	free(sums);
	free(all);
}

int main(int argc, char **argv)
{
	static const struct app app = {
		.name = "uneven",
		.summary = "2-D halo exchange on an uneven decomposition: N/d cells, the first N mod d coordinates one more.",
		.size_help = "global grid side N (strong scaling only)",
		.rule = "any P with N at least the process grid's width in each dimension (strong scaling only)",
		.default_size = 100,
		.groups = OPT_STENCIL,
		.check = uneven_check,
		.expect = uneven_expect,
		.run = uneven_run,
	};
	return app_main(&app, argc, argv);
}
