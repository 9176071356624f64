/* Test program: one-sided communication (MPI_Win_create, MPI_Put, MPI_Win_fence), which the
 * tracer only counts: each rank puts its rank into the window of the next rank, then all
 * ranks send a message around the ring. Prints "sum=<n>" on rank 0. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	int slot = -1;
	MPI_Win win;
	MPI_Win_create(&slot, sizeof slot, sizeof slot, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_fence(0, win);
	MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);
	int sum = 0;
	MPI_Allreduce(&slot, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0)
		printf("sum=%d\n", sum);
	MPI_Finalize();
	return 0;
}
