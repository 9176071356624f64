/*
 * ft — a NAS-FT-like spectral solver on a 2-D complex field: rank 0 broadcasts the run parameters
 * (MPI_Bcast), the field is transformed forward once (row FFTs, an MPI_Alltoall transpose, row FFTs),
 * then every iteration evolves the spectrum, transforms it back (row FFTs, MPI_Alltoall, row FFTs)
 * and reduces a checksum of the result to rank 0 (MPI_Reduce).
 *
 * The field is N x N globally (strong scaling) or N*P x N (weak scaling: N x N cells per rank), rows
 * block-distributed; P must divide N. The FFT is a mixed-radix Cooley-Tukey for any length. Each
 * line is transformed with the same arithmetic wherever it lives, so the checksum does not depend on
 * the decomposition. --compute K busy-work units per cell and iteration.
 */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "transpose.h"

/* ---- FFT of one contiguous line of any length ----------------------------------------------- */

struct fft {
	long n;
	double complex *tw;      /* exp(-2 pi i e / n), e < n */
	double complex *scratch; /* n */
	double complex *line;    /* n */
};

static void fft_init(struct fft *f, long n)
{
	f->n = n;
	f->tw = app_alloc((size_t)n, sizeof *f->tw);
	f->scratch = app_alloc((size_t)n, sizeof *f->scratch);
	f->line = app_alloc((size_t)n, sizeof *f->line);
	for (long e = 0; e < n; e++)
		f->tw[e] = cexp(-2.0 * M_PI * I * (double)e / (double)n);
}

static void fft_free(struct fft *f)
{
	free(f->tw);
	free(f->scratch);
	free(f->line);
}

/* out[k] = sum_j in[j * stride] w^(j k) for a length-n transform; w from the table, conjugated if inverse */
static void fft_rec(const struct fft *f, const double complex *in, long stride, double complex *out, long n,
		    int inverse)
{
	if (n == 1) {
		out[0] = in[0];
		return;
	}
	long p = 2;
	while (n % p && p * p <= n)
		p++;
	if (n % p)
		p = n; /* n is prime */
	const long m = n / p, scale = f->n / n;
	for (long r = 0; r < p; r++)
		fft_rec(f, in + r * stride, stride * p, out + r * m, m, inverse);
	for (long k = 0; k < m; k++) {
		for (long r = 0; r < p; r++)
			f->scratch[r] = out[r * m + k];
		for (long s = 0; s < p; s++) {
			const long o = k + s * m;
			double complex sum = 0;
			for (long r = 0; r < p; r++) {
				double complex w = f->tw[(r * o % n) * scale];
				sum += f->scratch[r] * (inverse ? conj(w) : w);
			}
			out[o] = sum;
		}
	}
}

/* transform `rows` contiguous lines of length f->n in place */
static void fft_rows(const struct fft *f, double complex *a, long rows, int inverse)
{
	for (long i = 0; i < rows; i++) {
		fft_rec(f, a + i * f->n, 1, f->line, f->n, inverse);
		for (long j = 0; j < f->n; j++)
			a[i * f->n + j] = f->line[j];
	}
}

/* ---- the app -------------------------------------------------------------------------------------- */

static long rows_global(const struct params *p, int P)
{
	return p->scaling == SCALING_STRONG ? p->size : p->size * P;
}

static int ft_check(const struct params *p, int P, char *msg, size_t len)
{
	if (p->size % P) {
		snprintf(msg, len, "--size %ld is not divisible by the %d ranks (the Alltoall transpose splits the %ld "
			 "columns evenly)", p->size, P, p->size);
		return -1;
	}
	return check_cells(p->size, (double)rows_global(p, P) / P * (double)p->size, msg, len);
}

static void ft_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t it = (uint64_t)p->iterations; /* (I is the imaginary unit here) */
	const uint64_t local = (uint64_t)(rows_global(p, P) / P * p->size) * 16; /* bytes of the local field */
	for (int r = 0; r < P; r++) {
		expect_add(t, r, "MPI_Bcast", 1, r == 0 ? 24 : 0, r == 0 ? 0 : 24);
		expect_add(t, r, "MPI_Alltoall", it + 1, (it + 1) * local, (it + 1) * local);
		expect_add(t, r, "MPI_Reduce", it, 8 * it, r == 0 ? 8 * it : 0);
	}
}

static uint64_t field_sum(const double complex *a, long rows, long cols, long row0)
{
	uint64_t s = 0;
	for (long i = 0; i < rows; i++)
		for (long j = 0; j < cols; j++) {
			double complex v = a[i * cols + j];
			s += cell_term((uint64_t)((row0 + i) * cols + j), dbits(creal(v)) ^ mix64(dbits(cimag(v))));
		}
	return s;
}

static void ft_run(const struct params *p, struct run *r)
{
	const int P = r->size, me = r->rank;
	int64_t par[3] = {rows_global(p, P), p->size, p->iterations};
	MPI_Bcast(par, 3, MPI_INT64_T, 0, MPI_COMM_WORLD);
	const long Ny = par[0], Nx = par[1], L = Ny / P, Lx = Nx / P;
	const size_t local = (size_t)(L * Nx);

	double complex *u = app_alloc(local, sizeof *u), *U = app_alloc(local, sizeof *U), *W = app_alloc(local, sizeof *W);
	double *sendbuf = app_alloc(2 * local, sizeof(double)), *recvbuf = app_alloc(2 * local, sizeof(double));
	struct transpose fwd = {MPI_COMM_WORLD, P, me, Ny, Nx, 2, MPI_DATATYPE_NULL, sendbuf, recvbuf};
	struct transpose back = fwd;
	back.R = Nx;
	back.C = Ny;
	struct fft fx, fy;
	fft_init(&fx, Nx);
	fft_init(&fy, Ny);
	for (long i = 0; i < L; i++)
		for (long j = 0; j < Nx; j++) {
			uint64_t g = (uint64_t)((me * L + i) * Nx + j);
			u[i * Nx + j] = unit_hash(2 * g) + I * unit_hash(2 * g + 1);
		}
	/* forward transform: U holds the spectrum transposed, Lx rows (kx) of Ny (ky) */
	fft_rows(&fx, u, L, 0);
	transpose(&fwd, (double *)u, (double *)U);
	fft_rows(&fy, U, Lx, 0);

	uint64_t history = 0, last = 0;
	const double alpha = 1e-3, norm = 1.0 / ((double)Nx * (double)Ny);
	loop_begin(r);
	for (long t = 1; t <= p->iterations; t++) {
		compute_begin(r);
		uint64_t acc = 0;
		for (long i = 0; i < Lx; i++) {
			long kx = me * Lx + i;
			kx = kx < Nx - kx ? kx : Nx - kx;
			for (long j = 0; j < Ny; j++) {
				long ky = j < Ny - j ? j : Ny - j;
				double complex v = U[i * Ny + j] * exp(-alpha * (double)t * (double)(kx * kx + ky * ky));
				W[i * Ny + j] = v;
				acc ^= busywork(dbits(creal(v)), p->compute);
			}
		}
		sink(acc);
		fft_rows(&fy, W, Lx, 1);
		compute_end(r);
		transpose(&back, (double *)W, (double *)u);
		compute_begin(r);
		fft_rows(&fx, u, L, 1);
		for (size_t c = 0; c < local; c++)
			u[c] *= norm;
		compute_end(r);
		last = field_sum(u, L, Nx, me * L);
		uint64_t all = 0;
		MPI_Reduce(&last, &all, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
		history += mix64(all + (uint64_t)t);
	}
	loop_end(r);
	r->checksum = last + (me == 0 ? history : 0);
	fft_free(&fx);
	fft_free(&fy);
	free(u);
	free(U);
	free(W);
	free(sendbuf);
	free(recvbuf);
}

int main(int argc, char **argv)
{
	const struct app app = {
		.name = "ft",
		.summary = "FT-like: 2-D FFTs with MPI_Alltoall transposes, a checksum MPI_Reduce per iteration and "
			   "an MPI_Bcast of the parameters.",
		.size_help = "field side (N x N globally for strong scaling, N x N per rank for weak)",
		.rule = "P must divide --size",
		.default_size = 240,
		.groups = 0,
		.check = ft_check,
		.expect = ft_expect,
		.run = ft_run,
	};
	return app_main(&app, argc, argv);
}
