/*
 * grid — the process grid of a rank count, for the {dims} placeholders of a workflow: the
 * balanced factorisation MPI_Dims_create is specified to give (dimensions as close to each other
 * as possible, largest first), and its factors placed on the axes in a declared order.
 */
#ifndef LADDER_CAMPAIGN_GRID_H
#define LADDER_CAMPAIGN_GRID_H

#include <stdbool.h>

#define GRID_MAX_DIMS 8

/* The most balanced factorisation of ranks into ndims factors (1..GRID_MAX_DIMS), largest first:
 * of all non-increasing factorisations the lexicographically smallest (the largest factor as small
 * as it can be, then the next, ...). 72 ranks in 2-D: 9 x 8. False when ranks < 1 or ndims is out
 * of range. */
bool grid_balanced(long ranks, int ndims, long *dims);

/* The grid of ranks on ndims axes: axis order[i] takes the i-th largest factor of grid_balanced
 * (order NULL: axis i takes the i-th). */
bool grid_on_axes(long ranks, int ndims, const int *order, long *dims);

/* the name of axis k in placeholders: "x", "y", "z" for 0..2, NULL beyond */
const char *grid_axis_letter(int k);

#endif
