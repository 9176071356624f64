/* Unit tests for what a report reads from a lossy extrapolation's labels (hostile input, field by
 * field) and for the state a report gives: no PASS without a rule for every figure. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/figures.h"
#include "report/lossy.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_lossy_share(void **state)
{
	(void)state;
	struct run_label good[] = {
		{"rung", "64"},
		{"lossy_dropped_calls", "930"},
		{"lossy_expected_calls", "2000"},
		{"lossy_expected_bytes", "18446744073709551615"},
		{"lossy_kept_calls_share", "0.5350"},
		{"lossy_kept_bytes_share", "0.0003"},
		{"lossy_kept_by_function", "MPI_Isend 600 1280 1200 4000000;MPI_Allreduce 10 10 80 80"},
	};
	struct lossy l;
	lossy_from_labels(good, N(good), &l);
	assert_true(l.lossy && l.has_share);
	assert_null(l.problem);
	assert_int_equal(l.expected_calls, 2000);
	assert_true(l.expected_bytes == UINT64_MAX);
	assert_float_equal(l.kept_calls_share, 0.535, 1e-12);
	assert_int_equal(l.nfns, 2);
	assert_string_equal(l.fns[1].name, "MPI_Allreduce");
	assert_int_equal(l.fns[0].kept_bytes, 1200);
	assert_int_equal(l.fns[0].expected_bytes, 4000000);
	lossy_free(&l);

	/* not lossy at all */
	lossy_from_labels(good, 1, &l);
	assert_false(l.lossy);
	lossy_free(&l);

	/* each malformed field is named */
	static const struct {
		const char *key, *value;
	} bad[] = {
		{"lossy_expected_calls", "-5"}, {"lossy_expected_calls", "12x"}, {"lossy_expected_calls", ""},
		{"lossy_expected_calls", "18446744073709551616"}, {"lossy_expected_bytes", " 7"},
		{"lossy_kept_calls_share", "1.5"}, {"lossy_kept_calls_share", "nan"}, {"lossy_kept_bytes_share", "-0.1"},
		{"lossy_kept_bytes_share", "0.5 "}, {"lossy_kept_by_function", "MPI_Send 1 2 3"},
		{"lossy_kept_by_function", "MPI_Send 3 2 1 1"},       /* kept more than expected */
		{"lossy_kept_by_function", "MPI_Send 1 2 3 4;"},      /* an empty entry */
		{"lossy_kept_by_function", "MPI\nSend 1 2 3 4"},      /* a control character in the name */
		{"lossy_kept_by_function", "MPI_Send  1 2 3 4"},
	};
	for (size_t i = 0; i < N(bad); i++) {
		struct run_label labels[N(good)];
		memcpy(labels, good, sizeof good);
		for (size_t k = 0; k < N(labels); k++)
			if (!strcmp(labels[k].key, bad[i].key))
				labels[k].value = (char *)bad[i].value;
		lossy_from_labels(labels, N(labels), &l);
		assert_true(l.lossy);
		assert_false(l.has_share);
		assert_non_null(l.problem);
		assert_non_null(strstr(l.problem, bad[i].key));
		assert_int_equal(l.nfns, 0);
		lossy_free(&l);
	}
	/* older lossy runs: lossy, the share unknown */
	lossy_from_labels(good, 2, &l);
	assert_true(l.lossy);
	assert_false(l.has_share);
	assert_non_null(strstr(l.problem, "lossy_expected_calls"));
	lossy_free(&l);
}

static void test_state(void **state)
{
	(void)state;
	struct figures f = {0};
	struct thresholds t;
	char why[128];
	thresholds_init(&t);
	figures_add(&f, "events", 64, 1, "a");
	figures_add(&f, "model_visits", 64, 1, "b");
	figures_apply_thresholds(&f, &t);   /* the defaults */
	assert_true(f.v[0].has_threshold && f.v[0].default_threshold);
	assert_float_equal(f.v[0].threshold, 1, 0);
	assert_int_equal(figures_state(&f), STATE_PASS);
	/* a figure without a rule: not validated, however good */
	assert_true(thresholds_parse("visits=none", &t, why, sizeof why));
	figures_apply_thresholds(&f, &t);
	assert_false(f.v[1].has_threshold);
	assert_true(f.v[1].no_rule);
	assert_int_equal(figures_state(&f), STATE_NOT_VALIDATED);
	/* a figure that could not be computed: not validated */
	thresholds_free(&t);
	thresholds_init(&t);
	f.v[1].value = NAN;
	figures_apply_thresholds(&f, &t);
	assert_int_equal(figures_state(&f), STATE_NOT_VALIDATED);
	/* events that differ: FAIL by the default rule */
	f.v[0].value = 0;
	figures_apply_thresholds(&f, &t);
	assert_int_equal(figures_state(&f), STATE_FAIL);
	assert_string_equal(report_state_name(STATE_NOT_VALIDATED), "NOT VALIDATED");
	assert_false(thresholds_parse("margin=none", &t, why, sizeof why));
	thresholds_free(&t);
	figures_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lossy_share),
		cmocka_unit_test(test_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
