/*
 * dims-check — compares the apps' grid_dims() (what --expect uses, without MPI) with the real
 * MPI_Dims_create for every rank count up to a bound and 1 to 4 dimensions, free and with the first
 * dimension fixed. Prints "ok N" on success; each mismatch on stderr and exit status 1 otherwise.
 *
 *   dims-check [MAX_RANKS]     (default 4096; runs as a singleton or under mpirun -np 1)
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../workflows/apps/common.h"

int main(int argc, char **argv)
{
	int max = argc > 1 ? atoi(argv[1]) : 4096, bad = 0, n = 0;
	MPI_Init(&argc, &argv);
	for (int nd = 1; nd <= 4; nd++)
		for (int P = 1; P <= max; P++)
			for (int fix = 0; fix <= (nd > 1); fix++) {
				int a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0};
				if (fix) {
					if (P % 2)
						continue;
					a[0] = b[0] = 2;
				}
				MPI_Dims_create(P, nd, a);
				grid_dims(P, nd, b);
				n++;
				for (int d = 0; d < nd; d++)
					if (a[d] != b[d]) {
						fprintf(stderr, "P=%d nd=%d fixed=%d: MPI %d,%d,%d,%d computed %d,%d,%d,%d\n", P,
							nd, fix, a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
						bad++;
						break;
					}
			}
	MPI_Finalize();
	if (!bad)
		printf("ok %d\n", n);
	return bad ? 1 : 0;
}
