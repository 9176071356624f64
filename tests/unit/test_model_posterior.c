/* Unit tests for model/posterior: the log posterior against its closed forms (many repetitions:
 * the known-variance likelihood; a misfit: its logarithm only; a subtracting term: the prior's
 * odds), the pooled noise estimate, and the selection on series whose answer is known: a
 * growing term, and a subtracting term the data demands (30 - 20/p), which the prior against
 * subtracting terms must not refuse; the averaged prediction (model/average): the median of the
 * most probable hypotheses, not pulled away by many lighter ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/average.h"
#include "model/posterior.h"
#include "model/problem.h"

static struct search_record one_term(double rss, double share)
{
	struct search_record h = {.nterms = 1, .idx = {3}, .rss = rss, .logdet = 1.5, .logpeak = -0.5};
	h.share[0] = share;
	return h;
}

static void many_repetitions_give_the_known_variance(void **state)
{
	struct search_record h[2] = {one_term(0.02, 0.4), one_term(0.05, 0.4)};
	struct posterior_noise z = {.s2 = 0.01, .dof = 1e8, .n = 7};
	double lw[2];
	posterior_log_weights(h, 2, 28, &z, lw);
	/* exp(-RSS / 2 s^2): 0.03 / 0.02 apart */
	assert_true(fabs((lw[0] - lw[1]) - 0.03 / (2 * 0.01)) < 1e-4);
}

static void a_misfit_costs_its_logarithm(void **state)
{
	struct search_record h[2] = {one_term(0.05, 0.4), one_term(5, 0.4)};
	struct posterior_noise z = {.s2 = 0.01, .dof = 10, .n = 7};
	double lw[2];
	posterior_log_weights(h, 2, 28, &z, lw);
	double a = (7 - 2 + 10) / 2.0, want = a * log((10 * 0.01 + 5) / (10 * 0.01 + 0.05));
	assert_true(fabs((lw[0] - lw[1]) - want) < 1e-9);
	assert_true(want < 0.2 * (5 - 0.05) / (2 * 0.01));   /* far less than with the variance known */
	/* the hypothesis' own noise estimate pools its residuals with the repetitions */
	assert_true(fabs(posterior_noise_var(&h[1], &z) - (10 * 0.01 + 5) / 15) < 1e-12);
}

static void a_subtracting_term_is_less_probable(void **state)
{
	struct search_record h[2] = {one_term(0.02, 0.3), one_term(0.02, -0.3)};
	struct posterior_noise z = {.s2 = 0.01, .dof = 28, .n = 7};
	double lw[2];
	posterior_log_weights(h, 2, 28, &z, lw);
	assert_true(fabs((lw[0] - lw[1]) - log((1 - POSTERIOR_NEGATIVE) / POSTERIOR_NEGATIVE)) < 1e-12);
}

/* the search over the model's default candidates on y (p = 2..128), with the relative noise
 * variance var of a point measured by dof degrees of freedom, and the posterior's selection */
static struct pmnf select_for(const double *y, double var, double dof)
{
	static const double ps[7] = {2, 4, 8, 16, 32, 64, 128};
	double target = 2048;
	struct exponent_set es;
	exponents_model_default(&es);
	struct candidates c;
	candidates_from_exponents(&es, 1, 0, &c);
	struct problem pr;
	struct problem_spec s = {.points = ps, .y = y, .n = 7, .cand = &c, .target = &target, .relative_weights = true,
				 .cv = FIT_CV_LOO, .eps_contrib = 5e-4, .rel_noise_var = var, .noise_dof = dof};
	problem_init(&pr, &s);
	struct search_options so;
	search_options_default(&so);
	static struct search_result r;
	struct fit_work *w = fit_work_new(7);
	assert_int_equal(search_best(&pr.fp, &so, &r, w), 0);
	assert_true(r.nrecords > 28);   /* every single term and the pairs were screened */
	assert_true(posterior_select(&pr.fp, &r, w));
	struct pmnf f;
	problem_function(&c, &r.best, &f);
	fit_work_free(w);
	problem_free(&pr);
	return f;
}

static void selects_what_the_data_shows(void **state)
{
	/* 10 + 2 log2 p within +-1% (a fixed pattern), the noise measured at 1% */
	static const double wobble[7] = {1.01, 0.99, 1.005, 0.995, 1.01, 0.99, 1.0};
	double y[7], z[7];
	for (int i = 0; i < 7; i++) {
		double p = (double)(2 << i);
		y[i] = (10 + 2 * log2(p)) * wobble[i];
		z[i] = (30 - 20 / p) * wobble[i];
	}
	struct pmnf f = select_for(y, 1e-4, 28);
	assert_int_equal(f.nterms, 1);
	assert_true(f.term[0].f[0].i == 0 && f.term[0].f[0].j == 1 && f.term[0].coef > 0);
	/* a subtracting term the data demands is selected: 30 - 20/p is no sum of costs growing with
	 * p, and no such sum fits it */
	f = select_for(z, 1e-4, 28);
	assert_int_equal(f.nterms, 1);
	assert_true(f.term[0].f[0].i == -1 && f.term[0].f[0].j == 0 && f.term[0].coef < 0);
	assert_true(fabs(f.constant - 30) < 1);
}

static void predicts_the_median_of_the_most_probable(void **state)
{
	/* three hypotheses alike but for their predictions (10, 20, 1000), and seven a little less
	 * probable each (a larger RSS: 0.69 of the weight) that predict 10^6 and hold more of the
	 * mass together: the whole mixture's median is theirs, the prediction the middle of the
	 * three */
	struct search_record h[10];
	static const double top[3] = {10, 20, 1000};
	for (size_t k = 0; k < 10; k++) {
		h[k] = one_term(k < 3 ? 1.0 : 1.1, 0.5);
		h[k].idx[0] = (unsigned)k;
		h[k].pred = k < 3 ? top[k] : 1e6;
		h[k].var0 = 1e-6;
	}
	struct posterior_noise z = {.s2 = 0.1, .dof = 10, .n = 7};
	struct average_spec s = {.h = h, .n = 10, .ncand = 28, .noise = z, .level = 0.95};
	double lw[10];
	posterior_log_weights(h, 10, 28, &z, lw);
	assert_true(fabs(exp(lw[3] - lw[0]) - 0.69) < 0.01);
	double value, lo, hi;
	assert_int_equal(average_prediction(&s, &value, &lo, &hi), 0);
	assert_true(fabs(value - 20) < 0.1);
	assert_true(lo < 11 && hi > 0.99e6);   /* the interval is the whole mixture's */
	/* no noise estimate: nothing to average */
	s.noise.s2 = 0;
	assert_int_equal(average_prediction(&s, &value, &lo, &hi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(many_repetitions_give_the_known_variance),
		cmocka_unit_test(a_misfit_costs_its_logarithm),
		cmocka_unit_test(a_subtracting_term_is_less_probable),
		cmocka_unit_test(selects_what_the_data_shows),
		cmocka_unit_test(predicts_the_median_of_the_most_probable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
