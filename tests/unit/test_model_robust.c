/* Unit tests for series the modeler used to get wrong with default options: many repetitions
 * (a GSL inverse that failed to converge aborted the process), identical repetitions (zero-width
 * intervals that excluded the truth), series with zeros (no hypothesis could be fitted),
 * constants (fitted as sqrt(p)), a model far off its data counted as modeled, strong scaling
 * c/p + d without noise (fitted by cancelling terms, 72,000x off at 16x), and a prediction far
 * beyond the ladder that the ladder cannot support (said in the note, not silently wrong). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_randist.h>

#include "model/critical.h"
#include "model/modeler.h"
#include "synth.h"

/* rank counts first, first*2, ... */
static struct experiment *ladder(double first, size_t npoints)
{
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	for (size_t k = 0; k < npoints; k++) {
		double p = first * (double)(1u << k);
		experiment_intern_point(e, &p);
	}
	experiment_intern_metric(e, "time");
	return e;
}

typedef double (*truth_fn)(double p);

/* reps repetitions of f(p) * (1 + U(-noise, noise)) at every point, for call path cp */
static void measure(struct experiment *e, const char *cp, truth_fn f, size_t reps, double noise, gsl_rng *rng)
{
	size_t c = experiment_intern_callpath(e, cp);
	for (size_t k = 0; k < e->npoints; k++) {
		double v[reps], p = experiment_point(e, k)[0];
		for (size_t r = 0; r < reps; r++)
			v[r] = f(p) * (1 + (rng ? gsl_ran_flat(rng, -noise, noise) : 0));
		experiment_add_values(e, c, 0, k, v, reps);
	}
}

static struct model_results *model(const struct experiment *e, double target)
{
	struct model_options o;
	model_options_init(&o);
	o.has_target = target > 0;
	o.target[0] = target;
	struct model_error err;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	return res;
}

static const struct model_result *result(const struct model_results *res, const char *cp)
{
	long c = experiment_find_callpath(res->e, cp);
	assert_true(c >= 0);
	return &res->r[model_index(res, (size_t)c, 0)];
}

static double linear(double p)
{
	return 2 + 0.1 * p;
}

static void quantiles_where_gsl_fails_to_converge(void **state)
{
	/* gsl_cdf_fdist_Qinv(0.05 / 20, 1, 620) does not converge; the fallback finds the quantile */
	double x = critical_f(0.05 / 20, 1, 620);
	assert_true(isfinite(x) && x > 8 && x < 10);
	assert_true(fabs(critical_f(0.05, 1, 10) - 4.9646) < 1e-3);
	assert_true(isnan(critical_f(0, 1, 10)));
}

static void many_repetitions_do_not_abort(void **state)
{
	/* 4 rungs x 156 repetitions: 620 degrees of freedom of the noise */
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	struct experiment *e = ladder(8, 4);
	measure(e, "main/solve", linear, 156, 0.05, rng);
	struct model_results *res = model(e, 1024);
	const struct model_result *r = result(res, "main/solve");
	assert_int_equal(r->status, MODEL_OK);
	assert_string_equal(r->growth, "p");
	assert_true(r->prediction.lo <= linear(1024) && linear(1024) <= r->prediction.hi);
	model_results_free(res);
	experiment_free(e);
	gsl_rng_free(rng);
}

static double almost_linear(double p)
{
	/* a little off the linear shape, so no model of the default space fits exactly */
	return 3 + 0.5 * p + (p == 16 ? 0.4 : 0);
}

static void identical_repetitions_give_an_interval(void **state)
{
	struct experiment *e = ladder(2, 6);
	measure(e, "main/solve", almost_linear, 5, 0, NULL);
	struct model_results *res = model(e, 1024);
	const struct model_result *r = result(res, "main/solve");
	assert_int_equal(r->status, MODEL_OK);
	assert_string_equal(r->growth, "p");
	assert_true(r->prediction.has_interval);
	/* the residuals tell how uncertain the model is: the interval has a width and holds the
	 * value of the shape the data follows */
	assert_true(r->prediction.hi > r->prediction.lo);
	assert_true(r->prediction.lo <= 3 + 0.5 * 1024 && 3 + 0.5 * 1024 <= r->prediction.hi);
	model_results_free(res);
	experiment_free(e);
}

static double halo_bytes(double p)
{
	return 5120 * log2(p);   /* no neighbours at p = 1 */
}

static double halo_messages(double p)
{
	return p == 1 ? 0 : 4;   /* none alone, four neighbours otherwise */
}

static void series_with_zeros_are_modeled(void **state)
{
	struct experiment *e = ladder(1, 6);
	measure(e, "halo/bytes", halo_bytes, 3, 0, NULL);
	measure(e, "halo/messages", halo_messages, 3, 0, NULL);
	struct model_results *res = model(e, 4096);
	const struct model_result *r = result(res, "halo/bytes");
	assert_int_equal(r->status, MODEL_OK);
	char buf[128];
	pmnf_format(&r->fn, (const char *const *)e->params, buf, sizeof buf);
	assert_string_equal(buf, "5120 * log2(p)");
	/* a step no term of the default space follows: modeled from the first non-zero rung */
	r = result(res, "halo/messages");
	assert_int_equal(r->status, MODEL_OK);
	assert_string_equal(r->growth, "constant");
	assert_true(fabs(r->prediction.value - 4) < 1e-9);
	assert_string_equal(r->note, "zero below p = 2, modeled from there on");
	model_results_free(res);
	experiment_free(e);
}

static double visits(double p)
{
	(void)p;
	return 400;
}

static double visits_rounded(double p)
{
	return p == 32 ? 401 : 400;   /* one rank visits once more at one rung */
}

static void constants_are_constants(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 3);
	struct experiment *e = ladder(2, 6);
	measure(e, "allreduce/visits", visits, 5, 0, NULL);
	measure(e, "allreduce/rounded", visits_rounded, 5, 0, NULL);
	measure(e, "allreduce/noisy", visits, 5, 0.02, rng);
	struct model_results *res = model(e, 4096);
	static const char *const cps[] = {"allreduce/visits", "allreduce/rounded", "allreduce/noisy"};
	for (size_t k = 0; k < 3; k++) {
		const struct model_result *r = result(res, cps[k]);
		assert_int_equal(r->status, MODEL_OK);
		assert_string_equal(r->growth, "constant");
		assert_true(fabs(r->prediction.value - 400) < 8);
	}
	model_results_free(res);
	experiment_free(e);
	gsl_rng_free(rng);
}

static double scattered(double p)
{
	static const double v[] = {1, 90, 3, 70, 2, 60, 5};
	return v[(size_t)log2(p) - 1];
}

static void models_far_off_their_data_are_not_modeled(void **state)
{
	/* no repetitions, so the noise test cannot tell; the values jump by 30x between rungs */
	struct experiment *e = ladder(2, 7);
	measure(e, "main/erratic", scattered, 1, 0, NULL);
	measure(e, "main/solve", linear, 1, 0, NULL);
	struct model_results *res = model(e, 4096);
	const struct model_result *r = result(res, "main/erratic");
	assert_int_equal(r->status, MODEL_POOR);
	assert_true(r->quality.smape > 50);
	assert_non_null(strstr(r->note, "misses"));
	assert_int_equal(result(res, "main/solve")->status, MODEL_OK);
	model_results_free(res);
	experiment_free(e);
}

static double strong(double p)
{
	return 5000 / p + 20;
}

static void strong_scaling_without_noise(void **state)
{
	/* the default options, no strong-scaling flag: c/p + d is found and predicted at 16x */
	struct experiment *e = ladder(2, 7);
	measure(e, "main/solve", strong, 5, 0, NULL);
	struct model_results *res = model(e, 16 * 128);
	const struct model_result *r = result(res, "main/solve");
	assert_int_equal(r->status, MODEL_OK);
	char buf[128];
	pmnf_format(&r->fn, (const char *const *)e->params, buf, sizeof buf);
	assert_string_equal(buf, "20 + 5000 * p^(-1)");
	assert_true(fabs(r->prediction.value / strong(2048) - 1) < 1e-6);
	model_results_free(res);

	/* without the decaying terms no model fits; terms that cancel each other are not taken for
	 * one (they were: 238.6 + 13.58 p^(1/2) log2(p)^2 - 68.41 p + 0.0072 p^(5/2), 72,000x off) */
	struct model_options o;
	model_options_init(&o);
	assert_int_equal(exponents_parse("default", &o.exponents, NULL), 0);
	o.has_target = true;
	o.target[0] = 2048;
	struct model_error err;
	res = model_experiment(e, &o, &err);
	r = &res->r[0];
	assert_int_equal(r->status, MODEL_POOR);
	for (unsigned k = 0; k < r->fn.nterms; k++)
		assert_true(r->fn.term[k].coef > 0);
	assert_true(r->prediction.value < 10 * strong(2048) && r->prediction.value > strong(2048) / 10);
	model_results_free(res);
	experiment_free(e);
}

static void cancelling_terms_are_not_a_fit(void **state)
{
	/* the model of the issue, as a hypothesis fitted to its own values: it fits them exactly,
	 * but its parts are 50x the value they add up to */
	double y[7], basis[3 * 7], sw[7], tss;
	static const struct pmnf_factor terms[3] = {{0.5, 2}, {1, 0}, {2.5, 0}};
	static const double coef[3] = {13.58, -68.41, 0.0072};
	for (size_t i = 0; i < 7; i++) {
		double p = (double)(2u << i);
		y[i] = 238.6;
		for (size_t k = 0; k < 3; k++) {
			basis[k * 7 + i] = pmnf_factor_eval(terms[k], p);
			y[i] += coef[k] * basis[k * 7 + i];
		}
	}
	fit_weights(7, y, true, sw, &tss);
	struct fit_problem fp = {.n = 7, .y = y, .sw = sw, .ncand = 3, .basis = basis, .tss = tss, .cv = FIT_CV_LOO};
	struct fit_work *w = fit_work_new(7);
	struct hypothesis h = {.nterms = 3, .constant = true, .idx = {0, 1, 2}};
	assert_false(fit_hypothesis(&fp, &h, w));
	/* two of its terms alone do not cancel */
	struct hypothesis small = {.nterms = 1, .constant = true, .idx = {1}};
	assert_true(fit_hypothesis(&fp, &small, w));
	fit_work_free(w);
}

static double late_cubic(double p)
{
	return 20 + 0.5 * log2(p) + 1e-5 * p * p * p;   /* the cubic term shows at the last rungs only */
}

static void risky_predictions_say_so(void **state)
{
	/* 10% noise on p = 4..64: within the ladder the model is sure, 64x beyond it the hypotheses
	 * that fit the rungs part by orders of magnitude, and the result says so */
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 5);
	struct experiment *e = ladder(4, 5);
	measure(e, "main/late", late_cubic, 5, 0.10, rng);
	measure(e, "main/exact", linear, 5, 0, NULL);
	struct model_results *res = model(e, 64);
	const struct model_result *r = result(res, "main/late");
	assert_int_equal(r->status, MODEL_OK);
	assert_true(r->prediction.supported && r->prediction.hi <= MODEL_SUPPORT_SPAN * r->prediction.lo);
	assert_null(strstr(r->note, "does not support"));
	model_results_free(res);
	res = model(e, 64 * 64);
	r = result(res, "main/late");
	assert_int_equal(r->status, MODEL_OK);
	assert_false(r->prediction.supported);
	assert_true(r->prediction.has_interval && !(r->prediction.hi <= MODEL_SUPPORT_SPAN * r->prediction.lo));
	assert_non_null(strstr(r->note, "the ladder does not support this prediction: its 95% interval "));
	/* exact data is reproduced exactly, however far */
	r = result(res, "main/exact");
	assert_true(r->prediction.supported && r->note[0] == 0);
	model_results_free(res);
	experiment_free(e);
	gsl_rng_free(rng);
}

static void supported_two_parameter_predictions_hold_the_truth(void **state)
{
	/* c + a p^(3/4) n^(1/2) log2 n lies outside the candidate space: along p the search bends
	 * p^(1/2) log p up with a tiny fast term fitted to the largest rungs, which 64x beyond the
	 * ladder is orders of magnitude off; the rivals that do not bend must widen the interval
	 * until it holds the truth or the ladder says it does not support the prediction */
	struct synth_ladder l;
	synth_ladder_grid(&l, 4, 2, 5, 8, 2, 5);
	struct pmnf f = {.nparams = 2, .nterms = 1, .constant = 20};
	f.term[0] = (struct pmnf_term){.coef = 0.0445, .f = {{0.75, 0}, {0.5, 1}}};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct experiment *e = synth_experiment(&l);
	size_t metric = experiment_intern_metric(e, "time"), supported = 0;
	enum { SERIES = 12 };
	for (size_t k = 0; k < SERIES; k++) {
		char name[16];
		snprintf(name, sizeof name, "f%zu", k);
		synth_measure(&f, &l, 5, 0.02, SYNTH_UNIFORM, rng, e, experiment_intern_callpath(e, name), metric);
	}
	struct model_options o;
	model_options_init(&o);
	o.has_target = true;
	synth_target(&l, 64, o.target);
	double truth = pmnf_eval(&f, o.target);
	struct model_error err;
	struct model_results *res = model_experiment(e, &o, &err);
	assert_non_null(res);
	for (size_t k = 0; k < SERIES; k++) {
		const struct model_prediction *p = &res->r[model_index(res, k, metric)].prediction;
		if (!p->supported)
			continue;
		supported++;
		assert_true(p->lo <= truth && truth <= p->hi);
	}
	assert_true(supported > 0);
	model_results_free(res);
	experiment_free(e);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quantiles_where_gsl_fails_to_converge),
		cmocka_unit_test(many_repetitions_do_not_abort),
		cmocka_unit_test(identical_repetitions_give_an_interval),
		cmocka_unit_test(series_with_zeros_are_modeled),
		cmocka_unit_test(constants_are_constants),
		cmocka_unit_test(models_far_off_their_data_are_not_modeled),
		cmocka_unit_test(strong_scaling_without_noise),
		cmocka_unit_test(cancelling_terms_are_not_a_fit),
		cmocka_unit_test(risky_predictions_say_so),
		cmocka_unit_test(supported_two_parameter_predictions_hold_the_truth),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
