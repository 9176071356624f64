/*
 * extrap — build the run an SPMD application would produce at a rank count nobody ran, from the
 * ladder of its traced runs (ScalaExtrap §3).
 *
 * The rungs' process grids come from their MPI_Cart_create (topology.h); the target grid from
 * MPI_Dims_create's rule or the user. Each position class (boundary or interior per dimension) is
 * aligned across the rungs where it exists: the same grammar shape, the same functions at the same
 * call sites. Every value that differs across rungs (relative peers, counts, sizes, dims, loop trip
 * counts) becomes an integer law in the grid's dimension sizes (law.h), evaluated at the target.
 * The result is an ordinary run marked synthetic; its size depends on the classes, not on P.
 *
 * Anything that does not extrapolate is refused with a message saying which class, call and
 * parameter failed, why, and which rungs would help; nothing is produced then.
 */
#ifndef LADDER_EXTRAP_EXTRAP_H
#define LADDER_EXTRAP_EXTRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"
#include "extrap/lcs.h"
#include "extrap/loss_at.h"
#include "run/run.h"

struct extrap_options {
	int64_t target;            /* rank count */
	struct grid target_grid;   /* ndims 0: from MPI_Dims_create's rule */
	int64_t profile_limit;     /* build the per-rank profile up to this many ranks (0: never) */
	bool lossy;                /* drop calls whose values have no law (ScalaExtrap §3.4) */
};

#define EXTRAP_MAX_RUNGS 64

/* what the build could not do without failing (the profile), for the user; "" when nothing */
struct extrap_notes {
	char text[512];
	uint64_t dropped, calls;   /* lossy mode: calls left out, and all calls of the target run */
	uint64_t replaced;         /* lossy mode: ranks of the rungs that were not their class's dominant group */
	char lossy[1024];           /* lossy mode: what was dropped and why, "" when nothing */
	uint64_t approximated;     /* lossy mode: calls kept with a count approximated (no law) */
	char approximate[1024];     /* lossy mode: why the first was, "" when none */
	uint64_t shared;           /* lossy mode: calls kept with count arrays stated by rule (run/share.h) */
	char share[1024];          /* lossy mode: what the first is, "" when none */
	char not_replayable[1400];  /* why the run's calls would not meet (label not_replayable), "" when they do */
	char meet_unchecked[200];   /* an exact run too large for the meet check: why (label meet_unchecked) */
	uint32_t nrungs;           /* lossy mode, when the rungs' call sequences differ in structure: */
	struct lcs_loss unaligned[EXTRAP_MAX_RUNGS];   /* per rung, the calls lossy alignment left out */
	char commands_differ[400]; /* how the rungs' commands differ beyond the rank count, "" when they do not */
	struct loss_at loss;       /* lossy mode, up to --profile-limit: what is kept of the calls expected at
				      the target (loss_at.h); zero otherwise */
};

/* did the build leave anything out or state anything by rule (lossy mode)? */
bool extrap_notes_lossy(const struct extrap_notes *notes);

/* rungs: one run per rank count, any order. False with a one-line reason in why. */
bool extrap_build(struct run *const *rungs, size_t nrungs, const struct extrap_options *o, struct run *out,
		  struct extrap_notes *notes, char *why, size_t whylen);

/* "p8: 120 of 7736 (1.55%), p12: ..." */
void extrap_unaligned_text(const struct extrap_notes *notes, char *out, size_t outlen);

#endif
