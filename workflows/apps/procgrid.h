/*
 * procgrid — the 2-D process grid of the issue-30 mini-apps (butterfly, mgcoarse, uneven, cannon),
 * found as most codes find theirs: MPI_Dims_create, then MPI_Cart_create (reorder = 0) and
 * MPI_Cart_coords, the traffic on the Cartesian communicator; or, with --manual-neighbours, the
 * same grid computed by hand on MPI_COMM_WORLD (row-major, no MPI_Cart_* call). Partners are
 * always computed from the coordinates, rank = row * cols + col.
 */
#ifndef LADDER_APPS_PROCGRID_H
#define LADDER_APPS_PROCGRID_H

#include "common.h"

struct procgrid {
	int dims[2];      /* rows, cols */
	int row, col;
	int periodic;
	MPI_Comm comm;    /* the Cartesian communicator, or MPI_COMM_WORLD by hand */
};

/* the grid of P ranks (MPI_Dims_create's rows x cols), without MPI */
void procgrid_dims(int P, int dims[2]);
/* every rank's grid calls (Dims_create, Cart_create, Cart_coords, Comm_free) unless manual */
void procgrid_expect(const struct params *p, int P, struct expect *t);
void procgrid_open(const struct params *p, const struct run *r, int periodic, struct procgrid *g);
void procgrid_close(struct procgrid *g);
/* the rank at (row, col) on g, wrapped when periodic; MPI_PROC_NULL outside a non-periodic grid */
int procgrid_rank(const struct procgrid *g, int row, int col);
/* 0, or -1 and a message when an option of the stencil group other than --manual-neighbours is set */
int procgrid_check_options(const struct params *p, char *msg, size_t len);

#endif
