/*
 * rungs — the ladder of rank counts: generated (powers of two, squares, cubes between bounds) or
 * listed, then filtered (divides N, multiple of N, at most the site's rank limit). Pure
 * arithmetic; the filter that runs a command lives in the planner.
 */
#ifndef LADDER_CAMPAIGN_RUNGS_H
#define LADDER_CAMPAIGN_RUNGS_H

#include <stdbool.h>
#include <stddef.h>

enum rung_gen { RUNGS_LIST, RUNGS_POW2, RUNGS_SQUARES, RUNGS_CUBES };

/* the generator's name in the workflow file ("powers-of-two", ...), or NULL */
const char *rungs_gen_name(enum rung_gen g);
bool rungs_gen_parse(const char *name, enum rung_gen *g);

/* Write every value v = f(k), k = 1, 2, ..., with from <= v <= to, ascending, into out (at most
 * max); returns how many there are (which may exceed max: only max are written). */
size_t rungs_generate(enum rung_gen g, long from, long to, long *out, size_t max);

/* a static validity filter; zero fields are not checked */
struct rung_filter {
	long divides;      /* keep P when P divides this */
	long multiple_of;  /* keep P when P is a multiple of this */
};
bool rungs_keep(long p, const struct rung_filter *f);

/* sort ascending and drop duplicates; returns the new count */
size_t rungs_normalise(long *v, size_t n);

#endif
