/*
 * lcs — lossy alignment of call sequences whose structure differs across the ladder (ScalaExtrap
 * §3.4): the calls every sequence shares are kept, the others dropped. Two grammars are aligned by
 * a longest common subsequence of their rule bodies, weighted by the calls each symbol stands for:
 * a loop counts as all the calls it repeats, and a rule matches a rule of the other grammar by the
 * weight of the alignment of their bodies, computed first for every pair needed and then used to
 * prune. Calls match when they have the same function, call site and flags; their values may
 * differ (they become laws, or are dropped for lack of one).
 *
 * The rules Sequitur made of pairs that happened to repeat differ from rung to rung with the
 * values (the halo counts of one rank make a pair at one rung and not at another), so each
 * grammar's rules of exponent 1 are inlined first (grammar_inline_once, bodies of at most
 * LCS_INLINE_MAX symbols, so a table of two bodies stays within 8 MiB): loops are the structure
 * that is aligned.
 *
 * Every grammar is aligned in turn with one reference; what the reference keeps is what all of
 * them share, and each is pruned to that: one structure everywhere, so that classes align across
 * rungs and compose across dimensions as when nothing was dropped.
 */
#ifndef LADDER_EXTRAP_LCS_H
#define LADDER_EXTRAP_LCS_H

#include <stdbool.h>
#include <stddef.h>

#include "grammar/grammar.h"
#include "run/run.h"

#define LCS_INLINE_MAX 1024

struct lcs_input {
	const struct run *run;        /* whose signatures the grammar's terminals are */
	const struct grammar *g;
};

/* what pruning left out at one rung: calls of all its ranks */
struct lcs_loss {
	uint32_t ranks;
	uint64_t calls, dropped;
};

/* out[i]: in[i]'s grammar pruned to what all of them share, every out of one shape. False with
 * why when the start rules share nothing. */
bool lcs_common(const struct lcs_input *in, size_t n, size_t ref, struct grammar *out, char *why, size_t whylen);

#endif
