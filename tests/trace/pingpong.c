/* Test and benchmark program: ITER iterations of a 0-byte Irecv/Isend/Waitall between two
 * ranks (6 intercepted calls per iteration). Prints "seconds=<s> calls=<n>" on rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	long iters = argc > 1 ? atol(argv[1]) : 100000;
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	int peer = 1 - rank;
	char in = 0, out = 0;
	MPI_Request r[2];
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	for (long i = 0; i < iters; i++) {
		MPI_Irecv(&in, 0, MPI_CHAR, peer, 0, MPI_COMM_WORLD, &r[0]);
		MPI_Isend(&out, 0, MPI_CHAR, peer, 0, MPI_COMM_WORLD, &r[1]);
		MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
	}
	double t = MPI_Wtime() - t0;
	if (rank == 0)
		printf("seconds=%.6f calls=%ld\n", t, 3 * iters);
	MPI_Finalize();
	return 0;
}
