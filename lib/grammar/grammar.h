/*
 * grammar — a finished context-free grammar that generates one rank's sequence of call
 * signatures (terminals), in the form Sequitur with repetition counts produces (Pilgrim §2.2):
 * rules whose bodies are symbols with exponents, `A -> B^k c`. Rule 0 is the start rule.
 *
 * This is the exchange form: the tracer exports it, the merge deduplicates it, the store writes it,
 * decode/replay/compare walk it without expanding it in memory.
 */
#ifndef LADDER_GRAMMAR_GRAMMAR_H
#define LADDER_GRAMMAR_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"

/* A symbol: val >= 0 is a terminal (signature id); val < 0 refers to rule (-val - 1). */
struct gsymbol {
	int64_t val;
	uint64_t exp;   /* repetition count, >= 1 */
};

static inline bool gsym_is_rule(struct gsymbol s) { return s.val < 0; }
static inline uint32_t gsym_rule(struct gsymbol s) { return (uint32_t)(-s.val - 1); }
static inline int64_t gsym_rule_val(uint32_t rule) { return -(int64_t)rule - 1; }

struct grammar {
	uint32_t nrules;
	uint64_t *rule_start;     /* nrules + 1 offsets into syms */
	struct gsymbol *syms;
	uint64_t nsyms;
};

void grammar_init(struct grammar *g);
void grammar_free(struct grammar *g);
void grammar_copy(struct grammar *dst, const struct grammar *src);
bool grammar_equal(const struct grammar *a, const struct grammar *b);
uint64_t grammar_hash(const struct grammar *g);

/* Start a rule / append a symbol while building a grammar by hand (tests, readers). */
void grammar_begin_rule(struct grammar *g);
void grammar_add_symbol(struct grammar *g, int64_t val, uint64_t exp);
void grammar_end(struct grammar *g);     /* closes the offsets table */

static inline uint64_t grammar_rule_len(const struct grammar *g, uint32_t r)
{
	return g->rule_start[r + 1] - g->rule_start[r];
}
static inline const struct gsymbol *grammar_rule_syms(const struct grammar *g, uint32_t r)
{
	return g->syms ? g->syms + g->rule_start[r] : NULL;   /* a grammar of empty rules has no symbols */
}

/* Check structure: rule references in range, exps >= 1, no recursion, every rule reachable;
 * terminals below nterminals (pass UINT64_MAX to skip that check). On error fills why and
 * returns false. */
bool grammar_check(const struct grammar *g, uint64_t nterminals, char *why, size_t whylen);

/* Number of terminals the grammar expands to, in time linear in its size. Saturates at
 * UINT64_MAX (repeat counts whose product overflows 64 bits); UINT64_MAX for a cycle too. */
uint64_t grammar_expanded_length(const struct grammar *g);
/* Add to counts[t] how many times terminal t occurs in the expansion (t < nterminals; saturates). */
void grammar_terminal_counts(const struct grammar *g, uint64_t *counts, uint64_t nterminals);

/* The grammar without the symbols keep() rejects (sym: the symbol's index in g->syms); rules left
 * empty or no longer reached from the start rule are removed, the others renumbered in order.
 * False when nothing is left (out is then empty). */
bool grammar_prune(const struct grammar *g, bool (*keep)(const struct grammar *g, uint64_t sym, void *arg), void *arg,
		   struct grammar *out);

/* The grammar with every rule symbol of exponent 1 replaced by that rule's body, recursively, as
 * long as the body it lands in stays within max_len symbols: the rules Sequitur made of pairs of
 * calls that happened to repeat are gone, loops (exponent > 1) stay rules. Two sequences of the
 * same calls whose values made different pairs repeat then have the same shape. Rules keep their
 * numbers (one only inlined is left unreferenced). g must be acyclic, as grammar_check
 * requires. */
void grammar_inline_once(const struct grammar *g, uint64_t max_len, struct grammar *out);

/* Replace every terminal t by map[t]. */
void grammar_map_terminals(struct grammar *g, const uint32_t *map, uint64_t nmap);

/* Serialize / parse (varints; used in the tracer's merge and its raw output). */
void grammar_serialize(const struct grammar *g, struct buf *b);
bool grammar_parse(struct grammar *g, struct reader *r);

/*
 * Walking a grammar without expanding it: a stack of (rule, position, repetitions left).
 * Memory is proportional to the grammar's depth, not to the sequence length.
 */
struct gwalk_frame {
	uint32_t rule;
	uint64_t pos;
	uint64_t reps_left;   /* further repetitions of the symbol at pos still to expand */
};

struct gwalk {
	const struct grammar *g;
	struct gwalk_frame *stack;
	size_t depth, cap;
	uint64_t term_reps;   /* repetitions left of the current terminal */
	int64_t term;
};

void gwalk_init(struct gwalk *w, const struct grammar *g);
void gwalk_free(struct gwalk *w);
/* Next terminal; false at the end. */
bool gwalk_next(struct gwalk *w, uint32_t *terminal);
/* Like gwalk_next, but returns a run of the same terminal at once: *count >= 1 copies.
 * Runs come from a terminal's own exponent only. */
bool gwalk_next_run(struct gwalk *w, uint32_t *terminal, uint64_t *count);

/* Print rules as text ("R0 -> 3 R1^100 7"), for debugging and `ladder decode --grammar`. */
void grammar_print(const struct grammar *g, void *file);

#endif
