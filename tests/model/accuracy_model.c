/*
 * accuracy_model — how far the models of ladder model can be trusted beyond the measured range,
 * on a synthetic set of known scaling functions, with default options beside Extra-P's basic
 * modeler behaviour (--basic):
 *
 *   one parameter, ladders of 5 (p = 4..64) and 7 (p = 2..128) rungs:
 *     one term + constant       c0 + c t(p), every term t of the default space
 *     two terms + constant      c0 + a t1(p) + b t2(p), every fourth pair of the default space
 *     strong scaling            c/p + d, c/p + d log2 p, c/p + d p, c/p^(1/2) + d, c/p^2 + d,
 *                               c/p + d p^(1/2), three draws of the coefficients each
 *   two parameters, p = 2..32 x n = 16..256:
 *     products and sums         every third function of the two-parameter family of synth.h
 *   noise 0, 2, 5, 10% (uniform, multiplicative), 5 repetitions; predictions at 16x and 64x the
 *   largest rank count (the largest n).
 *
 * Reported per noise level and overall: how often the leading term is right, the median and
 * 90th-percentile relative error of the prediction at 16x and 64x, the largest error factor
 * (max(pred/truth, truth/pred)), how many predictions are off by more than 10x, and the rank
 * correlation (Spearman) between predicted and true values at 64x, which is what a ranking of
 * kernels needs. ACCURACY_WORST=N lists the N worst predictions of the default options.
 *
 *   accuracy_model [--quick]     --quick: noise 5% only, 7-rung ladder only
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "model/modeler.h"
#include "synth.h"

#define MAX_CASES 4096
#define NOISES 4
static const double noise_levels[NOISES] = {0, 0.02, 0.05, 0.10};

/* one modeled series: its truth, what was predicted, at 16x and 64x */
struct outcome {
	double truth[2], pred[2];
	bool has_interval[2], covered[2];
	double width[2];            /* (hi - lo) / truth */
	bool leading, has_function;
	char model[160], want[160];
	double noise;
	int family;
	size_t rungs;               /* of the ladder (along p) */
};

enum { F_ONE, F_TWO, F_STRONG, F_PARAMS, FAMILIES };
static const char *const family_names[FAMILIES] = {"one term + constant", "two terms + constant", "strong scaling",
						   "two parameters"};

struct tally {
	size_t n;
	struct outcome *o;
};

static struct pmnf_term term1(double i, double j, double coef)
{
	struct pmnf_term t = {.coef = coef};
	t.f[0] = (struct pmnf_factor){i, j};
	return t;
}

/* strong-scaling shapes: c / p^i + d g(p) with the decaying term at 60-90% of the smallest
 * rung's value and the growing one at 30-60% of the level at the largest */
static size_t strong_truths(const struct synth_ladder *l, gsl_rng *rng, struct pmnf *out)
{
	static const struct {
		double decay;
		struct pmnf_factor grow;   /* (0, 0): none, a constant d */
	} shapes[] = {{-1, {0, 0}}, {-1, {0, 1}}, {-1, {1, 0}}, {-0.5, {0, 0}}, {-2, {0, 0}}, {-1, {0.5, 0}}};
	double first = l->x[0], last = l->x[(l->npoints - 1) * l->nparams];
	size_t n = 0;
	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
		for (int draw = 0; draw < 3; draw++) {
			struct pmnf f = {.nparams = 1, .nterms = 1};
			double level = 100;
			f.term[0] = term1(shapes[s].decay, 0, level * gsl_ran_flat(rng, 0.6, 0.9) / pow(first, shapes[s].decay));
			f.constant = level * gsl_ran_flat(rng, 0.05, 0.2);
			if (!pmnf_factor_is_one(shapes[s].grow)) {
				struct pmnf_term g = term1(shapes[s].grow.i, shapes[s].grow.j, 1);
				g.coef = level * gsl_ran_flat(rng, 0.3, 0.6) / pmnf_term_basis(&g, 1, &last);
				f.term[f.nterms++] = g;
			}
			out[n++] = f;
		}
	return n;
}

/* the functions of one ladder: every one term, every fourth pair, the strong shapes (one
 * parameter); every third two-parameter function */
static size_t truths_for(const struct synth_ladder *l, gsl_rng *rng, struct pmnf *out, int *family, size_t cap)
{
	struct pmnf all[256];
	size_t n = 0;
	if (l->nparams == 2) {
		size_t k = synth_family_truths(SYNTH_TWO_PARAMS, l, rng, all, 256);
		for (size_t i = 0; i < k && n < cap; i += 3) {
			family[n] = F_PARAMS;
			out[n++] = all[i];
		}
		return n;
	}
	n = synth_family_truths(SYNTH_ONE_TERM, l, rng, out, cap);
	for (size_t i = 0; i < n; i++)
		family[i] = F_ONE;
	size_t k = synth_family_truths(SYNTH_TWO_TERMS, l, rng, all, 256);
	for (size_t i = 0; i < k && n < cap; i += 4) {
		family[n] = F_TWO;
		out[n++] = all[i];
	}
	if (n + 32 <= cap) {
		size_t s = strong_truths(l, rng, out + n);
		for (size_t i = 0; i < s; i++)
			family[n++] = F_STRONG;
	}
	return n;
}

static void basic_options(struct model_options *o)
{
	o->basic = true;
	o->aggregate = MODEL_AGG_MEAN;
	o->relative_weights = false;
	o->bootstrap = 0;
	exponents_default(&o->exponents);   /* as ladder model --basic */
}

/* model the truths measured on l with noise, predict at 16x and 64x, append the outcomes */
static void run_ladder(const struct synth_ladder *l, double noise, bool basic, unsigned long seed, struct tally *t)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, seed);
	struct pmnf truths[256];
	int family[256];
	size_t n = truths_for(l, rng, truths, family, 256);
	struct experiment *e = synth_experiment(l);
	size_t metric = experiment_intern_metric(e, "time");
	for (size_t k = 0; k < n; k++) {
		char name[32];
		snprintf(name, sizeof name, "f%zu", k);
		synth_measure(&truths[k], l, 5, noise, SYNTH_UNIFORM, rng, e, experiment_intern_callpath(e, name), metric);
	}
	static const double factors[2] = {16, 64};
	struct model_results *res[2];
	for (int f = 0; f < 2; f++) {
		struct model_options o;
		model_options_init(&o);
		if (basic)
			basic_options(&o);
		o.has_target = true;
		synth_target(l, factors[f], o.target);
		struct model_error err;
		res[f] = model_experiment(e, &o, &err);
		if (!res[f]) {
			fprintf(stderr, "accuracy_model: %s\n", err.msg);
			exit(1);
		}
	}
	const char *names[] = {"p", "n"};
	for (size_t k = 0; k < n && t->n < MAX_CASES; k++) {
		struct outcome *o = &t->o[t->n++];
		memset(o, 0, sizeof *o);
		o->noise = noise;
		o->family = family[k];
		o->rungs = l->nparams == 1 ? l->npoints : 5;
		for (int f = 0; f < 2; f++) {
			const struct model_result *r = &res[f]->r[model_index(res[f], k, metric)];
			o->truth[f] = pmnf_eval(&truths[k], res[f]->target);
			o->has_function = model_status_has_function(r->status);
			o->pred[f] = o->has_function ? r->prediction.value : NAN;
			o->has_interval[f] = o->has_function && r->prediction.has_interval;
			/* an exact prediction's interval has no width: rounding is no miss */
			o->covered[f] = o->has_interval[f] && r->prediction.lo * (1 - 1e-9) <= o->truth[f] &&
					o->truth[f] <= r->prediction.hi * (1 + 1e-9);
			o->width[f] = o->has_interval[f] ? (r->prediction.hi - r->prediction.lo) / o->truth[f] : NAN;
			if (f == 1) {
				o->leading = r->status == MODEL_OK && pmnf_same_leading(&r->fn, &truths[k]);
				pmnf_format(&r->fn, names, o->model, sizeof o->model);
			}
		}
		pmnf_format(&truths[k], names, o->want, sizeof o->want);
	}
	for (int f = 0; f < 2; f++)
		model_results_free(res[f]);
	experiment_free(e);
	gsl_rng_free(rng);
}

static double rel_error(const struct outcome *o, int f)
{
	return isfinite(o->pred[f]) ? fabs(o->pred[f] - o->truth[f]) / fabs(o->truth[f]) : INFINITY;
}

static double error_factor(const struct outcome *o, int f)
{
	if (!(o->pred[f] > 0))
		return INFINITY;
	return fmax(o->pred[f] / o->truth[f], o->truth[f] / o->pred[f]);
}

struct figures {
	size_t n, leading, beyond10, intervals, covered[2];
	double med[2], p90[2], maxfactor, spearman, width64;
};

/* the outcomes at one noise level (all: noise < 0), of one family (all: family < 0) and one
 * ladder length (all: 0) */
static struct figures figures_of(const struct tally *t, double noise, int family, size_t rungs)
{
	struct figures g = {0};
	double *err[2] = {malloc((t->n + 1) * sizeof(double)), malloc((t->n + 1) * sizeof(double))};
	double *pred = malloc((t->n + 1) * sizeof(double)), *truth = malloc((t->n + 1) * sizeof(double));
	double *work = malloc(2 * (t->n + 1) * sizeof(double));
	for (size_t k = 0; k < t->n; k++) {
		const struct outcome *o = &t->o[k];
		if ((noise >= 0 && o->noise != noise) || (family >= 0 && o->family != family) || (rungs && o->rungs != rungs))
			continue;
		for (int f = 0; f < 2; f++)
			err[f][g.n] = rel_error(o, f);
		pred[g.n] = isfinite(o->pred[1]) ? o->pred[1] : 0;
		if (o->has_interval[1]) {
			work[g.intervals++] = o->width[1];
			g.covered[0] += o->covered[0];
			g.covered[1] += o->covered[1];
		}
		truth[g.n] = o->truth[1];
		g.leading += o->leading;
		double worst = fmax(error_factor(o, 0), error_factor(o, 1));
		g.maxfactor = fmax(g.maxfactor, worst);
		g.beyond10 += worst > 10;
		g.n++;
	}
	for (int f = 0; f < 2; f++) {
		gsl_sort(err[f], 1, g.n);
		g.med[f] = gsl_stats_median_from_sorted_data(err[f], 1, g.n);
		g.p90[f] = gsl_stats_quantile_from_sorted_data(err[f], 1, g.n, 0.9);
	}
	if (g.intervals) {
		gsl_sort(work, 1, g.intervals);
		g.width64 = gsl_stats_median_from_sorted_data(work, 1, g.intervals);
	}
	g.spearman = gsl_stats_spearman(pred, 1, truth, 1, g.n, work);
	free(err[0]);
	free(err[1]);
	free(pred);
	free(truth);
	free(work);
	return g;
}

static void print_row(const char *label, const char *modeler, const struct figures *g)
{
	printf("%-6s %-8s %5zu %7.1f%% %8.3g %8.3g %8.3g %8.3g %10.3g %6zu %8.3f", label, modeler, g->n,
	       100.0 * (double)g->leading / (double)g->n, g->med[0], g->p90[0], g->med[1], g->p90[1], g->maxfactor,
	       g->beyond10, g->spearman);
	if (g->intervals && strcmp(modeler, "--basic"))   /* --basic gives no intervals */
		printf(" %7.1f%% %7.1f%% %8.3g", 100.0 * (double)g->covered[0] / (double)g->intervals,
		       100.0 * (double)g->covered[1] / (double)g->intervals, g->width64);
	printf("\n");
}

static int by_error(const void *a, const void *b)
{
	double x = error_factor(a, 1), y = error_factor(b, 1);
	return (x < y) - (x > y);
}

static void list_worst(struct tally *t, size_t count)
{
	qsort(t->o, t->n, sizeof t->o[0], by_error);
	for (size_t k = 0; k < count && k < t->n; k++)
		printf("  worst %zu: %.0f%% noise, factor %.3g at 64x (%s): truth %s, model %s\n", k + 1, 100 * t->o[k].noise,
		       error_factor(&t->o[k], 1), t->o[k].pred[1] > t->o[k].truth[1] ? "over" : "under", t->o[k].want,
		       t->o[k].model);
}

static void run_all(bool basic, bool quick, struct tally *t)
{
	struct synth_ladder five, seven, grid;
	synth_ladder_geometric(&five, 4, 2, 5);
	synth_ladder_geometric(&seven, 2, 2, 7);
	synth_ladder_grid(&grid, 2, 2, 5, 16, 2, 5);
	for (int k = 0; k < NOISES; k++) {
		if (quick && noise_levels[k] != 0.05)
			continue;
		unsigned long seed = 100 + (unsigned long)k;
		if (!quick)
			run_ladder(&five, noise_levels[k], basic, seed, t);
		run_ladder(&seven, noise_levels[k], basic, seed + 10, t);
		run_ladder(&grid, noise_levels[k], basic, seed + 20, t);
	}
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	struct tally def = {0, calloc(MAX_CASES, sizeof(struct outcome))};
	struct tally basic = {0, calloc(MAX_CASES, sizeof(struct outcome))};
	run_all(false, quick, &def);
	run_all(true, quick, &basic);
	printf("prediction accuracy on the synthetic set (%zu series per modeler; relative errors at 16x and 64x the\n"
	       "largest rank count; factor = max(pred/truth, truth/pred); rank correlation of the predictions at 64x;\n"
	       "how often the 95%% interval holds the truth at 16x and 64x, and its median width / truth at 64x)\n",
	       def.n);
	printf("%-6s %-8s %5s %8s %8s %8s %8s %8s %10s %6s %8s %8s %8s %8s\n", "noise", "modeler", "n", "leading", "med@16x",
	       "p90@16x", "med@64x", "p90@64x", "max factor", ">10x", "rank r", "cov@16x", "cov@64x", "width64");
	for (int k = 0; k <= NOISES; k++) {
		double noise = k < NOISES ? noise_levels[k] : -1;
		char label[16];
		snprintf(label, sizeof label, k < NOISES ? "%.0f%%" : "all", 100 * noise);
		struct figures gd = figures_of(&def, noise, -1, 0), gb = figures_of(&basic, noise, -1, 0);
		if (!gd.n)
			continue;
		print_row(label, "default", &gd);
		print_row(label, "--basic", &gb);
	}
	printf("by family, all noise levels:\n");
	for (int f = 0; f < FAMILIES; f++) {
		struct figures gd = figures_of(&def, -1, f, 0), gb = figures_of(&basic, -1, f, 0);
		printf("  %s\n", family_names[f]);
		print_row("all", "default", &gd);
		print_row("all", "--basic", &gb);
	}
	printf("by ladder, all noise levels (two parameters: 5 x 5 rungs):\n");
	static const size_t lengths[] = {5, 7};
	for (int k = 0; k < 2; k++) {
		struct figures gd = figures_of(&def, -1, -1, lengths[k]), gb = figures_of(&basic, -1, -1, lengths[k]);
		if (!gd.n)
			continue;
		printf("  %zu rungs\n", lengths[k]);
		print_row("all", "default", &gd);
		print_row("all", "--basic", &gb);
	}
	struct figures all = figures_of(&def, -1, -1, 0);
	double lead = 100.0 * (double)all.leading / (double)all.n;
	printf("goals with default options: leading term >= 80%% (%.1f%%: %s), p90 error at 64x <= 0.5 (%.3g: %s), "
	       "no prediction off by more than 10x (%zu: %s)\n",
	       lead, lead >= 80 ? "met" : "NOT met", all.p90[1], all.p90[1] <= 0.5 ? "met" : "NOT met", all.beyond10,
	       all.beyond10 ? "NOT met" : "met");
	const char *w = getenv("ACCURACY_WORST");
	if (w && atoi(w) > 0)
		list_worst(&def, (size_t)atoi(w));
	free(def.o);
	free(basic.o);
	return 0;
}
