/*
 * run_source — the run container being read, as the readers of run_h5.c and run_timing.c share
 * it: the file, its path and error for messages, its schema major version (which layout to read),
 * and two shorthands for a reader's failure and for reading a whole table.
 */
#ifndef LADDER_STORE_RUN_SOURCE_H
#define LADDER_STORE_RUN_SOURCE_H

#include "store/h5.h"

struct source {
	hid_t f;
	const char *path;
	struct h5_err *e;
	int major;          /* the file's schema major version: 1 is the layout of run-1.yaml */
};

/* fail with a message naming the file, and go to the reader's `out` */
#define BAD(...)                                         \
	do {                                             \
		h5_fail(src->e, src->path, __VA_ARGS__); \
		goto out;                                \
	} while (0)

/* read a whole table into rows (NULL on failure, the error in src->e) */
#define READ_TABLE(rows, name, table, n) \
	(rows = h5_read_table(src->f, name, table, n, src->path, src->e))

#endif
