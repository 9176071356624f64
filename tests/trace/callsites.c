/*
 * callsites — many call sites of different MPI functions (256), each called once per iteration, so
 * that call sites share the tracer's per-site caches. The profile must still count every call
 * under its own function.  Usage: callsites [ITERATIONS]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define NSITES 64
static int ranks[NSITES], sizes[NSITES], sums[NSITES], roots[NSITES];

/* four call sites of four functions; distinct arguments keep the compiler from merging them */
#define SITE(i)                                                                          \
	MPI_Comm_rank(MPI_COMM_WORLD, &ranks[i]);                                          \
	MPI_Comm_size(MPI_COMM_WORLD, &sizes[i]);                                          \
	MPI_Allreduce(&ranks[i], &sums[i], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);           \
	MPI_Bcast(&roots[i], 1, MPI_INT, (i) % sizes[i], MPI_COMM_WORLD);
#define SITES4(i) SITE(i) SITE(i + 1) SITE(i + 2) SITE(i + 3)
#define SITES16(i) SITES4(i) SITES4(i + 4) SITES4(i + 8) SITES4(i + 12)

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int iterations = argc > 1 ? atoi(argv[1]) : 3;
	for (int it = 0; it < iterations; it++) {
		SITES16(0)
		SITES16(16)
		SITES16(32)
		SITES16(48)
	}
	long total = 0;
	for (int i = 0; i < NSITES; i++)
		total += sums[i];
	if (ranks[0] == 0)
		printf("sites=%d iterations=%d sum=%ld\n", 4 * NSITES, iterations, total);
	MPI_Finalize();
	return 0;
}
