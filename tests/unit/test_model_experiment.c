/* Unit tests for model/experiment and model/aggregate: building an experiment, looking things
 * up, the checks on its values, per-point aggregates, the precision of each aggregate under the
 * noise measured, and the noise test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/aggregate.h"
#include "model/experiment.h"

static struct experiment *small(void)
{
	struct experiment *e = experiment_new();
	assert_int_equal(experiment_add_parameter(e, "p", NULL), 0);
	assert_int_equal(experiment_add_parameter(e, "n", NULL), 1);
	double a[] = {4, 100}, b[] = {8, 100};
	assert_int_equal(experiment_intern_point(e, a), 0);
	assert_int_equal(experiment_intern_point(e, b), 1);
	assert_int_equal(experiment_intern_point(e, a), 0);
	return e;
}

static void builds_and_finds(void **state)
{
	struct experiment *e = small();
	size_t cp = experiment_intern_callpath(e, "main/solve/MPI_Allreduce");
	size_t m = experiment_intern_metric(e, "time");
	assert_int_equal(experiment_intern_callpath(e, "main/solve/MPI_Allreduce"), cp);
	/* grow every dimension after values exist */
	double v[] = {1, 2, 3};
	experiment_add_values(e, cp, m, 1, v, 3);
	for (int k = 0; k < 100; k++) {
		char name[32];
		snprintf(name, sizeof name, "cp%d", k);
		experiment_add_values(e, experiment_intern_callpath(e, name), experiment_intern_metric(e, "bytes_sent"), 0, v, 1);
	}
	double c[] = {16, 100};
	experiment_add_values(e, cp, m, experiment_intern_point(e, c), v, 2);
	const struct series *s = experiment_values(e, cp, m, 1);
	assert_int_equal(s->n, 3);
	assert_true(s->v[2] == 3);
	assert_int_equal(experiment_values(e, cp, m, 0)->n, 0);
	assert_int_equal(experiment_values(e, 999, 999, 999)->n, 0);
	assert_int_equal(experiment_find_callpath(e, "cp42"), (long)cp + 43);
	assert_int_equal(experiment_find_metric(e, "visits"), -1);
	assert_string_equal(experiment_callpath_leaf("main/solve/MPI_Allreduce"), "MPI_Allreduce");
	assert_string_equal(experiment_callpath_leaf("main->solve->MPI_Bcast"), "MPI_Bcast");
	char pb[64];
	experiment_format_point(e, 1, pb, sizeof pb);
	assert_string_equal(pb, "(p=8, n=100)");
	assert_int_equal(experiment_check(e, NULL), 0);
	experiment_free(e);
}

static void refuses_bad_parameters(void **state)
{
	struct experiment *e = small();
	struct model_error err;
	assert_int_equal(experiment_add_parameter(e, "q", &err), -1);
	assert_non_null(strstr(err.msg, "after measurement points"));
	experiment_free(e);
	e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	assert_int_equal(experiment_add_parameter(e, "p", &err), -1);
	assert_non_null(strstr(err.msg, "twice"));
	experiment_free(e);
}

static void check_names_bad_values(void **state)
{
	struct experiment *e = small();
	struct model_error err;
	size_t cp = experiment_intern_callpath(e, "main/x"), m = experiment_intern_metric(e, "time");
	assert_int_equal(experiment_check(e, &err), -1);
	assert_non_null(strstr(err.msg, "no measured values"));
	double v[] = {1, NAN};
	experiment_add_values(e, cp, m, 1, v, 2);
	assert_int_equal(experiment_check(e, &err), -1);
	assert_non_null(strstr(err.msg, "call path 'main/x', metric 'time', point (p=8, n=100): NaN value"));
	experiment_free(e);
	e = small();
	double w[] = {-2};
	experiment_add_values(e, experiment_intern_callpath(e, "a"), experiment_intern_metric(e, "bytes_sent"), 0, w, 1);
	assert_int_equal(experiment_check(e, &err), -1);
	assert_non_null(strstr(err.msg, "negative value (-2)"));
	experiment_free(e);
}

static void aggregates_repetitions(void **state)
{
	double v[] = {5, 1, 4, 2, 3}, sorted[5];
	struct point_stats s;
	point_stats_compute(v, 5, MODEL_AGG_MEDIAN, sorted, &s);
	assert_true(s.value == 3 && s.min == 1 && s.max == 5 && s.mean == 3);
	assert_true(fabs(s.sd - sqrt(2.5)) < 1e-12);
	point_stats_compute(v, 5, MODEL_AGG_MAX, sorted, &s);
	assert_true(s.value == 5);
	point_stats_compute(v, 4, MODEL_AGG_MEDIAN, sorted, &s);
	assert_true(s.value == 3);   /* median of 1 2 4 5 */
	double w[] = {5, 1, 4, 2, 2};
	point_stats_compute(w, 5, MODEL_AGG_MIDRANGE, sorted, &s);
	assert_true(s.value == 3 && s.median == 2);
	/* a resample as counts over sorted values: two 1s, one 4, two 5s */
	double sv[] = {1, 2, 3, 4, 5};
	unsigned counts[] = {2, 0, 0, 1, 2};
	assert_true(aggregate_counts(sv, counts, 5, 5, MODEL_AGG_MEDIAN) == 4);
	assert_true(aggregate_counts(sv, counts, 5, 5, MODEL_AGG_MEAN) == 16.0 / 5);
	assert_true(aggregate_counts(sv, counts, 5, 5, MODEL_AGG_MIN) == 1);
	assert_true(aggregate_counts(sv, counts, 5, 5, MODEL_AGG_MAX) == 5);
	assert_true(aggregate_counts(sv, counts, 5, 5, MODEL_AGG_MIDRANGE) == 3);
	enum model_aggregate a;
	assert_true(model_aggregate_parse("min", &a) && a == MODEL_AGG_MIN);
	assert_true(model_aggregate_parse("midrange", &a) && a == MODEL_AGG_MIDRANGE);
	assert_false(model_aggregate_parse("mode", &a));
}

static void relative_variance_of_the_mean_is_exact(void **state)
{
	/* relative deviations -0.1, 0, +0.1 from the mean at every point: the pooled variance (one
	 * degree of freedom per group lost to its mean) is 4 * 0.01 / (6 - 2) */
	double r0[] = {0.9, 1.0, 1.1}, r1[] = {9, 10, 11};
	const double *reps[] = {r0, r1};
	size_t nreps[] = {3, 3};
	double dof;
	double var = aggregate_relative_variance(reps, nreps, 2, MODEL_AGG_MEAN, 1, &dof);
	assert_true(fabs(var - 0.01 / 3) < 1e-12);
	assert_true(dof == 4);
	/* the median of three of {-0.1, -0.1, 0, 0, 0.1, 0.1}: a known order-statistic distribution */
	double med = aggregate_relative_variance(reps, nreps, 2, MODEL_AGG_MEDIAN, 1, &dof);
	assert_true(med > 0 && med < 0.01);
	/* the midrange of two is their mean: the exact joint distribution of the smallest and the
	 * largest draw gives the mean's variance */
	double p0[] = {0.9, 1.1}, p1[] = {8, 12}, p2[] = {95, 105};
	const double *two[] = {p0, p1, p2};
	size_t ntwo[] = {2, 2, 2};
	double mean2 = aggregate_relative_variance(two, ntwo, 3, MODEL_AGG_MEAN, 1, &dof);
	double mid2 = aggregate_relative_variance(two, ntwo, 3, MODEL_AGG_MIDRANGE, 1, &dof);
	assert_true(mean2 > 0 && fabs(mid2 - mean2) < 1e-12 * mean2);
	/* of three draws from the pooled deviations -a, 0, +a (a = 0.1 sqrt(3/2)): -a or +a with
	 * probability 1/27 each (all alike), -a/2 or +a/2 with 6/27 each, else 0: variance 5 a^2 / 27 */
	double midr = aggregate_relative_variance(reps, nreps, 2, MODEL_AGG_MIDRANGE, 1, &dof);
	assert_true(fabs(midr - 0.015 * 5 / 27) < 1e-12);
}

static void selects_with_the_more_precise_aggregate(void **state)
{
	/* evenly spread repetitions (as uniform noise): the mean of five is the more precise */
	double a[4][5] = {{9.6, 9.8, 10, 10.2, 10.4}, {19.5, 19.7, 20, 20.3, 20.5}, {39, 39.6, 40, 40.4, 41},
			  {79, 79.5, 80, 80.5, 81}};
	const double *reps[4] = {a[0], a[1], a[2], a[3]};
	size_t nreps[4] = {5, 5, 5, 5};
	double var, median_var, dof;
	assert_int_equal(aggregate_for_selection(reps, nreps, 4, MODEL_AGG_MEDIAN, 1, &var, &median_var, &dof),
			 MODEL_AGG_MEAN);
	assert_true(var < median_var && dof == 16);
	/* the same with one repetition three times too slow (an outlier): the median is */
	double b[4][5] = {{9.6, 9.8, 10, 10.2, 10.4}, {19.5, 19.7, 20, 20.3, 61}, {39, 39.6, 40, 40.4, 41},
			  {79, 79.5, 80, 80.5, 81}};
	const double *out[4] = {b[0], b[1], b[2], b[3]};
	assert_int_equal(aggregate_for_selection(out, nreps, 4, MODEL_AGG_MEDIAN, 1, &var, &median_var, &dof),
			 MODEL_AGG_MEDIAN);
	assert_true(var == median_var);
	/* repetitions that take one of two values (a timer's two ticks) and the middle once: the
	 * midrange of five is the middle unless all five fall on one side, far more precise than
	 * their mean */
	double c[4][5] = {{9.5, 9.5, 10, 10.5, 10.5}, {19, 19, 20, 21, 21}, {38, 38, 40, 42, 42}, {76, 76, 80, 84, 84}};
	const double *ticks[4] = {c[0], c[1], c[2], c[3]};
	assert_int_equal(aggregate_for_selection(ticks, nreps, 4, MODEL_AGG_MEDIAN, 1, &var, &median_var, &dof),
			 MODEL_AGG_MIDRANGE);
	assert_true(var < aggregate_relative_variance(ticks, nreps, 4, MODEL_AGG_MEAN, 1, &dof) / 2);
	/* an aggregate asked for other than the median is kept */
	assert_int_equal(aggregate_for_selection(reps, nreps, 4, MODEL_AGG_MIN, 1, &var, &median_var, &dof), MODEL_AGG_MIN);
}

static void tells_noise_from_differences(void **state)
{
	/* flat level, 60% spread: too noisy */
	double a[] = {6, 10, 14}, b[] = {7, 10, 13}, c[] = {5, 9, 15}, d[] = {6, 11, 14};
	const double *reps[] = {a, b, c, d};
	size_t nreps[] = {3, 3, 3, 3};
	double values[] = {10, 10, 9, 11};
	struct noise_verdict v;
	noise_assess(reps, nreps, values, 4, 0.25, &v);
	assert_true(v.tested && v.too_noisy);
	assert_true(v.p_value > 0.05);
	/* the same spread around a growing level: differences are significant */
	double g1[] = {6, 10, 14}, g2[] = {14, 20, 26}, g3[] = {33, 40, 47}, g4[] = {70, 80, 90};
	const double *greps[] = {g1, g2, g3, g4};
	double gvalues[] = {10, 20, 40, 80};
	noise_assess(greps, nreps, gvalues, 4, 0.25, &v);
	assert_false(v.too_noisy);
	assert_true(v.p_value < 0.01);
	/* flat with 2% spread: a confident constant, not noise */
	double f1[] = {9.9, 10, 10.1}, f2[] = {9.95, 10.05, 10.1};
	const double *freps[] = {f1, f2, f1, f2};
	double fvalues[] = {10, 10.05, 10, 10.05};
	noise_assess(freps, nreps, fvalues, 4, 0.25, &v);
	assert_false(v.too_noisy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(builds_and_finds),
		cmocka_unit_test(refuses_bad_parameters),
		cmocka_unit_test(check_names_bad_values),
		cmocka_unit_test(aggregates_repetitions),
		cmocka_unit_test(relative_variance_of_the_mean_is_exact),
		cmocka_unit_test(selects_with_the_more_precise_aggregate),
		cmocka_unit_test(tells_noise_from_differences),
	};
	return cmocka_run_group_tests_name("model_experiment", tests, NULL, NULL);
}
