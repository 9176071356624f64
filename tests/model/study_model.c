/*
 * study_model — where model selection goes right and wrong on the synthetic test set, and how
 * far it could go at all (the figures behind the floors in tests/unit/test_model_noise.c).
 *
 *   study_model rates [NOISE...]   leading term, interval coverage and width per family: ladder
 *                                  model, ladder model selecting with the median, the basic mode
 *   study_model oracle [NOISE...]  a search told the true number of terms (and whether there is a
 *                                  constant) that picks the least-squares best of that size, fed
 *                                  the median or the mean of the repetitions; and the pairwise
 *                                  bound: the error of telling each truth from its nearest
 *                                  function with another leading term, had one only those two
 *   study_model failures [NOISE]   the modeler's misses, by kind, next to the oracle's
 *
 * Uniform multiplicative noise in [-NOISE, NOISE] (STUDY_NOISE=gaussian: sd NOISE), 5
 * repetitions, p = 2..128 (the grid for two parameters), target 16x the largest rank count, seeds
 * 11..15 (those of the unit test) unless STUDY_SEEDS=N asks for N seeds from 11 (STUDY_FIRST=S:
 * from S) and STUDY_FAMILY=K only family K (0..4).
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
#include "model/problem.h"
#include "synth.h"
#include "tell.h"

#define MAXT 256
#define FAMILIES 5

static unsigned nseeds(void)
{
	const char *s = getenv("STUDY_SEEDS");
	return s && atoi(s) > 0 ? (unsigned)atoi(s) : 5;
}

/* STUDY_FAMILY=K: only family K (0..4) */
static bool family_wanted(int f)
{
	const char *s = getenv("STUDY_FAMILY");
	return !s || atoi(s) == f;
}

static unsigned first_seed(void)
{
	const char *s = getenv("STUDY_FIRST");
	return s && atoi(s) > 0 ? (unsigned)atoi(s) : 11;
}

static const char *family_exponents(enum synth_family f)
{
	return f == SYNTH_STRONG ? "default;strong" : "default";
}

static unsigned family_params(enum synth_family f)
{
	return f == SYNTH_TWO_PARAMS ? 2 : 1;
}

/* one draw of a family, modeled with options o (target set here) */
struct draw {
	struct synth_ladder l;
	struct pmnf truth[MAXT];
	size_t n;
	struct experiment *e;
	struct model_results *res;
	double target[PMNF_MAX_PARAMS];
};

static void draw_open(struct draw *d, enum synth_family f, unsigned seed, double noise, const struct model_options *base)
{
	synth_ladder_default(&d->l, family_params(f));
	const char *kind = getenv("STUDY_NOISE");
	d->e = synth_family_experiment(f, family_params(f), seed, 5, noise,
				       kind && !strcmp(kind, "gaussian") ? SYNTH_GAUSSIAN : SYNTH_UNIFORM, d->truth, MAXT, &d->n);
	d->res = NULL;
	if (!base)
		return;
	struct model_options o = *base;
	o.has_target = true;
	synth_target(&d->l, 16, o.target);
	memcpy(d->target, o.target, sizeof d->target);
	exponents_parse(family_exponents(f), &o.exponents, NULL);
	struct model_error err;
	d->res = model_experiment(d->e, &o, &err);
	if (!d->res) {
		fprintf(stderr, "study_model: %s\n", err.msg);
		exit(1);
	}
}

static void draw_close(struct draw *d)
{
	model_results_free(d->res);
	experiment_free(d->e);
}

/* ---- rates ---------------------------------------------------------------------------------- */

struct tally {
	size_t n, leading, covered, nw;
	double width[MAXT * 16];
};

static void tally_draw(const struct draw *d, struct tally *t)
{
	for (size_t k = 0; k < d->n; k++) {
		const struct model_result *r = &d->res->r[k];
		double truth = pmnf_eval(&d->truth[k], d->target);
		t->n++;
		t->leading += r->status == MODEL_OK && pmnf_same_leading(&r->fn, &d->truth[k]);
		if (r->prediction.has_interval) {
			t->covered += r->prediction.lo <= truth && truth <= r->prediction.hi;
			if (t->nw < sizeof t->width / sizeof t->width[0])
				t->width[t->nw++] = (r->prediction.hi - r->prediction.lo) / truth;
		}
	}
}

static void print_tally(struct tally *t, bool intervals)
{
	if (!intervals || !t->nw) {
		printf(" | %5.1f%%               ", 100.0 * (double)t->leading / (double)t->n);
		return;
	}
	gsl_sort(t->width, 1, t->nw);
	printf(" | %5.1f%% %5.1f%% %6.2f", 100.0 * (double)t->leading / (double)t->n,
	       100.0 * (double)t->covered / (double)t->n, gsl_stats_median_from_sorted_data(t->width, 1, t->nw));
}

static void rates(double noise)
{
	struct model_options full, basic;
	model_options_init(&full);
	basic = full;
	basic.basic = true;
	basic.aggregate = MODEL_AGG_MEAN;
	basic.relative_weights = false;
	basic.bootstrap = 0;
	const struct {
		const char *name;
		const struct model_options *o;
		bool intervals;
	} modes[] = {{"ladder model", &full, true}, {"basic (Extra-P)", &basic, false}};
	printf("%.0f%% noise: leading term right, interval coverage at 16x, median interval width / truth\n", 100 * noise);
	printf("  %-16s", "");
	for (int f = 0; f < FAMILIES; f++)
		if (family_wanted(f))
			printf(" | %-21.21s", synth_family_name((enum synth_family)f));
	printf("\n");
	for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
		printf("  %-16s", modes[m].name);
		for (int f = 0; f < FAMILIES; f++) {
			if (!family_wanted(f))
				continue;
			static struct tally t;
			memset(&t, 0, sizeof t);
			for (unsigned s = 0; s < nseeds(); s++) {
				struct draw d;
				draw_open(&d, (enum synth_family)f, first_seed() + s, noise, modes[m].o);
				tally_draw(&d, &t);
				draw_close(&d);
			}
			print_tally(&t, modes[m].intervals);
		}
		printf("\n");
	}
}

/* ---- oracle --------------------------------------------------------------------------------- */

/* the candidates of a single-parameter family the oracle can search (false: not wanted or two
 * parameters) */
static bool oracle_candidates(int f, struct candidates *c)
{
	if (family_params((enum synth_family)f) != 1 || !family_wanted(f))
		return false;
	struct exponent_set es;
	exponents_parse(family_exponents((enum synth_family)f), &es, NULL);
	candidates_from_exponents(&es, 1, 0, c);
	return true;
}

/* the least-squares best hypothesis with K terms (constant as given) */
static void best_of_size(const struct fit_problem *fp, unsigned K, bool constant, struct hypothesis *best,
			 struct fit_work *w)
{
	best->valid = false;
	best->rss = INFINITY;
	unsigned idx[PMNF_MAX_TERMS];
	for (unsigned i = 0; i < K; i++)
		idx[i] = i;
	for (;;) {
		struct hypothesis h = {.nterms = K, .constant = constant};
		memcpy(h.idx, idx, K * sizeof idx[0]);
		if (fit_hypothesis(fp, &h, w) && h.rss < best->rss)
			*best = h;
		int i = (int)K - 1;
		while (i >= 0 && idx[i] == fp->ncand - K + (unsigned)i)
			i--;
		if (i < 0)
			break;
		idx[i]++;
		for (unsigned j = (unsigned)i + 1; j < K; j++)
			idx[j] = idx[j - 1] + 1;
	}
}

static double point_value(const struct series *s, enum model_aggregate a)
{
	double v[s->n];
	memcpy(v, s->v, s->n * sizeof v[0]);
	return aggregate_values(v, s->n, a);
}

static void fit_problem_of(const struct draw *d, const struct candidates *c, const double *y, struct problem *pr)
{
	struct problem_spec ps = {.points = d->l.x, .y = y, .n = d->l.npoints, .cand = c, .relative_weights = true,
				  .cv = FIT_CV_LOO, .eps_contrib = 5e-4};
	problem_init(pr, &ps);
}

/* does the oracle find the leading term of truth k from the aggregate a of its repetitions? */
static bool oracle_right(const struct draw *d, size_t k, const struct candidates *c, enum model_aggregate a,
			 struct fit_work *w, struct pmnf *got)
{
	double y[SYNTH_MAX_POINTS];
	for (size_t p = 0; p < d->l.npoints; p++)
		y[p] = point_value(experiment_values(d->e, k, 0, p), a);
	struct problem pr;
	fit_problem_of(d, c, y, &pr);
	struct hypothesis h;
	best_of_size(&pr.fp, d->truth[k].nterms, d->truth[k].constant != 0, &h, w);
	problem_function(c, &h, got);
	problem_free(&pr);
	return h.valid && pmnf_same_leading(got, &d->truth[k]);
}

/* the equal-odds error of telling truth k from its nearest function with another leading term
 * (tell.h), had one only those two and their coefficients */
static double pairwise_error(const struct draw *d, size_t k, const struct candidates *c, double sigma, struct fit_work *w)
{
	return tell_error(tell_distance(&d->truth[k], d->l.x, d->l.npoints, c, NULL, w, NULL), sigma);
}

/* the relative standard deviation of aggregate a of 5 draws, from many draws of the noise */
static double aggregate_sd(double noise, enum model_aggregate a)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double sum = 0, sq = 0;
	const int draws = 20000;
	for (int b = 0; b < draws; b++) {
		double v[5];
		for (int r = 0; r < 5; r++)
			v[r] = 1 + gsl_ran_flat(rng, -noise, noise);
		double x = aggregate_values(v, 5, a);
		sum += x;
		sq += x * x;
	}
	gsl_rng_free(rng);
	return sqrt(sq / draws - (sum / draws) * (sum / draws));
}

static void oracle(double noise)
{
	struct fit_work *w = fit_work_new(SYNTH_MAX_POINTS);
	double sd_med = aggregate_sd(noise, MODEL_AGG_MEDIAN), sd_mean = aggregate_sd(noise, MODEL_AGG_MEAN);
	printf("%.0f%% noise (relative sd of the median of 5: %.2f%%, of the mean: %.2f%%): leading term right\n",
	       100 * noise, 100 * sd_med, 100 * sd_mean);
	printf("  %-24s | %13s %13s | %22s\n", "", "oracle median", "oracle mean", "pairwise bound med/mean");
	for (int f = 0; f < FAMILIES; f++) {
		struct candidates c;
		if (!oracle_candidates(f, &c))
			continue;
		size_t n = 0, med = 0, mean = 0;
		double bound_med = 0, bound_mean = 0;
		for (unsigned s = 0; s < nseeds(); s++) {
			struct draw d;
			draw_open(&d, (enum synth_family)f, first_seed() + s, noise, NULL);
			for (size_t k = 0; k < d.n; k++) {
				struct pmnf got;
				n++;
				med += oracle_right(&d, k, &c, MODEL_AGG_MEDIAN, w, &got);
				mean += oracle_right(&d, k, &c, MODEL_AGG_MEAN, w, &got);
				if (s == 0) {
					bound_med += pairwise_error(&d, k, &c, sd_med, w) / (double)d.n;
					bound_mean += pairwise_error(&d, k, &c, sd_mean, w) / (double)d.n;
				}
			}
			draw_close(&d);
		}
		printf("  %-24s | %12.1f%% %12.1f%% | %10.1f%% %10.1f%%\n", synth_family_name((enum synth_family)f),
		       100.0 * (double)med / (double)n, 100.0 * (double)mean / (double)n, 100 * (1 - bound_med),
		       100 * (1 - bound_mean));
	}
	fit_work_free(w);
}

/* ---- failures ------------------------------------------------------------------------------- */

static void failures(double noise)
{
	struct model_options o;
	model_options_init(&o);
	o.bootstrap = 0;
	struct fit_work *w = fit_work_new(SYNTH_MAX_POINTS);
	printf("%.0f%% noise: the modeler's misses of the leading term, by the size it chose against the truth's,\n"
	       "and whether the oracle (true size, mean of the repetitions) finds it\n", 100 * noise);
	printf("  %-24s | %5s | %15s | %15s | %15s\n", "", "right", "fewer: or. right", "same: or. right",
	       "more: or. right");
	for (int f = 0; f < FAMILIES; f++) {
		struct candidates c;
		if (!oracle_candidates(f, &c))
			continue;
		size_t n = 0, right = 0, miss[3][2] = {{0}};
		for (unsigned s = 0; s < nseeds(); s++) {
			struct draw d;
			draw_open(&d, (enum synth_family)f, first_seed() + s, noise, &o);
			for (size_t k = 0; k < d.n; k++) {
				const struct model_result *r = &d.res->r[k];
				n++;
				if (r->status == MODEL_OK && pmnf_same_leading(&r->fn, &d.truth[k])) {
					right++;
					continue;
				}
				struct pmnf got;
				int size = r->fn.nterms < d.truth[k].nterms ? 0 : r->fn.nterms == d.truth[k].nterms ? 1 : 2;
				miss[size][oracle_right(&d, k, &c, MODEL_AGG_MEAN, w, &got)]++;
			}
			draw_close(&d);
		}
		printf("  %-24s | %4.0f%% |", synth_family_name((enum synth_family)f), 100.0 * (double)right / (double)n);
		for (int z = 0; z < 3; z++)
			printf(" %6.1f%%: %5.1f%% |", 100.0 * (double)(miss[z][0] + miss[z][1]) / (double)n,
			       100.0 * (double)miss[z][1] / (double)n);
		printf("\n");
	}
	fit_work_free(w);
}

int main(int argc, char **argv)
{
	if (argc < 2 || (strcmp(argv[1], "rates") && strcmp(argv[1], "oracle") && strcmp(argv[1], "failures"))) {
		fprintf(stderr, "usage: study_model rates|oracle|failures [NOISE...]\n");
		return 2;
	}
	double noises[8] = {0.05};
	int nn = 0;
	for (int i = 2; i < argc && nn < 8; i++)
		noises[nn++] = atof(argv[i]);
	if (!nn)
		nn = 1;
	for (int i = 0; i < nn; i++) {
		if (!strcmp(argv[1], "rates"))
			rates(noises[i]);
		else if (!strcmp(argv[1], "oracle"))
			oracle(noises[i]);
		else
			failures(noises[i]);
	}
	return 0;
}
