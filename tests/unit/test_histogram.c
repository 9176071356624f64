/*
 * test_histogram — drawing a gap from a histogram bin (run/histogram.h, hist_bin_draw): the draws of
 * a skewed, merged bin keep its mean and its range.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "run/histogram.h"

/* one bin of 90 gaps of 1 us and 10 of 80 us: two bins merged into one when only one is kept */
static struct run_bin skewed_bin(struct hist *h)
{
	for (int i = 0; i < 100; i++)
		hist_add(h, i % 10 ? 1e-6 : 80e-6, i % 10 ? 0.5e-6 : 40e-6, 1);
	assert_int_equal(h->n, 1);
	return h->bins[0];
}

/* the mean of n draws at evenly spread u */
static double mean_of_draws(double min, double max, double mean, int n)
{
	double sum = 0;
	for (int i = 0; i < n; i++) {
		double x = hist_bin_draw(min, max, mean, (i + 0.5) / n);
		assert_true(x >= min && x <= max);
		sum += x;
	}
	return sum / n;
}

static void draws_of_a_skewed_bin_keep_its_mean(void **state)
{
	(void)state;
	struct hist h = {0};
	struct run_bin b = skewed_bin(&h);
	double mean = b.sum / (double)b.count, cpu_mean = b.cpu.sum / (double)b.count;
	assert_true(fabs(mean - 8.9e-6) < 1e-12);
	assert_true(fabs(mean_of_draws(b.min, b.max, mean, 1000) - mean) < 1e-3 * mean);
	assert_true(fabs(mean_of_draws(b.cpu.min, b.cpu.max, cpu_mean, 1000) - cpu_mean) < 1e-3 * cpu_mean);
	/* a draw uniform on [min, max] would average 40.5 us: 4.5 times the recorded mean */
	assert_true((b.min + b.max) / 2 > 4 * mean);
	free(h.bins);
}

static void a_bin_of_one_value_draws_it(void **state)
{
	(void)state;
	assert_true(hist_bin_draw(2e-6, 2e-6, 2e-6, 0.7) == 2e-6);
	assert_true(hist_bin_draw(2e-6, 5e-6, 1e-6, 0.7) == 2e-6);   /* a mean rounded below the range */
	assert_true(hist_bin_draw(2e-6, 5e-6, 6e-6, 0.7) == 5e-6);
	assert_true(fabs(hist_bin_draw(2e-6, 5e-6, 4e-6, 0.0) - 3e-6) < 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(draws_of_a_skewed_bin_keep_its_mean),
		cmocka_unit_test(a_bin_of_one_value_draws_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
