/*
 * align — one position class across the rungs (ScalaExtrap §3.2): its grammar must have the same
 * shape at every rung where the class exists, and each terminal the same function, call site and
 * flags; values and repetition counts that differ become laws (law.h) evaluated at the target.
 *
 * The result is the class's grammar at the target with its terminals numbered as occurrences:
 * occurrence k is the k-th terminal position in rule order, with the values of its signature at
 * the target. Request names (creator hash, slot) are resolved afterwards (synth.c), when every
 * creator's signature is known.
 */
#ifndef LADDER_EXTRAP_ALIGN_H
#define LADDER_EXTRAP_ALIGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"
#include "grammar/grammar.h"
#include "run/run.h"

struct occurrence {
	uint32_t fn, flags;
	uint64_t callsite;
	uint32_t nvals;
	int64_t *vals;          /* at the target; request creators still as at the reference rung */
	uint32_t ref_sig;       /* the signature at the class's reference rung */
	uint32_t *rung_sigs;    /* the signature at each of the class's rungs */
};

struct dropped_call {       /* lossy mode: a call of the class left out, where it was */
	uint32_t rule;
	uint64_t exp;           /* its repetition count at the target (per expansion of the rule) */
};

struct aligned_class {
	uint32_t cls;
	bool lossy;             /* drop calls whose values have no law instead of refusing */
	uint32_t ndropped;
	struct dropped_call *dropped;
	char first_dropped[300];   /* why the first dropped call was dropped */
	size_t nrungs;          /* the rungs where the class exists, and its group at each */
	const struct run **runs;
	uint32_t *groups;
	const struct run *ref;  /* the largest rung where the class exists */
	uint32_t ref_group;
	struct grammar g;       /* terminals are occurrence numbers */
	uint32_t nocc;
	struct occurrence *occ;
};

/* the class's runs (rank-group of the class at each rung, all members checked to agree) */
struct class_rungs {
	size_t n;
	const struct run **runs;
	const struct grid *grids;
	uint32_t *groups;
	bool lossy;            /* in: take the group most of the class's ranks are in */
	uint64_t replaced;     /* out: ranks of the rungs whose own group was not taken */
};

bool align_class(uint32_t cls, const struct class_rungs *cr, const struct grid *target, bool lossy,
		 struct aligned_class *out, char *why, size_t whylen);
/* lossy mode: the calls dropped per rank of the class at the target, and the calls kept */
uint64_t aligned_class_dropped(const struct aligned_class *a, uint64_t *kept);
void aligned_class_free(struct aligned_class *a);

#endif
