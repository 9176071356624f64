/*
 * transpose — the distributed transpose ft and phases share: a global R x C array of elements of
 * w doubles, rows block-distributed over the P ranks of a communicator (R/P rows each, row-major),
 * becomes its C x R transpose distributed the same way (C/P rows each), with one MPI_Alltoall.
 * P must divide R and C.
 */
#ifndef LADDER_APPS_TRANSPOSE_H
#define LADDER_APPS_TRANSPOSE_H

#include <mpi.h>

struct transpose {
	MPI_Comm comm;
	int P, me;
	long R, C;  /* global shape before the transpose */
	int w;      /* doubles per element */
	MPI_Datatype block; /* MPI_DATATYPE_NULL: pack into sendbuf; else one destination's block of `in` */
	double *sendbuf, *recvbuf; /* R/P * C * w doubles each (sendbuf unused with a block type) */
};

/* a derived datatype for one destination's block (R/P rows of C/P elements, stride C) with the
 * extent of C/P elements, so that MPI_Alltoall can send straight from the array; committed */
MPI_Datatype transpose_block_type(long R, long C, int w, int P);

/* out (C/P rows of R elements) = the transpose of in (R/P rows of C elements) */
void transpose(const struct transpose *t, const double *in, double *out);

#endif
