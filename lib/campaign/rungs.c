/*
 * rungs — generating and filtering the ladder of rank counts. See rungs.h.
 */
#include "campaign/rungs.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const gen_names[] = {
	[RUNGS_LIST] = "list",
	[RUNGS_POW2] = "powers-of-two",
	[RUNGS_SQUARES] = "squares",
	[RUNGS_CUBES] = "cubes",
};

const char *rungs_gen_name(enum rung_gen g)
{
	return (unsigned)g < sizeof gen_names / sizeof gen_names[0] ? gen_names[g] : NULL;
}

bool rungs_gen_parse(const char *name, enum rung_gen *g)
{
	for (size_t i = 0; i < sizeof gen_names / sizeof gen_names[0]; i++)
		if (!strcmp(name, gen_names[i])) {
			*g = (enum rung_gen)i;
			return true;
		}
	return false;
}

/* f(k) for k >= 1, or -1 on overflow */
static long value(enum rung_gen g, long k)
{
	switch (g) {
	case RUNGS_POW2:
		return k - 1 < 62 ? 1L << (k - 1) : -1;
	case RUNGS_SQUARES:
		return k <= 3037000499L ? k * k : -1;
	case RUNGS_CUBES:
		return k <= 2097151L ? k * k * k : -1;
	default:
		return -1;
	}
}

size_t rungs_generate(enum rung_gen g, long from, long to, long *out, size_t max)
{
	size_t n = 0;
	if (g == RUNGS_LIST || from > to)
		return 0;
	for (long k = 1;; k++) {
		long v = value(g, k);
		if (v < 0 || v > to)
			break;
		if (v >= from) {
			if (n < max)
				out[n] = v;
			n++;
		}
	}
	return n;
}

bool rungs_keep(long p, const struct rung_filter *f)
{
	if (p < 1)
		return false;
	if (f->divides > 0 && f->divides % p != 0)
		return false;
	if (f->multiple_of > 0 && p % f->multiple_of != 0)
		return false;
	return true;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

size_t rungs_normalise(long *v, size_t n)
{
	if (!n)
		return 0;
	qsort(v, n, sizeof *v, cmp_long);
	size_t m = 1;
	for (size_t i = 1; i < n; i++)
		if (v[i] != v[m - 1])
			v[m++] = v[i];
	return m;
}
