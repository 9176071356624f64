/*
 * mgcoarse — the coarse levels of a geometric multigrid V-cycle over the process grid, as codes
 * agglomerate them: ranks on the non-periodic 2-D grid of MPI_Dims_create (rows x cols,
 * row-major; MPI_Cart_create, or by hand with --manual-neighbours: procgrid.h). Level l = 0, 1, ..., L-1 with L = 1 + floor(log2(min(rows, cols))): only the ranks
 * whose row and column are both multiples of 2^l take part in level l; they exchange a halo of
 * n / 2^l doubles with the participants at distance 2^l along each dimension (left, right, up,
 * down, where inside the grid) with MPI_Sendrecv, then the ranks of level l that are not in level
 * l+1 send their restricted block to the level-(l+1) rank below them in coordinates (the row and
 * column rounded down to a multiple of 2^(l+1)) and those receive one block from each. The
 * coarsest level ends with an MPI_Allreduce over g.comm. So which ranks talk, to whom and
 * how often depends on the coordinates (multiples of 2^l) and the level count on log2 of a grid
 * width. --size N: each rank's fine block is N x N (weak scaling only); N must be a multiple of
 * 2^(L-1).
 */
#include <stdio.h>
#include <stdlib.h>

#include "common.h"
#include "procgrid.h"

static int levels_of(const int dims[2])
{
	int m = dims[0] < dims[1] ? dims[0] : dims[1], L = 1;
	while ((1 << L) <= m)
		L++;
	return L;
}

static int mg_check(const struct params *p, int P, char *msg, size_t len)
{
	int dims[2];
	if (procgrid_check_options(p, msg, len))
		return -1;
	if (p->scaling != SCALING_WEAK) {
		snprintf(msg, len, "only --scaling weak is supported (--size is per rank)");
		return -1;
	}
	procgrid_dims(P, dims);
	int L = levels_of(dims);
	if (p->size % (1L << (L - 1))) {
		snprintf(msg, len, "--size %ld is not a multiple of 2^%d (the coarsest of %d levels on a %dx%d grid)", p->size,
			 L - 1, L, dims[0], dims[1]);
		return -1;
	}
	return check_cells(p->size, (double)p->size * (double)p->size, msg, len);
}

static int in_level(int row, int col, int l) { return row % (1 << l) == 0 && col % (1 << l) == 0; }

/* the participants of level l at distance 2^l: left, right, up, down (-1 outside the grid) */
static void level_peers(const int dims[2], int row, int col, int l, int peer[4])
{
	int s = 1 << l;
	peer[0] = col - s >= 0 ? row * dims[1] + col - s : -1;
	peer[1] = col + s < dims[1] ? row * dims[1] + col + s : -1;
	peer[2] = row - s >= 0 ? (row - s) * dims[1] + col : -1;
	peer[3] = row + s < dims[0] ? (row + s) * dims[1] + col : -1;
}

/* children of a level-(l+1) rank at level l: the level-l ranks that round down to it */
static int children(const int dims[2], int row, int col, int l, int child[3])
{
	int s = 1 << l, k = 0;
	const int dr[3] = {0, s, s}, dc[3] = {s, 0, s};
	for (int i = 0; i < 3; i++)
		if (row + dr[i] < dims[0] && col + dc[i] < dims[1])
			child[k++] = (row + dr[i]) * dims[1] + col + dc[i];
	return k;
}

static void mg_expect(const struct params *p, int P, struct expect *t)
{
	int dims[2];
	procgrid_dims(P, dims);
	const int L = levels_of(dims);
	const uint64_t I = (uint64_t)p->iterations, N = (uint64_t)p->size;
	procgrid_expect(p, P, t);
	for (int r = 0; r < P; r++) {
		int row = r / dims[1], col = r % dims[1];
		uint64_t sr = 0, srb = 0, sends = 0, sb = 0, recvs = 0, rb = 0;
		for (int l = 0; l < L && in_level(row, col, l); l++) {
			int peer[4], child[3];
			uint64_t h = 8 * (N >> l), block = 8 * (N >> (l + 1)) * (N >> (l + 1));
			level_peers(dims, row, col, l, peer);
			for (int d = 0; d < 4; d += 2)
				if (peer[d] >= 0 || peer[d + 1] >= 0) {
					sr += 2;
					srb += h * (uint64_t)((peer[d] >= 0) + (peer[d + 1] >= 0));
				}
			if (l + 1 < L && !in_level(row, col, l + 1)) {
				sends++;
				sb += block;
			} else if (l + 1 < L) {
				int k = children(dims, row, col, l, child);
				recvs += (uint64_t)k;
				rb += block * (uint64_t)k;
			}
		}
		if (sr)
			expect_add(t, r, "MPI_Sendrecv", I * sr, I * srb, I * srb);
		if (sends)
			expect_add(t, r, "MPI_Send", I * sends, I * sb, 0);
		if (recvs)
			expect_add(t, r, "MPI_Recv", I * recvs, 0, I * rb);
		expect_add(t, r, "MPI_Allreduce", I, 8 * I, 8 * I);
	}
}

static void mg_run(const struct params *p, struct run *r)
{
	struct procgrid g;
	procgrid_open(p, r, 0, &g);
	const int *dims = g.dims, row = g.row, col = g.col, L = levels_of(dims);
	const long N = p->size;
	double *u = app_alloc((size_t)(N * N), sizeof *u), *halo = app_alloc((size_t)N, sizeof *halo);
	double *blk = app_alloc((size_t)(N * N), sizeof *blk);
	for (long i = 0; i < N * N; i++)
		u[i] = unit_hash(mix64((uint64_t)r->rank * 104729u + (uint64_t)i));
	double acc = 0;
	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		for (int l = 0; l < L && in_level(row, col, l); l++) {
			const long h = N >> l, b = (N >> (l + 1)) * (N >> (l + 1));
			int peer[4], child[3];
			level_peers(dims, row, col, l, peer);
			for (int d = 0; d < 4; d += 2) {
				if (peer[d] < 0 && peer[d + 1] < 0)
					continue;
				/* towards -: send to the low peer, receive from the high one; then the reverse */
				int lo = peer[d] >= 0 ? peer[d] : MPI_PROC_NULL, hi = peer[d + 1] >= 0 ? peer[d + 1] : MPI_PROC_NULL;
				MPI_Sendrecv(u, (int)h, MPI_DOUBLE, lo, l, halo, (int)h, MPI_DOUBLE, hi, l, g.comm,
					     MPI_STATUS_IGNORE);
				acc += hi != MPI_PROC_NULL ? halo[0] : 0;
				MPI_Sendrecv(u, (int)h, MPI_DOUBLE, hi, 50 + l, halo, (int)h, MPI_DOUBLE, lo, 50 + l, g.comm,
					     MPI_STATUS_IGNORE);
				acc += lo != MPI_PROC_NULL ? halo[0] : 0;
			}
			compute_begin(r);
			sink(busywork((uint64_t)h, p->compute * h * h));
			for (long i = 0; i < b; i++)
				blk[i] = u[i] * 0.25 + u[i + b < N * N ? i + b : i] * 0.75;
			compute_end(r);
			if (l + 1 >= L)
				break;
			if (!in_level(row, col, l + 1)) {
				int s2 = 1 << (l + 1), parent = (row / s2 * s2) * dims[1] + col / s2 * s2;
				MPI_Send(blk, (int)b, MPI_DOUBLE, parent, 200 + l, g.comm);
				break;
			}
			int k = children(dims, row, col, l, child);
			for (int i = 0; i < k; i++) {
				MPI_Recv(blk, (int)b, MPI_DOUBLE, child[i], 200 + l, g.comm, MPI_STATUS_IGNORE);
				acc += blk[0];
			}
		}
		double all;
		MPI_Allreduce(&acc, &all, 1, MPI_DOUBLE, MPI_SUM, g.comm);
		acc = all / r->size;
	}
	loop_end(r);
	r->checksum = r->rank == 0 ? mix64(dbits(acc)) : 0;
	procgrid_close(&g);
	free(u);
	free(halo);
	free(blk);
}

int main(int argc, char **argv)
{
	static const struct app app = {
		.name = "mgcoarse",
		.summary = "multigrid coarse levels: level l among ranks at multiples of 2^l, halos at distance 2^l.",
		.size_help = "cells per side of each rank's fine N x N block (weak scaling only)",
		.rule = "any P (weak scaling only); --size a multiple of 2^(levels-1)",
		.default_size = 64,
		.groups = OPT_STENCIL,
		.check = mg_check,
		.expect = mg_expect,
		.run = mg_run,
	};
	return app_main(&app, argc, argv);
}
