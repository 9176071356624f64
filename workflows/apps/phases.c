/*
 * phases — a code whose communication pattern changes at --switch-at S, and which calls a few
 * functions rarely. The state is a global R x C array (R = C = N for strong scaling; R = N * P,
 * C = N for weak), rows block-distributed over a duplicate of MPI_COMM_WORLD (MPI_Comm_dup).
 *   set-up       MPI_Comm_dup; a derived "pair" datatype (MPI_Type_contiguous + commit) and a
 *                user-defined min/max reduction (MPI_Op_create); two strided block datatypes for
 *                the transposes (MPI_Type_vector + MPI_Type_create_resized + commit, the vector freed).
 *   it < S       nearest neighbour: halo rows with the ranks above and below on a periodic ring
 *                (2 MPI_Irecv, 2 MPI_Isend, completed by 4 MPI_Waitany), then a 5-point update.
 *   it == S      once: MPI_Allreduce of (min, max) with the user op on the pair type, to normalise
 *                the field, and one MPI_Iprobe checking that no stray message is pending.
 *   it >= S      all-to-all: the array is transposed (MPI_Alltoall sending one strided block per
 *                rank straight from the array) and its rows smoothed (3-point, periodic).
 *   end          MPI_Op_free, MPI_Type_free of the three datatypes, MPI_Comm_free.
 * Every step is a function of global positions only, so the checksum does not depend on the
 * decomposition. P must divide N. --compute K busy-work units per cell and iteration.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "transpose.h"

enum { TAG_DOWN = 0, TAG_UP = 1, TAG_STRAY = 99 };

static long rows_global(const struct params *p, int P)
{
	return p->scaling == SCALING_STRONG ? p->size : p->size * P;
}

static int phases_check(const struct params *p, int P, char *msg, size_t len)
{
	if (p->size % P) {
		snprintf(msg, len, "--size %ld is not divisible by the %d ranks (the Alltoall transpose splits the %ld "
			 "columns evenly)", p->size, P, p->size);
		return -1;
	}
	if (p->switch_at > p->iterations) {
		snprintf(msg, len, "--switch-at %ld is beyond --iterations %ld", p->switch_at, p->iterations);
		return -1;
	}
	return check_cells(p->size, (double)rows_global(p, P) / P * (double)p->size, msg, len);
}

static void phases_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t S = (uint64_t)p->switch_at, A = (uint64_t)(p->iterations - p->switch_at);
	const uint64_t row = 8 * (uint64_t)p->size, local = row * (uint64_t)(rows_global(p, P) / P);
	for (int r = 0; r < P; r++) {
		expect_add(t, r, "MPI_Comm_dup", 1, 0, 0);
		expect_add(t, r, "MPI_Comm_free", 1, 0, 0);
		expect_add(t, r, "MPI_Type_contiguous", 1, 0, 0);
		expect_add(t, r, "MPI_Type_vector", 2, 0, 0);
		expect_add(t, r, "MPI_Type_create_resized", 2, 0, 0);
		expect_add(t, r, "MPI_Type_commit", 3, 0, 0);
		expect_add(t, r, "MPI_Type_free", 5, 0, 0);
		expect_add(t, r, "MPI_Op_create", 1, 0, 0);
		expect_add(t, r, "MPI_Op_free", 1, 0, 0);
		expect_add(t, r, "MPI_Irecv", 2 * S, 0, 2 * S * row);
		expect_add(t, r, "MPI_Isend", 2 * S, 2 * S * row, 0);
		expect_add(t, r, "MPI_Waitany", 4 * S, 0, 0);
		if (A > 0) {
			expect_add(t, r, "MPI_Allreduce", 1, 16, 16);
			expect_add(t, r, "MPI_Iprobe", 1, 0, 0);
			expect_add(t, r, "MPI_Alltoall", A, A * local, A * local);
		}
	}
}

/* the user-defined reduction: element-wise (min, max) of pairs */
static void minmax(void *in, void *inout, int *len, MPI_Datatype *type)
{
	const double *a = in;
	double *b = inout;
	for (int i = 0; i < *len; i++) {
		b[2 * i] = fmin(a[2 * i], b[2 * i]);
		b[2 * i + 1] = fmax(a[2 * i + 1], b[2 * i + 1]);
	}
}

/* phase 1: one halo exchange and 5-point update of u (L rows of C, one ghost row above and below) */
static void neighbour_step(const struct params *p, struct run *r, MPI_Comm comm, long L, long C, double *u,
			   double *v)
{
	const int up = (r->rank - 1 + r->size) % r->size, down = (r->rank + 1) % r->size;
	MPI_Request req[4];
	MPI_Irecv(u, (int)C, MPI_DOUBLE, up, TAG_DOWN, comm, &req[0]);
	MPI_Irecv(u + (L + 1) * C, (int)C, MPI_DOUBLE, down, TAG_UP, comm, &req[1]);
	MPI_Isend(u + C, (int)C, MPI_DOUBLE, up, TAG_UP, comm, &req[2]);
	MPI_Isend(u + L * C, (int)C, MPI_DOUBLE, down, TAG_DOWN, comm, &req[3]);
	for (int k = 0; k < 4; k++) {
		int done;
		MPI_Waitany(4, req, &done, MPI_STATUS_IGNORE);
	}
	compute_begin(r);
	uint64_t acc = 0;
	for (long i = 1; i <= L; i++)
		for (long j = 0; j < C; j++) {
			const double *c = u + i * C;
			double s = c[j] + c[j - C] + c[j + C] + c[(j - 1 + C) % C] + c[(j + 1) % C];
			v[i * C + j] = s * 0.2;
			acc ^= busywork(dbits(v[i * C + j]), p->compute);
		}
	sink(acc);
	compute_end(r);
}

/* the switch: normalise the field to [0, 1] with the global (min, max), and check for stray messages */
static void switch_pattern(MPI_Comm comm, MPI_Datatype pair, MPI_Op op, double *a, size_t n)
{
	double mm[2] = {INFINITY, -INFINITY}, all[2];
	for (size_t c = 0; c < n; c++) {
		mm[0] = fmin(mm[0], a[c]);
		mm[1] = fmax(mm[1], a[c]);
	}
	MPI_Allreduce(mm, all, 1, pair, op, comm);
	if (all[1] > all[0])
		for (size_t c = 0; c < n; c++)
			a[c] = (a[c] - all[0]) / (all[1] - all[0]);
	int stray = 0;
	MPI_Iprobe(MPI_ANY_SOURCE, TAG_STRAY, comm, &stray, MPI_STATUS_IGNORE);
	if (stray)
		app_abort("a message is pending that nobody sent on purpose");
}

/* phase 2: 3-point periodic smoothing of each row of x into y (rows of length n) */
static void smooth_rows(const struct params *p, struct run *r, const double *x, double *y, long rows, long n)
{
	compute_begin(r);
	uint64_t acc = 0;
	for (long i = 0; i < rows; i++) {
		const double *c = x + i * n;
		for (long j = 0; j < n; j++) {
			y[i * n + j] = (c[(j - 1 + n) % n] + c[j] + c[(j + 1) % n]) / 3.0;
			acc ^= busywork(dbits(y[i * n + j]), p->compute);
		}
	}
	sink(acc);
	compute_end(r);
}

static void phases_run(const struct params *p, struct run *r)
{
	const int P = r->size, me = r->rank;
	const long R = rows_global(p, P), C = p->size, L = R / P;
	const size_t local = (size_t)(L * C);
	MPI_Comm comm;
	MPI_Datatype pair;
	MPI_Op op;
	MPI_Comm_dup(MPI_COMM_WORLD, &comm);
	MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
	MPI_Type_commit(&pair);
	MPI_Op_create(minmax, 1, &op);
	double *recvbuf = app_alloc(local, sizeof(double));
	struct transpose tr[2] = {
		{comm, P, me, R, C, 1, transpose_block_type(R, C, 1, P), NULL, recvbuf},
		{comm, P, me, C, R, 1, transpose_block_type(C, R, 1, P), NULL, recvbuf},
	};

	double *u = app_alloc(local + 2 * (size_t)C, sizeof *u), *v = app_alloc(local + 2 * (size_t)C, sizeof *v);
	double *x = app_alloc(local, sizeof *x), *y = app_alloc(local, sizeof *y);
	for (size_t c = 0; c < local; c++)
		u[(size_t)C + c] = unit_hash((uint64_t)me * local + c);

	long flips = 0; /* transposes done: the array is C x R when odd */
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		if (it < p->switch_at) {
			neighbour_step(p, r, comm, L, C, u, v);
			double *t = u;
			u = v;
			v = t;
			continue;
		}
		if (it == p->switch_at) {
			memcpy(x, u + C, local * sizeof *x);
			switch_pattern(comm, pair, op, x, local);
		}
		const struct transpose *t = &tr[flips % 2];
		transpose(t, x, y);
		flips++;
		smooth_rows(p, r, y, x, t->C / P, t->R);
	}
	loop_end(r);

	const double *a = p->switch_at < p->iterations ? x : u + C;
	const long cols = flips % 2 ? R : C, rows = (long)local / cols;
	for (size_t c = 0; c < local; c++)
		r->checksum += cell_term((uint64_t)(me * rows * cols) + c, dbits(a[c]));
	MPI_Op_free(&op);
	MPI_Type_free(&pair);
	MPI_Type_free(&tr[0].block);
	MPI_Type_free(&tr[1].block);
	MPI_Comm_free(&comm);
	free(recvbuf);
	free(u);
	free(v);
	free(x);
	free(y);
}

int main(int argc, char **argv)
{
	const struct app app = {
		.name = "phases",
		.summary = "Nearest-neighbour halo exchange until --switch-at, then all-to-all transposes; rare "
			   "calls: Comm_dup, derived datatypes, a user-defined reduction, Waitany, Iprobe.",
		.size_help = "array side (N x N globally for strong scaling, N x N per rank for weak)",
		.rule = "P must divide --size",
		.default_size = 240,
		.groups = OPT_SWITCH,
		.check = phases_check,
		.expect = phases_expect,
		.run = phases_run,
	};
	return app_main(&app, argc, argv);
}
