/*
 * expect — accumulate and print the per-rank call and byte table of --expect (see expect.h).
 * Memory is proportional to the rows printed.
 */
#include "expect.h"

#include <stdlib.h>
#include <string.h>

struct entry {
	const char *fn;
	uint64_t calls, sent, recv;
};

struct row {
	int n, cap;
	struct entry *e;
};

struct expect {
	int rows; /* ranks, or 1 for a totals-only table */
	int totals_only;
	struct row *row;
};

static void *must(void *p)
{
	if (!p)
		abort();
	return p;
}

struct expect *expect_new(int ranks, int totals_only)
{
	struct expect *t = must(calloc(1, sizeof *t));
	t->rows = totals_only ? 1 : ranks;
	t->totals_only = totals_only;
	t->row = must(calloc((size_t)t->rows, sizeof *t->row));
	return t;
}

void expect_free(struct expect *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->rows; i++)
		free(t->row[i].e);
	free(t->row);
	free(t);
}

void expect_add(struct expect *t, int rank, const char *fn, uint64_t calls, uint64_t sent, uint64_t recv)
{
	int r = t->totals_only ? 0 : rank;
	if (r < 0 || r >= t->rows || calls == 0)
		return;
	struct row *row = &t->row[r];
	int i = 0;
	while (i < row->n && strcmp(row->e[i].fn, fn) != 0)
		i++;
	if (i == row->n) {
		if (row->n == row->cap) {
			row->cap = row->cap ? 2 * row->cap : 8;
			row->e = must(realloc(row->e, (size_t)row->cap * sizeof *row->e));
		}
		row->e[row->n++] = (struct entry){fn, 0, 0, 0};
	}
	row->e[i].calls += calls;
	row->e[i].sent += sent;
	row->e[i].recv += recv;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->fn, ((const struct entry *)b)->fn);
}

void expect_print(const struct expect *t, FILE *out)
{
	fprintf(out, "rank\tfunction\tcalls\tbytes_sent\tbytes_recv\n");
	for (int r = 0; r < t->rows; r++) {
		struct row *row = &t->row[r];
		qsort(row->e, (size_t)row->n, sizeof *row->e, by_name);
		for (int i = 0; i < row->n; i++) {
			if (t->totals_only)
				fprintf(out, "all");
			else
				fprintf(out, "%d", r);
			fprintf(out, "\t%s\t%llu\t%llu\t%llu\n", row->e[i].fn, (unsigned long long)row->e[i].calls,
				(unsigned long long)row->e[i].sent, (unsigned long long)row->e[i].recv);
		}
	}
}
