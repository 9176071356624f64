/*
 * rank — the ranking of call paths at the target (SC13 §2.5): by predicted value, or, without a
 * target, by growth class first (the asymptotic ranking) and value second. Call paths without
 * a model come last, in their original order.
 */
#include "model/modeler.h"

#include <stdlib.h>

/* a total preorder on growth: the sum of p-exponents of the fastest term, then of log-exponents */
static void growth_key(const struct pmnf *f, double *ki, double *kj)
{
	unsigned lead[PMNF_MAX_TERMS];
	unsigned n = pmnf_leading_terms(f, lead);
	*ki = *kj = 0;
	for (unsigned k = 0; k < n; k++) {
		double si = 0, sj = 0;
		for (unsigned l = 0; l < f->nparams; l++) {
			si += f->term[lead[k]].f[l].i;
			sj += f->term[lead[k]].f[l].j;
		}
		if (k == 0 || si > *ki || (si == *ki && sj > *kj)) {
			*ki = si;
			*kj = sj;
		}
	}
}

struct rank_ctx {
	const struct model_results *res;
	size_t metric;
};
static struct rank_ctx g_rank;

static int compare(const void *a, const void *b)
{
	size_t ca = *(const size_t *)a, cb = *(const size_t *)b;
	const struct model_result *x = &g_rank.res->r[model_index(g_rank.res, ca, g_rank.metric)];
	const struct model_result *y = &g_rank.res->r[model_index(g_rank.res, cb, g_rank.metric)];
	bool mx = model_status_has_function(x->status), my = model_status_has_function(y->status);
	if (mx != my)
		return mx ? -1 : 1;
	if (!mx)
		return (ca > cb) - (ca < cb);
	if (!g_rank.res->target_given) {
		double xi, xj, yi, yj;
		growth_key(&x->fn, &xi, &xj);
		growth_key(&y->fn, &yi, &yj);
		if (xi != yi)
			return xi > yi ? -1 : 1;
		if (xj != yj)
			return xj > yj ? -1 : 1;
	}
	double vx = x->prediction.value, vy = y->prediction.value;
	if (vx != vy)
		return vx > vy ? -1 : 1;
	return (ca > cb) - (ca < cb);
}

void model_rank(const struct model_results *res, size_t metric, size_t *order)
{
	for (size_t c = 0; c < res->ncallpaths; c++)
		order[c] = c;
	g_rank = (struct rank_ctx){res, metric};
	qsort(order, res->ncallpaths, sizeof *order, compare);
}
