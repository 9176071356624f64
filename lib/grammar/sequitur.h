/*
 * sequitur — online grammar compression of a terminal sequence with repetition counts
 * (Nevill-Manning & Witten's Sequitur, extended with exponents as in Pilgrim §2.2).
 *
 * Every appended terminal is processed once. Two properties are kept:
 *   P1  no digram (pair of adjacent symbols with their exponents) occurs twice;
 *   P2  every rule is used more than once, or once with an exponent above 1;
 * and adjacent equal symbols are merged into one with the sum of exponents (x^i x^j = x^{i+j}),
 * so a loop costs O(1) space: `S -> init R^1000 fini`. Further repetitions of a loop are
 * recognised by a fast path at a comparison per terminal.
 */
#ifndef LADDER_GRAMMAR_SEQUITUR_H
#define LADDER_GRAMMAR_SEQUITUR_H

#include <stddef.h>
#include <stdint.h>

#include "grammar/grammar.h"

struct sequitur;

struct sequitur *sequitur_new(void);
void sequitur_free(struct sequitur *q);
void sequitur_append(struct sequitur *q, uint32_t terminal);
/* terminals appended so far */
uint64_t sequitur_length(const struct sequitur *q);
/* live symbols and rules (the memory the grammar holds) */
size_t sequitur_symbols(const struct sequitur *q);
size_t sequitur_rules(const struct sequitur *q);
/* Bytes of memory held (symbols, rules, digram index). */
size_t sequitur_memory(const struct sequitur *q);
/* Export in canonical form: rules numbered in order of first reference from the start rule
 * (rule 0), so identical sequences give identical grammars. */
void sequitur_export(struct sequitur *q, struct grammar *out);

#endif
