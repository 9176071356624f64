/*
 * butterfly — the partner laws of collectives written by hand, as codes do when they fuse their
 * own reductions: ranks on the 2-D grid of MPI_Dims_create (rows x cols, row-major, P a power of
 * two; MPI_Cart_create, or by hand with --manual-neighbours: procgrid.h). Per iteration:
 *   recursive doubling inside each row: for k = 0 .. log2(cols)-1 an MPI_Sendrecv of the whole
 *     vector (n doubles) with the rank whose column is col XOR 2^k (distance 2^k), summing;
 *   recursive halving inside each column (a reduce-scatter): for k = log2(rows)-1 down to 0 an
 *     MPI_Sendrecv with the rank whose row is row XOR 2^k (distance cols * 2^k) of half the part
 *     still held (n / 2^(log2(rows)-k) doubles), keeping the half the partner does not;
 * so the partners are XOR/butterfly partners and the trip counts are log2 of a grid width: both
 * grow with P. --size N: the vector, N doubles per rank (weak) or N / P per rank (strong).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "procgrid.h"

static int log2_exact(int v)
{
	int k = 0;
	while ((1 << k) < v)
		k++;
	return (1 << k) == v ? k : -1;
}

static long length_of(const struct params *p, int P)
{
	return p->scaling == SCALING_STRONG ? p->size / P : p->size;
}

static int butterfly_check(const struct params *p, int P, char *msg, size_t len)
{
	int dims[2];
	if (procgrid_check_options(p, msg, len))
		return -1;
	if (log2_exact(P) < 0) {
		snprintf(msg, len, "needs a power-of-two number of ranks, got %d", P);
		return -1;
	}
	procgrid_dims(P, dims);
	long n = length_of(p, P);
	if (p->scaling == SCALING_STRONG && p->size % P) {
		snprintf(msg, len, "--size %ld is not divisible by P = %d (strong scaling)", p->size, P);
		return -1;
	}
	if (n % dims[0] || n < dims[0]) {
		snprintf(msg, len, "the vector of %ld doubles per rank does not halve %d times (rows of the %dx%d grid)", n,
			 log2_exact(dims[0]), dims[0], dims[1]);
		return -1;
	}
	return check_cells(p->size, (double)n, msg, len);
}

static void butterfly_expect(const struct params *p, int P, struct expect *t)
{
	int dims[2];
	procgrid_dims(P, dims);
	const uint64_t I = (uint64_t)p->iterations, n = (uint64_t)length_of(p, P);
	const int lc = log2_exact(dims[1]), lr = log2_exact(dims[0]);
	uint64_t bytes = 8 * n * (uint64_t)lc, halves = 0;
	for (int k = lr - 1; k >= 0; k--)
		halves += n >> (lr - k);
	bytes += 8 * halves;
	procgrid_expect(p, P, t);
	for (int r = 0; r < P; r++)
		if (lc + lr > 0)
			expect_add(t, r, "MPI_Sendrecv", I * (uint64_t)(lc + lr), I * bytes, I * bytes);
}

static void butterfly_run(const struct params *p, struct run *r)
{
	struct procgrid g;
	procgrid_open(p, r, 0, &g);
	const int *dims = g.dims, row = g.row, col = g.col;
	const int lc = log2_exact(dims[1]), lr = log2_exact(dims[0]);
	const long n = length_of(p, r->size);
	double *v = app_alloc((size_t)n, sizeof *v), *in = app_alloc((size_t)n, sizeof *in);
	for (long i = 0; i < n; i++)
		v[i] = unit_hash(mix64((uint64_t)r->rank * 7919u + (uint64_t)i));
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		for (int k = 0; k < lc; k++) {
			int partner = procgrid_rank(&g, row, col ^ (1 << k));
			MPI_Sendrecv(v, (int)n, MPI_DOUBLE, partner, k, in, (int)n, MPI_DOUBLE, partner, k, g.comm,
				     MPI_STATUS_IGNORE);
			compute_begin(r);
			for (long i = 0; i < n; i++)
				v[i] += in[i];
			sink(busywork((uint64_t)n, p->compute * n));
			compute_end(r);
		}
		long lo = 0, part = n;
		for (int k = lr - 1; k >= 0; k--) {
			int partner = procgrid_rank(&g, row ^ (1 << k), col);
			long half = part / 2, keep = (row >> k) & 1 ? lo + half : lo, give = (row >> k) & 1 ? lo : lo + half;
			MPI_Sendrecv(v + give, (int)half, MPI_DOUBLE, partner, 100 + k, in, (int)half, MPI_DOUBLE, partner,
				     100 + k, g.comm, MPI_STATUS_IGNORE);
			compute_begin(r);
			for (long i = 0; i < half; i++)
				v[keep + i] += in[i];
			compute_end(r);
			lo = keep;
			part = half;
		}
		compute_begin(r);
		for (long i = 0; i < n; i++)
			v[i] *= 0.5;
		compute_end(r);
	}
	loop_end(r);
	for (long i = 0; i < n; i++)
		r->checksum += cell_term((uint64_t)r->rank * (uint64_t)n + (uint64_t)i, dbits(v[i]));
	procgrid_close(&g);
	free(v);
	free(in);
}

int main(int argc, char **argv)
{
	static const struct app app = {
		.name = "butterfly",
		.summary = "hand-written collectives: recursive doubling (XOR partners) in rows, recursive halving in columns.",
		.size_help = "vector length in doubles (global for strong scaling, per rank for weak)",
		.rule = "P must be a power of two; the per-rank vector must halve log2(rows) times",
		.default_size = 1024,
		.groups = OPT_STENCIL,
		.check = butterfly_check,
		.expect = butterfly_expect,
		.run = butterfly_run,
	};
	return app_main(&app, argc, argv);
}
