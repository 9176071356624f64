/* Unit tests for model/pmnf_parse, the one reader of PMNF formula text: what pmnf_format writes
 * reads back into the same function, and report's evaluator of stored formulas (report/formula)
 * gives the same values as the parsed function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/pmnf.h"
#include "report/formula.h"

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

/* report's evaluator and the parsed function agree, point by point */
static void both_readers_evaluate_alike(void **state)
{
	(void)state;
	for (unsigned k = 0; k < 60; k++) {
		struct pmnf f = sample(k), g;
		char text[512], why[256];
		pmnf_format(&f, PN, text, sizeof text);
		assert_true(pmnf_parse(text, PN, 2, &g, why, sizeof why));
		for (double p = 2; p <= 4096; p *= 3) {
			double x[] = {p, 17}, old;
			assert_true(formula_eval(text, p, 17, &old, why, sizeof why));
			double now = pmnf_eval(&g, x);
			assert_true(fabs(now - old) <= 1e-12 * fabs(old) + 1e-300);
		}
	}
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
		cmocka_unit_test(both_readers_evaluate_alike),
		cmocka_unit_test(what_is_not_a_formula_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
