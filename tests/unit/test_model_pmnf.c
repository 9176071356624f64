/* Unit tests for model/pmnf and model/exponents: evaluation, asymptotic order, text forms,
 * exponent sets and their SPEC parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/exponents.h"
#include "model/pmnf.h"

static const char *const P[] = {"p"}, *const PN[] = {"p", "n"};

static struct pmnf one_param(double c0, double c1, double i, double j)
{
	struct pmnf f = {.nparams = 1, .constant = c0, .nterms = 1};
	f.term[0].coef = c1;
	f.term[0].f[0] = (struct pmnf_factor){i, j};
	return f;
}

static void evaluates_terms(void **state)
{
	struct pmnf f = one_param(3, 0.5, 1.5, 1);
	double x = 16;
	assert_true(fabs(pmnf_eval(&f, &x) - (3 + 0.5 * 64 * 4)) < 1e-12);
	struct pmnf g = one_param(0, 2, -1, 0);
	assert_true(fabs(pmnf_eval(&g, &x) - 0.125) < 1e-15);
}

static void orders_terms_asymptotically(void **state)
{
	struct pmnf_factor logp = {0, 1}, sqrtp = {0.5, 0}, p = {1, 0}, plogp = {1, 1}, inv = {-1, 0};
	assert_true(pmnf_factor_cmp(logp, sqrtp) < 0);
	assert_true(pmnf_factor_cmp(p, plogp) < 0);
	assert_true(pmnf_factor_cmp(inv, logp) < 0);
	assert_int_equal(pmnf_factor_cmp(p, p), 0);
	/* c/p + d tends to its constant; c/p alone to 1/p */
	struct pmnf strong = one_param(4, 100, -1, 0), pure = one_param(0, 100, -1, 0);
	unsigned idx[PMNF_MAX_TERMS];
	assert_int_equal(pmnf_leading_terms(&strong, idx), 0);
	assert_int_equal(pmnf_leading_terms(&pure, idx), 1);
	assert_false(pmnf_same_leading(&strong, &pure));
}

static void formats_formula_and_growth(void **state)
{
	char buf[256];
	struct pmnf f = one_param(3.1, 0.02, 1.5, 1);
	pmnf_format(&f, P, buf, sizeof buf);
	assert_string_equal(buf, "3.1 + 0.02 * p^(3/2) * log2(p)");
	pmnf_growth_class(&f, P, buf, sizeof buf);
	assert_string_equal(buf, "p^(3/2) log p");
	struct pmnf c = {.nparams = 1, .constant = 7};
	pmnf_growth_class(&c, P, buf, sizeof buf);
	assert_string_equal(buf, "constant");
	struct pmnf inv = one_param(0, 5, -1, 0);
	pmnf_growth_class(&inv, P, buf, sizeof buf);
	assert_string_equal(buf, "1/p");
	struct pmnf loginv = one_param(0, 5, -1, 1);
	pmnf_growth_class(&loginv, P, buf, sizeof buf);
	assert_string_equal(buf, "log p/p");
	struct pmnf neg = one_param(10, -2, 2, 2);
	pmnf_format(&neg, P, buf, sizeof buf);
	assert_string_equal(buf, "10 - 2 * p^2 * log2(p)^2");
	struct pmnf two = {.nparams = 2, .constant = 1, .nterms = 1};
	two.term[0].coef = 0.01;
	two.term[0].f[0] = (struct pmnf_factor){1, 1};
	two.term[0].f[1] = (struct pmnf_factor){1, 0};
	pmnf_format(&two, PN, buf, sizeof buf);
	assert_string_equal(buf, "1 + 0.01 * p * log2(p) * n");
	pmnf_growth_class(&two, PN, buf, sizeof buf);
	assert_string_equal(buf, "p log p * n");
}

static void default_exponents_are_the_papers(void **state)
{
	struct exponent_set s;
	exponents_default(&s);
	assert_int_equal(s.n, 20);   /* I = {0, 1/2, ..., 3} x J = {0, 1, 2} without the constant */
	assert_true(s.f[0].i == 0 && s.f[0].j == 1);
	assert_true(s.f[19].i == 3 && s.f[19].j == 2);
	for (size_t k = 1; k < s.n; k++)
		assert_true(pmnf_factor_cmp(s.f[k - 1], s.f[k]) < 0);
	assert_true(exponents_need_positive(&s));
}

static void parses_exponent_specs(void **state)
{
	struct exponent_set s;
	struct model_error err;
	assert_int_equal(exponents_parse("default;strong", &s, &err), 0);
	assert_int_equal(s.n, 28);
	assert_true(s.f[0].i == -2);
	assert_int_equal(exponents_parse("i=0,1/2,1;j=0,1", &s, &err), 0);
	assert_int_equal(s.n, 5);
	assert_int_equal(exponents_parse("terms=1:0,1/2:1,-1:0", &s, &err), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(exponents_parse("i=1,2", &s, &err), 0);
	assert_int_equal(s.n, 2);
	assert_false(exponents_need_positive(&s));
}

static void rejects_bad_exponent_specs(void **state)
{
	struct exponent_set s;
	struct model_error err;
	assert_int_equal(exponents_parse("bogus", &s, &err), -1);
	assert_non_null(strstr(err.msg, "'bogus'"));
	assert_int_equal(exponents_parse("i=1,x", &s, &err), -1);
	assert_non_null(strstr(err.msg, "'x'"));
	assert_int_equal(exponents_parse("i=1;i=2", &s, &err), -1);
	assert_non_null(strstr(err.msg, "twice"));
	assert_int_equal(exponents_parse("terms=1", &s, &err), -1);
	assert_int_equal(exponents_parse("i=0", &s, &err), -1);
	assert_non_null(strstr(err.msg, "no term"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(evaluates_terms),
		cmocka_unit_test(orders_terms_asymptotically),
		cmocka_unit_test(formats_formula_and_growth),
		cmocka_unit_test(default_exponents_are_the_papers),
		cmocka_unit_test(parses_exponent_specs),
		cmocka_unit_test(rejects_bad_exponent_specs),
	};
	return cmocka_run_group_tests_name("model_pmnf", tests, NULL, NULL);
}
