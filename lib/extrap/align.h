/*
 * align — one position class across the rungs (ScalaExtrap §3.2): its grammar must have the same
 * shape at every rung where the class exists, and each terminal the same function, call site and
 * flags. What each value is across the ladder is decided here (value.h): constants, moves on the
 * grid for peers, the rank count and grid dimensions where MPI says so, laws for what differs —
 * shared laws for the calls of one call site that concern different dimensions (family.h), a law
 * of its own otherwise. Nothing is evaluated at the target yet (evaluate.h), so that classes can
 * be composed first (compose.h).
 *
 * Occurrence k is the k-th terminal position in rule order; requests are named by the occurrence
 * that created them.
 */
#ifndef LADDER_EXTRAP_ALIGN_H
#define LADDER_EXTRAP_ALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/alike.h"
#include "extrap/law.h"
#include "extrap/value.h"
#include "grammar/grammar.h"
#include "run/run.h"

struct occurrence {
	uint32_t fn, flags;
	uint64_t callsite;
	uint32_t nvals;
	struct xval *x;         /* what each value is across the ladder */
	int64_t *vals;          /* at the target (evaluate.h); NULL before */
	uint32_t ref_sig;       /* the signature at the class's reference rung */
	uint32_t *rung_sigs;    /* the signature at each of the class's rungs */
	bool dropped;           /* lossy mode: left out */
	bool approximated;      /* lossy mode: a count without a law taken as at the reference rung */
	bool shared;            /* lossy mode: count arrays stated by rule (share_at.h) */
	struct run_stream *stream;   /* its streamed values at the target (stream_at.h; no ranks yet), or NULL */
};

struct aligned_class {
	uint32_t cls;
	bool lossy;             /* drop calls whose values have no law instead of refusing */
	char first_dropped[1024];   /* why the first dropped call was dropped */
	char first_approximated[1024];   /* why the first approximated count was */
	char first_shared[1024];   /* what the first call with count arrays by rule is */
	size_t nrungs;          /* the rungs where the class exists, and its group at each */
	const struct run **runs;
	uint32_t *groups;
	struct grid *grids;
	const struct run *ref;  /* the largest rung where the class exists */
	uint32_t ref_group;
	struct grammar g;       /* terminals are occurrence numbers; repetition counts in reps */
	struct xval *reps;      /* per symbol of g: its repetition count across the ladder */
	bool *symdrop;          /* per symbol of g: lossy mode left it out (its count has no law) */
	uint32_t nocc;
	struct occurrence *occ;
	char origin[96];        /* "aligned at p8, p12, p16" or how it was composed */
};

/* the class's runs (rank-group of the class at each rung, all members checked to agree) */
struct class_rungs {
	size_t n;
	const struct run **runs;
	const struct grid *grids;
	uint32_t *groups;
	const bool *periodic;  /* per dimension: may a move wrap around */
	const struct grammar **grammars;   /* per rung: the group's grammar as lossy alignment pruned
					      it (lcs.h), or NULL for the group's own */
	const struct alike_laws *coord;   /* laws of values in the rungs' grid coordinates (alike.h) */
	bool lossy;            /* in: take the group most of the class's ranks are in */
	const struct aligned_class *const *others;   /* classes aligned before, whose laws may decide a tie
							of this one's (family.h); nothers of them */
	size_t nothers;
	uint64_t replaced;     /* out: ranks of the rungs whose own group was not taken */
};

/* the class's grammar at its i-th rung */
const struct grammar *class_grammar(const struct class_rungs *cr, size_t i);
bool align_class(uint32_t cls, const struct class_rungs *cr, const struct grid *target, bool lossy,
		 struct aligned_class *out, char *why, size_t whylen);
/* "class low/interior/low" */
int align_where(uint32_t cls, uint32_t ndims, char *out, size_t outlen);
/* the rungs the class was seen at (copies of the arrays) */
void aligned_class_rungs(struct aligned_class *a, const struct run *const *runs, const uint32_t *groups,
			 const struct grid *grids, size_t n);
/* lossy mode: leave occurrence o out, keeping the first reason */
/* the index of the class's reference rung among its rungs (a->nrungs when it is not one of them) */
size_t aligned_class_ref_index(const struct aligned_class *a);
void aligned_class_drop(struct aligned_class *a, uint32_t o, const char *why);
/* lossy mode: value j of occurrence o, a count without a law, approximated (approx.c): a count
 * sent as at the class's reference rung (streamed: its mean over the calls of the reference
 * rung's first rank of the class); a collective's count, the largest the ladder shows for the
 * call on any rank */
void aligned_class_approximate(struct aligned_class *a, uint32_t o, uint32_t j, const char *why);
/* lossy mode: every constant point-to-point receive count made room for the messages it can meet
 * (approx.c): the largest any receive of its function at its call site shows on the ladder */
void aligned_class_receive_room(struct aligned_class *a);
void aligned_class_free(struct aligned_class *a);

#endif
