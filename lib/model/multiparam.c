/*
 * multiparam — per-parameter searches along lines of points, and their products as candidate
 * terms. See multiparam.h.
 */
#include "model/multiparam.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/problem.h"
#include "util/xalloc.h"

/* hypotheses of each size of a line search whose terms become candidate factors */
#define LINE_FINALISTS 3

/* points i and j agree in every coordinate but `param` */
static bool same_line(const double *pts, unsigned np, size_t i, size_t j, unsigned param)
{
	for (unsigned l = 0; l < np; l++)
		if (l != param && pts[i * np + l] != pts[j * np + l])
			return false;
	return true;
}

/* line[i]: the smallest index of a point on the same line as point i */
static void line_ids(const double *pts, size_t n, unsigned np, unsigned param, size_t *line)
{
	for (size_t i = 0; i < n; i++) {
		line[i] = i;
		for (size_t j = 0; j < i; j++)
			if (same_line(pts, np, i, j, param)) {
				line[i] = line[j];
				break;
			}
	}
}

size_t multiparam_line_length(const double *points, size_t n, unsigned nparams, unsigned param)
{
	size_t *line = xmalloc((n ? n : 1) * sizeof *line), best = 0;
	line_ids(points, n, nparams, param, line);
	for (size_t i = 0; i < n; i++) {
		size_t len = 0;
		for (size_t j = 0; j < n; j++)
			len += line[j] == i;
		if (len > best)
			best = len;
	}
	free(line);
	return best;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The values of `param` on the longest lines, and y averaged over those lines that cover
 * exactly the same values (*nlines of them). Returns how many values. */
static size_t average_lines(const struct multiparam_spec *s, unsigned param, double *xs, double *ys, size_t *nlines)
{
	size_t n = s->n, np = s->nparams;
	size_t *line = xmalloc(n * sizeof *line), *len = xcalloc(n, sizeof *len), longest = 0, first = 0;
	line_ids(s->points, n, s->nparams, param, line);
	for (size_t i = 0; i < n; i++)
		len[line[i]]++;
	for (size_t i = 0; i < n; i++)
		if (len[i] > longest) {
			longest = len[i];
			first = i;
		}
	size_t nx = 0;
	for (size_t i = 0; i < n; i++)
		if (line[i] == first)
			xs[nx++] = s->points[i * np + param];
	qsort(xs, nx, sizeof *xs, cmp_double);
	double *sum = xcalloc(nx, sizeof *sum);
	size_t used = 0;
	for (size_t l = 0; l < n; l++) {
		if (len[l] != longest || line[l] != l)
			continue;
		/* the line must cover the same values as the first */
		double vals[longest];
		size_t k = 0;
		for (size_t i = 0; i < n; i++)
			if (line[i] == l)
				vals[k++] = s->points[i * np + param];
		qsort(vals, k, sizeof *vals, cmp_double);
		if (memcmp(vals, xs, nx * sizeof *xs))
			continue;
		for (size_t i = 0; i < n; i++)
			if (line[i] == l)
				for (size_t x = 0; x < nx; x++)
					if (xs[x] == s->points[i * np + param])
						sum[x] += s->y[i];
		used++;
	}
	for (size_t x = 0; x < nx; x++)
		ys[x] = sum[x] / (double)used;
	*nlines = used;
	free(sum);
	free(line);
	free(len);
	return nx;
}

/* the factors of h's terms not yet in out[0..*nout) appended, up to MULTIPARAM_MAX_FACTORS */
static void keep_factors(const struct candidates *c, const struct hypothesis *h, struct pmnf_factor *out, unsigned *nout)
{
	for (unsigned t = 0; t < h->nterms; t++) {
		struct pmnf_factor f = c->term[h->idx[t]].f[0];
		bool have = false;
		for (unsigned q = 0; q < *nout && !have; q++)
			have = pmnf_factor_cmp(out[q], f) == 0;
		if (!have && *nout < MULTIPARAM_MAX_FACTORS)
			out[(*nout)++] = f;
	}
}

/* The term factors of `param` the single-parameter search finds along its lines: those of the
 * best few hypotheses of every size up to the selected one. Five values of a parameter rarely
 * single out one term, the full grid decides among them; and the smaller sizes' terms give the
 * grid search the simpler rivals of a selection whose extra term only bends the curve at the
 * largest value (p^(1/2) log p + a tiny p^(5/2) log p standing in for p^(3/4)), so that model
 * averaging sees them: with the selected size's terms alone the interval of such a model
 * missed the truth at 64x by 40x and spanned 6x (held-out set of accuracy_model). */
static int select_factors(const struct multiparam_spec *s, unsigned param, struct pmnf_factor *out,
			  unsigned *nout, struct fit_work *w, struct model_error *err)
{
	double xs[s->n], ys[s->n];
	size_t nlines, nx = average_lines(s, param, xs, ys, &nlines);
	if (nx < SEARCH_MIN_POINTS) {
		model_error_set(err, "parameter %u has %zu values along its longest line of points; the search needs %d",
				param + 1, nx, SEARCH_MIN_POINTS);
		return -1;
	}
	struct candidates c;
	candidates_from_exponents(s->exponents, 1, 0, &c);
	struct problem pr;
	struct problem_spec ps = {
		.points = xs, .y = ys, .n = nx, .cand = &c, .relative_weights = s->relative_weights,
		.cv = FIT_CV_LOO, .eps_contrib = s->eps_contrib,
		.rel_noise_var = s->rel_noise_var / (double)nlines, .noise_dof = s->noise_dof,
	};
	problem_init(&pr, &ps);
	struct search_result r;
	struct search_options so = *s->search;
	so.record = false;   /* only the terms are wanted */
	*nout = 0;
	if (search_best(&pr.fp, &so, &r, w) == 0)
		for (unsigned k = 1; k <= r.best.nterms; k++)
			for (unsigned j = 0; j < r.ntop[k] && j < LINE_FINALISTS; j++)
				keep_factors(&c, &r.top[k][j], out, nout);
	problem_free(&pr);
	return 0;
}

int multiparam_candidates(const struct multiparam_spec *s, struct candidates *out, struct fit_work *w,
			  struct model_error *err)
{
	struct pmnf_factor fac[PMNF_MAX_PARAMS][MULTIPARAM_MAX_FACTORS + 1];
	unsigned nfac[PMNF_MAX_PARAMS];
	for (unsigned l = 0; l < s->nparams; l++) {
		fac[l][0] = (struct pmnf_factor){0, 0};
		if (select_factors(s, l, fac[l] + 1, &nfac[l], w, err))
			return -1;
		nfac[l]++;
	}
	/* every combination of one factor (or none) per parameter, except all none */
	memset(out, 0, sizeof *out);
	out->nparams = s->nparams;
	unsigned pick[PMNF_MAX_PARAMS] = {0};
	for (;;) {
		unsigned l = 0;
		while (l < s->nparams && ++pick[l] == nfac[l])
			pick[l++] = 0;
		if (l == s->nparams)
			break;
		if (out->n == CANDIDATES_MAX)
			break;
		for (unsigned q = 0; q < s->nparams; q++)
			out->term[out->n].f[q] = fac[q][pick[q]];
		out->n++;
	}
	return 0;
}
