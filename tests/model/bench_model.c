/*
 * bench_model — the model benchmark: 1,000 call paths x 3 metrics x 7 rank counts x 5
 * repetitions modeled end to end (search, cross-validation, bootstrap intervals, wait-state
 * check), against two baselines measured in the same run: Extra-P's basic modeler behaviour (one
 * term + constant, mean of repetitions, unweighted least squares, leave-one-out SMAPE; our
 * stand-in for Extra-P, which is Python and cannot be installed here), and the fit of one fixed
 * hypothesis. Times are CPU seconds of this single-threaded process (the machine is shared, wall
 * time drifts with other load), medians of several runs. Then the accuracy of both modelers on the
 * synthetic test set with noise.
 *
 *   bench_model [--runs N] [--callpaths N] [--quick]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "model/modeler.h"
#include "model/problem.h"
#include "synth.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double median(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

/* time grows by a synthetic truth with 5% noise; bytes and visits are exact requirements */
static struct experiment *bench_experiment(size_t ncallpaths, const struct synth_ladder *l)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 1000);
	struct pmnf pool[300];
	size_t npool = synth_family_truths(SYNTH_ONE_TERM, l, rng, pool, 300);
	npool += synth_family_truths(SYNTH_TWO_TERMS, l, rng, pool + npool, 300 - npool);
	struct experiment *e = synth_experiment(l);
	size_t mt = experiment_intern_metric(e, "time"), mb = experiment_intern_metric(e, "bytes_sent"),
	       mv = experiment_intern_metric(e, "visits");
	for (size_t c = 0; c < ncallpaths; c++) {
		char name[64];
		snprintf(name, sizeof name, "main/kernel_%zu/MPI_Sendrecv", c);
		size_t cp = experiment_intern_callpath(e, name);
		synth_measure(&pool[c % npool], l, 5, 0.05, SYNTH_UNIFORM, rng, e, cp, mt);
		synth_measure(&pool[(c * 7) % npool], l, 5, 0.0, SYNTH_UNIFORM, rng, e, cp, mb);
		synth_measure(&pool[(c * 13) % npool], l, 5, 0.0, SYNTH_UNIFORM, rng, e, cp, mv);
	}
	gsl_rng_free(rng);
	return e;
}

static void basic_options(struct model_options *o)
{
	o->basic = true;
	o->aggregate = MODEL_AGG_MEAN;
	o->relative_weights = false;
	o->bootstrap = 0;
	exponents_default(&o->exponents);   /* as ladder model --basic */
}

static double time_modeler(const struct experiment *e, const struct model_options *o)
{
	struct model_error err;
	double t0 = now();
	struct model_results *r = model_experiment(e, o, &err);
	double t = now() - t0;
	if (!r) {
		fprintf(stderr, "bench_model: %s\n", err.msg);
		exit(1);
	}
	model_results_free(r);
	return t;
}

/* least squares of one fixed hypothesis (constant + p) per model, nothing else */
static double time_fixed_fit(const struct experiment *e, const struct synth_ladder *l)
{
	struct exponent_set es = {.n = 1, .f = {{1, 0}}};
	struct candidates c;
	candidates_from_exponents(&es, 1, 0, &c);
	struct fit_work *w = fit_work_new(l->npoints);
	double t0 = now(), y[SYNTH_MAX_POINTS], sink = 0;
	for (size_t cp = 0; cp < e->callpaths.n; cp++)
		for (size_t m = 0; m < e->metrics.n; m++) {
			for (size_t p = 0; p < e->npoints; p++) {
				const struct series *s = experiment_values(e, cp, m, p);
				y[p] = s->v[0];
			}
			struct problem pr;
			struct problem_spec ps = {.points = l->x, .y = y, .n = l->npoints, .cand = &c,
						  .relative_weights = true, .cv = FIT_CV_LOO};
			problem_init(&pr, &ps);
			struct hypothesis h = {.constant = true, .nterms = 1};
			fit_hypothesis(&pr.fp, &h, w);
			sink += h.c0;
			problem_free(&pr);
		}
	double t = now() - t0;
	fit_work_free(w);
	return sink == 12345.678 ? 0 : t;
}

struct accuracy {
	size_t n, leading, covered;
	double errs[2000], widths[2000];
};

static void score_family(enum synth_family fam, unsigned nparams, const struct model_options *o, unsigned seed,
			 enum synth_noise kind, struct accuracy *acc)
{
	struct synth_ladder l;
	synth_ladder_default(&l, nparams);
	struct pmnf truths[200];
	size_t nt, m = 0;
	struct experiment *e = synth_family_experiment(fam, nparams, seed, 5, 0.05, kind, truths, 200, &nt);
	struct model_options opt = *o;
	opt.has_target = true;
	synth_target(&l, 16, opt.target);
	if (fam == SYNTH_STRONG)
		exponents_parse("default;strong", &opt.exponents, NULL);
	struct model_error err;
	struct model_results *res = model_experiment(e, &opt, &err);
	for (size_t k = 0; res && k < nt; k++) {
		const struct model_result *r = &res->r[model_index(res, k, m)];
		double truth = pmnf_eval(&truths[k], opt.target);
		acc->leading += r->status == MODEL_OK && pmnf_same_leading(&r->fn, &truths[k]);
		acc->covered += r->prediction.has_interval && r->prediction.lo <= truth && truth <= r->prediction.hi;
		if (acc->n < 2000) {
			acc->errs[acc->n] = fabs(r->prediction.value - truth) / truth;
			acc->widths[acc->n] = (r->prediction.hi - r->prediction.lo) / truth;
		}
		acc->n++;
	}
	model_results_free(res);
	experiment_free(e);
}

static void report_accuracy(const char *name, const struct model_options *o, enum synth_noise kind, bool intervals)
{
	static const enum synth_family fams[] = {SYNTH_ONE_TERM, SYNTH_ONE_TERM_PURE, SYNTH_TWO_TERMS, SYNTH_STRONG,
						 SYNTH_TWO_PARAMS};
	printf("  %-32s", name);
	for (size_t f = 0; f < 5; f++) {
		struct accuracy acc = {0};
		for (unsigned seed = 0; seed < 3; seed++)
			score_family(fams[f], fams[f] == SYNTH_TWO_PARAMS ? 2 : 1, o, 500 + 10 * seed + (unsigned)f, kind, &acc);
		size_t k = acc.n < 2000 ? acc.n : 2000;
		double med = median(acc.errs, k);
		if (intervals)
			printf(" | %3.0f%% %4.0f%% %4.0f%% %5.2f", 100.0 * acc.leading / acc.n, 100 * med,
			       100.0 * acc.covered / acc.n, median(acc.widths, k));
		else
			printf(" | %3.0f%% %4.0f%%     -     -", 100.0 * acc.leading / acc.n, 100 * med);
	}
	printf("\n");
}

int main(int argc, char **argv)
{
	size_t runs = 5, ncallpaths = 1000;
	bool quick = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = (size_t)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--callpaths") && i + 1 < argc)
			ncallpaths = (size_t)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--quick"))
			quick = true;
		else {
			fprintf(stderr, "usage: bench_model [--runs N] [--callpaths N] [--quick]\n");
			return 2;
		}
	}
	struct synth_ladder l;
	synth_ladder_default(&l, 1);
	struct experiment *e = bench_experiment(ncallpaths, &l);
	size_t models = e->callpaths.n * e->metrics.n;
	struct model_options full, basic;
	model_options_init(&full);
	full.has_target = true;
	full.target[0] = 16 * 128;
	basic = full;
	basic_options(&basic);

	double tf[runs], tb[runs], tx[runs];
	for (size_t r = 0; r < runs; r++) {
		tf[r] = time_modeler(e, &full);
		tb[r] = time_modeler(e, &basic);
		tx[r] = time_fixed_fit(e, &l);
	}
	double mf = median(tf, runs), mb = median(tb, runs), mx = median(tx, runs);
	printf("model: %zu call paths x %zu metrics x %zu rank counts x 5 repetitions = %zu models, median of %zu runs\n",
	       e->callpaths.n, e->metrics.n, l.npoints, models, runs);
	printf("  %-44s %8.3f s CPU  %8.1f us/model\n", "ladder model (search + intervals, 1 core)", mf,
	       1e6 * mf / (double)models);
	printf("  %-44s %8.3f s CPU  %8.1f us/model  ladder model costs %.1fx this\n", "baseline: Extra-P basic behaviour", mb,
	       1e6 * mb / (double)models, mf / mb);
	printf("  %-44s %8.3f s CPU  %8.1f us/model  ladder model costs %.0fx this\n", "baseline: one fixed hypothesis fit", mx,
	       1e6 * mx / (double)models, mf / mx);
	printf("  goal < 1 s on one core: %s\n", mf < 1.0 ? "met" : "NOT met");
	experiment_free(e);
	if (quick)
		return 0;

	struct model_options mean = full;
	mean.aggregate = MODEL_AGG_MEAN;
	printf("accuracy at 5%% noise, 5 repetitions, 7 rank counts 2..128, target 16x the largest (three draws of each\n"
	       "family): leading term right, median relative error at the target, interval coverage, median interval\n"
	       "width / truth\n");
	printf("  %-32s | %-22s | %-22s | %-22s | %-22s | %-22s\n", "", "one term + const", "one term", "two terms",
	       "strong scaling", "two parameters");
	printf("uniform noise in [-5%%, +5%%]\n");
	report_accuracy("ladder model (median, default)", &full, SYNTH_UNIFORM, true);
	report_accuracy("ladder model, mean", &mean, SYNTH_UNIFORM, true);
	report_accuracy("Extra-P basic behaviour (mean)", &basic, SYNTH_UNIFORM, false);
	printf("gaussian noise, sd 5%%\n");
	report_accuracy("ladder model (median, default)", &full, SYNTH_GAUSSIAN, true);
	report_accuracy("Extra-P basic behaviour (mean)", &basic, SYNTH_GAUSSIAN, false);
	return 0;
}
