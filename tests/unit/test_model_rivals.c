/*
 * test_model_rivals — the rivals that take the support of a prediction away are judged as the
 * search judges its own hypotheses: the neighbours of a multi-parameter model of the largest size
 * still compete (only an added term is out of reach), and a hypothesis the search would never
 * accept (a negligible term) vetoes nothing, whether it is found by walking every hypothesis of a
 * size or among a model's neighbours.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "model/neighbours.h"
#include "model/problem.h"
#include "model/search.h"

#define N 7
static const double ps[N] = {2, 4, 8, 16, 32, 64, 128};

static unsigned cand_index(const struct candidates *c, double i, double j)
{
	for (unsigned k = 0; k < c->n; k++)
		if (c->term[k].f[0].i == i && c->term[k].f[0].j == j)
			return k;
	fail_msg("no candidate p^%g log2(p)^%g", i, j);
	return 0;
}

/* 5 + 2 p reproduced exactly: every pair with p fits it exactly, the other term with a zero
 * coefficient, which the search rejects as negligible; an interval far below the truth makes any
 * such pair a rival were it admissible */
static void a_negligible_term_vetoes_nothing(void **state)
{
	(void)state;
	struct exponent_set es;
	exponents_default(&es);
	struct candidates c;
	candidates_from_exponents(&es, 1, 0, &c);
	double y[N], target = 64 * 128;
	for (int i = 0; i < N; i++)
		y[i] = 5 + 2 * ps[i];
	struct problem pr;
	struct problem_spec s = {.points = ps, .y = y, .n = N, .cand = &c, .target = &target, .relative_weights = true,
				 .eps_contrib = 5e-4};
	problem_init(&pr, &s);
	struct fit_work *w = fit_work_new(N);
	double truth = 5 + 2 * target;
	/* the single term p is admissible and predicts the truth: a rival below the interval */
	struct search_rival low = {.rss_limit = 1e-20, .lo = 10 * truth, .hi = 20 * truth, .factor = 3};
	double v = search_rival_of_size(&pr.fp, 1, &low, w);
	assert_true(fabs(v - truth) < 1e-6 * truth);
	/* every exact pair holds p and a negligible term: none is a rival */
	assert_true(isnan(search_rival_of_size(&pr.fp, 2, &low, w)));
	/* a pair the search accepts is found */
	struct hypothesis h = {.nterms = 2, .idx = {cand_index(&c, 0.5, 0), cand_index(&c, 1, 0)}};
	if (h.idx[0] > h.idx[1]) {
		unsigned t = h.idx[0];
		h.idx[0] = h.idx[1];
		h.idx[1] = t;
	}
	for (int i = 0; i < N; i++)
		y[i] = 5 + 3 * sqrt(ps[i]) + 2 * ps[i];
	fit_problem_set_values(&pr.fp, y);
	assert_true(search_admissible(&pr.fp, &h, w));
	v = search_rival_of_size(&pr.fp, 2, &low, w);
	assert_true(isfinite(v));
	fit_work_free(w);
	problem_free(&pr);
}

/* two parameters on a 5 x 5 grid (p = 2..32, n = 16..256), the values of a model of
 * PMNF_MAX_TERMS terms; a noise so large that every neighbour fits as well and an interval far
 * below the prediction: its moved terms are rivals, though no term can be added */
#define GRID 25
static double grid_pts[GRID * 2];

static void grid(void)
{
	for (int a = 0; a < 5; a++)
		for (int b = 0; b < 5; b++) {
			grid_pts[(a * 5 + b) * 2] = exp2(a + 1);
			grid_pts[(a * 5 + b) * 2 + 1] = 16 * exp2(b);
		}
}

/* the first rival among the neighbours of the model of `terms` fitted to its own values, with a
 * noise large or tiny, whose prediction lies more than 3x outside [lo, hi] times the model's */
static void neighbours_of(unsigned nterms, const struct pmnf_term *terms, bool noise_large, double lo, double hi,
			  double *found)
{
	grid();
	struct exponent_set es;
	exponents_default(&es);
	struct candidates c = {.nparams = 2};
	struct hypothesis best = {.constant = true, .nterms = nterms};
	double y[GRID];
	struct pmnf f = {.nparams = 2, .constant = 10, .nterms = nterms};
	for (unsigned k = 0; k < nterms; k++) {
		c.term[c.n] = terms[k];
		f.term[k] = terms[k];
		best.idx[k] = (unsigned)c.n++;
	}
	for (int i = 0; i < GRID; i++)
		y[i] = pmnf_eval(&f, grid_pts + 2 * i);
	double target[2] = {64 * 32, 256};
	struct problem_spec ps2 = {.points = grid_pts, .y = y, .n = GRID, .cand = &c, .target = target,
				   .relative_weights = true, .eps_contrib = 5e-4};
	struct problem pr;
	problem_init(&pr, &ps2);
	struct fit_work *w = fit_work_new(GRID);
	assert_true(fit_hypothesis(&pr.fp, &best, w));
	struct fit_critical cache = {0};
	double pred = search_prediction(&pr.fp, &best);
	struct neighbour_spec ns = {.problem = &ps2, .ysel = y, .exponents = &es, .best = &best,
				    .s2 = noise_large ? 1e6 : 1e-12, .dof = 20, .crit = 4, .critical = &cache, .w = w};
	*found = neighbour_rival_outside(&ns, lo * pred, hi * pred, 3.0);
	fit_work_free(w);
	problem_free(&pr);
}

static struct pmnf_term term2(double i, double j, double k, double l, double coef)
{
	struct pmnf_term t = {.coef = coef};
	t.f[0] = (struct pmnf_factor){i, j};
	t.f[1] = (struct pmnf_factor){k, l};
	return t;
}

static void full_size_models_have_neighbours(void **state)
{
	(void)state;
	struct pmnf_term t[PMNF_MAX_TERMS] = {
		term2(1, 0, 0, 0, 3),      term2(0, 0, 1, 0, 2),     term2(1, 0, 1, 0, 0.5),  term2(0, 1, 0, 0, 4),
		term2(0, 0, 0, 1, 6),      term2(1, 1, 0, 0, 0.7),   term2(0.5, 0, 0.5, 0, 1), term2(2, 0, 0, 0, 0.05),
	};
	double found;
	neighbours_of(PMNF_MAX_TERMS, t, true, 1e-6, 2e-6, &found);
	assert_true(isfinite(found));
	/* a noise that rules every neighbour out, and an interval holding all predictions: none */
	neighbours_of(PMNF_MAX_TERMS, t, false, 1e-30, 1e30, &found);
	assert_true(isnan(found));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_negligible_term_vetoes_nothing),
		cmocka_unit_test(full_size_models_have_neighbours),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
