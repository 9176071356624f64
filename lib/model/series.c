/*
 * series — modeling one (call path, metric) of an experiment. See series.h.
 *
 * The terms are selected with the values of aggregate_for_selection (the mean or the midrange
 * of the repetitions when the pooled noise makes it more precise than the median), by the
 * posterior over the hypotheses the search screened (posterior.h), then refitted to the
 * per-point values the user asked for (the median by default), which the model and its quality
 * figures describe. The prediction at the target is the median over the most probable
 * hypotheses, inside the interval (average.h).
 */
#include "model/series.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/average.h"
#include "model/critical.h"
#include "model/exact.h"
#include "model/interval.h"
#include "model/multiparam.h"
#include "model/neighbours.h"
#include "model/posterior.h"
#include "model/problem.h"
#include "model/support.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* a constant below this fraction of every value is numerical dust: the model has none */
#define EPS_CONSTANT 1e-4
/* a term contributing less than this fraction at every point only fits noise (as Extra-P) */
#define EPS_CONTRIB 5e-4

void series_context_init(struct series_context *ctx, const struct experiment *e, const struct model_options *o,
			 const double *target)
{
	memset(ctx, 0, sizeof *ctx);
	ctx->e = e;
	ctx->o = o;
	search_options_default(&ctx->search);
	ctx->search.max_terms = o->max_terms;
	ctx->search.basic = o->basic;
	if (e->nparams == 1) {
		candidates_from_exponents(&o->exponents, 1, 0, &ctx->single);
		ctx->single_basis = xmalloc((ctx->single.n ? ctx->single.n : 1) * (e->npoints ? e->npoints : 1) * sizeof(double));
		candidates_basis(&ctx->single, e->points, e->npoints, ctx->single_basis);
	}
	ctx->target = target;
	size_t n = e->npoints ? e->npoints : 1, total = 0;
	for (size_t c = 0; c < e->callpaths.n; c++)
		for (size_t m = 0; m < e->metrics.n; m++)
			for (size_t p = 0; p < e->npoints; p++) {
				size_t k = experiment_values(e, c, m, p)->n;
				total = k > total ? k : total;
			}
	ctx->w = fit_work_new(n);
	ctx->pts = xmalloc(n * e->nparams * sizeof(double));
	ctx->y = xmalloc(n * sizeof(double));
	ctx->ysel = xmalloc(n * sizeof(double));
	ctx->sorted = xmalloc(n * (total ? total : 1) * sizeof(double));
	ctx->reps = xmalloc(n * sizeof *ctx->reps);
	ctx->nreps = xmalloc(n * sizeof *ctx->nreps);
}

void series_context_free(struct series_context *ctx)
{
	fit_work_free(ctx->w);
	free(ctx->pts);
	free(ctx->y);
	free(ctx->ysel);
	free(ctx->sorted);
	free(ctx->reps);
	free(ctx->nreps);
	free(ctx->single_basis);
}

/* gather the measured points of (cp, m); returns how many */
static size_t gather(struct series_context *ctx, size_t cp, size_t m, struct model_result *out)
{
	const struct experiment *e = ctx->e;
	size_t n = 0, stride = 0;
	for (size_t p = 0; p < e->npoints; p++) {
		size_t k = experiment_values(e, cp, m, p)->n;
		stride = k > stride ? k : stride;
	}
	for (size_t p = 0; p < e->npoints; p++) {
		const struct series *s = experiment_values(e, cp, m, p);
		if (!s->n)
			continue;
		double *sorted = ctx->sorted + n * stride;
		point_stats_compute(s->v, s->n, ctx->o->aggregate, sorted, &out->points[p]);
		memcpy(ctx->pts + n * e->nparams, experiment_point(e, p), e->nparams * sizeof(double));
		ctx->y[n] = out->points[p].value;
		ctx->reps[n] = sorted;
		ctx->nreps[n] = s->n;
		n++;
	}
	return n;
}

static bool enough_points(const struct series_context *ctx, size_t n, struct model_result *out)
{
	const struct experiment *e = ctx->e;
	size_t least = e->nparams == 1 ? MODEL_MIN_POINTS_RESTRICTED : MODEL_MIN_POINTS;
	if (n < least) {
		snprintf(out->note, sizeof out->note, "measured at %zu point%s; the search needs at least %zu", n,
			 n == 1 ? "" : "s", least);
		return false;
	}
	for (unsigned l = 0; e->nparams > 1 && l < e->nparams; l++) {
		size_t len = multiparam_line_length(ctx->pts, n, (unsigned)e->nparams, l);
		if (len < MODEL_MIN_POINTS) {
			snprintf(out->note, sizeof out->note,
				 "parameter '%s' takes %zu values along its longest line of measured points; the search needs %d",
				 e->params[l], len, MODEL_MIN_POINTS);
			return false;
		}
	}
	return true;
}

static void set_constant(struct model_result *out, unsigned nparams, double c)
{
	memset(&out->fn, 0, sizeof out->fn);
	out->fn.nparams = nparams;
	out->fn.constant = c;
	snprintf(out->growth, sizeof out->growth, "constant");
}

/* repetitions vary more than the points: report the level, do not fit */
static void report_noisy(struct series_context *ctx, size_t n, struct model_result *out)
{
	double lo = INFINITY, hi = -INFINITY, ys[n];
	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, ctx->reps[i][0]);
		hi = fmax(hi, ctx->reps[i][ctx->nreps[i] - 1]);
		ys[i] = ctx->y[i];
	}
	gsl_sort(ys, 1, n);
	out->status = MODEL_NOISY;
	set_constant(out, (unsigned)ctx->e->nparams, gsl_stats_median_from_sorted_data(ys, 1, n));
	snprintf(out->growth, sizeof out->growth, "noise");
	out->quality.npoints = n;
	out->prediction = (struct model_prediction){
		.value = out->fn.constant, .has_interval = true, .lo = lo, .hi = hi, .level = 1.0,
	};
	snprintf(out->note, sizeof out->note,
		 "too noisy to model: repetitions spread by %.0f%% while the points differ by %.0f%% "
		 "(not significant, p = %.2f)",
		 100 * out->noise.spread, 100 * out->noise.between, out->noise.p_value);
}

/* RSS, adjusted R^2 and SMAPE of the per-point values, unweighted */
static void quality(const struct series_context *ctx, size_t n, const struct pmnf *fn, double cv,
		    struct model_quality *q)
{
	double mean = 0, rss = 0, tss = 0, smape = 0, ymax = 0;
	for (size_t i = 0; i < n; i++) {
		mean += ctx->y[i] / (double)n;
		ymax = fmax(ymax, fabs(ctx->y[i]));
	}
	for (size_t i = 0; i < n; i++) {
		double f = pmnf_eval(fn, ctx->pts + i * fn->nparams), y = ctx->y[i];
		rss += (y - f) * (y - f);
		tss += (y - mean) * (y - mean);
		/* a difference that is rounding next to the largest value is no error (a model of
		 * 1e-13 where the value is 0) */
		if (fabs(y - f) > 1e-9 * ymax)
			smape += 2 * fabs(y - f) / (fabs(y) + fabs(f));
	}
	size_t m = fn->nterms + (fn->constant != 0.0 ? 1 : 0);
	if (tss <= 1e-24 * mean * mean * (double)n)
		tss = 0;   /* flat data: rounding, not variation */
	q->npoints = n;
	q->rss = rss;
	q->ar2 = tss > 0 && n > m ? 1.0 - (rss / (double)(n - m)) / (tss / (double)(n - 1)) : 1.0;
	q->smape = 100 * smape / (double)n;
	q->cv_error = sqrt(cv);
}

/* drop a constant that is numerical dust (a pure c*p fitted as 1e-14 + c*p) */
static void drop_dust_constant(const struct fit_problem *fp, struct hypothesis *best, struct fit_work *w)
{
	if (!best->constant || !best->nterms)
		return;
	double ymin = INFINITY;
	for (size_t i = 0; i < fp->n; i++)
		if (fp->y[i] != 0)
			ymin = fmin(ymin, fabs(fp->y[i]));
	if (!(fabs(best->c0) < EPS_CONSTANT * ymin))
		return;
	struct hypothesis h = *best;
	h.constant = false;
	if (fit_hypothesis(fp, &h, w))
		*best = h;
}

/* the selected hypothesis first, then the best few of every stage searched */
static size_t finalists(const struct search_result *r, const struct hypothesis *best, struct hypothesis *out)
{
	size_t n = 0;
	out[n++] = *best;
	for (unsigned k = 0; k < r->nstages; k++)
		for (unsigned j = 0; j < r->ntop[k]; j++)
			if (r->top[k][j].nterms != best->nterms || memcmp(r->top[k][j].idx, best->idx, best->nterms * sizeof best->idx[0]))
				out[n++] = r->top[k][j];
	return n;
}

static unsigned long series_seed(const struct series_context *ctx, size_t cp, size_t m)
{
	const char *a = experiment_callpath(ctx->e, cp), *b = experiment_metric(ctx->e, m);
	return (unsigned long)hash_combine(hash_bytes(a, strlen(a), ctx->o->seed), hash_bytes(b, strlen(b), 0));
}

/* the aggregate a of point i's sorted repetitions */
static double sorted_aggregate(const struct series_context *ctx, size_t i, enum model_aggregate a)
{
	const double *v = ctx->reps[i];
	size_t r = ctx->nreps[i];
	switch (a) {
	case MODEL_AGG_MEAN: return gsl_stats_mean(v, 1, r);
	case MODEL_AGG_MIN: return v[0];
	case MODEL_AGG_MAX: return v[r - 1];
	case MODEL_AGG_MIDRANGE: return 0.5 * (v[0] + v[r - 1]);
	default: return gsl_stats_median_from_sorted_data(v, 1, r);
	}
}

/* ctx->ysel: the values terms are selected with, and their aggregate; the relative variances of
 * those and of the per-point values, and their degrees of freedom */
static enum model_aggregate selection_values(struct series_context *ctx, size_t n, unsigned long seed, double *noise_var,
					     double *value_var, double *noise_dof)
{
	const struct model_options *o = ctx->o;
	enum model_aggregate sel = aggregate_for_selection(ctx->reps, ctx->nreps, n, o->aggregate, seed, noise_var,
							   value_var, noise_dof);
	if (o->basic) {
		sel = o->aggregate;
		*noise_var = *value_var;
	}
	if (!(*noise_var > 0)) {
		/* identical repetitions (counts, a timer's resolution) measure no noise: the tests fall
		 * back on the residuals, as without repetitions, instead of taking any improvement as
		 * real */
		*noise_var = *value_var = 0;
		*noise_dof = 0;
	}
	for (size_t i = 0; i < n; i++)
		ctx->ysel[i] = sel == o->aggregate ? ctx->y[i] : sorted_aggregate(ctx, i, sel);
	return sel;
}

/* The selected terms refitted to the per-point values (the requested aggregate) when they were
 * selected with another; the selection's fit when the refit is not valid. */
static struct hypothesis refit_to_values(const struct fit_problem *fp, const struct hypothesis *sel, bool same,
					 struct fit_work *w)
{
	if (same)
		return *sel;
	struct hypothesis h = *sel;
	if (!fit_hypothesis(fp, &h, w))
		return *sel;
	return h;
}

/* The prediction averaged over the most probable hypotheses (average.h), and the interval the
 * hull of the bootstrap's (when there is one) and the model-averaged one, the prediction inside
 * it; without repetitions (or with identical ones) each hypothesis estimates the noise from its
 * own residuals */
static void average_over_hypotheses(const struct fit_problem *fsel, const struct search_result *r, double value_var,
				    double level, struct model_prediction *pred)
{
	struct posterior_noise z = {.s2 = fsel->noise_var, .dof = fsel->noise_dof, .n = fsel->n};
	size_t m = r->best.nterms + (r->best.constant ? 1 : 0);
	if (!(fsel->noise_dof > 0) && fsel->n > m) {
		z.s2 = value_var = r->best.rss / (double)(fsel->n - m);
		z.dof = 0;
	}
	struct average_spec as = {
		.h = r->record, .n = r->nrecords, .ncand = (unsigned)fsel->ncand, .noise = z,
		.future_var = value_var, .level = level,
	};
	double value, lo, hi;
	if (average_prediction(&as, &value, &lo, &hi))
		return;
	if (value > 0)
		pred->value = value;
	if (!pred->has_interval)
		return;
	pred->lo = fmin(pred->lo, fmax(lo, 0.0));
	pred->hi = fmax(pred->hi, hi);
	pred->value = fmin(fmax(pred->value, pred->lo), pred->hi);
}

/* The noise the rivals of the selected model are judged with: of a per-point value measured by the
 * repetitions, or else the residual variance of the model; its degrees of freedom, and the
 * critical F of one term (neighbours.h). false when the model leaves no degree of freedom. */
static bool rival_noise(const struct fit_problem *fsel, const struct hypothesis *best, struct neighbour_spec *ns)
{
	size_t m = best->nterms + (best->constant ? 1 : 0);
	if (fsel->n <= m)
		return false;
	bool measured = fsel->noise_dof > 0 && fsel->noise_var > 0;
	ns->s2 = measured ? fsel->noise_var : best->rss / (double)(fsel->n - m);
	ns->dof = measured ? fsel->noise_dof : (double)(fsel->n - m);
	ns->crit = critical_f(0.05, 1, ns->dof);
	if (!isfinite(ns->crit))
		ns->crit = 4.0;
	return true;
}

/* A rival the rungs cannot tell from the selected model: a hypothesis the search would accept
 * (search_admissible), with at most one term more, whose weighted RSS exceeds the selected one's
 * by less than the critical F of one term times the noise of a per-point value, and whose
 * prediction at the target lies more than SUPPORT_RIVAL_FACTOR outside the interval (c + a p^(1/2)
 * + b p^2 at 5% noise on p = 4..64 fitted as c + a p^(1/2) log2(p)^2: the p^2 term is 16% of the
 * largest rung and 40x at 64x). Every hypothesis of a size the search enumerated is walked again
 * (search_rival_of_size): the search's records keep SEARCH_RECORDS of them and only those positive
 * with a constant; of the other sizes the records. Its prediction, or NAN when there is none. */
static double rival_outside(const struct fit_problem *fsel, const struct search_result *r,
			    const struct search_options *so, const struct neighbour_spec *ns, double lo, double hi,
			    struct fit_work *w)
{
	const struct hypothesis *best = &r->best;
	struct search_rival rv = {.rss_limit = best->rss + ns->crit * ns->s2, .lo = lo, .hi = hi,
				  .factor = SUPPORT_RIVAL_FACTOR};
	bool walked[PMNF_MAX_TERMS + 2] = {false};
	for (unsigned k = 1; k <= best->nterms + 1 && k <= PMNF_MAX_TERMS && k <= fsel->ncand; k++) {
		if (search_count(fsel->ncand, k) > so->exhaustive_limit)
			continue;
		walked[k] = true;
		double v = search_rival_of_size(fsel, k, &rv, w);
		if (isfinite(v))
			return v;
	}
	for (unsigned k = 0; k < r->nrecords; k++) {
		const struct search_record *x = &r->record[k];
		if (x->nterms > best->nterms + 1 || walked[x->nterms] || !(x->rss <= rv.rss_limit))
			continue;
		struct hypothesis h = {.nterms = x->nterms};
		memcpy(h.idx, x->idx, x->nterms * sizeof h.idx[0]);
		if (!search_admissible(fsel, &h, w) || !(h.rss <= rv.rss_limit))
			continue;
		double v = search_prediction(fsel, &h);
		if (v > rv.factor * hi || v * rv.factor < lo)
			return v;
	}
	return NAN;
}

/* One parameter: the rivals of the model's size, and of one term more, that the search's beam did
 * not screen (stages of more than exhaustive_limit hypotheses), every one of them screened now,
 * up to BEAM_RIVAL_TERMS terms: of the model's size when it fits within the critical F of one
 * term of the model (as rival_outside), of one term more only when it fits significantly better
 * among all those tried (Bonferroni, as the search judges an added term: any term added lowers
 * the RSS). 173.2 p^(-1/2) + 0.009962 p log2(p) + 8.545e-07 p^3 through seven exact rungs
 * (p = 6..384) was fitted as 14.67 + 101.8/p + 91.08 log2(p)/p + 6.7e-06 p^2 log2(p)^2, 15x low
 * at 64x with an interval of 7x, while its own three terms, never screened, reproduce the rungs.
 * NAN when none. */
#define BEAM_RIVAL_TERMS 3
static double beam_rival_outside(const struct fit_problem *fsel, const struct hypothesis *best,
				 const struct neighbour_spec *ns, const struct search_options *so, double lo, double hi,
				 struct fit_work *w)
{
	for (unsigned k = best->nterms; k <= best->nterms + 1 && k <= BEAM_RIVAL_TERMS; k++) {
		unsigned long count = search_count(fsel->ncand, k);
		if (k < 1 || count <= so->exhaustive_limit)
			continue;
		struct search_rival rv = {.rss_limit = best->rss + ns->crit * ns->s2, .lo = lo, .hi = hi,
					  .factor = SUPPORT_RIVAL_FACTOR};
		if (k > best->nterms) {
			double crit = critical_f(FIT_ALPHA / (double)count, 1, ns->dof);
			rv.rss_limit = isfinite(crit) ? best->rss - crit * ns->s2 : -INFINITY;
		}
		double r = search_rival_of_size(fsel, k, &rv, w);
		if (isfinite(r))
			return r;
	}
	return NAN;
}

/* One parameter: a hypothesis of the selected model's size (any of them, as the search would accept
 * it) with one term more, of a higher power than any of its own and of the selected model's, whose
 * coefficient is as large as the noise allows:
 * its weighted RSS within the critical F of one term times the noise of the selected model's (as
 * a rival of rival_outside), that coefficient positive, the model without it one the search
 * would accept. A least-squares coefficient may come out at zero or below while a tail of that
 * power, a third of the largest rung, still fits about as well: 611.4/p + 0.0127 p^(3/2) +
 * 7.062e-08 p^3 log2(p)^2 at 2% noise on five rungs was fitted as 6.587 + 521.6 p^(-3/2) log2(p) +
 * 2.693e-05 p^2 log2(p)^2 (the p^2 log2(p)^2 term standing in for both growing terms), every
 * extension of it by a faster term with a negative coefficient, supported 32x low at 64x.
 * The largest prediction of such a tail that stays positive far out, when above hi; NAN when
 * none. The interval of a supported prediction is widened to it: what the noise cannot rule
 * out it holds. */
#define TAIL_WALK_LIMIT 20000
struct tail_walk {
	const struct fit_problem *p;
	const struct candidates *cand;
	struct pmnf_factor fastest;   /* the selected model's fastest factor */
	double limit, hi;
	struct fit_work *w;
	double found;
};

static struct pmnf_factor fastest_factor(const struct candidates *cand, const struct hypothesis *h)
{
	struct pmnf_factor f = {0, 0};
	for (unsigned k = 0; k < h->nterms; k++)
		if (pmnf_factor_cmp(cand->term[h->idx[k]].f[0], f) > 0)
			f = cand->term[h->idx[k]].f[0];
	return f;
}

static bool tail_visit(const struct hypothesis *walked, void *arg)
{
	struct tail_walk *t = arg;
	const struct fit_problem *p = t->p;
	struct hypothesis base = *walked;
	size_t n = p->n;
	double q[(PMNF_MAX_TERMS + 1) * n], res[n];
	struct fit_base fb = {.q = q, .res = res};
	struct pmnf_factor from = fastest_factor(t->cand, &base);
	if (pmnf_factor_cmp(t->fastest, from) > 0)
		from = t->fastest;
	if (!fit_base_init(p, &base, &fb))
		return false;
	int admissible = -1;   /* the base fitted as the search would, when needed */
	for (unsigned c = 0; c < p->ncand; c++) {
		struct fit_extension x;
		if (pmnf_factor_cmp(t->cand->term[c].f[0], from) <= 0 || !fit_extend(p, &fb, c, &x) || !(x.rss <= t->limit) ||
		    !(x.norm > 0))
			continue;
		double d = sqrt(t->limit - x.rss) / x.norm;
		double v = x.pred[0] + d * x.gain[0], far = x.pred[p->ncheck - 1] + d * x.gain[p->ncheck - 1];
		if (!(x.coef_added + d > 0) || !(far > 0) || !(v > t->hi) || !(isnan(t->found) || v > t->found))
			continue;
		if (admissible < 0) {
			struct hypothesis h = base;
			admissible = base.nterms == 0 || search_admissible(p, &h, t->w);
		}
		if (!admissible)
			return false;
		t->found = v;
	}
	return false;
}

static double faster_tail_bound(const struct fit_problem *fsel, const struct candidates *cand,
				 const struct hypothesis *best, const struct neighbour_spec *ns,
				 const struct search_options *so, double hi, struct fit_work *w)
{
	unsigned k = best->nterms + 1;
	if (cand->nparams != 1 || !fsel->ncheck || k > PMNF_MAX_TERMS || k > fsel->ncand)
		return NAN;
	struct tail_walk t = {.p = fsel, .cand = cand, .fastest = fastest_factor(cand, best),
			      .limit = best->rss + ns->crit * ns->s2, .hi = hi, .w = w, .found = NAN};
	/* every base of the selected model's size: the walk of k terms visits the (k-1)-subsets.
	 * A base costs one orthogonalisation and an update per faster term, not the fits of a
	 * search stage: the walk goes on where the search's beam chose (a three-term model is no
	 * less open to a faster tail than one of two), up to TAIL_WALK_LIMIT bases; beyond, the
	 * selected model's own terms */
	if (search_count(fsel->ncand, best->nterms) <= fmax(so->exhaustive_limit, TAIL_WALK_LIMIT))
		search_walk_bases(fsel, k, tail_visit, &t);
	else
		tail_visit(best, &t);
	return t.found;
}

/* does the ladder support the prediction (support.h); a note when not; loo: the leave-one-out
 * range when computed already, or NULL */
static void judge_support(const struct series_context *ctx, size_t n, const double *loo, struct model_result *out)
{
	struct model_prediction *p = &out->prediction;
	struct support s;
	support_judge(&out->fn, ctx->pts, ctx->y, n, ctx->target, p->has_interval, p->lo, p->hi, p->level, loo, &s);
	p->supported = s.supported;
	if (out->status == MODEL_OK && !s.supported)
		model_note(out, "the ladder does not support this prediction: %s", s.why);
}

static void fit_series(struct series_context *ctx, size_t cp, size_t m, size_t n, struct model_result *out)
{
	const struct model_options *o = ctx->o;
	const struct experiment *e = ctx->e;
	struct model_error err;
	struct candidates multi, *cand = &ctx->single;
	unsigned long seed = series_seed(ctx, cp, m);
	double noise_dof, noise_var, value_var;
	enum model_aggregate sel = selection_values(ctx, n, seed, &noise_var, &value_var, &noise_dof);
	if (e->nparams > 1) {
		struct multiparam_spec ms = {
			.points = ctx->pts, .y = ctx->ysel, .n = n, .nparams = (unsigned)e->nparams,
			.exponents = &o->exponents, .search = &ctx->search, .relative_weights = o->relative_weights,
			.eps_contrib = EPS_CONTRIB, .rel_noise_var = noise_var, .noise_dof = noise_dof,
		};
		if (multiparam_candidates(&ms, &multi, ctx->w, &err)) {
			out->status = MODEL_FAILED;
			snprintf(out->note, sizeof out->note, "%.250s", err.msg);
			return;
		}
		cand = &multi;
	}
	/* the problem of the per-point values, and the same with the selection's values */
	struct problem pr;
	struct problem_spec ps = {
		.points = ctx->pts, .y = ctx->y, .n = n, .cand = cand, .target = ctx->target,
		/* measured everywhere: the candidates' values are those at the experiment's points */
		.basis = cand == &ctx->single && n == e->npoints ? ctx->single_basis : NULL,
		.relative_weights = o->relative_weights, .cv = o->cv, .kfold = o->kfold, .eps_contrib = EPS_CONTRIB,
		.rel_noise_var = noise_var, .noise_dof = noise_dof, .critical = &ctx->critical,
	};
	problem_init(&pr, &ps);
	if (o->basic)
		pr.fp.ncheck = 0;   /* Extra-P does not check */
	struct fit_problem fsel = pr.fp;
	fit_problem_set_values(&fsel, ctx->ysel);
	struct search_result r;
	struct search_options so = ctx->search;
	if (n < MODEL_MIN_POINTS) {
		so.max_terms = 1;   /* fewer rungs than the full search needs: the constant or one term */
		model_note(out, "%zu rungs: chosen among the constant and single terms", n);
	}
	if (search_best(&fsel, &so, &r, ctx->w)) {
		out->status = MODEL_FAILED;
		snprintf(out->note, sizeof out->note, "no hypothesis could be fitted");
		problem_free(&pr);
		return;
	}
	if (!o->basic)
		posterior_select(&fsel, &r, ctx->w);
	struct hypothesis best = refit_to_values(&pr.fp, &r.best, sel == o->aggregate, ctx->w);
	drop_dust_constant(&pr.fp, &best, ctx->w);
	out->hypotheses = r.tried;
	problem_function(cand, &best, &out->fn);
	pmnf_growth_class(&out->fn, (const char *const *)e->params, out->growth, sizeof out->growth);
	quality(ctx, n, &out->fn, best.cv, &out->quality);
	out->prediction.value = pmnf_eval(&out->fn, ctx->target);
	out->prediction.level = o->level;
	double rival = NAN, loo[2];
	bool have_loo = false;
	struct neighbour_spec ns = {.problem = &ps, .ysel = ctx->ysel, .exponents = &o->exponents, .best = &r.best,
				    .s2 = NAN, .critical = &ctx->neighbour_critical, .w = ctx->w};
	bool rivals = false;
	if (best.cv < 1e-20 && noise_var == 0) {
		/* exact data reproduced exactly: nothing to be uncertain about */
		out->prediction.has_interval = true;
		out->prediction.lo = out->prediction.hi = out->prediction.value;
		/* unless the model merely interpolates: its terms fitted without each rung in turn must
		 * agree, and where they part the interval says how far */
		if (!support_loo_range(&out->fn, ctx->pts, ctx->y, n, ctx->target, &loo[0], &loo[1])) {
			out->prediction.has_interval = false;
		} else {
			out->prediction.lo = fmax(0.0, fmin(out->prediction.lo, loo[0]));
			out->prediction.hi = fmax(out->prediction.hi, loo[1]);
		}
		have_loo = true;
	} else if (!o->basic) {
		struct hypothesis fin[(PMNF_MAX_TERMS + 1) * SEARCH_KEEP + 1];
		struct interval_spec is = {
			.p = &fsel, .values = ctx->y, .reps = ctx->reps, .nreps = ctx->nreps,
			.aggregate = o->aggregate, .select = sel,
			.finalists = fin, .nfinalists = finalists(&r, &r.best, fin), .x0 = pr.x0,
			.replicates = o->bootstrap, .level = o->level, .seed = seed,
		};
		out->prediction.has_interval =
			o->bootstrap && !interval_bootstrap(&is, ctx->w, &out->prediction.lo, &out->prediction.hi);
		average_over_hypotheses(&fsel, &r, value_var, o->level, &out->prediction);
		rivals = out->prediction.has_interval && rival_noise(&fsel, &r.best, &ns);
	}
	out->status = MODEL_OK;
	if (out->quality.smape > MODEL_POOR_SMAPE) {
		out->status = MODEL_POOR;
		snprintf(out->note, sizeof out->note,
			 "the best model misses the measured values by %.0f%% on average (SMAPE); its prediction is "
			 "not to be trusted", out->quality.smape);
	}
	judge_support(ctx, n, have_loo ? loo : NULL, out);
	/* the rivals can only take the support away: looked for where there is one to take */
	double lo = out->prediction.lo, hi = out->prediction.hi;
	if (rivals && out->prediction.supported)
		rival = rival_outside(&fsel, &r, &so, &ns, lo, hi, ctx->w);
	/* several parameters: the search saw only the products of the factors the line searches
	 * chose; the model's neighbours in the whole space compete too, where they could still take
	 * the support away (neighbours.h). One parameter: rival_outside walks every hypothesis of
	 * the sizes the search enumerated; on the four sets of accuracy_model the neighbours there
	 * took no support away. */
	if (rivals && e->nparams > 1 && out->prediction.supported && isnan(rival))
		rival = neighbour_rival_outside(&ns, lo, hi, SUPPORT_RIVAL_FACTOR);
	if (rivals && e->nparams == 1 && out->prediction.supported && isnan(rival))
		rival = beam_rival_outside(&fsel, &r.best, &ns, &so, lo, hi, ctx->w);
	if (out->prediction.supported && isfinite(rival)) {
		out->prediction.supported = false;
		if (out->status == MODEL_OK)
			model_note(out, "the ladder does not support this prediction: a rival that fits the rungs as well "
				   "predicts %.4g at the target", rival);
	}
	/* a supported prediction's interval holds what a faster tail the noise cannot rule out
	 * predicts, and is judged again (an unsupported one, by its span or a rival, says so
	 * already) */
	double tail = NAN;
	if (rivals && out->prediction.supported)
		tail = e->nparams == 1 ? faster_tail_bound(&fsel, cand, &r.best, &ns, &so, out->prediction.hi, ctx->w)
				       : neighbour_faster_tail(&ns, out->prediction.hi);
	if (tail > out->prediction.hi) {
		out->prediction.hi = tail;
		if (out->status == MODEL_OK)
			model_note(out, "a faster tail the noise cannot rule out predicts up to %.4g at the target", tail);
		judge_support(ctx, n, have_loo ? loo : NULL, out);
	}
	problem_free(&pr);
}

/* One parameter whose smallest values measured zero and the rest not (no neighbours, no
 * messages at p = 1): leave those points out. Returns the points kept, n when there are no
 * such zeros or too few points would remain; *below receives the smallest value kept. */
static size_t drop_leading_zeros(struct series_context *ctx, size_t n, double *below)
{
	double zero_max = -INFINITY, kept_min = INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (ctx->y[i] == 0)
			zero_max = fmax(zero_max, ctx->pts[i]);
		else
			kept_min = fmin(kept_min, ctx->pts[i]);
	}
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		kept += ctx->y[i] != 0;
	if (ctx->e->nparams != 1 || kept == n || kept < MODEL_MIN_POINTS || !(zero_max < kept_min))
		return n;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (ctx->y[i] == 0)
			continue;
		ctx->pts[k] = ctx->pts[i];
		ctx->y[k] = ctx->y[i];
		ctx->reps[k] = ctx->reps[i];
		ctx->nreps[k] = ctx->nreps[i];
		k++;
	}
	*below = kept_min;
	return k;
}

/* fit, and when that misses the data and the series starts with zeros, fit without them */
static void fit_series_or_without_zeros(struct series_context *ctx, size_t cp, size_t m, size_t n,
					struct model_result *out)
{
	fit_series(ctx, cp, m, n, out);
	double from;
	size_t kept;
	if (out->status != MODEL_POOR || (kept = drop_leading_zeros(ctx, n, &from)) == n)
		return;
	struct model_result again = *out;
	again.note[0] = 0;
	fit_series(ctx, cp, m, kept, &again);
	if (again.status != MODEL_OK)
		return;
	*out = again;
	snprintf(out->note, sizeof out->note, "zero below %s = %g, modeled from there on", ctx->e->params[0], from);
}

/* every repetition of every point the same (one repetition counts as the same) */
static bool deterministic(const struct series_context *ctx, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (ctx->reps[i][0] != ctx->reps[i][ctx->nreps[i] - 1])
			return false;
	return true;
}

/* Counts of a deterministic code (one parameter, not a time, the same at every repetition,
 * integers): an exact integer law (exact.h) when one reproduces every rung. true when one did. */
static bool model_exact_count(struct series_context *ctx, size_t m, size_t n, struct model_result *out)
{
	const struct experiment *e = ctx->e;
	const char *metric = experiment_metric(e, m);
	if (e->nparams != 1 || ctx->o->basic || strstr(metric, "time") || !deterministic(ctx, n))
		return false;
	struct exact_law l;
	if (!exact_law_solve(ctx->pts, ctx->y, n, ctx->target[0], &l))
		return false;
	out->status = MODEL_OK;
	exact_law_pmnf(&l, &out->fn);
	pmnf_growth_class(&out->fn, (const char *const *)e->params, out->growth, sizeof out->growth);
	out->quality = (struct model_quality){.npoints = n, .ar2 = 1};
	out->exact = true;
	snprintf(out->law, sizeof out->law, "%s", l.text);
	out->prediction = (struct model_prediction){.value = l.value, .has_interval = true, .lo = l.lo, .hi = l.hi,
						    .level = ctx->o->level,
						    .supported = !l.ambiguous && l.spare >= EXACT_MIN_CHECKS};
	model_note(out, "exact integer law %s: reproduces all %zu rungs (%u check it)", l.text, n, l.spare);
	if (!l.ambiguous && l.spare < EXACT_MIN_CHECKS)
		model_note(out, "the ladder does not support this prediction: one rung checks the law, another would "
			   "confirm it");
	else if (l.paused)
		model_note(out, "the ladder does not support this prediction: the two largest rungs agree, as a count "
			   "that stopped growing would (%.0f to %.0f at the target); a rung between the largest and the "
			   "target would tell", l.lo, l.hi);
	else if (l.ambiguous)
		model_note(out, "the ladder does not support this prediction: exact laws the rungs cannot tell apart "
			   "predict %.0f to %.0f at the target", l.lo, l.hi);
	return true;
}

/* A count that no exact law reproduces keeps its PMNF model, but predicts no fraction of a call,
 * message or byte: the prediction and the interval are rounded outwards to integers. */
static void round_count(struct series_context *ctx, size_t m, size_t n, struct model_result *out)
{
	struct model_prediction *p = &out->prediction;
	if (ctx->e->nparams != 1 || ctx->o->basic || strstr(experiment_metric(ctx->e, m), "time") ||
	    !model_status_has_function(out->status) || !deterministic(ctx, n) || !exact_values_are_counts(ctx->y, n))
		return;
	p->value = nearbyint(p->value);
	if (p->has_interval) {
		p->lo = floor(p->lo);
		p->hi = ceil(p->hi);
	}
}

void model_series(struct series_context *ctx, size_t cp, size_t m, struct model_result *out)
{
	const struct experiment *e = ctx->e;
	out->callpath = cp;
	out->metric = m;
	out->points = xcalloc(e->npoints ? e->npoints : 1, sizeof *out->points);
	out->fn.nparams = (unsigned)e->nparams;
	size_t n = gather(ctx, cp, m, out);
	if (!n) {
		out->status = MODEL_NO_DATA;
		snprintf(out->note, sizeof out->note, "not measured");
		return;
	}
	if (!enough_points(ctx, n, out)) {
		out->status = MODEL_FEW_POINTS;
		return;
	}
	bool all_zero = true;
	for (size_t i = 0; i < n; i++)
		all_zero &= ctx->y[i] == 0;
	if (all_zero) {
		out->status = MODEL_OK;
		set_constant(out, (unsigned)e->nparams, 0);
		out->quality = (struct model_quality){.npoints = n, .ar2 = 1};
		out->prediction = (struct model_prediction){.has_interval = true, .level = ctx->o->level, .supported = true};
		return;
	}
	noise_assess(ctx->reps, ctx->nreps, ctx->y, n, ctx->o->noise_limit, &out->noise);
	if (out->noise.too_noisy) {
		report_noisy(ctx, n, out);
		return;
	}
	if (model_exact_count(ctx, m, n, out)) {
		if (out->prediction.supported)
			return;
		/* a law one rung checks, or laws that disagree: the interval also holds what the
		 * PMNF search makes of the rungs, so that it is not narrower than the ladder says */
		struct model_result pm = *out;
		pm.note[0] = 0;
		fit_series_or_without_zeros(ctx, cp, m, n, &pm);
		if (model_status_has_function(pm.status) && pm.prediction.has_interval) {
			out->prediction.lo = floor(fmin(out->prediction.lo, pm.prediction.lo));
			out->prediction.hi = ceil(fmax(out->prediction.hi, pm.prediction.hi));
		}
		return;
	}
	fit_series_or_without_zeros(ctx, cp, m, n, out);
	round_count(ctx, m, n, out);
}
