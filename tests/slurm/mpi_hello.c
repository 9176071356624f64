/* mpi_hello — MPI test program for the local Slurm cluster (tests/bats/slurm.bats).
 *
 * Every rank prints one line
 *     hello rank R of N on NODE
 * where NODE is the Slurm node the rank runs on ($SLURMD_NODENAME, set by slurmd; the virtual
 * nodes of the test cluster share one host name) or, outside Slurm, the processor name.
 * A barrier and an allreduce make sure the ranks really communicate; rank 0 then prints
 *     sum R0+..+R(N-1) = S
 * Exit status 0 on success, 1 when the allreduce gives the wrong sum.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, size, len, sum = 0;
	char name[MPI_MAX_PROCESSOR_NAME];
	const char *node;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Get_processor_name(name, &len);
	node = getenv("SLURMD_NODENAME");
	if (!node || !*node)
		node = name;

	printf("hello rank %d of %d on %s\n", rank, size, node);
	fflush(stdout);

	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (rank == 0) {
		printf("sum 0+..+%d = %d\n", size - 1, sum);
		fflush(stdout);
	}
	MPI_Finalize();
	return sum == size * (size - 1) / 2 ? 0 : 1;
}
