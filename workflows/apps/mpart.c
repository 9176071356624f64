/*
 * mpart — a multipartition-style sweep whose per-rank work grows with the rank count: every rank
 * owns floor(sqrt(P)) cells (as in a diagonal multipartitioning of a 3-D array, where each of the
 * P ranks holds sqrt(P) of the P*sqrt(P) blocks), and a sweep passes each of them along a periodic
 * ring. Own option --array-dims 4: the multipartitioning of a 4-D array, floor(cbrt(P)) cells per
 * rank.
 *
 * The ring is a 1-D periodic MPI_Cart_create of the P ranks, its neighbours from MPI_Cart_shift.
 * Per iteration, for each of the rank's cells: compute the cell's face, one MPI_Sendrecv of --size
 * doubles to the right neighbour from the left one (tag 0), then MPI_Get_count of its status; at
 * the end of the iteration an MPI_Allreduce (SUM) of the received sums. The Cartesian communicator
 * is freed at the end. Weak scaling only (--size is the face of a cell).
 *
 * The sweep's trip count floor(sqrt(P)) is the width of a square grid of the ranks, a law the
 * extrapolation finds. floor(cbrt(P)) (--array-dims 4) is none: a lossy extrapolation leaves the
 * sweep out, and what it keeps of the application's calls at the target is a small share that
 * grows smaller with P (the loss it must state).
 *
 * The data: element e of cell k's face at iteration i is a hash of (sender, k, i, e); the receiver
 * sums what Get_count says arrived into the checksum (order-independent).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static int array_dims = 3;   /* --array-dims: 3, floor(sqrt(P)) cells per rank; 4, floor(cbrt(P)) */

static long power(long q, int e)
{
	long v = 1;
	while (e-- > 0)
		v *= q;
	return v;
}

/* the largest q with q^(array_dims - 1) <= P */
static int cells_of(int P)
{
	const int e = array_dims - 1;
	long q = (long)floor(pow((double)P, 1.0 / e));
	while (q > 1 && power(q, e) > P)
		q--;
	while (power(q + 1, e) <= P)
		q++;
	return (int)q;
}

static int mpart_check(const struct params *p, int P, char *msg, size_t len)
{
	(void)P;
	if (p->scaling != SCALING_WEAK) {
		snprintf(msg, len, "only --scaling weak is supported (--size is the face of a cell)");
		return -1;
	}
	return check_cells(p->size, (double)p->size, msg, len);
}

static void mpart_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t I = (uint64_t)p->iterations, sweeps = (uint64_t)cells_of(P) * I;
	const uint64_t face = 8 * (uint64_t)p->size;
	for (int r = 0; r < P; r++) {
		expect_add(t, r, "MPI_Cart_create", 1, 0, 0);
		expect_add(t, r, "MPI_Cart_shift", 1, 0, 0);
		expect_add(t, r, "MPI_Sendrecv", sweeps, sweeps * face, sweeps * face);
		expect_add(t, r, "MPI_Get_count", sweeps, 0, 0);
		expect_add(t, r, "MPI_Allreduce", I, 8 * I, 8 * I);
		expect_add(t, r, "MPI_Comm_free", 1, 0, 0);
	}
}

static void mpart_run(const struct params *p, struct run *r)
{
	int dims[1] = {r->size}, periods[1] = {1}, left, right;
	MPI_Comm ring;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	MPI_Cart_shift(ring, 0, 1, &left, &right);
	int cells = cells_of(r->size);
	long n = p->size;
	double *sbuf = app_alloc((size_t)n, sizeof(double)), *rbuf = app_alloc((size_t)n, sizeof(double));
	uint64_t sum = 0;
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		double local = 0;
		for (int k = 0; k < cells; k++) {
			compute_begin(r);
			for (long e = 0; e < n; e++)
				sbuf[e] = unit_hash(mix64((uint64_t)r->rank * 1000003u + (uint64_t)k) ^ ((uint64_t)it << 32) ^
						    (uint64_t)e);
			compute_end(r);
			MPI_Status st;
			MPI_Sendrecv(sbuf, (int)n, MPI_DOUBLE, right, 0, rbuf, (int)n, MPI_DOUBLE, left, 0, ring, &st);
			int got = 0;
			MPI_Get_count(&st, MPI_DOUBLE, &got);
			for (int e = 0; e < got; e++) {
				local += rbuf[e];
				sum += mix64(dbits(rbuf[e]));
			}
		}
		double all;
		MPI_Allreduce(&local, &all, 1, MPI_DOUBLE, MPI_SUM, ring);
		sink(dbits(all));
	}
	loop_end(r);
	MPI_Comm_free(&ring);
	r->checksum = sum;
	free(sbuf);
	free(rbuf);
}

/* this app's own option, taken out of argv before the common ones are parsed; 0, or 2 after a
 * usage message */
static int own_options(int *argc, char **argv)
{
	int out = 1;
	for (int i = 1; i < *argc; i++) {
		const char *a = argv[i], *v = i + 1 < *argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--array-dims") && v && (!strcmp(v, "3") || !strcmp(v, "4"))) {
			array_dims = atoi(v);
			i++;
		} else if (!strcmp(a, "--array-dims")) {
			fprintf(stderr, "mpart: --array-dims expects 3 or 4\n");
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
		.name = "mpart",
		.summary = "multipartition-style sweep on a periodic ring: floor(sqrt(P)) Sendrecv + Get_count per rank and "
			   "iteration; own option --array-dims 3|4 (4: floor(cbrt(P)))",
		.size_help = "doubles in a cell's face (weak scaling only)",
		.rule = "any P (weak scaling only)",
		.default_size = 64,
		.groups = 0,
		.check = mpart_check,
		.expect = mpart_expect,
		.run = mpart_run,
	};
	if (own_options(&argc, argv))
		return 2;
	return app_main(&app, argc, argv);
}
