/*
 * interval — bootstrap prediction intervals with re-selection among the search's finalists.
 * See interval.h for the method and why.
 */
#include "model/interval.h"

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/search.h"
#include "util/xalloc.h"

struct finalist {
	struct hypothesis h;   /* terms, and the scores of the current replicate */
	struct fit_ops ops;
	size_t ncoef;
	bool compete;          /* takes part in re-selection */
};

static double dot(const double *a, const double *b, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

/* cross-validation error, RSS and adjusted R^2 of a finalist on weighted data yp */
static void score_replicate(struct finalist *f, const double *yp, size_t n, double tss)
{
	double cv = 0, rss = 0;
	for (size_t i = 0; i < n; i++) {
		double r = dot(f->ops.cvop + i * n, yp, n), e = dot(f->ops.resop + i * n, yp, n);
		cv += r * r;
		rss += e * e;
	}
	f->h.cv = cv / (double)n;
	f->h.rss = rss;
	f->h.ar2 = tss > 0 ? 1.0 - (rss / (double)(n - f->ncoef)) / (tss / (double)(n - 1)) : 1.0;
	f->h.valid = isfinite(f->h.cv);
}

/* the same stagewise rule as the search, over the finalists that compete in re-selection: the
 * best of each size by RSS, then search_refine */
static const struct finalist *reselect(const struct fit_problem *p, const struct finalist *fs, size_t nf)
{
	struct hypothesis stage[PMNF_MAX_TERMS + 1];
	const struct finalist *who[PMNF_MAX_TERMS + 1] = {0};
	unsigned nstages = 0;
	for (unsigned k = 0; k <= PMNF_MAX_TERMS; k++) {
		for (size_t c = 0; c < nf; c++)
			if (fs[c].compete && fs[c].h.nterms == k && fs[c].h.valid && (!who[k] || fs[c].h.rss < who[k]->h.rss))
				who[k] = &fs[c];
		stage[k] = who[k] ? who[k]->h : (struct hypothesis){.nterms = k, .valid = false};
		if (who[k])
			nstages = k + 1;
	}
	return nstages ? who[search_refine(p, stage, nstages)] : NULL;
}

/* relative deviations of the repetitions from their point's value */
static size_t pooled_deviations(const struct interval_spec *s, double *dev)
{
	size_t nd = 0;
	for (size_t i = 0; i < s->p->n; i++)
		if (s->nreps[i] > 1 && s->values[i] != 0)
			for (size_t r = 0; r < s->nreps[i]; r++)
				dev[nd++] = s->reps[i][r] / s->values[i] - 1.0;
	return nd;
}

/* relative residuals of the selected fit, inflated for the degrees of freedom it used */
static size_t fit_residuals(const struct interval_spec *s, double *fitted, double *dev)
{
	const struct fit_problem *p = s->p;
	const struct hypothesis *h = &s->finalists[0];
	size_t m = h->nterms + (h->constant ? 1 : 0);
	double inflate = p->n > m ? sqrt((double)p->n / (double)(p->n - m)) : 1.0;
	for (size_t i = 0; i < p->n; i++) {
		fitted[i] = h->c0;
		for (unsigned k = 0; k < h->nterms; k++)
			fitted[i] += h->coef[k] * p->basis[h->idx[k] * p->n + i];
		dev[i] = fitted[i] != 0 ? inflate * (s->values[i] / fitted[i] - 1.0) : 0.0;
	}
	return p->n;
}

static double aggregate_draw(const double *dev, size_t nd, size_t r, enum model_aggregate a, gsl_rng *rng)
{
	double v[r];
	for (size_t k = 0; k < r; k++)
		v[k] = 1.0 + dev[gsl_rng_uniform_int(rng, nd)];
	return aggregate_values(v, r, a);
}

/* the f-quantile of v[0..n) (interpolated as gsl_stats_quantile_from_sorted_data does) without
 * sorting it all: only the values below it, or above it, are sorted */
static double percentile(const double *v, size_t n, double f)
{
	double pos = f * (double)(n - 1), a, b;
	size_t lo = (size_t)floor(pos), hi = lo + 1 < n ? lo + 1 : lo;
	if (hi < n / 2) {
		double part[hi + 1];            /* the hi + 1 smallest, ascending */
		gsl_sort_smallest(part, hi + 1, v, 1, n);
		a = part[lo];
		b = part[hi];
	} else {
		size_t k = n - lo;              /* the k largest, descending: rank t is part[n-1-t] */
		double part[k];
		gsl_sort_largest(part, k, v, 1, n);
		a = part[n - 1 - lo];
		b = part[n - 1 - hi];
	}
	return a + (pos - (double)lo) * (b - a);
}

/* The selected hypothesis and the best of every other size re-compete in each replicate; the
 * others are not needed. false when the selected hypothesis has no operators. */
static bool prepare_finalists(const struct interval_spec *s, struct finalist *fs, struct fit_work *w)
{
	const struct fit_problem *p = s->p;
	for (size_t c = 0; c < s->nfinalists; c++) {
		const struct hypothesis *h = &s->finalists[c];
		fs[c].h = *h;
		fs[c].ncoef = h->nterms + (h->constant ? 1 : 0);
		fs[c].compete = c == 0;
		if (c > 0 && h->nterms != s->finalists[0].nterms) {
			fs[c].compete = true;
			for (size_t d = 1; d < s->nfinalists && fs[c].compete; d++)
				fs[c].compete = !(s->finalists[d].nterms == h->nterms && s->finalists[d].rss < h->rss);
		}
		if (fs[c].compete && fit_operators(p, &fs[c].h, s->x0, &fs[c].ops, w)) {
			if (c == 0)
				return false;
			fs[c].compete = false;
		}
	}
	return true;
}

/* one replicate's per-point values (ys) and selection values (ysel): resampled repetitions
 * re-aggregated, or (one repetition per point) the fit times a resampled relative residual */
static void resample_values(const struct interval_spec *s, bool repetitions, const double *fitted,
			    const double *dev, size_t nd, gsl_rng *rng, unsigned *counts, double *ys, double *ysel)
{
	const struct fit_problem *p = s->p;
	for (size_t i = 0; i < p->n; i++) {
		if (!repetitions) {
			ys[i] = ysel[i] = fitted[i] * (1.0 + dev[gsl_rng_uniform_int(rng, nd)]);
		} else if (s->nreps[i] > 1) {
			memset(counts, 0, s->nreps[i] * sizeof *counts);
			for (size_t r = 0; r < s->nreps[i]; r++)
				counts[gsl_rng_uniform_int(rng, s->nreps[i])]++;
			ys[i] = aggregate_counts(s->reps[i], counts, s->nreps[i], s->nreps[i], s->aggregate);
			ysel[i] = s->select == s->aggregate ? ys[i]
				  : aggregate_counts(s->reps[i], counts, s->nreps[i], s->nreps[i], s->select);
		} else {
			ys[i] = s->values[i];
			ysel[i] = p->y[i];
		}
	}
}

/* the percentile interval of the re-selected predictions */
static void interval_of(const struct interval_spec *s, const double *out, double *lo, double *hi)
{
	*lo = fmax(percentile(out, s->replicates, (1.0 - s->level) / 2), 0.0);   /* the metrics are non-negative */
	*hi = percentile(out, s->replicates, (1.0 + s->level) / 2);
}

int interval_bootstrap(const struct interval_spec *s, struct fit_work *w, double *lo, double *hi)
{
	const struct fit_problem *p = s->p;
	size_t n = p->n, nf = s->nfinalists, maxreps = 1, total = 0;
	if (!s->replicates || !nf)
		return -1;
	struct finalist *fs = xcalloc(nf, sizeof *fs);
	bool ok = prepare_finalists(s, fs, w);
	for (size_t i = 0; i < n; i++) {
		maxreps = s->nreps[i] > maxreps ? s->nreps[i] : maxreps;
		total += s->nreps[i];
	}
	double *dev = xmalloc((total + n) * sizeof *dev), *fitted = xmalloc(n * sizeof *fitted);
	double *out = xmalloc(s->replicates * sizeof *out);
	size_t nd = maxreps > 1 ? pooled_deviations(s, dev) : 0;
	/* identical repetitions say nothing about the noise: resample the residuals instead, or the
	 * interval has no width and excludes the truth whenever the model is off */
	bool repetitions = false;
	for (size_t k = 0; k < nd; k++)
		repetitions |= dev[k] != 0;
	if (!repetitions)
		nd = fit_residuals(s, fitted, dev);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	ok &= rng != NULL;
	if (rng)
		gsl_rng_set(rng, s->seed);
	double ys[n], ysel[n], yp[n];
	unsigned counts[maxreps];
	for (unsigned b = 0; ok && b < s->replicates; b++) {
		resample_values(s, repetitions, fitted, dev, nd, rng, counts, ys, ysel);
		for (size_t i = 0; i < n; i++)
			yp[i] = p->sw[i] * ysel[i];
		double tss = fit_weighted_tss(n, ysel, p->sw);
		for (size_t c = 0; c < nf; c++)
			if (fs[c].compete)
				score_replicate(&fs[c], yp, n, tss);
		const struct finalist *sel = reselect(p, fs, nf);
		/* a future measurement at the target: as many repetitions, aggregated alike */
		double factor = nd ? aggregate_draw(dev, nd, repetitions ? maxreps : 1, s->aggregate, rng) : 1.0;
		out[b] = dot((sel ? sel : &fs[0])->ops.g, ys, n) * factor;
	}
	if (ok)
		interval_of(s, out, lo, hi);
	gsl_rng_free(rng);
	for (size_t c = 0; c < nf; c++)
		fit_ops_free(&fs[c].ops);
	free(fs);
	free(dev);
	free(fitted);
	free(out);
	return ok ? 0 : -1;
}
