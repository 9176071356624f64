/*
 * test_histogram — drawing a gap from a histogram bin (run/histogram.h, hist_bin_draw): the draws of
 * a skewed, merged bin keep its mean and its range; rare bins fold into their neighbours
 * (hist_fold_rare), so a run eight times as long keeps as many bins.
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

/* n samples of one shape: 60% near 1 us, 30% near 1.5 us, 10% near 2.5 us, and one in 400 a slow tail
 * spread over 40 to 300 us (a rank that lost its core), in a fixed pseudo-random order */
static void sample_shape(struct hist *h, int n)
{
	uint64_t x = 88172645463325252ULL;
	for (int i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		double u = (double)(x >> 11) / 9007199254740992.0, g;
		if (u < 1.0 / 400)
			g = 40e-6 * (1 + 6.5 * u * 400);
		else
			g = u < 0.6 ? 1e-6 : u < 0.9 ? 1.5e-6 : 2.5e-6;
		hist_add(h, g * (1 + 0.001 * (double)(i % 7)), g / 2, 8);
	}
}

static uint64_t bins_count(const struct hist *h)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < h->n; i++)
		n += h->bins[i].count;
	return n;
}

static void rare_bins_fold_and_a_longer_run_keeps_as_many(void **state)
{
	(void)state;
	struct hist short_run = {0}, long_run = {0};
	sample_shape(&short_run, 800);
	sample_shape(&long_run, 6400);
	/* the long run met more of the tail, in bins of their own */
	assert_true(long_run.n > short_run.n);
	double sum = 0, max = 0;
	for (uint32_t i = 0; i < long_run.n; i++)
		sum += long_run.bins[i].sum, max = fmax(max, long_run.bins[i].max);
	hist_fold_rare(&short_run, 16);
	hist_fold_rare(&long_run, 16);
	assert_int_equal(short_run.n, 3);
	assert_int_equal(long_run.n, 3);
	for (uint32_t i = 0; i < long_run.n; i++)
		assert_true(long_run.bins[i].count * 16 >= 6400);
	/* the samples, their sum and their range stay */
	assert_int_equal(bins_count(&long_run), 6400);
	double folded = 0;
	for (uint32_t i = 0; i < long_run.n; i++)
		folded += long_run.bins[i].sum;
	assert_true(fabs(folded - sum) < 1e-12 * sum);
	assert_true(long_run.bins[long_run.n - 1].max == max);
	free(short_run.bins);
	free(long_run.bins);
}

static void bins_of_a_fair_share_stay(void **state)
{
	(void)state;
	struct hist h = {0};
	for (int i = 0; i < 64; i++)
		hist_add(&h, i % 4 == 3 ? 3e-6 : 1e-6, 0, 8);
	assert_int_equal(h.n, 2);
	hist_fold_rare(&h, 16);   /* 16 of 64 samples: a quarter */
	assert_int_equal(h.n, 2);
	hist_fold_rare(&h, 2);    /* fewer than half of them */
	assert_int_equal(h.n, 1);
	assert_int_equal(h.bins[0].count, 64);
	assert_true(h.bins[0].min == 1e-6 && h.bins[0].max == 3e-6);
	free(h.bins);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(draws_of_a_skewed_bin_keep_its_mean),
		cmocka_unit_test(a_bin_of_one_value_draws_it),
		cmocka_unit_test(rare_bins_fold_and_a_longer_run_keeps_as_many),
		cmocka_unit_test(bins_of_a_fair_share_stay),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
