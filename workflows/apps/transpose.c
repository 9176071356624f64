/*
 * transpose — distributed transpose with one MPI_Alltoall (see transpose.h).
 */
#include "transpose.h"

#include <string.h>

MPI_Datatype transpose_block_type(long R, long C, int w, int P)
{
	MPI_Datatype vec, block;
	MPI_Type_vector((int)(R / P), (int)(C / P * w), (int)(C * w), MPI_DOUBLE, &vec);
	MPI_Type_create_resized(vec, 0, (MPI_Aint)(C / P * w * (long)sizeof(double)), &block);
	MPI_Type_commit(&block);
	MPI_Type_free(&vec);
	return block;
}

void transpose(const struct transpose *t, const double *in, double *out)
{
	const long rl = t->R / t->P, cl = t->C / t->P, w = t->w;
	const long bl = rl * cl * w; /* doubles per peer */
	if (t->block == MPI_DATATYPE_NULL) {
		for (long j = 0; j < t->P; j++)
			for (long i = 0; i < rl; i++)
				memcpy(t->sendbuf + j * bl + i * cl * w, in + (i * t->C + j * cl) * w,
				       (size_t)(cl * w) * sizeof(double));
		MPI_Alltoall(t->sendbuf, (int)bl, MPI_DOUBLE, t->recvbuf, (int)bl, MPI_DOUBLE, t->comm);
	} else {
		MPI_Alltoall(in, 1, t->block, t->recvbuf, (int)bl, MPI_DOUBLE, t->comm);
	}
	/* from source s: its rows s*rl.. of my columns me*cl.., row-major rl x cl */
	for (long s = 0; s < t->P; s++)
		for (long i = 0; i < rl; i++)
			for (long c = 0; c < cl; c++)
				memcpy(out + (c * t->R + s * rl + i) * w, t->recvbuf + s * bl + (i * cl + c) * w,
				       (size_t)w * sizeof(double));
}
