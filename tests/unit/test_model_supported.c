/*
 * test_model_supported — the examples of what "supported" must mean, through the modeler alone:
 * the series whose fits chose tiny coefficients on high powers the ladder cannot see (p + p log p
 * at 10% noise on 7 rungs fitted as 49.47 + 2.013 p + 2.261e-05 p^3; c/p + d log p at 2% noise
 * fitted with a p^3 log^2 p tail) are never supported and off by more than 10x; deterministic
 * counts are integers from an exact law, not a curve through the rungs with a point interval;
 * three rungs give a model and an interval, not a refusal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include <gsl/gsl_multifit.h>
#include <gsl/gsl_rng.h>

#include "model/exact.h"
#include "model/modeler.h"
#include "model/support.h"
#include "synth.h"

#define SERIES 40

static struct pmnf_term term(double i, double j, double coef)
{
	struct pmnf_term t = {.coef = coef};
	t.f[0] = (struct pmnf_factor){i, j};
	return t;
}

static struct model_results *model_at(const struct experiment *e, const double *target)
{
	struct model_options o;
	model_options_init(&o);
	o.has_target = true;
	memcpy(o.target, target, e->nparams * sizeof *target);
	struct model_error err;
	struct model_results *res = model_experiment(e, &o, &err);
	if (!res)
		fail_msg("%s", err.msg);
	return res;
}

/* `series` noisy series of f on l (5 repetitions each, random numbers from seed), modeled at 64x
 * the largest rung: no supported prediction is off by more than 10x; returns how many were
 * supported */
static size_t no_supported_miss(const struct pmnf *f, const struct synth_ladder *l, double noise, int series,
				unsigned long seed)
{
	struct experiment *e = synth_experiment(l);
	size_t metric = experiment_intern_metric(e, "time");
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	for (int k = 0; k < series; k++) {
		char name[16];
		snprintf(name, sizeof name, "s%d", k);
		synth_measure(f, l, 5, noise, SYNTH_UNIFORM, rng, e, experiment_intern_callpath(e, name), metric);
	}
	double target[2];
	synth_target(l, 64, target);
	double truth = pmnf_eval(f, target);
	struct model_results *res = model_at(e, target);
	size_t supported = 0;
	for (int k = 0; k < series; k++) {
		const struct model_result *r = &res->r[model_index(res, (size_t)k, metric)];
		if (!r->prediction.supported)
			continue;
		supported++;
		double v = r->prediction.value, factor = v > 0 ? fmax(v / truth, truth / v) : INFINITY;
		if (factor > 10)
			fail_msg("series %d: supported prediction %g against %g at p = %g, model %s [%g, %g] (note: %s)", k, v,
				 truth, target[0], r->growth, r->prediction.lo, r->prediction.hi,
				 r->note);
	}
	model_results_free(res);
	experiment_free(e);
	gsl_rng_free(rng);
	return supported;
}

/* the two fitted models of the issue, judged on their 7-rung ladder (p = 2..128) at 64x */
static void high_power_tails_are_unconstrained(void **state)
{
	(void)state;
	double pts[7], y1[7], y2[7], target = 64 * 128, at, most;
	for (int i = 0; i < 7; i++) {
		pts[i] = exp2(i + 1);
		y1[i] = pts[i] + pts[i] * log2(pts[i]);      /* p + p log p */
		y2[i] = 120 / pts[i] + 4 * log2(pts[i]);     /* c/p + d log p */
	}
	struct pmnf cubic = {.nparams = 1, .constant = 49.47, .nterms = 2};
	cubic.term[0] = term(1, 0, 2.013);
	cubic.term[1] = term(3, 0, 2.261e-05);
	assert_int_equal(support_unconstrained_term(&cubic, pts, 7, &target, &at, &most), 1);
	assert_true(at > 0.99 && most < 0.2);
	struct support s;
	support_judge(&cubic, pts, y1, 7, &target, true, 2e6, 1.2e7, 0.95, NULL, &s);
	assert_false(s.supported);
	assert_non_null(strstr(s.why, "does not constrain"));

	struct pmnf tail = {.nparams = 1, .constant = 3.942, .nterms = 2};
	tail.term[0] = term(-2, 1, 56.94);
	tail.term[1] = term(3, 2, 5.835e-09);
	assert_int_equal(support_unconstrained_term(&tail, pts, 7, &target, &at, &most), 1);
	support_judge(&tail, pts, y2, 7, &target, true, 1e5, 2e5, 0.95, NULL, &s);
	assert_false(s.supported);

	/* the truth's own terms are constrained: p log p is most of p + p log p on every rung */
	struct pmnf right = {.nparams = 1, .nterms = 2};
	right.term[0] = term(1, 0, 1);
	right.term[1] = term(1, 1, 1);
	assert_int_equal(support_unconstrained_term(&right, pts, 7, &target, &at, &most), -1);
	double v = pmnf_eval(&right, &target);
	support_judge(&right, pts, y1, 7, &target, true, 0.9 * v, 1.1 * v, 0.95, NULL, &s);
	assert_true(s.supported);
}

/* c + 806/p + a p^2 + b p^2 log2(p) through the five rungs p = 12..192 (one rung checks its four
 * coefficients): not supported even where every rung agrees with it and its leave-one-out refits
 * agree (841/p + 0.0034 p log2(p)^2 + 6.1e-06 p^3 at 2% noise was fitted so, 23x low at 64x);
 * two checks support it */
static void one_rung_checks_no_model(void **state)
{
	(void)state;
	struct pmnf f = {.nparams = 1, .constant = 2.28, .nterms = 3};
	f.term[0] = term(-1, 0, 806.2);
	f.term[1] = term(2, 0, 7.367e-4);
	f.term[2] = term(2, 1, 1.835e-4);
	double pts[6], y[6], target = 64 * 192;
	for (int i = 0; i < 6; i++) {
		pts[i] = 12 * exp2(i);
		y[i] = pmnf_eval(&f, &pts[i]);
	}
	double v = pmnf_eval(&f, &target);
	struct support s;
	support_judge(&f, pts, y, 5, &target, true, 0.5 * v, 2 * v, 0.95, NULL, &s);
	assert_false(s.supported);
	assert_non_null(strstr(s.why, "check"));
	support_judge(&f, pts, y, 6, &target, true, 0.5 * v, 2 * v, 0.95, NULL, &s);
	assert_true(s.supported);
}

/* 173.2 p^(-1/2) + 0.009962 p log2(p) + 8.545e-07 p^3 measured exactly at p = 6..384: the beam
 * of the three-term stage never screened its own terms, and the model it chose (c + 101.8/p +
 * 91.08 log2(p)/p + 6.7e-06 p^2 log2(p)^2) was supported 15x low at 64x */
static void a_cubic_tail_the_beam_missed(void **state)
{
	(void)state;
	struct synth_ladder l;
	synth_ladder_geometric(&l, 6, 2, 7);
	struct pmnf f = {.nparams = 1, .nterms = 3};
	f.term[0] = term(-0.5, 0, 173.2);
	f.term[1] = term(1, 1, 0.009962);
	f.term[2] = term(3, 0, 8.545e-07);
	no_supported_miss(&f, &l, 0.0, 1, 1);
}

/* the leave-one-out range of support_loo_range (updates of one fit) is that of explicit refits */
static void leave_one_out_updates_are_refits(void **state)
{
	(void)state;
	struct pmnf f = {.nparams = 1, .constant = 3, .nterms = 2};
	f.term[0] = term(-1, 0, 40);
	f.term[1] = term(1, 1, 0.2);
	static const double noise[7] = {0.03, -0.02, 0.05, -0.04, 0.01, 0.02, -0.05};
	double pts[7], y[7], target = 64 * 128, lo = INFINITY, hi = -INFINITY;
	for (int i = 0; i < 7; i++) {
		pts[i] = exp2(i + 1);
		y[i] = pmnf_eval(&f, &pts[i]) * (1 + noise[i]);
	}
	double x0[3] = {1, 1 / target, target * log2(target)};
	for (int leave = 0; leave < 7; leave++) {
		gsl_matrix *x = gsl_matrix_alloc(6, 3), *cov = gsl_matrix_alloc(3, 3);
		gsl_vector *yy = gsl_vector_alloc(6), *w = gsl_vector_alloc(6), *c = gsl_vector_alloc(3);
		for (int i = 0, k = 0; i < 7; i++) {
			if (i == leave)
				continue;
			gsl_matrix_set(x, k, 0, 1);
			gsl_matrix_set(x, k, 1, 1 / pts[i]);
			gsl_matrix_set(x, k, 2, pts[i] * log2(pts[i]));
			gsl_vector_set(yy, k, y[i]);
			gsl_vector_set(w, k++, 1 / (y[i] * y[i]));
		}
		gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(6, 3);
		double chisq, pred = 0;
		assert_int_equal(gsl_multifit_wlinear(x, w, yy, c, cov, &chisq, ws), 0);
		for (int j = 0; j < 3; j++)
			pred += gsl_vector_get(c, j) * x0[j];
		lo = fmin(lo, pred);
		hi = fmax(hi, pred);
		gsl_multifit_linear_free(ws);
		gsl_matrix_free(x);
		gsl_matrix_free(cov);
		gsl_vector_free(yy);
		gsl_vector_free(w);
		gsl_vector_free(c);
	}
	double a, b;
	assert_true(support_loo_range(&f, pts, y, 7, &target, &a, &b));
	assert_true(hi > lo * 1.01);   /* the noise parts them: the test compares something */
	assert_true(fabs(a - lo) <= 1e-9 * fabs(lo) && fabs(b - hi) <= 1e-9 * fabs(hi));
}

/* the leave-one-out range of a model whose term c/p^k is held up by the smallest rung almost alone
 * (1 - h shrinks about as 4^-k): updates of one fit lose about as many digits as 1 - h has
 * leading zeros, so such a rung's fit is refitted; either way the range is that of explicit
 * refits (c/p^11 was 7e-10 off with updates down to 1 - h = 1e-8) */
static void a_rung_that_holds_a_term_alone_is_refitted(void **state)
{
	(void)state;
	static const double noise[7] = {0.03, -0.02, 0.05, -0.04, 0.01, 0.02, -0.05};
	for (double k = 8; k <= 12; k++) {
		struct pmnf f = {.nparams = 1, .constant = 3, .nterms = 2};
		f.term[0] = term(-k, 0, 40);
		f.term[1] = term(1, 1, 0.2);
		double pts[7], y[7], target = 64 * 128, lo = INFINITY, hi = -INFINITY;
		for (int i = 0; i < 7; i++) {
			pts[i] = exp2(i + 1);
			y[i] = pmnf_eval(&f, &pts[i]) * (1 + noise[i]);
		}
		for (int leave = 0; leave < 7; leave++) {
			gsl_matrix *x = gsl_matrix_alloc(6, 3), *cov = gsl_matrix_alloc(3, 3);
			gsl_vector *yy = gsl_vector_alloc(6), *w = gsl_vector_alloc(6), *c = gsl_vector_alloc(3);
			for (int i = 0, r = 0; i < 7; i++) {
				if (i == leave)
					continue;
				gsl_matrix_set(x, r, 0, 1);
				gsl_matrix_set(x, r, 1, pow(pts[i], -k));
				gsl_matrix_set(x, r, 2, pts[i] * log2(pts[i]));
				gsl_vector_set(yy, r, y[i]);
				gsl_vector_set(w, r++, 1 / (y[i] * y[i]));
			}
			gsl_multifit_linear_workspace *ws = gsl_multifit_linear_alloc(6, 3);
			double chisq;
			assert_int_equal(gsl_multifit_wlinear(x, w, yy, c, cov, &chisq, ws), 0);
			double pred = gsl_vector_get(c, 0) + gsl_vector_get(c, 1) * pow(target, -k) +
				      gsl_vector_get(c, 2) * target * log2(target);
			lo = fmin(lo, pred);
			hi = fmax(hi, pred);
			gsl_multifit_linear_free(ws);
			gsl_matrix_free(x);
			gsl_matrix_free(cov);
			gsl_vector_free(yy);
			gsl_vector_free(w);
			gsl_vector_free(c);
		}
		double a, b;
		assert_true(support_loo_range(&f, pts, y, 7, &target, &a, &b));
		if (!(fabs(a - lo) <= 1e-10 * fabs(lo) && fabs(b - hi) <= 1e-10 * fabs(hi)))
			fail_msg("c/p^%g: leave-one-out range [%.15g, %.15g], refits [%.15g, %.15g]", k, a, b, lo, hi);
	}
}

static void p_plus_p_log_p_at_ten_percent_noise(void **state)
{
	(void)state;
	struct synth_ladder l;
	synth_ladder_geometric(&l, 2, 2, 7);
	struct pmnf f = {.nparams = 1, .nterms = 2, .constant = 0};
	f.term[0] = term(1, 0, 1.0);
	f.term[1] = term(1, 1, 1.0);
	no_supported_miss(&f, &l, 0.10, SERIES, 33);
}

static void c_over_p_plus_log_p_at_two_percent_noise(void **state)
{
	(void)state;
	struct synth_ladder l;
	synth_ladder_geometric(&l, 2, 2, 7);
	struct pmnf f = {.nparams = 1, .nterms = 2};
	f.term[0] = term(-1, 0, 120.0);
	f.term[1] = term(0, 1, 4.0);
	no_supported_miss(&f, &l, 0.02, SERIES, 33);
}

static void constant_sqrt_and_square_hides_its_square(void **state)
{
	(void)state;
	/* 40 + 5 p^(1/2) + 0.004 p^2 at 5% noise on p = 4..64: the p^2 term is 16% of the largest
	 * rung and 96% of the value at 64x; models without it (49.4 + 0.176 p^(1/2) log2(p)^2, 40x
	 * low) fit the rungs within the noise, and so does a rival with it */
	struct synth_ladder l;
	synth_ladder_geometric(&l, 4, 2, 5);
	struct pmnf f = {.nparams = 1, .nterms = 2, .constant = 40};
	f.term[0] = term(0.5, 0, 5.0);
	f.term[1] = term(2, 0, 0.004);
	no_supported_miss(&f, &l, 0.05, 200, 1);
}

/* c + a p^i log2(p)^j n^k log2(n)^l with the product worth `share` of the value at the largest
 * point of the grid p = 3..48 x n = 32..512 */
/* 611.4/p + 0.0127 p^(3/2) + 7.062e-08 p^3 log2(p)^2 at 2% noise on p = 12..192: its p^3 tail is a
 * third of the largest rung, but fitted with a p^2 log2(p)^2 term standing in for both growing
 * terms every faster term's least-squares coefficient comes out negative (a fit so was supported
 * 32x low at 64x); the largest tail the noise allows widens the interval */
static void a_tail_the_noise_cannot_rule_out(void **state)
{
	(void)state;
	struct synth_ladder l;
	synth_ladder_geometric(&l, 12, 2, 5);
	struct pmnf f = {.nparams = 1, .nterms = 3};
	f.term[0] = term(-1, 0, 611.4);
	f.term[1] = term(1.5, 0, 0.0127);
	f.term[2] = term(3, 2, 7.062e-08);
	no_supported_miss(&f, &l, 0.02, SERIES, 6173);
}

/* 659.6 p^(-3/2) + 6.511e-05 p^(3/2) log2(p)^2 + 1.114e-08 p^3 log2(p)^2 at 2% noise on p = 5..320:
 * fitted as 0.8744 + 114.2 p^-2 + 573.3 p^-2 log2(p) + 2.719e-05 p^(5/2), a three-term model whose
 * size the search did not enumerate (its beam chose), so no faster tail was looked for: supported
 * 12x low at 64x, the truth 2.5x above its interval. */
static void a_tail_beyond_a_three_term_model(void **state)
{
	(void)state;
	struct synth_ladder l;
	synth_ladder_geometric(&l, 5, 2, 7);
	struct pmnf f = {.nparams = 1, .nterms = 3};
	f.term[0] = term(-1.5, 0, 659.6);
	f.term[1] = term(1.5, 2, 6.511e-05);
	f.term[2] = term(3, 2, 1.114e-08);
	no_supported_miss(&f, &l, 0.02, SERIES, 6173);
}

/* 41.8 + 1.41e-08 p log2(p) n^3 + 3.933e-06 p^3 log2(p) at 5% noise on p = 5..80 x n = 12..192:
 * fitted as 41.43 + 9.589e-09 n^3 log2(n)^2 + 2.29e-10 p^(3/2) log2(p)^2 n^3 + 0.0003085 p^2
 * log2(p), the p^3 log2(p) term's work done by a slower one the line search of p chose: supported
 * 33x low at 64x. The largest faster tail of its p^2 log2(p) term the noise allows widens the
 * interval. */
static void a_two_parameter_tail_the_noise_cannot_rule_out(void **state)
{
	(void)state;
	struct synth_ladder g;
	synth_ladder_grid(&g, 5, 2, 5, 12, 2, 5);
	struct pmnf f = {.nparams = 2, .nterms = 2, .constant = 41.8};
	f.term[0].coef = 1.41e-08;
	f.term[0].f[0] = (struct pmnf_factor){1, 1};
	f.term[0].f[1] = (struct pmnf_factor){3, 0};
	f.term[1].coef = 3.933e-06;
	f.term[1].f[0] = (struct pmnf_factor){3, 1};
	no_supported_miss(&f, &g, 0.05, SERIES, 9091);
}

static size_t grid_product_has_no_supported_miss(double i, double j, double k, double l, double share, double noise,
						 unsigned long seed)
{
	struct synth_ladder g;
	synth_ladder_grid(&g, 3, 2, 5, 32, 2, 5);
	struct pmnf f = {.nparams = 2, .nterms = 1, .constant = 100 * (1 - share)};
	f.term[0].f[0] = (struct pmnf_factor){i, j};
	f.term[0].f[1] = (struct pmnf_factor){k, l};
	double top[2] = {48, 512};
	f.term[0].coef = 1;
	f.term[0].coef = 100 * share / pmnf_term_basis(&f.term[0], 2, top);
	return no_supported_miss(&f, &g, noise, SERIES, seed);
}

/* Two-parameter products whose term carries another exponent of p than the model's (the search
 * only offers products of the factors the line searches chose): c + a p^3 log2(p)^2 n^(5/2)
 * log2(n)^2 at 5% noise fitted as c + a p^2 log2(p)^2 n^(5/2) log2(n), 68x low at 64x with an
 * interval of 5x; c + a p^(5/2) log2(p) n log2(n) at 10% fitted as c + a p^2 log2(p) n, 18x low;
 * c + a p^3 log2(p)^2 n^(5/2) at 10% fitted as c + a n^(3/2) log2(n)^2, without p at all. A
 * neighbour of the model fits the rungs as well and predicts far above the interval: none is
 * supported off by more than 10x. */
static void grid_products_with_high_powers_of_p(void **state)
{
	(void)state;
	grid_product_has_no_supported_miss(3, 2, 2.5, 2, 0.43, 0.05, 4242);
	grid_product_has_no_supported_miss(2.5, 1, 1, 1, 0.44, 0.10, 4243);
	grid_product_has_no_supported_miss(3, 2, 2.5, 0, 0.34, 0.10, 4244);
}

/* one count series, the same at every repetition */
static void add_count(struct experiment *e, const char *cp, const char *metric, const double *p, const double *v,
		      size_t n)
{
	size_t c = experiment_intern_callpath(e, cp), m = experiment_intern_metric(e, metric);
	for (size_t i = 0; i < n; i++) {
		double reps[3] = {v[i], v[i], v[i]};
		experiment_add_values(e, c, m, experiment_intern_point(e, &p[i]), reps, 3);
	}
}

static const struct model_result *find(const struct model_results *res, const char *cp, const char *metric)
{
	long c = experiment_find_callpath(res->e, cp), m = experiment_find_metric(res->e, metric);
	assert_true(c >= 0 && m >= 0);
	return &res->r[model_index(res, (size_t)c, (size_t)m)];
}

static void deterministic_counts_are_exact_integer_laws(void **state)
{
	(void)state;
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	/* a tree's visits, 1 + 2 ceil(log2 p), on rungs that are not powers of two: a PMNF curve
	 * through them predicts a fraction at 40 ranks (10.47), the law 13 */
	static const double p[] = {3, 6, 12, 24}, tree[] = {5, 7, 9, 11};
	add_count(e, "main/tree", "visits", p, tree, 4);
	/* partners that step with log2 of the 2-D grid's width: 2 + 2 ceil(log2 width) */
	static const double q[] = {4, 8, 16, 32, 64}, grid[] = {4, 6, 6, 8, 8};
	struct experiment *g = experiment_new();
	experiment_add_parameter(g, "p", NULL);
	add_count(g, "main/halo", "msgs_sent", q, grid, 5);

	struct model_results *res = model_at(e, (double[]){40});
	const struct model_result *r = find(res, "main/tree", "visits");
	assert_int_equal(r->status, MODEL_OK);
	assert_true(r->exact);
	assert_string_equal(r->law, "1 + 2*ceil(log2 p)");
	assert_true(r->prediction.value == 13);
	assert_true(r->prediction.supported && r->prediction.lo == 13 && r->prediction.hi == 13);
	model_results_free(res);

	res = model_at(g, (double[]){256});
	r = find(res, "main/halo", "msgs_sent");
	assert_true(r->exact && r->prediction.supported);
	assert_true(r->prediction.value == 10);   /* 16 x 16: 2 + 2 * 4 */
	model_results_free(res);
	experiment_free(e);
	experiment_free(g);
}

static void a_count_that_stopped_growing_supports_no_growing_law(void **state)
{
	(void)state;
	/* a 2-D halo's messages of the busiest rank on 1, 4, 9, 16 ranks: 0, 2, 4, 4 neighbours times
	 * 40 iterations; 40*ceil(log2 p) reproduces every rung and says 240 at 64, where the real run
	 * sends 160: the equal largest rungs make the prediction unsupported, the hull holds both */
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	static const double p[] = {1, 4, 9, 16}, msgs[] = {0, 80, 160, 160};
	add_count(e, "main/MPI_Isend", "msgs_sent", p, msgs, 4);
	struct model_results *res = model_at(e, (double[]){64});
	const struct model_result *r = find(res, "main/MPI_Isend", "msgs_sent");
	assert_true(r->exact);
	assert_false(r->prediction.supported);
	assert_true(r->prediction.lo <= 160 && r->prediction.hi >= 240);
	assert_non_null(strstr(r->note, "stopped growing"));
	model_results_free(res);
	experiment_free(e);
}

static void counts_no_law_reproduces_are_whole_numbers_with_a_width(void **state)
{
	(void)state;
	/* no exact law of the space reproduces these four rungs: the PMNF model's prediction is a
	 * whole number, and a curve that merely fits them has no point interval */
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	static const double p[] = {2, 4, 8, 16}, v[] = {3, 17, 19, 364};
	add_count(e, "main/odd", "visits", p, v, 4);
	struct model_results *res = model_at(e, (double[]){64});
	const struct model_result *r = find(res, "main/odd", "visits");
	assert_false(r->exact);
	if (model_status_has_function(r->status)) {
		assert_true(r->prediction.value == nearbyint(r->prediction.value));
		assert_true(!r->prediction.has_interval || r->prediction.lo < r->prediction.hi || !r->prediction.supported);
		assert_true(!r->prediction.has_interval || r->prediction.lo == floor(r->prediction.lo));
	}
	model_results_free(res);
	experiment_free(e);
}

static void three_rungs_give_a_model_with_an_interval(void **state)
{
	(void)state;
	/* powers of two, 4/8/16: a noisy time series and a count */
	struct synth_ladder l;
	synth_ladder_geometric(&l, 4, 2, 3);
	struct experiment *e = synth_experiment(&l);
	size_t metric = experiment_intern_metric(e, "time");
	struct pmnf f = {.nparams = 1, .nterms = 1, .constant = 10};
	f.term[0] = term(1, 0, 0.5);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	synth_measure(&f, &l, 5, 0.02, SYNTH_UNIFORM, rng, e, experiment_intern_callpath(e, "main/t"), metric);
	static const double p[] = {4, 8, 16}, v[] = {8, 16, 32};
	add_count(e, "main/c", "visits", p, v, 3);
	struct model_results *res = model_at(e, (double[]){1024});
	const struct model_result *r = find(res, "main/t", "time");
	assert_int_equal(r->status, MODEL_OK);
	assert_true(r->fn.nterms <= 1);
	assert_true(r->prediction.has_interval && r->prediction.lo < r->prediction.hi);
	r = find(res, "main/c", "visits");
	assert_int_equal(r->status, MODEL_OK);
	assert_true(r->exact && r->prediction.value == 2048);   /* 2 p, checked by one rung */
	model_results_free(res);

	/* cubes only, 1/8/27: the law of a cube code */
	struct experiment *c = experiment_new();
	experiment_add_parameter(c, "p", NULL);
	static const double cubes[] = {1, 8, 27}, faces[] = {7, 10, 13};
	add_count(c, "main/faces", "visits", cubes, faces, 3);
	res = model_at(c, (double[]){64});
	r = find(res, "main/faces", "visits");
	assert_int_equal(r->status, MODEL_OK);
	assert_true(r->exact && r->prediction.value == 16);   /* 4 + 3 cbrt(p) */
	assert_true(r->prediction.lo < r->prediction.hi);      /* one rung checks it: not a point */
	model_results_free(res);
	experiment_free(c);
	experiment_free(e);
	gsl_rng_free(rng);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(high_power_tails_are_unconstrained),
		cmocka_unit_test(one_rung_checks_no_model),
		cmocka_unit_test(a_cubic_tail_the_beam_missed),
		cmocka_unit_test(leave_one_out_updates_are_refits),
		cmocka_unit_test(a_rung_that_holds_a_term_alone_is_refitted),
		cmocka_unit_test(p_plus_p_log_p_at_ten_percent_noise),
		cmocka_unit_test(c_over_p_plus_log_p_at_two_percent_noise),
		cmocka_unit_test(constant_sqrt_and_square_hides_its_square),
		cmocka_unit_test(grid_products_with_high_powers_of_p),
		cmocka_unit_test(a_tail_the_noise_cannot_rule_out),
		cmocka_unit_test(a_tail_beyond_a_three_term_model),
		cmocka_unit_test(a_two_parameter_tail_the_noise_cannot_rule_out),
		cmocka_unit_test(deterministic_counts_are_exact_integer_laws),
		cmocka_unit_test(a_count_that_stopped_growing_supports_no_growing_law),
		cmocka_unit_test(counts_no_law_reproduces_are_whole_numbers_with_a_width),
		cmocka_unit_test(three_rungs_give_a_model_with_an_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
