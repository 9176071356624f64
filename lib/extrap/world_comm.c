/*
 * world_comm — duplicates of world. See world_comm.h.
 */
#include "extrap/world_comm.h"

#include <string.h>

/* the depth bounds the walk up a chain of communicators, each made of the one before */
static bool world_within(const struct run *r, int64_t id, int depth)
{
	if (id == COMM_ID_WORLD)
		return true;
	if (depth == 0 || id < COMM_ID_FIRST_USER)
		return false;
	for (uint32_t i = 0; i < r->nsigs; i++) {
		const struct run_signature *s = &r->sigs[i];
		const char *name = r->fns[s->fn].name;
		const int64_t *made = run_param(r, s, PK_NEWCOMM, NULL, NULL), *parent = run_param(r, s, PK_COMM, NULL, NULL);
		if (!made || made[0] != id || !parent)
			continue;
		bool dup = !strcmp(name, "MPI_Comm_dup") || !strcmp(name, "MPI_Comm_dup_with_info") ||
			   !strcmp(name, "MPI_Comm_idup");
		return dup && world_within(r, parent[0], depth - 1);
	}
	return false;
}

bool world_comm(const struct run *r, int64_t id) { return world_within(r, id, 16); }
