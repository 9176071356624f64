/*
 * problem — building a fit_problem from points, values and candidates. See problem.h.
 */
#include "model/problem.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* how far beyond the largest point (or the target) a model must stay positive */
#define FAR_FACTOR 1000.0

/* lexicographic rank of each point, the order adjacent points are dealt to folds in */
static void point_order(const double *points, size_t n, unsigned nparams, double *key)
{
	for (size_t i = 0; i < n; i++) {
		size_t rank = 0;
		for (size_t j = 0; j < n; j++) {
			int c = 0;
			for (unsigned l = 0; l < nparams && !c; l++)
				c = points[j * nparams + l] < points[i * nparams + l] ? -1
				    : points[j * nparams + l] > points[i * nparams + l] ? 1 : 0;
			rank += c < 0 || (c == 0 && j < i);
		}
		key[i] = (double)rank;
	}
}

void problem_init(struct problem *pr, const struct problem_spec *s)
{
	const struct candidates *c = s->cand;
	size_t n = s->n;
	unsigned np = c->nparams;
	memset(pr, 0, sizeof *pr);
	pr->sw = xmalloc(n * sizeof(double));
	pr->basis = xmalloc((c->n ? c->n : 1) * n * sizeof(double));
	pr->check = xmalloc((c->n ? c->n : 1) * 2 * sizeof(double));
	pr->x0 = xmalloc((c->n ? c->n : 1) * sizeof(double));
	pr->fold = xcalloc(n, sizeof(unsigned));
	if (s->basis)
		memcpy(pr->basis, s->basis, c->n * n * sizeof(double));
	else
		candidates_basis(c, s->points, n, pr->basis);

	/* check points: the target, and FAR_FACTOR times beyond the larger of target and data */
	double chk[2 * PMNF_MAX_PARAMS], tgt[PMNF_MAX_PARAMS];
	for (unsigned l = 0; l < np; l++) {
		double most = 0;
		for (size_t i = 0; i < n; i++)
			most = fmax(most, s->points[i * np + l]);
		tgt[l] = s->target ? s->target[l] : most;
		chk[l] = tgt[l];
		chk[np + l] = FAR_FACTOR * fmax(most, tgt[l]);
	}
	double cb[2 * CANDIDATES_MAX];
	candidates_basis(c, chk, 2, cb);
	memcpy(pr->check, cb, c->n * 2 * sizeof(double));
	candidates_basis(c, tgt, 1, pr->x0);

	fit_weights(n, s->y, s->relative_weights, pr->sw, &pr->fp.tss);
	/* the relative noise variance in the weighted space of the fit */
	double mean_sq = 0;
	for (size_t i = 0; i < n; i++)
		mean_sq += (pr->sw[i] * s->y[i]) * (pr->sw[i] * s->y[i]) / (double)n;
	pr->fp.n = n;
	pr->fp.ncand = c->n;
	fit_noise_init(&pr->fp, s->rel_noise_var * mean_sq, s->noise_dof, s->critical);
	if (s->cv == FIT_CV_KFOLD) {
		double key[n];
		point_order(s->points, n, np, key);
		fit_assign_folds(n, key, s->kfold, pr->fold);
	}
	pr->fp.n = n;
	pr->fp.y = s->y;
	pr->fp.sw = pr->sw;
	pr->fp.ncand = c->n;
	pr->fp.basis = pr->basis;
	pr->fp.ncheck = 2;
	pr->fp.basis_check = pr->check;
	pr->fp.cv = s->cv;
	pr->fp.kfold = s->kfold;
	pr->fp.fold = pr->fold;
	pr->fp.eps_contrib = s->eps_contrib;
}

void problem_free(struct problem *pr)
{
	free(pr->sw);
	free(pr->basis);
	free(pr->check);
	free(pr->x0);
	free(pr->fold);
	memset(pr, 0, sizeof *pr);
}

static int by_growth(const void *a, const void *b)
{
	const struct pmnf_term *x = a, *y = b;
	for (unsigned l = 0; l < PMNF_MAX_PARAMS; l++) {
		int c = pmnf_factor_cmp(x->f[l], y->f[l]);
		if (c)
			return c;
	}
	return 0;
}

void problem_function(const struct candidates *cand, const struct hypothesis *h, struct pmnf *out)
{
	memset(out, 0, sizeof *out);
	out->nparams = cand->nparams;
	out->constant = h->constant ? h->c0 : 0.0;
	out->nterms = h->nterms;
	for (unsigned k = 0; k < h->nterms; k++) {
		out->term[k] = cand->term[h->idx[k]];
		out->term[k].coef = h->coef[k];
	}
	qsort(out->term, out->nterms, sizeof out->term[0], by_growth);
}
