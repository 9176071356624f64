/*
 * alike — ranks that make the same calls in the same order but with a value that changes from rank
 * to rank as a law of their grid coordinates (the transpose partner of a q x q grid, (d0 - 1)(c1 -
 * c0) ranks away; a tag that encodes the row), which the tracer records in as many groups as there
 * are values. Their groups are united in each rung before the rungs are aligned: the values are
 * fitted over every rank of every rung as one law in coordinates and grid sizes (coord_law.h) and
 * become one value stream per signature whose cells are that law on the rung's grid (run/stream.h),
 * which the alignment carries to the target like any stream by law (stream_at.h).
 *
 * Only peers, sources, tags and counts (scalar parameters a stream may hold) are united, and only
 * when every value that differs has a law; otherwise the rungs are left as they are and the class
 * that holds such ranks is refused as not SPMD over the grid. Groups are united only with groups
 * whose other values (the symbolic ones: MPI_PROC_NULL at a boundary) are the same.
 *
 * The calls of one call site that concern different directions (a halo's four receives in one
 * loop) are told apart by their tags: a value's law is per call site, slot and the tags the call
 * keeps. A count that no linear law of the coordinates explains at every rank of every rung may be
 * the share of an uneven decomposition, a * (floor(N/d_j) + (c_j < N mod d_j)) (remainder_law.h),
 * fitted over every rank of every rung that makes the call; it is then streamed as a law of the
 * rank at every rung, in every group that makes the call, so the class has one form on the ladder.
 */
#ifndef LADDER_EXTRAP_ALIKE_H
#define LADDER_EXTRAP_ALIKE_H

#include <stddef.h>

#include "extrap/coord_law.h"
#include "extrap/law.h"
#include "extrap/remainder_law.h"
#include "run/run.h"

/* the law of value `slot` of the signatures of a function and call site that keep the tags
 * `tags` (alike_tags) */
struct alike_law {
	uint32_t fn, slot;
	uint64_t callsite, tags;
	struct coord_law law;
	bool remainder;                /* the law is rem, not law */
	struct remainder_law rem;
};

struct alike_laws {
	size_t n;
	struct alike_law *v;
};

/* unite alike groups in every rung (grids[i]: rung i's grid); the laws of the values streamed in
 * laws (freed with free(laws->v)); what did not unite, and why, in note ("" when everything that
 * differed did) */
void alike_unite(struct run *const *rungs, size_t n, const struct grid *grids, const struct grid *target,
		 struct alike_laws *laws, char *note, size_t notelen);
/* the tags a signature keeps (its values of tag parameters that are not streamed), as one number */
uint64_t alike_tags(const struct run *r, uint32_t sig);
/* the law of value slot of signatures of fn at callsite keeping tags, or NULL */
const struct alike_law *alike_law_of(const struct alike_laws *laws, uint32_t fn, uint64_t callsite, uint64_t tags,
				     uint32_t slot);

#endif
