/*
 * unreplayable — an MPI program whose trace ladder-replay must refuse with a clear message
 * (tests/bats/replay.bats):
 *   --bottom   sends from MPI_BOTTOM with a datatype built from absolute addresses
 *   --hidden   creates a datatype and a communicator while tracing is paused, then uses them: the
 *              trace lacks their creation, like a synthetic run without its constructor calls
 * Run it on 2 ranks.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "trace/ladder-trace.h"

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int rank;
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	double v[4] = {1, 2, 3, 4};
	if (argc > 1 && !strcmp(argv[1], "--bottom")) {
		MPI_Aint at;
		MPI_Get_address(v, &at);
		int len = 4;
		MPI_Datatype t, types[1] = {MPI_DOUBLE};
		MPI_Type_create_struct(1, &len, &at, types, &t);
		MPI_Type_commit(&t);
		if (rank == 0)
			MPI_Send(MPI_BOTTOM, 1, t, 1, 0, MPI_COMM_WORLD);
		else if (rank == 1)
			MPI_Recv(MPI_BOTTOM, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Type_free(&t);
	} else if (argc > 1 && !strcmp(argv[1], "--hidden")) {
		MPI_Datatype t;
		MPI_Comm c;
		LADDER_PAUSE();
		MPI_Type_contiguous(4, MPI_DOUBLE, &t);
		MPI_Type_commit(&t);
		MPI_Comm_dup(MPI_COMM_WORLD, &c);
		LADDER_RESUME();
		MPI_Bcast(v, 1, t, 0, c);
		MPI_Type_free(&t);
		MPI_Comm_free(&c);
	} else {
		if (rank == 0)
			fprintf(stderr, "usage: unreplayable --bottom|--hidden\n");
		MPI_Finalize();
		return 2;
	}
	MPI_Finalize();
	return 0;
}
