/* Test program: polling loops. For ITER iterations rank 1 spins on MPI_Test until rank 0's
 * delayed message arrives, then spins on MPI_Iprobe for the next one; thousands of polls that
 * find nothing, a different number every time. Prints "polls=<n>" on rank 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static void delay(double s)
{
	double t = MPI_Wtime();
	while (MPI_Wtime() - t < s)
		;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, iters = argc > 1 ? atoi(argv[1]) : 50;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	long polls = 0;
	int v = 0;
	for (int it = 0; it < iters; it++) {
		if (rank == 0) {
			delay(0.0005);
			MPI_Send(&it, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
			delay(0.0005);
			MPI_Send(&it, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Request r;
			int flag = 0;
			MPI_Irecv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &r);
			while (!flag) {
				MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
				polls++;
			}
			flag = 0;
			while (!flag) {
				MPI_Iprobe(0, 2, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
				polls++;
			}
			MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
	if (rank == 1)
		printf("polls=%ld\n", polls);
	MPI_Finalize();
	return 0;
}
