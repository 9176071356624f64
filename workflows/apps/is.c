/*
 * is — a NAS-IS-like parallel bucket sort of integer keys in [0, 2^20). Rank r owns the key range
 * {k : k * P / 2^20 = r}. Per iteration every rank generates its keys (they change with the
 * iteration), counts them per owner, exchanges the counts (MPI_Alltoall), sends the keys to their
 * owners (MPI_Alltoallv with data-dependent counts), sorts what it received (counting sort) and
 * learns its offset in the global order (MPI_Exscan).
 *
 * Key i of iteration t is floor(2^20 * u^(1 + F)) with u uniform in [0, 1) from a hash of (i, t);
 * --imbalance F > 0 skews keys towards low ranks. Keys depend on their global index only, so the
 * checksum of the sorted sequence (position, key) does not depend on the decomposition. --expect
 * regenerates the keys to count the bytes every rank receives.
 *
 * --size N keys globally (strong scaling, any P: ranks get N/P or N/P + 1) or per rank (weak).
 * --compute K busy-work units per key, once when generated and once when sorted.
 * --comm dup: the sort runs on a duplicate of MPI_COMM_WORLD (MPI_Comm_dup before the loop,
 * MPI_Comm_free after it), as a sort inside a library does.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

static int on_dup;   /* --comm dup */

#define KEY_RANGE (1L << 20)

static long total_keys(const struct params *p, int P)
{
	return p->scaling == SCALING_STRONG ? p->size : p->size * P;
}

/* global index of rank r's first key */
static long first_key(const struct params *p, int P, int r)
{
	if (p->scaling == SCALING_WEAK)
		return p->size * r;
	long q = p->size / P, rem = p->size % P;
	return q * r + rem * r / P;
}

static int key_of(uint64_t g, long t, double imbalance)
{
	double u = unit_hash(mix64(g) ^ ((uint64_t)t * 0x9E3779B97F4A7C15ULL));
	long k = (long)((double)KEY_RANGE * pow(u, 1.0 + imbalance));
	return (int)(k < KEY_RANGE ? k : KEY_RANGE - 1);
}

static int owner(int key, int P)
{
	return (int)((long)key * P / KEY_RANGE);
}

/* first key of rank r's range */
static long range_lo(int r, int P)
{
	return ((long)r * KEY_RANGE + P - 1) / P;
}

static int is_check(const struct params *p, int P, char *msg, size_t len)
{
	if (P > KEY_RANGE) {
		snprintf(msg, len, "needs at most %ld ranks (one key range each), got %d", KEY_RANGE, P);
		return -1;
	}
	/* with imbalance one rank may receive every key */
	return check_cells(p->size, (double)total_keys(p, P), msg, len);
}

static void is_expect(const struct params *p, int P, struct expect *t)
{
	const uint64_t I = (uint64_t)p->iterations;
	uint64_t *recv = calloc((size_t)P, sizeof *recv);
	if (!recv)
		abort();
	for (long it = 0; it < p->iterations; it++)
		for (long g = 0; g < total_keys(p, P); g++)
			recv[owner(key_of((uint64_t)g, it, p->imbalance), P)] += 4;
	for (int r = 0; r < P; r++) {
		uint64_t n = (uint64_t)(first_key(p, P, r + 1) - first_key(p, P, r));
		expect_add(t, r, "MPI_Alltoall", I, 4 * (uint64_t)P * I, 4 * (uint64_t)P * I);
		expect_add(t, r, "MPI_Alltoallv", I, 4 * n * I, recv[r]);
		expect_add(t, r, "MPI_Exscan", I, 8 * I, 8 * I);
		if (on_dup) {
			expect_add(t, r, "MPI_Comm_dup", 1, 0, 0);
			expect_add(t, r, "MPI_Comm_free", 1, 0, 0);
		}
	}
	free(recv);
}

static void is_run(const struct params *p, struct run *r)
{
	const int P = r->size, me = r->rank;
	const long g0 = first_key(p, P, me), n = first_key(p, P, me + 1) - g0;
	const long klo = range_lo(me, P), width = range_lo(me + 1, P) - klo;
	int *keys = app_alloc((size_t)n, sizeof *keys), *sendbuf = app_alloc((size_t)n, sizeof *sendbuf);
	int *scount = app_alloc((size_t)P, sizeof(int)), *sdispl = app_alloc((size_t)P, sizeof(int));
	int *rcount = app_alloc((size_t)P, sizeof(int)), *rdispl = app_alloc((size_t)P, sizeof(int));
	long *hist = app_alloc((size_t)width, sizeof *hist);
	int *recvbuf = NULL, *sorted = NULL;
	long cap = 0;
	MPI_Comm comm = MPI_COMM_WORLD;
	if (on_dup)
		MPI_Comm_dup(MPI_COMM_WORLD, &comm);

	loop_begin(r);
	for (long it = 0; it < p->iterations; it++) {
		compute_begin(r);
		uint64_t acc = 0;
		for (int d = 0; d < P; d++)
			scount[d] = 0;
		for (long i = 0; i < n; i++) {
			keys[i] = key_of((uint64_t)(g0 + i), it, p->imbalance);
			scount[owner(keys[i], P)]++;
			acc ^= busywork((uint64_t)keys[i], p->compute);
		}
		for (int d = 0, o = 0; d < P; d++) {
			sdispl[d] = o;
			o += scount[d];
		}
		for (long i = 0; i < n; i++)
			sendbuf[sdispl[owner(keys[i], P)]++] = keys[i];
		for (int d = 0, o = 0; d < P; d++) { /* restore the displacements */
			sdispl[d] = o;
			o += scount[d];
		}
		compute_end(r);

		MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, comm);
		long got = 0;
		for (int s = 0; s < P; s++) {
			rdispl[s] = (int)got;
			got += rcount[s];
		}
		if (got > cap) {
			free(recvbuf);
			free(sorted);
			cap = got;
			recvbuf = app_alloc((size_t)cap, sizeof *recvbuf);
			sorted = app_alloc((size_t)cap, sizeof *sorted);
		}
		MPI_Alltoallv(sendbuf, scount, sdispl, MPI_INT, recvbuf, rcount, rdispl, MPI_INT, comm);

		compute_begin(r); /* counting sort of the received keys over this rank's range */
		for (long k = 0; k < width; k++)
			hist[k] = 0;
		for (long i = 0; i < got; i++) {
			if (recvbuf[i] < klo || recvbuf[i] >= klo + width)
				app_abort("received key %d outside this rank's range [%ld, %ld)", recvbuf[i], klo, klo + width);
			hist[recvbuf[i] - klo]++;
			acc ^= busywork((uint64_t)recvbuf[i], p->compute);
		}
		for (long k = 0, o = 0; k < width; k++)
			for (long c = 0; c < hist[k]; c++)
				sorted[o++] = (int)(klo + k);
		sink(acc);
		compute_end(r);

		int64_t mine = got, before = 0;
		MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, comm);
		if (me == 0)
			before = 0; /* MPI_Exscan leaves rank 0's result undefined */
		for (long i = 0; i < got; i++)
			r->checksum += cell_term((uint64_t)(it * total_keys(p, P) + before + i), (uint64_t)sorted[i]);
	}
	loop_end(r);
	if (on_dup)
		MPI_Comm_free(&comm);
	free(keys);
	free(sendbuf);
	free(scount);
	free(sdispl);
	free(rcount);
	free(rdispl);
	free(hist);
	free(recvbuf);
	free(sorted);
}

int main(int argc, char **argv)
{
	const struct app app = {
		.name = "is",
		.summary = "IS-like bucket sort: MPI_Alltoall of counts, MPI_Alltoallv of keys with data-dependent "
			   "counts, MPI_Exscan of offsets; --imbalance skews the keys; --comm dup sorts on a "
			   "duplicate of MPI_COMM_WORLD.",
		.size_help = "keys (global for strong scaling, per rank for weak)",
		.rule = "any P up to 2^20",
		.default_size = 1L << 16,
		.groups = OPT_IMBALANCE,
		.check = is_check,
		.expect = is_expect,
		.run = is_run,
	};
	int out = 1;   /* --comm dup|world is this app's own option: taken out before the common ones */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--comm")) {
			if (i + 1 == argc || (strcmp(argv[i + 1], "dup") && strcmp(argv[i + 1], "world"))) {
				fprintf(stderr, "is: --comm expects dup or world\n");
				return 2;
			}
			on_dup = !strcmp(argv[++i], "dup");
		} else {
			argv[out++] = argv[i];
		}
	}
	argv[out] = NULL;
	return app_main(&app, out, argv);
}
