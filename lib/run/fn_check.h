/*
 * fn_check — a run's function table (/trace/functions) against ladder's own MPI function table
 * (lib/mpi/mpi-functions.tbl): every function a ladder traced, named once, with the parameters
 * and kinds and the flags of ladder's table. A row that differs would make decode print, replay
 * issue and compare match calls by a description that is not the function's.
 */
#ifndef LADDER_RUN_FN_CHECK_H
#define LADDER_RUN_FN_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "run/run.h"

/* true when f is the row of ladder's table of its name: the same parameters, kinds and flags */
bool run_function_is_ladders(const struct fn_desc *f);

/* Reports one line per function that differs, at most max_lines of them and then a line with how
 * many more; returns the number of differences. */
uint64_t run_check_functions(const struct run *r, uint32_t max_lines,
			     void (*report)(const char *what, void *arg), void *arg);

#endif
