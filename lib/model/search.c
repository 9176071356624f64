/*
 * search — hypothesis search with iterative refinement over a set of candidate terms.
 * See search.h.
 */
#include "model/search.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* a squared relative error this small means the data is reproduced exactly */
#define EXACT_CV 1e-20

void search_options_default(struct search_options *o)
{
	o->max_terms = 5;
	o->beam = 4;
	o->exhaustive_limit = 2000;
	o->basic = false;
	o->lookahead = true;
	o->record = true;
}

bool search_accepts(const struct fit_problem *p, const struct hypothesis *current, const struct hypothesis *next)
{
	if (!next->valid)
		return false;
	if (current->cv < EXACT_CV || fit_within_noise(p, current))
		return false;
	return next->ar2 > current->ar2 && next->cv < current->cv && fit_significant(p, current, next);
}

/* fit with a constant; when that goes non-positive because of a negative constant, try
 * without it (a pure c/p, c*p, ...) */
static void fit_either(const struct fit_problem *p, struct hypothesis *h, struct fit_work *w,
		       unsigned long *tried)
{
	h->constant = true;
	(*tried)++;
	if (fit_hypothesis(p, h, w) || h->nterms == 0 || !(h->c0 < 0))
		return;
	struct hypothesis alt = *h;
	alt.constant = false;
	(*tried)++;
	if (fit_hypothesis(p, &alt, w))
		*h = alt;
}

static bool same_terms(const struct hypothesis *a, const struct hypothesis *b)
{
	return a->nterms == b->nterms && !memcmp(a->idx, b->idx, a->nterms * sizeof a->idx[0]);
}

static double by_smape(const struct hypothesis *h)
{
	return h->cv_smape;
}

static double by_rss(const struct hypothesis *h)
{
	return h->rss;
}

/* insert h into list[0..*n), kept ordered by key and at most cap long, once per set of terms */
static void ranked_offer(struct hypothesis *list, unsigned *n, unsigned cap, const struct hypothesis *h,
			 double (*key)(const struct hypothesis *))
{
	if (*n == cap && !(key(h) < key(&list[cap - 1])))
		return;
	for (unsigned k = 0; k < *n; k++)
		if (same_terms(&list[k], h))
			return;
	unsigned at = *n;
	while (at > 0 && key(h) < key(&list[at - 1]))
		at--;
	if (at >= cap)
		return;
	unsigned last = *n < cap ? *n : cap - 1;
	memmove(&list[at + 1], &list[at], (last - at) * sizeof list[0]);
	list[at] = *h;
	if (*n < cap)
		(*n)++;
}

/* the best SEARCH_KEEP valid hypotheses of a stage: by weighted RSS, the likelihood, since they
 * have the same number of terms (by the SMAPE of leave-one-out predictions in basic mode) */
struct top {
	unsigned n;
	struct hypothesis h[SEARCH_KEEP];
};

static void top_offer(struct top *t, const struct hypothesis *h, bool basic)
{
	if (h->valid)
		ranked_offer(t->h, &t->n, SEARCH_KEEP, h, basic ? by_smape : by_rss);
}

static unsigned long binomial(unsigned long n, unsigned k)
{
	if (k > n)
		return 0;
	unsigned long r = 1;
	for (unsigned i = 1; i <= k; i++) {
		r = r * (n - k + i) / i;
		if (r > 1000000000UL)
			return r;
	}
	return r;
}

/* hypotheses of one stage that survived screening, ordered by weighted RSS */
struct shortlist {
	unsigned n;
	struct hypothesis h[SEARCH_SCREEN];
};

static void shortlist_offer(struct shortlist *s, const struct hypothesis *h)
{
	ranked_offer(s->h, &s->n, SEARCH_SCREEN, h, by_rss);
}

static void insert_sorted(struct hypothesis *h, unsigned idx)
{
	unsigned at = h->nterms;
	while (at > 0 && h->idx[at - 1] > idx) {
		h->idx[at] = h->idx[at - 1];
		at--;
	}
	h->idx[at] = idx;
	h->nterms++;
}

/* the largest relative size of every candidate over the points: a coefficient times it is the
 * term's share of the metric where the term is largest */
static void peaks(const struct fit_problem *p, struct search_result *r)
{
	for (unsigned c = 0; c < p->ncand && c < CANDIDATES_MAX; c++) {
		double most = 0;
		for (size_t i = 0; i < p->n; i++)
			most = fmax(most, fabs(p->sw[i] * p->basis[c * p->n + i]));
		r->peak[c] = most;
		r->logpeak[c] = log(most);
	}
}

/* record h (its term coefficients in the order of h->idx) for the posterior */
static void record(struct search_result *r, const struct hypothesis *h, const double *coef,
		   double pred, double var0, double rss, double logdet)
{
	if (r->nrecords >= SEARCH_RECORDS)
		return;
	struct search_record *x = &r->record[r->nrecords++];
	*x = (struct search_record){.nterms = h->nterms, .pred = pred, .var0 = var0, .rss = rss, .logdet = logdet};
	for (unsigned k = 0; k < h->nterms; k++) {
		x->idx[k] = h->idx[k];
		x->share[k] = coef[k] * r->peak[h->idx[k]];
		x->logpeak += r->logpeak[h->idx[k]];
	}
}

/* screen every base + one candidate by its exact RSS into sl (when not NULL), and record them
 * (and a constant base) in r when they stay positive at the check points (when r is not NULL);
 * above_base: only candidates after the base's last index (so that enumerating all bases lists
 * every subset once) */
static void screen_base(const struct fit_problem *p, const struct hypothesis *base, bool above_base,
			struct shortlist *sl, struct search_result *r, struct fit_work *w, unsigned long *tried)
{
	size_t n = p->n;
	double q[(PMNF_MAX_TERMS + 1) * n], res[n];
	struct fit_base fb = {.q = q, .res = res};
	struct hypothesis b = *base;
	b.constant = true;
	if (!fit_base_init(p, &b, &fb))
		return;
	if (!p->ncheck)
		r = NULL;
	bool positive = true;
	for (size_t j = 0; j < p->ncheck; j++)
		positive &= fb.pred[j] > 0;
	if (r && !b.nterms && positive)
		record(r, &b, NULL, fb.pred[0], fb.var0, fb.rss, fb.logdet);
	unsigned from = above_base && b.nterms ? b.idx[b.nterms - 1] + 1 : 0;
	for (unsigned c = from; c < p->ncand; c++) {
		bool present = false;
		for (unsigned k = 0; k < b.nterms; k++)
			present |= b.idx[k] == c;
		struct fit_extension x;
		if (present || !fit_extend(p, &fb, c, &x) || !isfinite(x.rss))
			continue;
		struct hypothesis h = b;
		insert_sorted(&h, c);
		h.rss = x.rss;
		if (sl) {
			(*tried)++;
			shortlist_offer(sl, &h);
		}
		positive = true;
		for (size_t j = 0; j < p->ncheck; j++)
			positive &= x.pred[j] > 0;
		if (r && positive) {
			double coef[PMNF_MAX_TERMS];
			for (unsigned k = 0, j = 1; k < h.nterms; k++)
				coef[k] = h.idx[k] == c ? x.coef_added : x.coef[j++];
			record(r, &h, coef, x.pred[0], x.var0, x.rss, x.logdet);
		}
	}
}

bool search_walk_bases(const struct fit_problem *p, unsigned k, bool (*visit)(const struct hypothesis *base, void *arg),
		       void *arg)
{
	if (k < 1 || k > PMNF_MAX_TERMS || k > p->ncand)
		return false;
	struct hypothesis base = {.constant = true, .nterms = k - 1};
	for (unsigned i = 0; i + 1 < k; i++)
		base.idx[i] = i;
	for (;;) {
		if (visit(&base, arg))
			return true;
		int i = (int)k - 2;
		while (i >= 0 && base.idx[i] == p->ncand - (k - 1) + (unsigned)i)
			i--;
		if (i < 0)
			return false;
		base.idx[i]++;
		for (unsigned j = (unsigned)i + 1; j + 1 < k; j++)
			base.idx[j] = base.idx[j - 1] + 1;
	}
}

/* what screen_exhaustive's walk screens every base into */
struct screen_into {
	const struct fit_problem *p;
	struct shortlist *sl;
	struct search_result *r;
	struct fit_work *w;
	unsigned long *tried;
};

static bool screen_visit(const struct hypothesis *base, void *arg)
{
	struct screen_into *s = arg;
	screen_base(s->p, base, true, s->sl, s->r, s->w, s->tried);
	return false;
}

/* all k-subsets: every (k-1)-subset as a base, extended by the candidates after it */
static void screen_exhaustive(const struct fit_problem *p, unsigned k, struct shortlist *sl, struct search_result *r,
			      struct fit_work *w, unsigned long *tried)
{
	struct screen_into s = {p, sl, r, w, tried};
	search_walk_bases(p, k, screen_visit, &s);
}

/* stage 1: every single term, fully fitted (and, to record them, screened from the constant) */
static void stage_singles(const struct fit_problem *p, struct top *t, bool basic, struct search_result *r,
			  struct fit_work *w, unsigned long *tried)
{
	if (r)
		screen_base(p, &r->stage[0], false, NULL, r, w, tried);
	for (unsigned c = 0; c < p->ncand; c++) {
		struct hypothesis h = {.nterms = 1, .idx = {c}};
		fit_either(p, &h, w, tried);
		top_offer(t, &h, basic);
	}
}

/* a later stage: screen (all subsets, or the previous stage's best few extended by one term),
 * then fit and cross-validate the shortlist */
static void stage_screened(const struct fit_problem *p, unsigned k, bool exhaustive, const struct top *prev,
			   unsigned beam, struct top *t, struct search_result *r, struct fit_work *w, unsigned long *tried)
{
	struct shortlist sl = {0};
	if (exhaustive)
		screen_exhaustive(p, k, &sl, r, w, tried);
	else
		for (unsigned b = 0; b < prev->n && b < beam; b++)
			screen_base(p, &prev->h[b], false, &sl, r, w, tried);
	for (unsigned j = 0; j < sl.n; j++) {
		struct hypothesis h = sl.h[j];
		fit_either(p, &h, w, tried);
		top_offer(t, &h, false);
	}
}

unsigned search_refine(const struct fit_problem *p, const struct hypothesis *stage, unsigned nstages)
{
	unsigned c = 0;
	while (c + 1 < nstages && !stage[c].valid)
		c++;
	for (unsigned k = c + 1; k < nstages && k <= c + 2; k++)
		if (search_accepts(p, &stage[c], &stage[k]))
			c = k;
	return c;
}

/* search stage k, given the stages so far and the one chosen among them? */
static bool search_continues(const struct fit_problem *p, const struct search_options *o,
			     const struct hypothesis *chosen, unsigned c, unsigned k)
{
	if (o->basic)
		return true;
	if (chosen->cv < EXACT_CV)
		return false;
	/* a fit within the noise is final, but with lookahead the next stage is still searched so
	 * the interval can weigh its hypotheses */
	if (fit_within_noise(p, chosen))
		return o->lookahead && k == c + 1;
	return k <= c + 2;
}

int search_best(const struct fit_problem *p, const struct search_options *o, struct search_result *r,
		struct fit_work *w)
{
	memset(r, 0, offsetof(struct search_result, record));   /* the records are written as they come */
	if (o->record)
		peaks(p, r);
	struct hypothesis h0 = {.constant = true};
	r->tried = 1;
	if (!fit_hypothesis(p, &h0, w))
		return -1;
	r->stage[0] = h0;
	r->nstages = 1;
	r->ntop[0] = 1;
	r->top[0][0] = h0;
	unsigned kmax = o->basic ? 1 : o->max_terms;
	if (kmax > PMNF_MAX_TERMS)
		kmax = PMNF_MAX_TERMS;
	struct top prev = {.n = 1, .h = {h0}};
	unsigned long tried = r->tried;
	unsigned chosen = 0;
	for (unsigned k = 1; k <= kmax && k <= p->ncand; k++) {
		if (!search_continues(p, o, &r->stage[chosen], chosen, k))
			break;
		struct top t = {0};
		if (k == 1)
			stage_singles(p, &t, o->basic, o->record ? r : NULL, w, &tried);
		else
			stage_screened(p, k, binomial(p->ncand, k) <= o->exhaustive_limit, &prev, o->beam, &t,
				       o->record ? r : NULL, w, &tried);
		r->nstages = k + 1;
		r->ntop[k] = t.n;
		memcpy(r->top[k], t.h, t.n * sizeof t.h[0]);
		r->stage[k] = t.n ? t.h[0] : (struct hypothesis){.nterms = k, .valid = false};
		if (t.n)
			prev = t;
		if (o->basic)
			chosen = t.n && t.h[0].cv_smape < h0.cv_smape ? 1 : 0;
		else
			chosen = search_refine(p, r->stage, r->nstages);
	}
	r->best = r->stage[chosen];
	r->tried = tried;
	return 0;
}

unsigned long search_count(unsigned long ncand, unsigned k)
{
	return binomial(ncand, k);
}

double search_prediction(const struct fit_problem *p, const struct hypothesis *h)
{
	double v = h->constant ? h->c0 : 0;
	for (unsigned k = 0; k < h->nterms && p->ncheck; k++)
		v += h->coef[k] * p->basis_check[h->idx[k] * p->ncheck];
	return v;
}

bool search_admissible(const struct fit_problem *p, struct hypothesis *h, struct fit_work *w)
{
	unsigned long tried = 0;
	fit_either(p, h, w, &tried);
	return h->valid;
}

bool search_rival_qualifies(const struct fit_problem *p, const struct hypothesis *base, const struct fit_extension *x,
			    unsigned c, const struct search_rival *rv, struct fit_work *w, double *pred)
{
	/* the exact update fits with a constant: without one the RSS is no lower, and the search
	 * tries that only when the constant came out negative */
	if (!(x->rss <= rv->rss_limit))
		return false;
	bool outside = x->pred[0] > rv->factor * rv->hi || x->pred[0] * rv->factor < rv->lo;
	if (!outside && !(x->coef[0] < 0))
		return false;
	struct hypothesis h = *base;
	h.constant = true;
	insert_sorted(&h, c);
	if (!search_admissible(p, &h, w) || !(h.rss <= rv->rss_limit))
		return false;
	double v = search_prediction(p, &h);
	if (!(v > rv->factor * rv->hi || v * rv->factor < rv->lo))
		return false;
	*pred = v;
	return true;
}

/* what search_rival_of_size's walk looks for */
struct rival_walk {
	const struct fit_problem *p;
	const struct search_rival *rv;
	struct fit_work *w;
	double found;
};

static bool rival_visit(const struct hypothesis *base, void *arg)
{
	struct rival_walk *s = arg;
	const struct fit_problem *p = s->p;
	size_t n = p->n;
	double q[(PMNF_MAX_TERMS + 1) * n], res[n];
	struct fit_base fb = {.q = q, .res = res};
	if (!fit_base_init(p, base, &fb))
		return false;
	for (unsigned c = base->nterms ? base->idx[base->nterms - 1] + 1 : 0; c < p->ncand; c++) {
		struct fit_extension x;
		if (fit_extend(p, &fb, c, &x) && search_rival_qualifies(p, base, &x, c, s->rv, s->w, &s->found))
			return true;
	}
	return false;
}

double search_rival_of_size(const struct fit_problem *p, unsigned k, const struct search_rival *rv, struct fit_work *w)
{
	if (!p->ncheck)
		return NAN;
	struct rival_walk s = {p, rv, w, NAN};
	return search_walk_bases(p, k, rival_visit, &s) ? s.found : NAN;
}
