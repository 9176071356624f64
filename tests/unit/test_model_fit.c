/* Unit tests for model/fit and model/search: least squares against known answers, the
 * leave-one-out shortcut against refitting without each point, k-fold against explicit refits,
 * the screening update against a full fit, the bootstrap operators against the fit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/problem.h"
#include "model/fit_screen.h"
#include "model/search.h"

#define N 7
static const double ps[N] = {2, 4, 8, 16, 32, 64, 128};
/* a slightly noisy 5 + 0.3 p log p */
static const double wobble[N] = {1.01, 0.98, 1.02, 0.99, 1.015, 0.995, 1.005};

static void values(double *y)
{
	for (int i = 0; i < N; i++)
		y[i] = (5 + 0.3 * ps[i] * log2(ps[i])) * wobble[i];
}

static void setup(struct problem *pr, struct candidates *c, const double *pts, const double *y, size_t n,
		  enum fit_cv cv, unsigned k)
{
	struct exponent_set es;
	exponents_default(&es);
	candidates_from_exponents(&es, 1, 0, c);
	struct problem_spec s = {.points = pts, .y = y, .n = n, .cand = c, .relative_weights = true, .cv = cv, .kfold = k};
	problem_init(pr, &s);
}

/* the noisy values, their problem over the default candidates, and a workspace */
struct fixture {
	double y[N];
	struct problem pr;
	struct candidates c;
	struct fit_work *w;
};

static void open_fixture(struct fixture *f, enum fit_cv cv, unsigned k)
{
	values(f->y);
	setup(&f->pr, &f->c, ps, f->y, N, cv, k);
	f->w = fit_work_new(N);
}

static void close_fixture(struct fixture *f)
{
	fit_work_free(f->w);
	problem_free(&f->pr);
}

static unsigned cand_index(const struct candidates *c, double i, double j)
{
	for (unsigned k = 0; k < c->n; k++)
		if (c->term[k].f[0].i == i && c->term[k].f[0].j == j)
			return k;
	fail();
	return 0;
}

/* the relative error of predicting point `out` from a fit without it */
static double refit_without(const struct candidates *c, const struct hypothesis *h, const double *y, int out,
			    struct fit_work *w)
{
	double pts[N], yy[N];
	size_t n = 0;
	for (int i = 0; i < N; i++)
		if (i != out) {
			pts[n] = ps[i];
			yy[n++] = y[i];
		}
	struct problem pr;
	struct problem_spec s = {.points = pts, .y = yy, .n = n, .cand = c, .relative_weights = true, .cv = FIT_CV_LOO};
	problem_init(&pr, &s);
	/* weights are fixed by the full data: 1/y; refitting with the subset's own weights is the same */
	struct hypothesis g = *h;
	assert_true(fit_hypothesis(&pr.fp, &g, w));
	double pred = g.c0;
	for (unsigned k = 0; k < g.nterms; k++)
		pred += g.coef[k] * pmnf_term_basis(&c->term[g.idx[k]], 1, &ps[out]);
	problem_free(&pr);
	return (y[out] - pred) / y[out];
}

static void fits_an_exact_function(void **state)
{
	double y[N];
	for (int i = 0; i < N; i++)
		y[i] = 5 + 0.3 * ps[i] * log2(ps[i]);
	struct problem pr;
	struct candidates c;
	setup(&pr, &c, ps, y, N, FIT_CV_LOO, 0);
	struct fit_work *w = fit_work_new(N);
	struct hypothesis h = {.constant = true, .nterms = 1, .idx = {cand_index(&c, 1, 1)}};
	assert_true(fit_hypothesis(&pr.fp, &h, w));
	assert_true(fabs(h.c0 - 5) < 1e-10 && fabs(h.coef[0] - 0.3) < 1e-12);
	assert_true(h.cv < 1e-24 && h.ar2 > 0.999999);
	struct search_options so;
	search_options_default(&so);
	struct search_result r;
	assert_int_equal(search_best(&pr.fp, &so, &r, w), 0);
	assert_int_equal(r.best.nterms, 1);
	assert_int_equal(r.best.idx[0], cand_index(&c, 1, 1));
	fit_work_free(w);
	problem_free(&pr);
}

static void leave_one_out_matches_refitting(void **state)
{
	struct fixture fx;
	open_fixture(&fx, FIT_CV_LOO, 0);
	double *y = fx.y;
	struct candidates *c = &fx.c;
	struct fit_work *w = fx.w;
	struct hypothesis h = {.constant = true, .nterms = 2, .idx = {cand_index(c, 0, 1), cand_index(c, 1, 1)}};
	assert_true(fit_hypothesis(&fx.pr.fp, &h, w));
	double sq = 0;
	for (int i = 0; i < N; i++) {
		double r = refit_without(c, &h, y, i, w);
		sq += r * r;
	}
	assert_true(fabs(h.cv - sq / N) < 1e-9 * (sq / N));
	/* and the bootstrap's operators reproduce the fit and the same residuals */
	struct fit_ops ops;
	double x0[CANDIDATES_MAX], target = 2048;
	candidates_basis(c, &target, 1, x0);
	assert_int_equal(fit_operators(&fx.pr.fp, &h, x0, &ops, w), 0);
	double pred = 0, want = h.c0 + h.coef[0] * log2(target) + h.coef[1] * target * log2(target), cvsq = 0;
	for (int i = 0; i < N; i++)
		pred += ops.g[i] * y[i];
	assert_true(fabs(pred - want) < 1e-9 * want);
	for (int i = 0; i < N; i++) {
		double r = 0;
		for (int j = 0; j < N; j++)
			r += ops.cvop[i * N + j] * fx.pr.fp.sw[j] * y[j];
		cvsq += r * r;
	}
	assert_true(fabs(cvsq / N - h.cv) < 1e-9 * h.cv);
	fit_ops_free(&ops);
	close_fixture(&fx);
}

static void kfold_matches_explicit_folds(void **state)
{
	struct fixture fx;
	open_fixture(&fx, FIT_CV_KFOLD, 3);
	double *y = fx.y;
	struct candidates *c = &fx.c;
	struct fit_work *w = fx.w;
	/* adjacent points go to different folds */
	for (int i = 0; i < N; i++)
		assert_int_equal(fx.pr.fp.fold[i], i % 3);
	struct hypothesis h = {.constant = true, .nterms = 1, .idx = {cand_index(c, 1, 1)}};
	assert_true(fit_hypothesis(&fx.pr.fp, &h, w));
	double sq = 0;
	for (unsigned f = 0; f < 3; f++) {
		double pts[N], yy[N];
		size_t n = 0;
		for (int i = 0; i < N; i++)
			if (i % 3 != (int)f) {
				pts[n] = ps[i];
				yy[n++] = y[i];
			}
		struct problem sub;
		struct problem_spec s = {.points = pts, .y = yy, .n = n, .cand = c, .relative_weights = true, .cv = FIT_CV_LOO};
		problem_init(&sub, &s);
		/* the fold's fit uses the full data's weights */
		for (size_t i = 0, k = 0; i < N; i++)
			if (i % 3 != f)
				sub.sw[k++] = fx.pr.fp.sw[i];
		struct hypothesis g = h;
		assert_true(fit_hypothesis(&sub.fp, &g, w));
		for (int i = 0; i < N; i++)
			if (i % 3 == (int)f) {
				double pred = g.c0 + g.coef[0] * ps[i] * log2(ps[i]);
				sq += (y[i] - pred) / y[i] * ((y[i] - pred) / y[i]);
			}
		problem_free(&sub);
	}
	assert_true(fabs(h.cv - sq / N) < 1e-9 * (sq / N));
	close_fixture(&fx);
}

/* the prediction at the target of h fitted in full, and x0 (X^T W X)^-1 x0 from its operators */
static void full_prediction(const struct fixture *fx, const struct hypothesis *h, double *pred, double *var)
{
	struct fit_ops ops;
	assert_int_equal(fit_operators(&fx->pr.fp, h, fx->pr.x0, &ops, fx->w), 0);
	*pred = *var = 0;
	for (int i = 0; i < N; i++) {
		*pred += ops.g[i] * fx->y[i];
		/* g = sw * (row of the solution operator applied to x0): var = sum (g_i / sw_i)^2 */
		*var += (ops.g[i] / fx->pr.fp.sw[i]) * (ops.g[i] / fx->pr.fp.sw[i]);
	}
	fit_ops_free(&ops);
}

static void screening_update_matches_full_fit(void **state)
{
	struct fixture fx;
	open_fixture(&fx, FIT_CV_LOO, 0);
	struct candidates *c = &fx.c;
	struct fit_work *w = fx.w;
	struct hypothesis base = {.constant = true, .nterms = 1, .idx = {cand_index(c, 0.5, 0)}};
	double q[(PMNF_MAX_TERMS + 1) * N], res[N];
	struct fit_base fb = {.q = q, .res = res};
	assert_true(fit_base_init(&fx.pr.fp, &base, &fb));
	assert_int_equal(fb.m, 2);
	for (unsigned k = 0; k < c->n; k++) {
		if (k == base.idx[0])
			continue;
		struct hypothesis h = {.constant = true, .nterms = 2, .idx = {base.idx[0] < k ? base.idx[0] : k, base.idx[0] < k ? k : base.idx[0]}};
		struct fit_extension x;
		assert_true(fit_extend(&fx.pr.fp, &fb, k, &x));
		fit_hypothesis(&fx.pr.fp, &h, w);
		assert_true(fabs(x.rss - h.rss) <= 1e-8 * fb.rss);
		/* the prediction at the target (the largest point here) and its variance factor */
		double pred, var;
		full_prediction(&fx, &h, &pred, &var);
		assert_true(fabs(x.pred[0] - pred) <= 1e-8 * fabs(pred));
		assert_true(fabs(x.var0 - var) <= 1e-8 * var);
	}
	close_fixture(&fx);
}

static void rejects_what_cannot_be_fitted(void **state)
{
	struct fixture fx;
	open_fixture(&fx, FIT_CV_LOO, 0);
	struct candidates *c = &fx.c;
	struct fit_work *w = fx.w;
	/* as many coefficients as points: nothing left to validate with */
	struct hypothesis h = {.constant = true, .nterms = 7};
	for (unsigned k = 0; k < 7; k++)
		h.idx[k] = k;
	assert_false(fit_hypothesis(&fx.pr.fp, &h, w));
	/* a term that only fits noise (its contribution is negligible) */
	double flat[N];
	for (int i = 0; i < N; i++)
		flat[i] = 10 * wobble[i];
	struct problem fp;
	struct problem_spec s = {.points = ps, .y = flat, .n = N, .cand = c, .relative_weights = true, .cv = FIT_CV_LOO,
				 .eps_contrib = 0.5};
	problem_init(&fp, &s);
	struct hypothesis g = {.constant = true, .nterms = 1, .idx = {cand_index(c, 3, 2)}};
	assert_false(fit_hypothesis(&fp.fp, &g, w));
	problem_free(&fp);
	close_fixture(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fits_an_exact_function),
		cmocka_unit_test(leave_one_out_matches_refitting),
		cmocka_unit_test(kfold_matches_explicit_folds),
		cmocka_unit_test(screening_update_matches_full_fit),
		cmocka_unit_test(rejects_what_cannot_be_fitted),
	};
	return cmocka_run_group_tests_name("model_fit", tests, NULL, NULL);
}
