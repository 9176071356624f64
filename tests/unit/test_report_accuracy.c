/* Unit tests for the report's computations: prediction accuracy, interval coverage, rank
 * correlation and top-k agreement of kernel rankings, model formulas read back, thresholds and
 * regressions against the trailing median of past nights. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "model/models_format.h"
#include "report/accuracy.h"
#include "report/figures.h"
#include "report/history.h"

static void test_accuracy(void **state)
{
	(void)state;
	assert_float_equal(accuracy_of(95, 100), 0.95, 1e-12);
	assert_float_equal(accuracy_of(105, 100), 0.95, 1e-12);
	assert_float_equal(accuracy_of(300, 100), -1.0, 1e-12);   /* off by twice the measurement */
	assert_float_equal(accuracy_of(0, 0), 1.0, 0);
	assert_true(isnan(accuracy_of(1, 0)));
	assert_true(isnan(accuracy_of(NAN, 1)));
	assert_float_equal(accuracy_of(-2, -4), 0.5, 1e-12);
}

static void test_aggregate(void **state)
{
	(void)state;
	/* errors do not cancel: +10 and -10 on a total of 200 */
	double pred[] = {110, 90, 0}, meas[] = {100, 100, 0};
	assert_float_equal(aggregate_accuracy(pred, meas, 3), 0.9, 1e-12);
	/* the large value weighs more: exact on 1000, 4x off on 1 */
	double p2[] = {1000, 4}, m2[] = {1000, 1};
	assert_float_equal(aggregate_accuracy(p2, m2, 2), 1 - 3.0 / 1001, 1e-12);
	double zeros[] = {0, 0};
	assert_float_equal(aggregate_accuracy(zeros, zeros, 2), 1.0, 0);
	assert_true(isnan(aggregate_accuracy(p2, zeros, 2)));
	assert_true(isnan(aggregate_accuracy(p2, m2, 0)));
}

static void test_interval(void **state)
{
	(void)state;
	assert_int_equal(interval_held(1, 3, 2), 1);
	assert_int_equal(interval_held(1, 3, 3), 1);
	assert_int_equal(interval_held(1, 3, 3.5), 0);
	assert_int_equal(interval_held(NAN, NAN, 2), -1);
}

static void test_rank_correlation(void **state)
{
	(void)state;
	double a[] = {1, 2, 3, 4, 5}, same[] = {10, 20, 30, 40, 50}, reversed[] = {5, 4, 3, 2, 1};
	assert_float_equal(rank_correlation(a, same, 5), 1.0, 1e-12);
	assert_float_equal(rank_correlation(a, reversed, 5), -1.0, 1e-12);
	/* one swap of neighbours in five: 1 - 6 * 2 / (5 * 24) = 0.9 */
	double swapped[] = {1, 3, 2, 4, 5};
	assert_float_equal(rank_correlation(a, swapped, 5), 0.9, 1e-12);
	/* monotone but not linear: ranks only */
	double cubes[] = {1, 8, 27, 64, 125};
	assert_float_equal(rank_correlation(a, cubes, 5), 1.0, 1e-12);
	assert_true(isnan(rank_correlation(a, same, 1)));
	double flat[] = {2, 2, 2, 2, 2};
	assert_true(isnan(rank_correlation(a, flat, 5)));
}

static void test_topk(void **state)
{
	(void)state;
	double pred[] = {9, 8, 7, 1, 2, 3}, meas[] = {9, 1, 7, 8, 2, 3};
	/* top 3 predicted {0,1,2}, measured {0,3,2}: two in common */
	assert_float_equal(topk_agreement(pred, meas, 6, 3), 2.0 / 3.0, 1e-12);
	assert_float_equal(topk_agreement(pred, pred, 6, 3), 1.0, 0);
	assert_float_equal(topk_agreement(pred, meas, 6, 1), 1.0, 0);
	assert_float_equal(topk_agreement(pred, meas, 6, 100), 1.0, 0);   /* k clamped to n: everything */
	assert_true(isnan(topk_agreement(pred, meas, 0, 3)));
	/* ties: the lower index wins, on both sides alike */
	double tied[] = {5, 5, 5, 1};
	assert_float_equal(topk_agreement(tied, tied, 4, 2), 1.0, 0);
}

static void test_formula(void **state)
{
	(void)state;
	char why[256];
	double v;
	assert_true(models_formula_eval("0.2549 + 0.03995 * log2(p)", 64, 0, &v, why, sizeof why));
	assert_float_equal(v, 0.2549 + 0.03995 * 6, 1e-12);
	assert_true(models_formula_eval("-6.607e-06 + 8.728e-06 * p^(3/2)", 16, 0, &v, why, sizeof why));
	assert_float_equal(v, -6.607e-06 + 8.728e-06 * 64, 1e-15);
	assert_true(models_formula_eval("1 + 2 * p^(1/2) * log2(p)^2", 4, 0, &v, why, sizeof why));
	assert_float_equal(v, 1 + 2 * 2 * 4, 1e-12);
	assert_true(models_formula_eval("3 * p^-1 + 1 * n", 4, 10, &v, why, sizeof why));
	assert_float_equal(v, 0.75 + 10, 1e-12);
	assert_true(models_formula_eval("0", 4, 0, &v, why, sizeof why));
	assert_float_equal(v, 0, 0);
	assert_false(models_formula_eval("2 * q", 4, 0, &v, why, sizeof why));
	assert_non_null(strstr(why, "expected a parameter name"));
	assert_false(models_formula_eval("log2(p", 4, 0, &v, why, sizeof why));
	assert_false(models_formula_eval("", 4, 0, &v, why, sizeof why));
	assert_false(models_formula_eval("1 2", 4, 0, &v, why, sizeof why));
}

static void test_thresholds(void **state)
{
	(void)state;
	struct thresholds t;
	char why[256];
	thresholds_init(&t);
	assert_true(thresholds_parse("time=0.9,visits=0.95,margin=0.1", &t, why, sizeof why));
	assert_true(thresholds_parse("", &t, why, sizeof why));
	assert_int_equal(t.n, 2);
	assert_float_equal(t.margin, 0.1, 0);
	struct figures f = {0};
	figures_add(&f, "time", 64, 0.85, "a");
	figures_add(&f, "model_visits", 64, 1.0, "b");
	figures_add(&f, "ranking", 64, NAN, "c");
	figures_apply_thresholds(&f, &t);
	assert_true(t.v[0].used && t.v[1].used);    /* 'visits' names model_visits */
	assert_false(f.v[0].held);
	assert_true(f.v[1].held);
	assert_false(figures_pass(&f, false));
	f.v[0].value = 0.95;
	figures_apply_thresholds(&f, &t);
	assert_true(figures_pass(&f, false));
	/* a threshold on a figure that could not be computed fails only when strict */
	struct thresholds t2;
	thresholds_init(&t2);
	assert_true(thresholds_parse("ranking=0.5", &t2, why, sizeof why));
	figures_apply_thresholds(&f, &t2);
	assert_true(figures_pass(&f, false));
	assert_false(figures_pass(&f, true));
	assert_false(thresholds_parse("time", &t2, why, sizeof why));
	assert_false(thresholds_parse("time=fast", &t2, why, sizeof why));
	assert_false(thresholds_parse("=1", &t2, why, sizeof why));
	thresholds_free(&t);
	thresholds_free(&t2);
	figures_free(&f);
}

static void test_regression(void **state)
{
	(void)state;
	/* six past nights of 'time' at 64: the trailing median of the last five is 0.95 */
	double past[] = {0.50, 0.94, 0.95, 0.96, 0.95, 0.97};
	struct history_row rows[6];
	for (size_t i = 0; i < 6; i++)
		rows[i] = (struct history_row){"night", "c.h5", "app", "time", 64, past[i], NAN, 1, 0};
	struct history h = {rows, 6};
	struct figures f = {0};
	figures_add(&f, "time", 64, 0.91, "x");   /* within the margin of 0.05 */
	figures_add(&f, "time", 128, 0.10, "y");  /* no history at 128: no regression */
	history_judge(&h, &f, 5, 0.05);
	assert_int_equal(f.v[0].nights, 6);
	assert_float_equal(f.v[0].trailing_median, 0.95, 1e-12);
	assert_false(f.v[0].regression);
	assert_int_equal(f.v[1].nights, 0);
	assert_false(f.v[1].regression);
	f.v[0].value = 0.89;                       /* 0.06 below */
	history_judge(&h, &f, 5, 0.05);
	assert_true(f.v[0].regression);
	assert_false(figures_pass(&f, false));
	figures_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accuracy), cmocka_unit_test(test_aggregate),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_rank_correlation), cmocka_unit_test(test_topk),
		cmocka_unit_test(test_formula), cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_regression),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
