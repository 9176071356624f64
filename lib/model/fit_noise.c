/*
 * fit_noise — the tests of fit.h against the noise measured by the repetitions: is a fit within
 * the noise, is a larger one significantly better; and their critical values.
 */
#include "model/fit.h"

#include <math.h>
#include <string.h>

#include "model/critical.h"

static void critical_values(size_t n, size_t ncand, double noise_dof, double *fcrit, double *fadd)
{
	for (size_t m = 0; m < PMNF_MAX_TERMS + 2; m++)
		fcrit[m] = noise_dof > 0 && n > m ? critical_f(FIT_ALPHA, (double)(n - m), noise_dof) : 0.0;
	/* adding a term to k terms: the best of the ncand - k terms that could be added is tested,
	 * so the level is divided among them (Bonferroni) */
	for (unsigned k = 0; k <= PMNF_MAX_TERMS; k++) {
		double alpha = FIT_ALPHA / (double)(ncand > k + 1 ? ncand - k : 1);
		double dof = noise_dof > 0 ? noise_dof : (double)n - (double)(k + 2);
		fadd[k] = dof > 0 ? critical_f(alpha, 1.0, dof) : INFINITY;
		if (!isfinite(fadd[k]))
			fadd[k] = INFINITY;   /* no critical value: no term is shown significant */
	}
}

void fit_noise_init(struct fit_problem *p, double noise_var, double noise_dof, struct fit_critical *cache)
{
	p->noise_var = noise_var;
	p->noise_dof = noise_dof;
	for (unsigned k = 0; cache && k < FIT_CRITICAL_SETS; k++) {
		const struct fit_critical_set *c = &cache->set[k];
		if (c->valid && c->n == p->n && c->ncand == p->ncand && c->dof == noise_dof) {
			memcpy(p->fcrit, c->fcrit, sizeof p->fcrit);
			memcpy(p->fadd, c->fadd, sizeof p->fadd);
			return;
		}
	}
	critical_values(p->n, p->ncand, noise_dof, p->fcrit, p->fadd);
	if (cache) {
		struct fit_critical_set *c = &cache->set[cache->next];
		cache->next = (cache->next + 1) % FIT_CRITICAL_SETS;
		*c = (struct fit_critical_set){.valid = true, .n = p->n, .ncand = p->ncand, .dof = noise_dof};
		memcpy(c->fcrit, p->fcrit, sizeof p->fcrit);
		memcpy(c->fadd, p->fadd, sizeof p->fadd);
	}
}

bool fit_within_noise(const struct fit_problem *p, const struct hypothesis *h)
{
	size_t m = h->nterms + (h->constant ? 1 : 0);
	if (!(p->noise_dof > 0) || p->n <= m)
		return false;
	if (!(p->noise_var > 0))
		return h->rss <= 0;
	return (h->rss / (double)(p->n - m)) / p->noise_var <= p->fcrit[m];
}

bool fit_significant(const struct fit_problem *p, const struct hypothesis *smaller, const struct hypothesis *larger)
{
	size_t ms = smaller->nterms + (smaller->constant ? 1 : 0), ml = larger->nterms + (larger->constant ? 1 : 0);
	double drss = smaller->rss - larger->rss;
	if (!(drss > 0))
		return false;
	double added = ml > ms ? (double)(ml - ms) : 1.0, scale;
	if (p->noise_dof > 0) {
		scale = p->noise_var;
	} else {
		if (p->n <= ml)
			return false;
		scale = larger->rss / (double)(p->n - ml);
	}
	if (!(scale > 0))
		return true;   /* exact data: any improvement is real */
	unsigned k = smaller->nterms < PMNF_MAX_TERMS ? smaller->nterms : PMNF_MAX_TERMS;
	double crit = p->fadd[k];
	if (added > 1) {
		/* two terms at once (a stage skipped): shared among the pairs that could be added */
		double free_ = p->ncand > k ? (double)(p->ncand - k) : 1.0, pairs = fmax(1.0, free_ * (free_ - 1) / 2);
		double dof = p->noise_dof > 0 ? p->noise_dof : (double)(p->n - ml);
		crit = critical_f(FIT_ALPHA / pairs, added, dof);
		if (!isfinite(crit))
			return false;
	}
	return (drss / added) / scale > crit;
}
