/*
 * bench_grammar — what a grammar's checks cost against its width: a start rule referring to N
 * distinct rules (of two terminals each, repeated twice: the shape Sequitur gives N distinct
 * loops), for N and 4N, through grammar_check and grammar_expanded_length, the two passes every
 * reader makes on every group before walking it. Prints the CPU seconds of each (the median of 5)
 * and the ratio 4N / N: about 4 when linear, 16 when quadratic. Run by bench/inputs.bench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "grammar/grammar.h"

static double cpu_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void wide(struct grammar *g, uint32_t n)
{
	grammar_init(g);
	grammar_begin_rule(g);
	for (uint32_t k = 1; k <= n; k++)
		grammar_add_symbol(g, gsym_rule_val(k), 2);
	for (uint32_t k = 1; k <= n; k++) {
		grammar_begin_rule(g);
		grammar_add_symbol(g, 2 * (int64_t)k, 1);
		grammar_add_symbol(g, 2 * (int64_t)k + 1, 1);
	}
	grammar_end(g);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* the median of 5 timings of check and length on a grammar of width n */
static void measure(uint32_t n, double *check, double *length)
{
	struct grammar g;
	wide(&g, n);
	double c[5], l[5];
	char why[200];
	for (int i = 0; i < 5; i++) {
		double t0 = cpu_seconds();
		if (!grammar_check(&g, UINT64_MAX, why, sizeof why))
			abort();
		double t1 = cpu_seconds();
		if (grammar_expanded_length(&g) != 4ULL * n)
			abort();
		double t2 = cpu_seconds();
		c[i] = t1 - t0;
		l[i] = t2 - t1;
	}
	qsort(c, 5, sizeof *c, by_value);
	qsort(l, 5, sizeof *l, by_value);
	*check = c[2];
	*length = l[2];
	grammar_free(&g);
}

int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 50000;
	double c1, l1, c4, l4;
	measure(n, &c1, &l1);
	measure(4 * n, &c4, &l4);
	printf("%-40s %8.4f s %8.4f s   large / small = %.4f\n", "grammar_check width N / 4N", c1, c4, c4 / c1);
	printf("%-40s %8.4f s %8.4f s   large / small = %.4f\n", "grammar_expanded_length N / 4N", l1, l4, l4 / l1);
	printf("(N = %u rules referred to by the start rule)\n", n);
	return 0;
}
