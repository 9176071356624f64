/* Unit tests for model/advise: on a ladder p = 1..16 whose values lie between 30 + log2 p and
 * 30 + p^(1/2) (the two agree within 3% there and part beyond: 5% apart at 64, 10% at 128), the
 * advice names the two as rivals and a rung beyond 16 where they differ by three noise standard
 * deviations; a rung further out narrows the prediction of the selected model at the target. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "model/advise.h"

static struct experiment *between_log_and_sqrt(double noise, size_t reps, unsigned long seed)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	size_t m = experiment_intern_metric(e, "time"), cp = experiment_intern_callpath(e, "main/solve");
	for (double p = 1; p <= 16; p *= 2) {
		size_t pt = experiment_intern_point(e, &p);
		double v[reps];
		for (size_t r = 0; r < reps; r++)
			v[r] = (30 + 0.5 * (log2(p) + sqrt(p))) * (1 + gsl_ran_flat(rng, -noise, noise));
		experiment_add_values(e, cp, m, pt, v, reps);
	}
	gsl_rng_free(rng);
	return e;
}

static struct model_results *model_one_term(const struct experiment *e, double target)
{
	struct model_options o;
	model_options_init(&o);
	assert_int_equal(exponents_parse("terms=0:1,1/2:0", &o.exponents, NULL), 0);
	o.max_terms = 1;
	o.has_target = true;
	o.target[0] = target;
	struct model_error err;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	return res;
}

static bool is_log_or_sqrt(const struct pmnf *f)
{
	if (f->nterms != 1)
		return false;
	struct pmnf_factor x = f->term[0].f[0];
	return (x.i == 0 && x.j == 1) || (x.i == 0.5 && x.j == 0);
}

static void separates_two_rivals_beyond_the_ladder(void **state)
{
	for (unsigned long seed = 1; seed <= 5; seed++) {
		struct experiment *e = between_log_and_sqrt(0.05, 5, seed);
		struct model_results *res = model_one_term(e, 1024);
		struct advice a;
		assert_int_equal(model_advise(res, 0, 0, &a), 0);
		assert_true(a.has_rival);
		assert_true(is_log_or_sqrt(&a.best) && is_log_or_sqrt(&a.rival));
		assert_false(pmnf_term_same_shape(&a.best.term[0], &a.rival.term[0], 1));
		/* the ladder cannot tell them apart; the advised rung can, and the one before it not */
		assert_true(a.largest == 16 && a.separation_now < ADVISE_SEPARATION);
		assert_true(a.separate_at > 16 && a.separate_at < 1024);
		assert_true(a.separation >= ADVISE_SEPARATION);
		assert_true(advise_separation(&a.best, &a.rival, a.separate_at / 2, a.noise_sd) < ADVISE_SEPARATION);
		/* they agree within one sd up to a rung short of the advised one (or not even at 16) */
		assert_true(a.agree_to < a.separate_at);
		if (a.agree_to > 0)
			assert_true(advise_separation(&a.best, &a.rival, a.agree_to, a.noise_sd) <= 1 &&
				    advise_separation(&a.best, &a.rival, a.agree_to * 2, a.noise_sd) > 1);
		/* the truth's two halves part by 3.5% at 32, 5% at 64 and 10% at 128; the rivals fitted
		 * to the values between them (+-5% noise, five repetitions) part at one of those */
		assert_true(a.separate_at == 32 || a.separate_at == 64 || a.separate_at == 128);
		/* candidates continue the ladder by 2 up to the target */
		assert_int_equal(a.nrungs, 6);
		assert_true(a.rung[0] == 32 && a.rung[4] == 512 && a.rung[5] == 1024);
		/* the largest rung short of the target narrows the selected model's prediction most */
		assert_true(a.has_narrowing && a.narrow_at == 512 && a.sd_after < a.sd_now);
		model_results_free(res);
		experiment_free(e);
	}
}

static void no_advice_without_extrapolation_or_a_model(void **state)
{
	struct experiment *e = between_log_and_sqrt(0.05, 5, 1);
	struct model_results *res = model_one_term(e, 8);
	struct advice a;
	assert_int_equal(model_advise(res, 0, 0, &a), -1);
	assert_non_null(strstr(a.note, "within the ladder"));
	model_results_free(res);
	experiment_free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(separates_two_rivals_beyond_the_ladder),
		cmocka_unit_test(no_advice_without_extrapolation_or_a_model),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
