/*
 * commands — the command lines of a ladder's rungs, and what they say of the target's: the same
 * command with the target's rank count where the rungs' commands differ only by their own rank
 * count (a "--ranks 16" or "-np 16" among the words), else unknown. Rungs whose commands differ
 * otherwise (--iterations 20, 30, 40) did not run one experiment at several scales: merge and
 * extrap warn.
 */
#ifndef LADDER_EXTRAP_COMMANDS_H
#define LADDER_EXTRAP_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* cmds[i] the command of the rung of ranks[i] ranks (NULL taken as ""). True with the target's
 * command in *out (to be freed) when they differ only by the rank count; false with *out NULL and
 * the first difference in why ("p8 runs '--iterations' '20' where p12 runs '30'"). Words are
 * separated by blanks. */
bool commands_at_target(const char *const *cmds, const uint32_t *ranks, size_t n, uint64_t target, char **out,
			char *why, size_t whylen);

/* "p8: CMD; p12: CMD" (to be freed) */
char *commands_list(const char *const *cmds, const uint32_t *ranks, size_t n);

#endif
