/* Test program: MPI_Comm_spawn. Started without arguments it spawns two copies of itself with the
 * argument "child", sends each child its rank over the intercommunicator, waits for the answer
 * and disconnects; a child receives, answers and disconnects. Prints "spawn ok" on the parent's
 * rank 0. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Comm parent, children;
	MPI_Comm_get_parent(&parent);
	int rank, v = 0;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (parent == MPI_COMM_NULL) {
		char *args[] = {"child", NULL};
		MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &children, MPI_ERRCODES_IGNORE);
		if (rank == 0) {
			for (int c = 0; c < 2; c++) {
				MPI_Send(&c, 1, MPI_INT, c, 1, children);
				MPI_Recv(&v, 1, MPI_INT, c, 2, children, MPI_STATUS_IGNORE);
			}
			printf("spawn ok\n");
		}
		MPI_Comm_disconnect(&children);
	} else {
		MPI_Recv(&v, 1, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE);
		v += 100;
		MPI_Send(&v, 1, MPI_INT, 0, 2, parent);
		MPI_Comm_disconnect(&parent);
	}
	MPI_Finalize();
	return 0;
}
