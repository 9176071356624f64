/* Unit tests for extrap/timing's three-rung law: one power of p fitted in log-log space, its
 * exponent rounded to a quarter — strong scaling (1/p), weak scaling (constant), noise that
 * rounds to the nearest quarter, and the series it refuses. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strong_scaling_shrinks),
		cmocka_unit_test(weak_scaling_stays),
		cmocka_unit_test(rounded_to_a_quarter),
		cmocka_unit_test(refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
