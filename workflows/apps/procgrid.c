/*
 * procgrid — the 2-D process grid of the issue-30 mini-apps (see procgrid.h).
 */
#include "procgrid.h"

#include <stdio.h>

void procgrid_dims(int P, int dims[2])
{
	dims[0] = dims[1] = 0;
	grid_dims(P, 2, dims);
}

void procgrid_expect(const struct params *p, int P, struct expect *t)
{
	for (int r = 0; r < P; r++) {
		expect_add(t, r, "MPI_Dims_create", 1, 0, 0);
		if (p->manual_neighbours)
			continue;
		expect_add(t, r, "MPI_Cart_create", 1, 0, 0);
		expect_add(t, r, "MPI_Cart_coords", 1, 0, 0);
		expect_add(t, r, "MPI_Comm_free", 1, 0, 0);
	}
}

void procgrid_open(const struct params *p, const struct run *r, int periodic, struct procgrid *g)
{
	int dims[2] = {0, 0}, periods[2] = {periodic, periodic}, coords[2];
	procgrid_dims(r->size, g->dims);
	MPI_Dims_create(r->size, 2, dims);
	if (dims[0] != g->dims[0] || dims[1] != g->dims[1])
		app_abort("MPI_Dims_create gave %dx%d, expected %dx%d", dims[0], dims[1], g->dims[0], g->dims[1]);
	g->periodic = periodic;
	g->row = r->rank / dims[1];
	g->col = r->rank % dims[1];
	g->comm = MPI_COMM_WORLD;
	if (p->manual_neighbours)
		return;
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &g->comm);
	MPI_Cart_coords(g->comm, r->rank, 2, coords);
	if (coords[0] != g->row || coords[1] != g->col)
		app_abort("MPI_Cart_coords gave (%d, %d), expected (%d, %d)", coords[0], coords[1], g->row, g->col);
}

void procgrid_close(struct procgrid *g)
{
	if (g->comm != MPI_COMM_WORLD)
		MPI_Comm_free(&g->comm);
}

int procgrid_rank(const struct procgrid *g, int row, int col)
{
	if (g->periodic) {
		row = ((row % g->dims[0]) + g->dims[0]) % g->dims[0];
		col = ((col % g->dims[1]) + g->dims[1]) % g->dims[1];
	} else if (row < 0 || row >= g->dims[0] || col < 0 || col >= g->dims[1])
		return MPI_PROC_NULL;
	return row * g->dims[1] + col;
}

int procgrid_check_options(const struct params *p, char *msg, size_t len)
{
	if (p->periodic || p->sendrecv) {
		snprintf(msg, len, "--periodic and --sendrecv do not apply (only --manual-neighbours does)");
		return -1;
	}
	return 0;
}
