/*
 * intfit — the least-squares step every exact integer law shares (the extrapolation's laws of the
 * grid, ScalaExtrap §3.3, and the model's exact laws of counts): coefficients of a set of terms
 * solved over points with GSL and rounded to integers, and
 * the walk over the sets of terms of one size. Whether the rounded law reproduces every point is
 * the caller's check (it knows how to evaluate its terms exactly).
 */
#ifndef LADDER_INTLAW_INTFIT_H
#define LADDER_INTLAW_INTFIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* x: n rows of s term values, y: n values. The least-squares coefficients rounded to integers in
 * coef; false when the solve fails or a coefficient is not finite, too large or rounds to 0 (a
 * term that does not count). */
bool intfit_solve(const double *x, const double *y, size_t n, size_t s, int64_t *coef);

/* the next s-subset of {0..m-1} after idx, in lexicographic order (start from 0, 1, ..., s-1);
 * false after the last */
bool intfit_next_subset(size_t *idx, size_t s, size_t m);

#endif
