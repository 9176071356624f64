/* Unit tests for extrap's law of three rungs (few_rungs.h): the constant, one power of p (its
 * exponent a quarter) or the constant plus one power, the varying ones only where they fit the
 * rungs significantly better than the constant — strong scaling (1/p), weak scaling and a small
 * rung slowed by the machine (constant), is's counting sort (a + b/p), exponents between the
 * quarters, and the series it refuses; and a gap's CPU time scaled at the target that raises a
 * wall time which contention made shrink faster. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "extrap/few_rungs.h"
#include "extrap/timing.h"

static const double p[] = {4, 9, 16};

static bool near(double x, double want, double rel) { return fabs(x - want) <= rel * fabs(want); }

static void strong_scaling_shrinks(void **state)
{
	(void)state;
	double v[] = {36.0 / 4, 36.0 / 9, 36.0 / 16}, value;   /* 36 / p */
	struct few_law law;
	assert_true(few_rungs_at(p, v, 3, 64, &value, &law));
	assert_true(law.kind != FEW_CONSTANT && law.k == -1.0);
	assert_true(near(value, 36.0 / 64, 1e-9));
	/* ft's gap after the transpose, CPU time at 4, 9, 16 ranks (ms): 1/p within a few percent of
	 * noise is still told from the constant; the real run at 64 measured 0.267 ms */
	double ft[] = {4.39, 1.92, 1.05};
	assert_true(few_rungs_at(p, ft, 3, 64, &value, &law));
	assert_true(law.kind != FEW_CONSTANT && law.k == -1.0);
	assert_true(near(value, 0.267, 0.1));
}

/* ft's gap after its barrier, CPU time at 4, 9, 16 ranks (ms) under load: too noisy for a law of
 * two parameters to fit significantly better, but strong scaling's c / p fits better than the
 * constant: 1/p to 64 ranks (the real run: 0.53 ms), not the 16-rank value, four times that */
static void a_noisy_strong_scaling_gap_shrinks(void **state)
{
	(void)state;
	double v[] = {7.56, 2.94, 2.07}, value;
	struct few_law law;
	assert_true(few_rungs_at(p, v, 3, 64, &value, &law));
	assert_true(law.kind == FEW_POWER && law.k == -1.0);
	assert_true(near(value, 2.07 / 4, 1e-9));
}

static void weak_scaling_stays(void **state)
{
	(void)state;
	double v[] = {2e-3, 2.1e-3, 1.95e-3}, value;   /* a few percent of noise: the constant */
	struct few_law law;
	assert_true(few_rungs_at(p, v, 3, 1048576, &value, &law));
	assert_true(law.kind == FEW_CONSTANT);
	assert_true(value == v[2]);   /* the largest rung's, unscaled */
}

/* sweep's compute between its two receives (us of wall time): the 4-rank rung waited for a core,
 * a log-log slope of -0.24 that one power of p rounded to -1/4 and carried on to 64 ranks as 0.71
 * of the 16-rank time (57.9 us; the real run at 64: 81 to 88 us). Not significant: the constant. */
static void a_slow_small_rung_is_noise(void **state)
{
	(void)state;
	double v[] = {113.9, 82.7, 81.9}, value;
	struct few_law law;
	assert_true(few_rungs_at(p, v, 3, 64, &value, &law));
	assert_true(law.kind == FEW_CONSTANT);
	assert_true(value == v[2]);
}

/* is's counting sort of the received keys (ms of CPU time): the keys a rank receives are the same
 * in weak scaling, the histogram of its key range shrinks as 1/p. One power of p (-1/4) gave
 * 0.392 ms at 64; a + b/p gives 0.500; the real run measured 0.463 to 0.474. */
static void a_constant_plus_a_power(void **state)
{
	(void)state;
	double v[] = {0.769, 0.610, 0.554}, value;
	struct few_law law;
	assert_true(few_rungs_at(p, v, 3, 64, &value, &law));
	assert_true(law.kind == FEW_SHIFTED_POWER && law.k == -1.0);
	assert_true(near(value, 0.500, 0.01));
	for (int i = 0; i < 3; i++)   /* exactly 0.48 + 4.6 / p */
		v[i] = 0.48 + 4.6 / p[i];
	assert_true(few_rungs_at(p, v, 3, 1024, &value, &law));
	assert_true(law.kind == FEW_SHIFTED_POWER && near(value, 0.48 + 4.6 / 1024, 1e-9));
}

static void between_the_quarters(void **state)
{
	(void)state;
	double v[3], value;
	struct few_law law;
	for (int i = 0; i < 3; i++)   /* p^0.55 rounds to p^0.5: (64 / 16)^0.05, 7% low at 64 */
		v[i] = 3 * pow(p[i], 0.55);
	assert_true(few_rungs_at(p, v, 3, 64, &value, &law));
	assert_true(law.kind == FEW_POWER && law.k == 0.5 && fabs(value - v[2] * 2) < 1e-9);
	for (int i = 0; i < 3; i++)   /* p^1.4 rounds to p^1.5 */
		v[i] = pow(p[i], 1.4);
	assert_true(few_rungs_at(p, v, 3, 36, &value, &law));
	assert_true(law.kind == FEW_POWER && law.k == 1.5 && near(value, pow(36, 1.4), 0.1));
}

/* durations of a call on shared cores: 1, 30 and 900 us at 4, 8, 16 ranks (p^4.9): held at p^3,
 * the highest power the PMNF search considers, not 4^4.9 = 890 times the largest rung at 64 */
static void held_within_the_search_powers(void **state)
{
	(void)state;
	double q[] = {4, 8, 16}, v[] = {1e-6, 30e-6, 900e-6}, value;
	struct few_law law;
	assert_true(few_rungs_at(q, v, 3, 64, &value, &law));
	assert_true(law.kind == FEW_POWER && law.k == 3.0);
	assert_true(fabs(value - 900e-6 * 64) < 1e-12);
	double w[] = {900e-6, 30e-6, 1e-6};
	assert_true(few_rungs_at(q, w, 3, 64, &value, &law));
	assert_true(law.kind == FEW_POWER && law.k == -2.0);
	assert_true(fabs(value - 1e-6 / 16) < 1e-15);
}

static void refused(void **state)
{
	(void)state;
	double v[] = {1, 2, 3}, value = -1;
	struct few_law law;
	assert_false(few_rungs_at(p, v, 2, 64, &value, &law));   /* two rungs: PMNF or nothing */
	const double same[] = {8, 8, 8};
	assert_false(few_rungs_at(same, v, 3, 64, &value, &law));   /* one rank count: no slope */
	double zero[] = {1, 1, 0};
	assert_false(few_rungs_at(p, zero, 3, 64, &value, &law));   /* no positive value */
	double falling[] = {8, 5.5, 2};   /* 10 - p/2 exactly: negative at 64, not taken */
	assert_true(few_rungs_at(p, falling, 3, 64, &value, &law));
	assert_true(value > 0 && !(law.kind == FEW_SHIFTED_POWER && law.k == 1.0));
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
		cmocka_unit_test(a_noisy_strong_scaling_gap_shrinks),
		cmocka_unit_test(weak_scaling_stays),
		cmocka_unit_test(a_slow_small_rung_is_noise),
		cmocka_unit_test(a_constant_plus_a_power),
		cmocka_unit_test(between_the_quarters),
		cmocka_unit_test(held_within_the_search_powers),
		cmocka_unit_test(refused),
		cmocka_unit_test(cpu_time_raises_the_wall_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
