/*
 * refold — the calls a signature base made in literal signatures moved into its streaming
 * signatures. A base is a call site's function with its data-dependent values (counts, tags,
 * peers: param_kind_adaptive) masked; the tracer keeps those values in signatures until the base
 * has shown more than stream_after variants, then streams them (trace/record.c). Refolding gives
 * each literal signature its streaming form and puts its values into that signature's value stream
 * at their place in call order, so ranks (and rungs) that differ only in such values have one
 * grammar shape.
 *
 * The tracer refolds each rank at MPI_Finalize (trace/refold.c) with the two steps below (the
 * streaming form, one call's values moved); run_refold does the same offline on a run read from a
 * container, every group and every rank of it, and refold_ladder decides across the rungs of a
 * ladder which bases refold, so that rungs traced with default options, where a call site keeps
 * its values literal at small rank counts and streams them at larger ones, have one form
 * (refold_ladder.c).
 */
#ifndef LADDER_RUN_REFOLD_H
#define LADDER_RUN_REFOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi/signature.h"

struct run;

/* The streaming form of a signature's values: every data-dependent group and every group already
 * streamed as SV_STREAMED (an array by one marker), as the tracer builds a streaming base's
 * signature. out has room for nvals values; returns how many it holds. */
uint32_t refold_streaming_form(const struct fn_desc *d, const int64_t *vals, uint32_t nvals, int64_t *out);

/* Whether a signature keeps some data-dependent value literal (its streaming form differs). */
bool refold_is_literal(const struct fn_desc *d, const int64_t *vals, uint32_t nvals);

/* One call's values on their way from its old stream to its new one: next gives the old stream's
 * next value (false at its end), put appends to the new stream. */
struct refold_move {
	bool (*next)(void *arg, int64_t *v);
	void (*put)(void *arg, int64_t v);
	void *arg;
};

/* The values one call of a signature (d, flags, vals) has in its new stream, in the order the
 * tracer pushes them: a failed poll's repeat count first, then each group that is streamed, in
 * order — from the old stream where the signature streams it, and, when literal, the values of its
 * data-dependent groups kept in the signature. */
void refold_move_call(const struct fn_desc *d, uint32_t flags, const int64_t *vals, uint32_t nvals, bool literal,
		      const struct refold_move *m);

/* A base's key, equal on every rank and rung that has it: the function's name, the call site,
 * the flags and the values of every group but the data-dependent ones, the streamed ones and the
 * request slot a call makes. 0 for a signature with no data-dependent group (no base). */
uint64_t refold_base_key(const struct run *r, uint32_t sig);

/* Refold r offline: each signature with folds[sig] (a literal one) becomes its streaming form in
 * every group's grammar (rebuilt), its values go into the streams of the streaming signatures
 * (rebuilt for every rank that reads one of them, then packed: run_pack_streams), durations and
 * gaps are re-keyed and merged, groups whose grammars become equal are merged, and signatures no
 * call uses any more are dropped. Returns the number of signatures folded. r must have passed
 * run_check; run_check derives the groups' lengths again after it. */
uint32_t run_refold(struct run *r, const bool *folds);

/* Across the rungs of a ladder: a base refolds in every rung when some rung streams it and no
 * rank that switched it to streaming made most of its calls before the switch (the tracer's rule
 * for a late switch, trace/refold.c); ranks that never switched follow. Each rung is refolded
 * (run_refold). *nrefolded: the literal signatures refolded, text what was done per rung ("p4: 7,
 * p8: 7"; "" when nothing). False with why in text when a refolded rung fails run_check. */
bool refold_ladder(struct run *const *rungs, size_t n, uint32_t *nrefolded, char *text, size_t textlen);

#endif
