/* The synthetic test set without noise: every single-term and every two-term function of the
 * default search space (and strong-scaling and two-parameter shapes) must come back with its
 * exact function class and its coefficients within 1e-6 relative. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/modeler.h"
#include "synth.h"

#define TOL 1e-6

static bool close_to(double got, double want, double scale)
{
	return fabs(got - want) <= TOL * fmax(fabs(want), scale);
}

/* same terms (shapes), each coefficient and the constant within TOL; the constant of a
 * function without one must be zero to TOL of the smallest value */
static bool recovered(const struct pmnf *got, const struct pmnf *want, double smallest)
{
	if (got->nterms != want->nterms)
		return false;
	for (unsigned k = 0; k < want->nterms; k++) {
		bool found = false;
		for (unsigned j = 0; j < got->nterms && !found; j++)
			found = pmnf_term_same_shape(&got->term[j], &want->term[k], want->nparams) &&
				close_to(got->term[j].coef, want->term[k].coef, 0);
		if (!found)
			return false;
	}
	return close_to(got->constant, want->constant, smallest);
}

static void check_family(enum synth_family fam, unsigned nparams, const char *exponents)
{
	struct synth_ladder l;
	synth_ladder_default(&l, nparams);
	struct pmnf truths[256];
	size_t nt, m = 0;
	struct experiment *e = synth_family_experiment(fam, nparams, 1, 5, 0.0, SYNTH_UNIFORM, truths, 256, &nt);
	struct model_options o;
	model_options_init(&o);
	o.bootstrap = 0;
	if (exponents)
		assert_int_equal(exponents_parse(exponents, &o.exponents, NULL), 0);
	struct model_error err;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	size_t bad = 0;
	const char *names[] = {"p", "n"};
	for (size_t k = 0; k < nt; k++) {
		const struct model_result *r = &res->r[model_index(res, k, m)];
		double smallest = INFINITY;
		for (size_t p = 0; p < l.npoints; p++)
			smallest = fmin(smallest, pmnf_eval(&truths[k], l.x + p * nparams));
		if (r->status == MODEL_OK && recovered(&r->fn, &truths[k], smallest))
			continue;
		char a[256], b[256];
		pmnf_format(&truths[k], names, a, sizeof a);
		pmnf_format(&r->fn, names, b, sizeof b);
		printf("# not recovered: %s -> %s (%s)\n", a, b, model_status_name(r->status));
		bad++;
	}
	printf("# %s, no noise: %zu of %zu recovered exactly\n", synth_family_name(fam), nt - bad, nt);
	assert_int_equal(bad, 0);
	model_results_free(res);
	experiment_free(e);
}

static void every_single_term_function(void **state)
{
	check_family(SYNTH_ONE_TERM, 1, NULL);
}

static void every_single_term_without_constant(void **state)
{
	check_family(SYNTH_ONE_TERM_PURE, 1, NULL);
}

static void every_two_term_function(void **state)
{
	check_family(SYNTH_TWO_TERMS, 1, NULL);
}

static void strong_scaling_shapes(void **state)
{
	check_family(SYNTH_STRONG, 1, "default;strong");
}

static void two_parameter_functions(void **state)
{
	check_family(SYNTH_TWO_PARAMS, 2, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_single_term_function),
		cmocka_unit_test(every_single_term_without_constant),
		cmocka_unit_test(every_two_term_function),
		cmocka_unit_test(strong_scaling_shapes),
		cmocka_unit_test(two_parameter_functions),
	};
	return cmocka_run_group_tests_name("model_recovery", tests, NULL, NULL);
}
