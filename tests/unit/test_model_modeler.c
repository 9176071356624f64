/* Unit tests for model/modeler: an Extra-P file modeled end to end (models, ranking, wait
 * states), the statuses of series that cannot be modeled, the errors that concern the whole
 * experiment, and the options (k-fold, aggregates, the basic comparison mode, two parameters). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/extra_p.h"
#include "model/model_json.h"
#include "model/modeler.h"

#define FIX "tests/model/fixtures/"

static const struct model_result *result(const struct model_results *res, const char *cp, const char *m)
{
	long c = experiment_find_callpath(res->e, cp), k = experiment_find_metric(res->e, m);
	assert_true(c >= 0 && k >= 0);
	return &res->r[model_index(res, (size_t)c, (size_t)k)];
}

static void formula(const struct model_result *r, const struct experiment *e, char *buf, size_t len)
{
	pmnf_format(&r->fn, (const char *const *)e->params, buf, len);
}

static void models_an_extra_p_file(void **state)
{
	struct model_error err;
	struct experiment *e = extra_p_read(FIX "weak.txt", &err);
	struct model_options o;
	model_options_init(&o);
	o.has_target = true;
	o.target[0] = 4096;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	char buf[256];
	static const char *const want[][2] = {
		{"main->init", "3"},
		{"main->solve", "12 + 0.8 * p"},
		{"main->solve->MPI_Allreduce", "0.5 + 0.02 * p^(1/2) * log2(p)"},
		{"main->exchange->MPI_Sendrecv", "2 + 0.3 * log2(p)^2"},
		{"main->sweep->MPI_Recv", "0.1 + 0.4 * p^(1/2)"},
	};
	for (size_t k = 0; k < 5; k++) {
		const struct model_result *r = result(res, want[k][0], "time");
		assert_int_equal(r->status, MODEL_OK);
		formula(r, e, buf, sizeof buf);
		assert_string_equal(buf, want[k][1]);
		assert_true(r->prediction.has_interval && r->prediction.lo <= r->prediction.value &&
			    r->prediction.value <= r->prediction.hi);
	}
	assert_string_equal(result(res, "main->sweep->MPI_Recv", "time")->growth, "p^(1/2)");
	assert_true(fabs(result(res, "main->solve", "time")->prediction.value - (12 + 0.8 * 4096)) < 1e-6);
	/* the receive waits: its time grows as sqrt(p) while bytes and messages stay constant */
	assert_true(result(res, "main->sweep->MPI_Recv", "time")->wait_state);
	assert_string_equal(result(res, "main->sweep->MPI_Recv", "time")->requirement_growth, "constant");
	assert_false(result(res, "main->solve", "time")->wait_state);
	/* ranking at p = 4096 */
	size_t order[5];
	model_rank(res, (size_t)experiment_find_metric(e, "time"), order);
	assert_string_equal(experiment_callpath(e, order[0]), "main->solve");
	assert_string_equal(experiment_callpath(e, order[4]), "main->init");
	json_t *doc = model_results_json(res, (size_t)experiment_find_metric(e, "time"), order);
	assert_int_equal(json_array_size(json_object_get(doc, "ranking")), 5);
	assert_string_equal(json_string_value(json_object_get(json_object_get(json_array_get(json_object_get(doc, "ranking"), 0),
									      "model"), "formula")), "12 + 0.8 * p");
	json_decref(doc);
	model_results_free(res);
	experiment_free(e);
}

static struct experiment *ladder(size_t npoints)
{
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	for (size_t k = 0; k < npoints; k++) {
		double p = (double)(2u << k);
		experiment_intern_point(e, &p);
	}
	return e;
}

static void add(struct experiment *e, const char *cp, size_t pt, double a, double b, double c)
{
	double v[] = {a, b, c};
	experiment_add_values(e, experiment_intern_callpath(e, cp), experiment_intern_metric(e, "time"), pt, v, 3);
}

static void reports_series_it_cannot_model(void **state)
{
	struct experiment *e = ladder(6);
	for (size_t k = 0; k < 6; k++) {
		add(e, "main/noisy", k, 5 + 3 * (double)(k % 2), 10, 15 - 3 * (double)(k % 3));
		add(e, "main/grow", k, 10.0 * (double)(k + 1), 10.1 * (double)(k + 1), 9.9 * (double)(k + 1));
		if (k >= 4)
			add(e, "main/late", k, 1, 1, 1);
	}
	experiment_intern_callpath(e, "main/never");
	struct model_options o;
	model_options_init(&o);
	struct model_error err;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	assert_int_equal(result(res, "main/noisy", "time")->status, MODEL_NOISY);
	assert_non_null(strstr(result(res, "main/noisy", "time")->note, "too noisy"));
	assert_int_equal(result(res, "main/grow", "time")->status, MODEL_OK);
	assert_int_equal(result(res, "main/late", "time")->status, MODEL_FEW_POINTS);
	assert_string_equal(result(res, "main/late", "time")->note, "measured at 2 points; the search needs at least 3");
	assert_int_equal(result(res, "main/never", "time")->status, MODEL_NO_DATA);
	size_t order[4];
	model_rank(res, 0, order);
	assert_string_equal(experiment_callpath(e, order[3]), "main/never");
	model_results_free(res);
	experiment_free(e);
}

static void refuses_experiments_it_cannot_search(void **state)
{
	struct model_options o;
	model_options_init(&o);
	struct model_error err;
	struct experiment *e = ladder(2);
	for (size_t k = 0; k < 2; k++)
		add(e, "a", k, 1, 2, 3);
	assert_null(model_experiment(e, &o, &err));
	assert_string_equal(err.msg, "the experiment has 2 measurement points; the model search needs at least 3");
	experiment_free(e);

	e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	for (double p = 0; p < 5; p++)
		add(e, "a", experiment_intern_point(e, &p), 1 + p, 1 + p, 1 + p);
	assert_null(model_experiment(e, &o, &err));
	assert_non_null(strstr(err.msg, "parameter 'p' is 0 at point (p=0)"));
	/* without logarithms or fractional powers, p = 0 is fine */
	assert_int_equal(exponents_parse("i=1,2", &o.exponents, NULL), 0);
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	model_results_free(res);
	experiment_free(e);

	model_options_init(&o);
	e = ladder(5);
	for (size_t k = 0; k < 5; k++)
		add(e, "a", k, 1, 2, 3);
	o.has_target = true;
	o.target[0] = -8;
	assert_null(model_experiment(e, &o, &err));
	assert_non_null(strstr(err.msg, "at the target"));
	o.has_target = false;
	o.max_terms = 0;
	assert_null(model_experiment(e, &o, &err));
	experiment_free(e);
}

static void options_change_the_fit(void **state)
{
	struct experiment *e = ladder(7);
	for (size_t k = 0; k < 7; k++) {
		double p = (double)(2u << k), v = 4 + 0.5 * p;
		add(e, "a", k, v, v * 1.5, v * 0.9);   /* min is 0.9 v, median v */
	}
	struct model_options o;
	model_options_init(&o);
	o.aggregate = MODEL_AGG_MIN;
	o.cv = FIT_CV_KFOLD;
	o.kfold = 3;
	struct model_error err;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	const struct model_result *r = &res->r[0];
	assert_int_equal(r->status, MODEL_OK);
	assert_true(fabs(r->fn.constant - 3.6) < 1e-9 && fabs(r->fn.term[0].coef - 0.45) < 1e-9);
	model_results_free(res);
	/* Extra-P's basic modeler: one term and a constant at most */
	model_options_init(&o);
	o.basic = true;
	res = model_experiment(e, &o, &err);
	assert_true(res->r[0].fn.nterms <= 1 && !res->r[0].prediction.has_interval);
	model_results_free(res);
	experiment_free(e);
}

static void models_two_parameters(void **state)
{
	struct model_error err;
	struct experiment *e = extra_p_read(FIX "two_params.txt", &err);
	assert_non_null(e);
	struct model_options o;
	model_options_init(&o);
	o.has_target = true;
	o.target[0] = 1024;
	o.target[1] = 1600;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	char buf[256];
	formula(result(res, "kernel", "time"), e, buf, sizeof buf);
	assert_string_equal(buf, "1 + 0.01 * log2(p) * n");
	assert_string_equal(result(res, "kernel", "time")->growth, "log p * n");
	assert_true(fabs(result(res, "kernel", "time")->prediction.value - (1 + 0.01 * 10 * 1600)) < 1e-6);
	formula(result(res, "halo", "time"), e, buf, sizeof buf);
	assert_string_equal(buf, "2 + 0.001 * n + 0.5 * log2(p)");
	model_results_free(res);
	experiment_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(models_an_extra_p_file),
		cmocka_unit_test(reports_series_it_cannot_model),
		cmocka_unit_test(refuses_experiments_it_cannot_search),
		cmocka_unit_test(options_change_the_fit),
		cmocka_unit_test(models_two_parameters),
	};
	return cmocka_run_group_tests_name("model_modeler", tests, NULL, NULL);
}
