/*
 * posterior — the log posterior of the screened hypotheses and the selection that follows from
 * it. See posterior.h.
 */
#include "model/posterior.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* the most probable hypotheses the selection fits, in turn, before it leaves the search's choice alone */
#define TRIES 8

static double log_binomial(unsigned n, unsigned k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* the log prior density of h's term coefficients (posterior.h); sign[0] and sign[1]: the log
 * of twice the prior probability of a positive and a negative coefficient */
static double log_prior(const struct search_record *h, const double *sign)
{
	double lp = h->logpeak;
	for (unsigned k = 0; k < h->nterms; k++)
		lp += -0.5 * h->share[k] * h->share[k] + sign[h->share[k] < 0];
	return lp;
}

/* the noise estimate given h: its sum of squares; *dof its degrees of freedom */
static double pooled(const struct search_record *h, const struct posterior_noise *z, double *dof)
{
	*dof = (double)z->n - (double)(h->nterms + 1) + z->dof;
	return z->dof * z->s2 + h->rss;
}

void posterior_log_weights(const struct search_record *h, size_t nh, unsigned ncand, const struct posterior_noise *z,
			   double *lw)
{
	/* what depends on the number of terms only: Gamma(a) and the prior of the size */
	double by_size[PMNF_MAX_TERMS + 1];
	for (unsigned k = 0; k <= PMNF_MAX_TERMS; k++) {
		double a = 0.5 * ((double)z->n - (double)(k + 1) + z->dof);
		by_size[k] = (a > 0 ? lgamma(a) : 0) - (k <= ncand ? log_binomial(ncand, k) : 0);
	}
	const double sign[2] = {log(2 * (1 - POSTERIOR_NEGATIVE)), log(2 * POSTERIOR_NEGATIVE)};
	for (size_t k = 0; k < nh; k++) {
		double dof, ss = pooled(&h[k], z, &dof);
		lw[k] = dof > 0 ? by_size[h[k].nterms] - 0.5 * dof * log(0.5 * fmax(ss, DBL_MIN)) : -INFINITY;
		lw[k] += -0.5 * h[k].logdet + log_prior(&h[k], sign);
	}
}

double posterior_noise_var(const struct search_record *h, const struct posterior_noise *z)
{
	double dof, ss = pooled(h, z, &dof);
	return dof > 0 ? ss / dof : z->s2;
}

bool posterior_select(const struct fit_problem *p, struct search_result *r, struct fit_work *w)
{
	size_t nh = r->nrecords;
	bool measured = p->noise_dof > 0 && p->noise_var > 0;
	if (!nh || (!measured && r->best.cv < POSTERIOR_EXACT))
		return false;
	struct posterior_noise z = {.s2 = measured ? p->noise_var : 0, .dof = measured ? p->noise_dof : 0, .n = p->n};
	double *lw = xmalloc(nh * sizeof *lw);
	posterior_log_weights(r->record, nh, (unsigned)p->ncand, &z, lw);
	bool found = false;
	for (int t = 0; t < TRIES && !found; t++) {
		size_t best = 0;
		for (size_t k = 1; k < nh; k++)
			if (lw[k] > lw[best])
				best = k;
		if (!(lw[best] > -INFINITY))
			break;
		lw[best] = -INFINITY;
		struct hypothesis h = {.nterms = r->record[best].nterms, .constant = true};
		memcpy(h.idx, r->record[best].idx, h.nterms * sizeof h.idx[0]);
		if ((found = fit_hypothesis(p, &h, w)))
			r->best = h;
	}
	free(lw);
	return found;
}
