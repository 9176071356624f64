/* Unit tests for model/pmnf_parse, the one reader of PMNF formula text, and the formulas of the
 * /models rows (model/models_format): what pmnf_format writes reads back into the same function,
 * and the formula of a row the model writer builds evaluates, read back, to the model's value at
 * the target. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/extra_p.h"
#include "model/models_format.h"
#include "model/pmnf.h"

static const char *const PN[] = {"p", "n"};

/* functions of the shapes `ladder model` writes: exponents of the default sets, negative and
 * fractional ones, both parameters, coefficients with at most four significant digits */
static struct pmnf sample(unsigned k)
{
	static const struct pmnf_factor shapes[] = {
		{1, 0}, {0, 1}, {1.5, 1}, {0.5, 2}, {-1, 0}, {1.0 / 3, 0}, {2, 0}, {0.25, 0.5}, {3, 1}, {-0.5, 1}};
	static const double coefs[] = {0.2549, 8.728e-06, -6.607e-06, 3.1, 1234, -0.02, 5e-09, 42};
	struct pmnf f = {.nparams = 2, .constant = k % 3 ? coefs[k % 8] : 0};
	f.nterms = 1 + k % 3;
	for (unsigned t = 0; t < f.nterms; t++) {
		f.term[t].coef = coefs[(k + t + 1) % 8];
		f.term[t].f[0] = shapes[(k + 3 * t) % 10];
		if ((k + t) % 4 == 1)
			f.term[t].f[1] = shapes[(k + t) % 10];
	}
	return f;
}

static void formatted_functions_read_back(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 60; k++) {
		struct pmnf f = sample(k), g;
		char text[512], why[256];
		pmnf_format(&f, PN, text, sizeof text);
		assert_true(pmnf_parse(text, PN, 2, &g, why, sizeof why));
		char again[512];
		pmnf_format(&g, PN, again, sizeof again);
		assert_string_equal(text, again);
		const double x[] = {64, 1000};
		assert_true(pmnf_eval(&g, x) == pmnf_eval(&f, x));
	}
}

/* the rows `ladder model` writes into /models, their formulas read back and evaluated at the
 * target: the model's value there, but for the four significant digits of the coefficients */
static void written_formulas_read_back_at_the_target(void **state)
{
	(void)state;
	struct model_error err;
	struct experiment *e = extra_p_read("tests/model/fixtures/weak.txt", &err);
	assert_non_null(e);
	struct model_options o;
	model_options_init(&o);
	o.has_target = true;
	o.target[0] = 4096;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	char target[128], why[256];
	struct campaign_model *rows = models_rows(res, target, sizeof target);
	assert_string_equal(target, "p=4096");
	size_t checked = 0;
	for (size_t cp = 0; cp < res->ncallpaths; cp++)
		for (size_t m = 0; m < res->nmetrics; m++) {
			const struct model_result *r = &res->r[model_index(res, cp, m)];
			const struct campaign_model *row = &rows[model_index(res, cp, m)];
			double v;
			if (!model_status_has_function(r->status)) {
				assert_false(models_formula_eval(row->model, 4096, 0, &v, why, sizeof why));
				continue;
			}
			assert_true(models_formula_eval(row->model, 4096, 0, &v, why, sizeof why));
			double want = pmnf_eval(&r->fn, res->target);
			assert_true(fabs(v - want) <= 1e-3 * fabs(want));
			checked++;
		}
	assert_true(checked >= 5);
	models_rows_free(rows, res->ncallpaths * res->nmetrics);
	model_results_free(res);
	experiment_free(e);
}

static void settings_are_read_by_key(void **state)
{
	(void)state;
	const char *s = "params=p;reduce=max;aggregate=median;target=p=64";
	char *v = models_setting(s, "target");
	assert_string_equal(v, "p=64");
	free(v);
	v = models_setting(s, "reduce");
	assert_string_equal(v, "max");
	free(v);
	assert_null(models_setting(s, "re"));
	assert_null(models_setting("", "reduce"));
}

static void what_is_not_a_formula_is_refused(void **state)
{
	(void)state;
	struct pmnf g;
	char why[256];
	const char *bad[] = {"", "2 * q", "log2(p", "1 2", "1 + ", "nan", "inf * p", "0x10 * p", "2 * p^(1/0)",
			     "2 * pp", "((p))", "1 + 1*p + 1*p + 1*p + 1*p + 1*p + 1*p + 1*p + 1*p + 1*p"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_false(pmnf_parse(bad[i], PN, 2, &g, why, sizeof why));
		assert_non_null(strstr(why, "at offset"));
	}
	assert_false(pmnf_parse("2 * n", PN, 1, &g, why, sizeof why));
	assert_non_null(strstr(why, "expected a parameter name"));
	assert_true(pmnf_parse("3 * p^-1 + 2 - 1 * p * p", PN, 1, &g, why, sizeof why));
	assert_int_equal(g.nterms, 2);
	assert_true(g.constant == 2);
	assert_true(g.term[1].coef == -1 && g.term[1].f[0].i == 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(formatted_functions_read_back),
		cmocka_unit_test(written_formulas_read_back_at_the_target),
		cmocka_unit_test(settings_are_read_by_key),
		cmocka_unit_test(what_is_not_a_formula_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
