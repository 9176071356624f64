/*
 * unproxyable — MPI programs whose traces `ladder proxy` must refuse or handle specially, one per mode:
 *   --coords     MPI_Cart_rank with coordinates (recorded relative to the caller's): not refused,
 *                the proxy recomputes them from its own coordinates
 *   --intercomm  an intercommunicator between the two halves of the world (peers would be ranks
 *                of the remote group)
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank, size;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc > 1 && !strcmp(argv[1], "--coords")) {
		int dims[1] = {size}, periods[1] = {1}, coords[1] = {(rank + 1) % size}, other;
		MPI_Comm cart;
		MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &cart);
		MPI_Cart_rank(cart, coords, &other);
		MPI_Comm_free(&cart);
	} else if (argc > 1 && !strcmp(argv[1], "--intercomm")) {
		MPI_Comm half, inter;
		int lower = rank < size / 2;
		MPI_Comm_split(MPI_COMM_WORLD, lower, rank, &half);
		MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, lower ? size / 2 : 0, 7, &inter);
		MPI_Barrier(inter);
		MPI_Comm_free(&inter);
		MPI_Comm_free(&half);
	} else {
		if (rank == 0)
			fprintf(stderr, "usage: unproxyable --coords|--intercomm\n");
		MPI_Finalize();
		return 2;
	}
	MPI_Finalize();
	return 0;
}
