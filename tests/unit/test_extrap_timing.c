/* Unit tests for extrap/timing's three-rung law: one power of p fitted in log-log space, its
 * exponent rounded to a quarter — strong scaling (1/p), weak scaling (constant), noise that
 * rounds to the nearest quarter, and the series it refuses; and a gap's CPU time scaled at the
 * target that raises a wall time which contention made shrink faster. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "extrap/timing.h"

static const double p[] = {4, 9, 16};

static void strong_scaling_shrinks(void **state)
{
	(void)state;
	double v[] = {36.0 / 4, 36.0 / 9, 36.0 / 16}, value, k;   /* 36 / p */
	assert_true(timing_power_at(p, v, 3, 64, &value, &k));
	assert_true(k == -1.0);
	assert_true(fabs(value - 36.0 / 64) < 1e-12);
}

static void weak_scaling_stays(void **state)
{
	(void)state;
	double v[] = {2e-3, 2.1e-3, 1.95e-3}, value, k;   /* a few percent of noise: exponent 0 */
	assert_true(timing_power_at(p, v, 3, 1048576, &value, &k));
	assert_true(k == 0.0 && !signbit(k));
	assert_true(value == v[2]);   /* the largest rung's, unscaled */
}

static void rounded_to_a_quarter(void **state)
{
	(void)state;
	double v[3], value, k;
	for (int i = 0; i < 3; i++)   /* p^0.55 rounds to p^0.5 */
		v[i] = 3 * pow(p[i], 0.55);
	assert_true(timing_power_at(p, v, 3, 64, &value, &k));
	assert_true(k == 0.5);
	assert_true(fabs(value - v[2] * 2) < 1e-9);   /* (64 / 16)^0.5 */
	for (int i = 0; i < 3; i++)   /* p^1.4 rounds to p^1.5 */
		v[i] = pow(p[i], 1.4);
	assert_true(timing_power_at(p, v, 3, 36, &value, &k));
	assert_true(k == 1.5);
}

/* durations of a call on shared cores: 1, 30 and 900 us at 4, 8, 16 ranks (p^4.9): held at p^3,
 * the highest power the PMNF search considers, not 4^4.9 = 890 times the largest rung at 64 */
static void held_within_the_search_powers(void **state)
{
	(void)state;
	double q[] = {4, 8, 16}, v[] = {1e-6, 30e-6, 900e-6}, value, k;
	assert_true(timing_power_at(q, v, 3, 64, &value, &k));
	assert_true(k == 3.0);
	assert_true(fabs(value - 900e-6 * 64) < 1e-12);
	double w[] = {900e-6, 30e-6, 1e-6};
	assert_true(timing_power_at(q, w, 3, 64, &value, &k));
	assert_true(k == -2.0);
	assert_true(fabs(value - 1e-6 / 16) < 1e-15);
}

static void refused(void **state)
{
	(void)state;
	double v[] = {1, 2, 3}, value = -1, k;
	assert_false(timing_power_at(p, v, 2, 64, &value, &k));   /* two rungs: PMNF or nothing */
	const double same[] = {8, 8, 8};
	assert_false(timing_power_at(same, v, 3, 64, &value, &k));   /* one rank count: no slope */
	double zero[] = {1, 1, 0};
	assert_false(timing_power_at(p, zero, 3, 64, &value, &k));   /* log 0: no positive value */
}

/* ft's gap after the transpose: 4.39, 1.92, 1.05 ms of CPU time at 4, 9, 16 ranks (1/p), wall
 * times 14.1, 13.9, 1.09 ms (the rungs shared two cores): the wall model predicted 0.096 ms at 64
 * and the CPU time, capped there, was a third of the real run's 0.267 ms */
static void cpu_time_raises_the_wall_time(void **state)
{
	(void)state;
	struct run_bin bin = {.bin = 80, .count = 2, .sum = 2 * 0.096e-3, .min = 0.09e-3, .max = 0.1e-3,
			      .cpu = {.sum = 2 * 1.05e-3, .min = 1.0e-3, .max = 1.1e-3}};
	struct run_gap g = {.count = 2, .sum = 2 * 0.096e-3, .sumsq = 2 * 0.096e-3 * 0.096e-3, .min = 0.09e-3,
			    .max = 0.1e-3, .cpu = {.sum = 2 * 1.05e-3, .min = 1.0e-3, .max = 1.1e-3}, .bins = &bin, .nbins = 1};
	timing_scale_gap_cpu(&g, 0.25);   /* 16 -> 64 ranks, 1/p */
	assert_true(fabs(g.cpu.sum - 2 * 0.2625e-3) < 1e-12);
	assert_true(fabs(g.sum - g.cpu.sum) < 1e-12 && g.min >= g.cpu.min && g.max >= g.cpu.max);
	assert_true(g.sumsq * (double)g.count >= g.sum * g.sum - 1e-18);   /* a variance not negative */
	assert_true(fabs(bin.cpu.sum - 2 * 0.2625e-3) < 1e-12 && bin.sum >= bin.cpu.sum);
	struct run_gap w = {.count = 1, .sum = 5e-3, .min = 5e-3, .max = 5e-3, .cpu = {.sum = 1e-3, .min = 1e-3, .max = 1e-3}};
	timing_scale_gap_cpu(&w, 2);   /* CPU time below the wall time: the wall time stays */
	assert_true(w.sum == 5e-3 && fabs(w.cpu.sum - 2e-3) < 1e-15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strong_scaling_shrinks),
		cmocka_unit_test(weak_scaling_stays),
		cmocka_unit_test(rounded_to_a_quarter),
		cmocka_unit_test(held_within_the_search_powers),
		cmocka_unit_test(refused),
		cmocka_unit_test(cpu_time_raises_the_wall_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
