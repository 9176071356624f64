/* dims-create NDIMS P... — print "P D0xD1x..." per rank count: the grid MPI_Dims_create gives
 * P ranks in NDIMS dimensions (every dimension free). Run as a singleton (no mpirun); the
 * campaign tests compare the workflow's {dims} placeholders with it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int nd = argc > 1 ? atoi(argv[1]) : 0;
	for (int i = 2; i < argc && nd > 0 && nd <= 8; i++) {
		int p = atoi(argv[i]), dims[8] = {0};
		MPI_Dims_create(p, nd, dims);
		printf("%d ", p);
		for (int k = 0; k < nd; k++)
			printf("%s%d", k ? "x" : "", dims[k]);
		printf("\n");
	}
	MPI_Finalize();
	return 0;
}
