/* Test and benchmark program: MPI_Init and MPI_Finalize, nothing else — the smallest traced run,
 * whose container is the fixed cost of every container (bench/sizes.bench). */
#include <mpi.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	MPI_Finalize();
	return 0;
}
