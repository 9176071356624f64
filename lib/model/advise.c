/*
 * advise — the rung that would separate two rival models, and the one that narrows the
 * prediction most. See advise.h.
 */
#include "model/advise.h"

#include <gsl/gsl_linalg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/candidates.h"
#include "model/critical.h"
#include "model/problem.h"
#include "model/search.h"
#include "util/xalloc.h"

/* a term contributing less than this fraction at every point only fits noise (as series.c) */
#define ADVISE_EPS_CONTRIB 5e-4

double advise_separation(const struct pmnf *a, const struct pmnf *b, double p, double noise_sd)
{
	double fa = pmnf_eval(a, &p), fb = pmnf_eval(b, &p), scale = fmax(fabs(fa), fabs(fb));
	if (!(scale > 0))
		return 0;
	return fabs(fa - fb) / scale / noise_sd;
}

/* the per-point values of (cp, metric) and their repetitions; returns how many points */
static size_t gather(const struct model_results *res, size_t cp, size_t metric, double *pts, double *y,
		     const double **reps, size_t *nreps)
{
	const struct experiment *e = res->e;
	const struct model_result *r = &res->r[model_index(res, cp, metric)];
	size_t n = 0;
	for (size_t p = 0; p < e->npoints; p++) {
		const struct series *s = experiment_values(e, cp, metric, p);
		if (!s->n)
			continue;
		pts[n] = experiment_point(e, p)[0];
		y[n] = r->points[p].value;
		reps[n] = s->v;
		nreps[n] = s->n;
		n++;
	}
	return n;
}

static double predict(const struct hypothesis *h, const double *x0)
{
	double v = h->c0;
	for (unsigned k = 0; k < h->nterms; k++)
		v += h->coef[k] * x0[h->idx[k]];
	return v;
}

/* the hypothesis of the search that fits within the noise of the selected one and predicts
 * the most different value at the target; NULL when there is none */
static const struct hypothesis *find_rival(const struct search_result *sr, const double *x0, double s2, double crit)
{
	const struct hypothesis *best = &sr->best, *rival = NULL;
	double pbest = predict(best, x0), most = 0;
	for (unsigned k = 0; k < sr->nstages; k++)
		for (unsigned j = 0; j < sr->ntop[k]; j++) {
			const struct hypothesis *h = &sr->top[k][j];
			if (!h->valid || (h->nterms == best->nterms && !memcmp(h->idx, best->idx, h->nterms * sizeof h->idx[0])))
				continue;
			double ph = predict(h, x0), gap = ph > 0 && pbest > 0 ? fabs(log(ph / pbest)) : 0;
			if (h->rss <= best->rss + crit * s2 && gap > most) {
				most = gap;
				rival = h;
			}
		}
	return rival;
}

/* every rung a cube, and not all of them powers of two (1, 8, 27) */
static bool on_cubes(const double *pts, size_t n)
{
	bool pow2 = true;
	for (size_t i = 0; i < n; i++) {
		double k = nearbyint(cbrt(pts[i]));
		if (k * k * k != pts[i])
			return false;
		pow2 &= pts[i] == exp2(nearbyint(log2(pts[i])));
	}
	return n >= 2 && !pow2;
}

/* the ladder continued by its last factor (the next cubes, for a ladder of cubes) up to the
 * target, and the target */
static void candidate_rungs(const double *pts, size_t n, double target, struct advice *a)
{
	double largest = 0, second = 0;
	for (size_t i = 0; i < n; i++) {
		if (pts[i] > largest) {
			second = largest;
			largest = pts[i];
		} else if (pts[i] > second && pts[i] < largest) {
			second = pts[i];
		}
	}
	double factor = second > 0 && largest / second > 1.01 ? largest / second : 2.0;
	a->largest = largest;
	a->nrungs = 0;
	if (on_cubes(pts, n)) {
		/* a code that runs on cubes only: the next cubes */
		for (double k = nearbyint(cbrt(largest)) + 1; k * k * k < target * (1 - 1e-9) && a->nrungs + 1 < ADVISE_MAX_RUNGS; k++)
			a->rung[a->nrungs++] = k * k * k;
	} else {
		for (double r = largest * factor; r < target * (1 - 1e-9) && a->nrungs + 1 < ADVISE_MAX_RUNGS; r *= factor)
			a->rung[a->nrungs++] = r;
	}
	a->rung[a->nrungs++] = target;
}

static void separate(struct advice *a)
{
	a->separation_now = advise_separation(&a->best, &a->rival, a->largest, a->noise_sd);
	a->agree_to = a->separation_now <= 1 ? a->largest : 0;
	for (size_t k = 0; k < a->nrungs && a->agree_to > 0; k++)
		if (advise_separation(&a->best, &a->rival, a->rung[k], a->noise_sd) <= 1)
			a->agree_to = a->rung[k];
		else
			break;
	a->separation = -1;
	for (size_t k = 0; k < a->nrungs; k++) {
		double s = advise_separation(&a->best, &a->rival, a->rung[k], a->noise_sd);
		if (s >= ADVISE_SEPARATION) {
			a->separate_at = a->rung[k];
			a->separation = s;
			return;
		}
		if (s > a->separation) {
			a->separate_at = a->rung[k];
			a->separation = s;
		}
	}
}

/* x: the columns of h (constant, terms) at one point, from the candidates' values there */
static size_t columns(const struct hypothesis *h, const double *cand_values, double *x)
{
	size_t m = 0;
	if (h->constant)
		x[m++] = 1.0;
	for (unsigned k = 0; k < h->nterms; k++)
		x[m++] = cand_values[h->idx[k]];
	return m;
}

static double quad(const double *ainv, const double *u, const double *v, size_t m)
{
	double s = 0;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < m; j++)
			s += u[i] * ainv[i * m + j] * v[j];
	return s;
}

/* the inverse of X^T W X of h over the measured points, columns scaled to unit diagonal (the
 * scales in d); false when singular */
static bool information_inverse(const struct fit_problem *fp, const struct hypothesis *h, double *ainv, double *d)
{
	size_t m = h->nterms + (h->constant ? 1 : 0);
	double a[m * m], cand[fp->ncand], x[m];
	memset(a, 0, sizeof a);
	for (size_t i = 0; i < fp->n; i++) {
		for (size_t c = 0; c < fp->ncand; c++)
			cand[c] = fp->basis[c * fp->n + i];
		columns(h, cand, x);
		for (size_t r = 0; r < m; r++)
			for (size_t c = 0; c < m; c++)
				a[r * m + c] += fp->sw[i] * fp->sw[i] * x[r] * x[c];
	}
	for (size_t r = 0; r < m; r++)
		d[r] = sqrt(a[r * m + r]) > 0 ? sqrt(a[r * m + r]) : 1.0;
	for (size_t r = 0; r < m; r++)
		for (size_t c = 0; c < m; c++)
			a[r * m + c] /= d[r] * d[c];
	gsl_matrix_view av = gsl_matrix_view_array(a, m, m);
	gsl_matrix_view iv = gsl_matrix_view_array(ainv, m, m);
	gsl_permutation *perm = gsl_permutation_alloc(m);
	int sign;
	bool ok = perm && !gsl_linalg_LU_decomp(&av.matrix, perm, &sign) && !gsl_linalg_LU_invert(&av.matrix, perm, &iv.matrix);
	gsl_permutation_free(perm);
	return ok;
}

/* the candidate below the target whose measurement most reduces the variance of h's
 * prediction at the target (relative noise: a new point weighs 1 / f(rung)) */
static void narrow(const struct fit_problem *fp, const struct hypothesis *h, const struct candidates *cand,
		   const double *x0c, struct advice *a)
{
	size_t m = h->nterms + (h->constant ? 1 : 0);
	double ainv[m * m], d[m], x0[m];
	if (a->nrungs < 2 || !information_inverse(fp, h, ainv, d))
		return;
	columns(h, x0c, x0);
	for (size_t c = 0; c < m; c++)
		x0[c] /= d[c];
	double f0 = predict(h, x0c), v0 = quad(ainv, x0, x0, m);
	if (!(f0 > 0) || !(v0 >= 0))
		return;
	a->sd_now = a->noise_sd * sqrt(v0) / f0;
	for (size_t k = 0; k + 1 < a->nrungs; k++) {
		double cv[cand->n], u[m];
		candidates_basis(cand, &a->rung[k], 1, cv);
		double f = predict(h, cv);
		if (!(f > 0))
			continue;
		columns(h, cv, u);
		for (size_t c = 0; c < m; c++)
			u[c] /= d[c] * f;
		double g = quad(ainv, x0, u, m), v = v0 - g * g / (1 + quad(ainv, u, u, m));
		double sd = a->noise_sd * sqrt(fmax(v, 0)) / f0;
		if (!a->has_narrowing || sd < a->sd_after) {
			a->has_narrowing = true;
			a->narrow_at = a->rung[k];
			a->sd_after = sd;
		}
	}
}

/* the noise of a per-point value: the repetitions', else the residuals of the selected fit */
static double noise_sd(const struct fit_problem *fp, const struct hypothesis *best, double rel_var, double dof)
{
	size_t m = best->nterms + (best->constant ? 1 : 0);
	double v = dof > 0 && rel_var > 0 ? rel_var : fp->n > m ? best->rss / (double)(fp->n - m) : 0;
	return fmax(sqrt(v), ADVISE_MIN_NOISE);
}

/* the hypothesis of the model's terms among the candidates, fitted to p; false when a term is
 * not a candidate or the fit is not valid */
static bool model_hypothesis(const struct fit_problem *p, const struct candidates *cand, const struct pmnf *fn,
			     struct hypothesis *h, struct fit_work *w)
{
	*h = (struct hypothesis){.nterms = fn->nterms, .constant = fn->constant != 0 || !fn->nterms};
	for (unsigned k = 0; k < fn->nterms; k++) {
		size_t c = 0;
		while (c < cand->n && !pmnf_term_same_shape(&cand->term[c], &fn->term[k], 1))
			c++;
		if (c == cand->n)
			return false;
		h->idx[k] = (unsigned)c;
	}
	for (unsigned i = 1; i < h->nterms; i++)   /* ascending, as the search keeps them */
		for (unsigned j = i; j > 0 && h->idx[j] < h->idx[j - 1]; j--) {
			unsigned t = h->idx[j];
			h->idx[j] = h->idx[j - 1];
			h->idx[j - 1] = t;
		}
	return fit_hypothesis(p, h, w);
}

static int advise_series(const struct model_results *res, const struct model_result *r, size_t n, double *pts,
			 double *y, const double **reps, size_t *nreps, struct advice *a)
{
	const struct model_options *o = &res->options;
	double dof, rel_var = aggregate_relative_variance(reps, nreps, n, o->aggregate, o->seed, &dof);
	struct candidates cand;
	candidates_from_exponents(&o->exponents, 1, 0, &cand);
	struct problem pr;
	struct problem_spec ps = {
		.points = pts, .y = y, .n = n, .cand = &cand, .target = &a->target, .relative_weights = true,
		.cv = FIT_CV_LOO, .eps_contrib = ADVISE_EPS_CONTRIB, .rel_noise_var = dof > 0 ? rel_var : 0,
		.noise_dof = rel_var > 0 ? dof : 0,
	};
	problem_init(&pr, &ps);
	struct search_options so;
	search_options_default(&so);
	so.max_terms = o->max_terms;
	so.record = false;
	struct search_result *sr = xmalloc(sizeof *sr);
	struct fit_work *w = fit_work_new(n);
	int rc = search_best(&pr.fp, &so, sr, w);
	struct hypothesis selected;
	if (!rc && model_hypothesis(&pr.fp, &cand, &r->fn, &selected, w))
		sr->best = selected;   /* the model the modeler selected, not the tests' choice */
	if (rc) {
		snprintf(a->note, sizeof a->note, "no hypothesis could be fitted");
	} else {
		const struct hypothesis *best = &sr->best;
		size_t m = best->nterms + (best->constant ? 1 : 0);
		a->noise_sd = noise_sd(&pr.fp, best, ps.rel_noise_var, ps.noise_dof);
		double s2 = a->noise_sd * a->noise_sd, crit = critical_f(0.05, 1, ps.noise_dof > 0 ? ps.noise_dof : (double)(n - m));
		problem_function(&cand, best, &a->best);
		a->best_pred = predict(best, pr.x0);
		candidate_rungs(pts, n, a->target, a);
		const struct hypothesis *rival = find_rival(sr, pr.x0, s2, isfinite(crit) ? crit : 4.0);
		if (rival) {
			a->has_rival = true;
			problem_function(&cand, rival, &a->rival);
			a->rival_pred = predict(rival, pr.x0);
			separate(a);
		}
		narrow(&pr.fp, best, &cand, pr.x0, a);
	}
	fit_work_free(w);
	free(sr);
	problem_free(&pr);
	return rc;
}

int model_advise(const struct model_results *res, size_t cp, size_t metric, struct advice *a)
{
	const struct experiment *e = res->e;
	const struct model_result *r = &res->r[model_index(res, cp, metric)];
	memset(a, 0, sizeof *a);
	a->target = res->target[0];
	if (e->nparams != 1) {
		snprintf(a->note, sizeof a->note, "advice is given for one parameter (the rank count) only");
		return -1;
	}
	if (r->status != MODEL_OK) {
		snprintf(a->note, sizeof a->note, "not modeled (%s)", model_status_name(r->status));
		return -1;
	}
	size_t np = e->npoints ? e->npoints : 1;
	double *pts = xmalloc(np * sizeof *pts), *y = xmalloc(np * sizeof *y);
	const double **reps = xmalloc(np * sizeof *reps);
	size_t *nreps = xmalloc(np * sizeof *nreps);
	size_t n = gather(res, cp, metric, pts, y, reps, nreps);
	double largest = 0;
	for (size_t i = 0; i < n; i++)
		largest = fmax(largest, pts[i]);
	int rc = -1;
	if (!(a->target > largest))
		snprintf(a->note, sizeof a->note, "the target is within the ladder; no rung beyond it is needed");
	else
		rc = advise_series(res, r, n, pts, y, reps, nreps, a);
	free(pts);
	free(y);
	free(reps);
	free(nreps);
	return rc;
}
