/* Benchmark program: ITER calls of MPI_Comm_rank on one rank, the cheapest call the tracer
 * records, with no message and no peer to wait for: the tracer's own cost per call. Prints
 * "seconds=<s> calls=<n>". */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	long iters = argc > 1 ? atol(argv[1]) : 1000000;
	int rank;
	double t0 = MPI_Wtime();
	for (long i = 0; i < iters; i++)
		MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	double t = MPI_Wtime() - t0;
	if (rank == 0)
		printf("seconds=%.6f calls=%ld\n", t, iters);
	MPI_Finalize();
	return 0;
}
