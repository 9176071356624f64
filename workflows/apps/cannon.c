/*
 * cannon — Cannon's matrix multiplication on a periodic q x q process grid (P = q^2, rank =
 * row * q + col; MPI_Cart_create, or by hand with --manual-neighbours: procgrid.h): a pipeline
 * whose depth is a grid width. The initial
 * skew sends rank (row, col)'s block of A to (row, col - row) and its block of B to (row - col,
 * col), each with MPI_Sendrecv_replace (a partner at a distance that is the rank's own coordinate;
 * ranks with row 0, resp. col 0, keep their block and make no call); then q steps of a local
 * block product and a shift by one, A to the left and B upwards (MPI_Sendrecv_replace each, so the
 * trip count is q = sqrt(P)); then an MPI_Allreduce of the block's trace. --size N: the matrices
 * are N x N (strong scaling, q must divide N) or every block is N x N (weak).
 * --iterations repeats the whole product.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "procgrid.h"

static int side(int P)
{
	int q = (int)lround(sqrt((double)P));
	return (long)q * q == P ? q : 0;
}

static long block(const struct params *p, int q) { return p->scaling == SCALING_STRONG ? p->size / q : p->size; }

static int cannon_check(const struct params *p, int P, char *msg, size_t len)
{
	int q = side(P);
	if (procgrid_check_options(p, msg, len))
		return -1;
	if (!q) {
		snprintf(msg, len, "needs a square number of ranks (a q x q process grid), got %d", P);
		return -1;
	}
	if (p->scaling == SCALING_STRONG && p->size % q) {
		snprintf(msg, len, "--size %ld is not divisible by q = %d (strong scaling on a %dx%d grid)", p->size, q, q, q);
		return -1;
	}
	double n = (double)block(p, q);
	return check_cells(p->size, n * n, msg, len);
}

static void cannon_expect(const struct params *p, int P, struct expect *t)
{
	const int q = side(P);
	const uint64_t I = (uint64_t)p->iterations, b = 8 * (uint64_t)block(p, q) * (uint64_t)block(p, q);
	procgrid_expect(p, P, t);
	for (int r = 0; r < P; r++) {
		int row = r / q, col = r % q;
		uint64_t calls = (q > 1 ? 2 * (uint64_t)q : 0) + (row != 0) + (col != 0);
		if (calls)
			expect_add(t, r, "MPI_Sendrecv_replace", I * calls, I * calls * b, I * calls * b);
		expect_add(t, r, "MPI_Allreduce", I, 8 * I, 8 * I);
	}
}

static void cannon_run(const struct params *p, struct run *r)
{
	struct procgrid g;
	procgrid_open(p, r, 1, &g);
	const int q = side(r->size), row = g.row, col = g.col;
	const long n = block(p, q);
	double *A = app_alloc((size_t)(n * n), sizeof *A), *B = app_alloc((size_t)(n * n), sizeof *B);
	double *C = app_alloc((size_t)(n * n), sizeof *C);
	double trace = 0;
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		for (long i = 0; i < n * n; i++) {
			A[i] = unit_hash((uint64_t)r->rank * 31u + (uint64_t)i);
			B[i] = unit_hash((uint64_t)r->rank * 37u + (uint64_t)i + 7);
			C[i] = 0;
		}
		if (row != 0)
			MPI_Sendrecv_replace(A, (int)(n * n), MPI_DOUBLE, procgrid_rank(&g, row, col - row), 1, procgrid_rank(&g, row, col + row), 1,
					     g.comm, MPI_STATUS_IGNORE);
		if (col != 0)
			MPI_Sendrecv_replace(B, (int)(n * n), MPI_DOUBLE, procgrid_rank(&g, row - col, col), 2, procgrid_rank(&g, row + col, col), 2,
					     g.comm, MPI_STATUS_IGNORE);
		for (int s = 0; s < q; s++) {
			compute_begin(r);
			for (long i = 0; i < n; i++)
				for (long k = 0; k < n; k++)
					for (long j = 0; j < n; j++)
						C[i * n + j] += A[i * n + k] * B[k * n + j];
			sink(busywork((uint64_t)s, p->compute * n * n));
			compute_end(r);
			if (q == 1)
				break;
			MPI_Sendrecv_replace(A, (int)(n * n), MPI_DOUBLE, procgrid_rank(&g, row, col - 1), 3, procgrid_rank(&g, row, col + 1), 3,
					     g.comm, MPI_STATUS_IGNORE);
			MPI_Sendrecv_replace(B, (int)(n * n), MPI_DOUBLE, procgrid_rank(&g, row - 1, col), 4, procgrid_rank(&g, row + 1, col), 4,
					     g.comm, MPI_STATUS_IGNORE);
		}
		double local = 0, all;
		for (long i = 0; i < n; i++)
			local += C[i * n + i];
		MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_SUM, g.comm);
		trace += all;
	}
	loop_end(r);
	r->checksum = r->rank == 0 ? mix64(dbits(trace)) : 0;
	procgrid_close(&g);
	free(A);
	free(B);
	free(C);
}

int main(int argc, char **argv)
{
	static const struct app app = {
		.name = "cannon",
		.summary = "Cannon's matrix product: skew by the rank's own coordinate, then q shift steps on a q x q grid.",
		.size_help = "matrix order (global N x N for strong scaling, the N x N block per rank for weak)",
		.rule = "P must be a square q*q; for strong scaling q must divide --size",
		.default_size = 96,
		.groups = OPT_STENCIL,
		.check = cannon_check,
		.expect = cannon_expect,
		.run = cannon_run,
	};
	return app_main(&app, argc, argv);
}
