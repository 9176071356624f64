/*
 * cg — the communication of a NAS-CG-like solver on a q x q process grid (P = q^2, rank = row * q +
 * col). Row and column communicators come from MPI_Comm_split. Per iteration:
 *   q = A p      local block product, then MPI_Allreduce over the row communicator (n elements),
 *                then MPI_Sendrecv with the transpose partner (col, row) to turn the row segment
 *                into a column segment (diagonal ranks copy locally and make no call);
 *   p.q, r.r     dot products: each rank sums its 1/q slice of its column segment, then
 *                MPI_Allreduce over the column communicator and then over the row communicator;
 *   x, r, p      vector updates.
 * The arithmetic is on 64-bit unsigned integers modulo 2^64 (a CG-shaped recurrence, not a solver),
 * so every reduction is exact and the checksum of x does not depend on the decomposition.
 *
 * --size N: the matrix is N x N globally (strong scaling, q must divide N) or each rank holds an
 * N x N block (weak scaling). --compute K busy-work units per matrix entry and iteration.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static int side(int P)
{
	int q = (int)lround(sqrt((double)P));
	return (long)q * q == P ? q : 0;
}

static long block(const struct params *p, int q)
{
	return p->scaling == SCALING_STRONG ? p->size / q : p->size;
}

static int cg_check(const struct params *p, int P, char *msg, size_t len)
{
	int q = side(P);
	if (!q) {
		snprintf(msg, len, "needs a square number of ranks (a q x q process grid), got %d", P);
		return -1;
	}
	if (p->scaling == SCALING_STRONG && p->size % q) {
		snprintf(msg, len, "--size %ld is not divisible by q = %d (strong scaling on a %dx%d grid)", p->size, q,
			 q, q);
		return -1;
	}
	double n = (double)block(p, q);
	return check_cells(p->size, n * n, msg, len);
}

static void cg_expect(const struct params *p, int P, struct expect *t)
{
	const int q = side(P);
	const uint64_t I = (uint64_t)p->iterations, n = (uint64_t)block(p, q);
	for (int rank = 0; rank < P; rank++) {
		int row = rank / q, col = rank % q;
		uint64_t reductions = 2 + 4 * I; /* one-element dot-product sums: 2 before the loop, 4 per iteration */
		expect_add(t, rank, "MPI_Comm_split", 2, 0, 0);
		expect_add(t, rank, "MPI_Comm_free", 2, 0, 0);
		expect_add(t, rank, "MPI_Allreduce", reductions + I, 8 * reductions + 8 * n * I, 8 * reductions + 8 * n * I);
		if (row != col)
			expect_add(t, rank, "MPI_Sendrecv", I, 8 * n * I, 8 * n * I);
	}
}

struct cg {
	MPI_Comm rowc, colc;
	long n, lo, hi; /* segment length; this rank's slice [lo, hi) of it */
};

/* a dot product over the whole vector: local slice, then the column and the row communicators */
static uint64_t dot(const struct cg *s, const uint64_t *a, const uint64_t *b)
{
	uint64_t local = 0, col, all;
	for (long i = s->lo; i < s->hi; i++)
		local += a[i] * b[i];
	MPI_Allreduce(&local, &col, 1, MPI_UINT64_T, MPI_SUM, s->colc);
	MPI_Allreduce(&col, &all, 1, MPI_UINT64_T, MPI_SUM, s->rowc);
	return all;
}

static void cg_run(const struct params *p, struct run *r)
{
	const int q = side(r->size), row = r->rank / q, col = r->rank % q, partner = col * q + row;
	struct cg s = {.n = block(p, q)};
	const long n = s.n;
	s.lo = row * n / q;
	s.hi = (row + 1) * n / q;
	MPI_Comm_split(MPI_COMM_WORLD, row, col, &s.rowc);
	MPI_Comm_split(MPI_COMM_WORLD, col, row, &s.colc);

	const uint64_t G = (uint64_t)(n * q);
	uint32_t *A = app_alloc((size_t)(n * n), sizeof *A);
	for (long i = 0; i < n; i++)
		for (long j = 0; j < n; j++) {
			uint64_t gi = (uint64_t)(row * n + i), gj = (uint64_t)(col * n + j);
			A[i * n + j] = (uint32_t)(mix64(gi * G + gj) & 15) + (gi == gj ? 16 : 0);
		}
	uint64_t *x = app_alloc((size_t)n, 8), *res = app_alloc((size_t)n, 8), *pv = app_alloc((size_t)n, 8);
	uint64_t *part = app_alloc((size_t)n, 8), *qrow = app_alloc((size_t)n, 8), *qcol = app_alloc((size_t)n, 8);
	for (long i = 0; i < n; i++)
		pv[i] = res[i] = mix64((uint64_t)(col * n + i)); /* column segment `col` */
	uint64_t rho = dot(&s, res, res);

	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		compute_begin(r);
		uint64_t acc = 0;
		for (long i = 0; i < n; i++) {
			uint64_t sum = 0;
			for (long j = 0; j < n; j++) {
				sum += A[i * n + j] * pv[j];
				acc ^= busywork(sum, p->compute);
			}
			part[i] = sum;
		}
		sink(acc);
		compute_end(r);
		MPI_Allreduce(part, qrow, (int)n, MPI_UINT64_T, MPI_SUM, s.rowc);
		if (partner != r->rank)
			MPI_Sendrecv(qrow, (int)n, MPI_UINT64_T, partner, 0, qcol, (int)n, MPI_UINT64_T, partner, 0,
				     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		else
			memcpy(qcol, qrow, (size_t)n * sizeof *qcol);
		uint64_t a = dot(&s, pv, qcol) | 1;
		compute_begin(r);
		for (long i = 0; i < n; i++) {
			x[i] += a * pv[i];
			res[i] -= a * qcol[i];
		}
		compute_end(r);
		uint64_t rho_new = dot(&s, res, res);
		uint64_t b = (rho_new ^ rho) | 1;
		rho = rho_new;
		compute_begin(r);
		for (long i = 0; i < n; i++)
			pv[i] = res[i] + b * pv[i];
		compute_end(r);
	}
	loop_end(r);

	for (long i = s.lo; i < s.hi; i++)
		r->checksum += cell_term((uint64_t)(col * n + i), x[i]);
	MPI_Comm_free(&s.rowc);
	MPI_Comm_free(&s.colc);
	free(A);
	free(x);
	free(res);
	free(pv);
	free(part);
	free(qrow);
	free(qcol);
}

int main(int argc, char **argv)
{
	const struct app app = {
		.name = "cg",
		.summary = "CG-like: row and column communicators from MPI_Comm_split, row Allreduce of the "
			   "matrix-vector product, exchange with the transpose partner, Allreduce dot products.",
		.size_help = "matrix order (global N x N for strong scaling, the N x N block per rank for weak)",
		.rule = "P must be a square q*q; for strong scaling q must divide --size",
		.default_size = 240,
		.groups = 0,
		.check = cg_check,
		.expect = cg_expect,
		.run = cg_run,
	};
	return app_main(&app, argc, argv);
}
