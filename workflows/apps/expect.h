/*
 * expect — the table an app's --expect prints: per rank and MPI function, how many calls and how
 * many bytes sent and received (README.md, "Byte accounting"). Entries for the same rank and
 * function add up. A totals-only table (the master-worker app) keeps one row per function, printed
 * with "all" in the rank column. Needs no MPI.
 */
#ifndef LADDER_APPS_EXPECT_H
#define LADDER_APPS_EXPECT_H

#include <stdint.h>
#include <stdio.h>

struct expect;

struct expect *expect_new(int ranks, int totals_only);
void expect_free(struct expect *t);
/* fn is the MPI name ("MPI_Allreduce"), a string that outlives the table */
void expect_add(struct expect *t, int rank, const char *fn, uint64_t calls, uint64_t sent, uint64_t recv);
/* the column header, then one row per (rank, function) with calls > 0, by rank then function name */
void expect_print(const struct expect *t, FILE *out);

#endif
