/* Test program: more distinct call sites than the tracer's call-site cache has slots. One block of
 * code is expanded SITES times by the preprocessor; each expansion holds an Allreduce, a Bcast and
 * an Isend/Irecv/Waitall ring exchange, each call its own call site (over 1,500 in all), and which
 * of them runs changes every round, so every call site is used and cache slots keep being taken
 * over by other call sites and other functions.
 *
 * Each rank tallies its own calls and bytes per MPI function (the project's byte accounting,
 * workflows/apps/README.md) and, after MPI_Finalize, writes them to DIR/expect-RANK.tsv in the
 * format of `ladder inspect --counts` (without the header).
 *
 * usage: callsites DIR [ROUNDS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { F_ALLREDUCE, F_BCAST, F_COMM_RANK, F_COMM_SIZE, F_FINALIZE, F_INIT, F_IRECV, F_ISEND, F_WAITALL, F_N };
static const char *const names[F_N] = {"MPI_Allreduce", "MPI_Bcast", "MPI_Comm_rank", "MPI_Comm_size",
				       "MPI_Finalize", "MPI_Init", "MPI_Irecv", "MPI_Isend", "MPI_Waitall"};
static long calls[F_N], sent[F_N], recvd[F_N];

static void tally(int f, long s, long r)
{
	calls[f]++;
	sent[f] += s;
	recvd[f] += r;
}

static int rank, size, buf[64], out[64];

/* one block: which of its calls runs depends on the site number and the round */
#define BLOCK                                                                                        \
	do {                                                                                         \
		int n = site % 7 + 1, which = (site + round) % 3;                                   \
		if (which == 0) {                                                                    \
			MPI_Allreduce(buf, out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);                \
			tally(F_ALLREDUCE, 4L * n, 4L * n);                                          \
		} else if (which == 1) {                                                             \
			MPI_Bcast(buf, n, MPI_INT, site % size, MPI_COMM_WORLD);                     \
			tally(F_BCAST, rank == site % size ? 4L * n : 0, rank == site % size ? 0 : 4L * n); \
		} else {                                                                             \
			MPI_Request req[2];                                                          \
			MPI_Irecv(out, n, MPI_INT, (rank + size - 1) % size, site, MPI_COMM_WORLD, &req[0]); \
			tally(F_IRECV, 0, 4L * n);                                                   \
			MPI_Isend(buf, n, MPI_INT, (rank + 1) % size, site, MPI_COMM_WORLD, &req[1]); \
			tally(F_ISEND, 4L * n, 0);                                                   \
			MPI_Waitall(2, req, MPI_STATUSES_IGNORE);                                    \
			tally(F_WAITALL, 0, 0);                                                      \
		}                                                                                    \
		site++;                                                                              \
	} while (0)
#define B4 BLOCK; BLOCK; BLOCK; BLOCK
#define B16 B4; B4; B4; B4
#define B64 B16; B16; B16; B16
#define B320 B64; B64; B64; B64; B64

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: callsites DIR [ROUNDS]\n");
		return 2;
	}
	int rounds = argc > 2 ? atoi(argv[2]) : 3;
	MPI_Init(&argc, &argv);
	tally(F_INIT, 0, 0);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	tally(F_COMM_RANK, 0, 0);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	tally(F_COMM_SIZE, 0, 0);
	memset(buf, 0, sizeof buf);
	for (int round = 0; round < rounds; round++) {
		int site = 0;
		B320;
	}
	MPI_Finalize();
	tally(F_FINALIZE, 0, 0);

	char path[4096];
	snprintf(path, sizeof path, "%s/expect-%d.tsv", argv[1], rank);
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	for (int i = 0; i < F_N; i++)
		if (calls[i])
			fprintf(f, "%d\t%s\t%ld\t%ld\t%ld\n", rank, names[i], calls[i], sent[i], recvd[i]);
	return fclose(f) ? 1 : 0;
}
