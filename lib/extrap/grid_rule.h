/*
 * grid_rule — how a code lays its ranks on a grid at any rank count, read from the rungs.
 *
 * Codes factor P themselves and put the factors in their own axis order: MPI_Dims_create's
 * balanced factors largest first, or the largest last (the rank index fastest along the largest
 * factor, ranks 0, 1, 2, ... along x), or any other order of the same factors. A rule is one such
 * order (a permutation of the balanced factors); it explains a ladder when it gives every rung's
 * grid, and then gives the target's. Rules that explain the ladder but differ at the target are a
 * tie the rungs cannot break: a rank count where they differ would.
 */
#ifndef LADDER_EXTRAP_GRID_RULE_H
#define LADDER_EXTRAP_GRID_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"

struct grid_rule {
	uint32_t ndims;
	uint8_t order[LAW_MAX_DIMS];   /* dims[k] is the order[k]-th largest balanced factor */
};

/* the number of rules of ndims dimensions and the i-th (0: MPI_Dims_create's) */
uint32_t grid_rule_count(uint32_t ndims);
void grid_rule_nth(uint32_t ndims, uint32_t i, struct grid_rule *out);
/* the rule's grid of nranks */
void grid_rule_apply(const struct grid_rule *r, int64_t nranks, struct grid *out);
/* does rule r give every one of the n rungs' grids? */
bool grid_rule_fits(const struct grid_rule *r, const struct grid *grids, size_t n);
/* the one dimension in which the n grids differ; -1 when they differ in more or in none */
int grid_changing_dimension(const struct grid *grids, size_t n);
/* "MPI_Dims_create's order (balanced factors, largest first)" */
void grid_rule_name(const struct grid_rule *r, char *out, size_t outlen);

/* The grid of nranks that the rungs' grids (n of them) lead to and the rule it was taken from
 * (rule: its name, for the output and the synthetic run's label grid_rule). The rules that give
 * every rung's grid are tried first; when several do and differ at the target, MPI_Dims_create's
 * wins if it is one of them and dims_create_called (the code asked MPI for its factors), and
 * otherwise the tie is refused (false, why names the rules, their grids at the target and a rank
 * count that would decide). Without such a rule: one dimension that grows while the others stay
 * (a decomposition along x), else MPI_Dims_create's grid. */
bool grid_rule_target(const struct grid *grids, size_t n, int64_t nranks, bool dims_create_called, struct grid *out,
		      char *rule, size_t rulelen, char *why, size_t whylen);

#endif
