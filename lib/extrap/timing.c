/*
 * timing — PMNF models of the mean duration and gap per call across the rungs. See timing.h.
 */
#include "extrap/timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "extrap/few_rungs.h"
#include "model/modeler.h"
#include "util/xalloc.h"

/* A rung's durations and gaps pooled by the target's signatures they stand for: an occurrence of
 * the aligned class is a call the target makes as signature occ_sig[o] and rung q makes as
 * occ[o].rung_sigs[q]. Calls the target makes alike (lossy mode's approximated counts: three call
 * sites' receives of different sizes become one signature) are one duration and one gap there,
 * their histograms folded, so the rung's value of that item is theirs together, weighted by their
 * counts. Built once per rung, in one pass over its durations and gaps. */
struct sig_pair {   /* rung signature -> target signature */
	uint32_t rung, target;
};
struct pooled {     /* a duration (prev = DURATION) or gap of the target, its sums at the rung */
	uint32_t prev, sig;
	double sum, cpu, count;
};
#define DURATION (RUN_NO_PREV - 1)
struct rung_pool {
	struct pooled *p;
	size_t n, cap;
};

static int by_pair(const void *x, const void *y)
{
	const struct sig_pair *a = x, *b = y;
	if (a->rung != b->rung)
		return a->rung < b->rung ? -1 : 1;
	return (a->target > b->target) - (a->target < b->target);
}

static int by_item(const void *x, const void *y)
{
	const struct pooled *a = x, *b = y;
	if (a->prev != b->prev)
		return a->prev < b->prev ? -1 : 1;
	return (a->sig > b->sig) - (a->sig < b->sig);
}

/* the targets rung signature r stands for: pairs [*first, *first + returned) */
static size_t targets_of(const struct sig_pair *p, size_t n, uint32_t r, size_t *first)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p[mid].rung < r)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t k = lo;
	while (k < n && p[k].rung == r)
		k++;
	*first = lo;
	return k - lo;
}

static void pool_add(struct rung_pool *rp, uint32_t prev, uint32_t sig, double sum, double cpu, uint64_t count)
{
	XGROW(rp->p, rp->cap, rp->n + 1);
	rp->p[rp->n++] = (struct pooled){prev, sig, sum, cpu, (double)count};
}

/* pool rung q's group rg; p: the (rung, target) pairs, sorted, each once */
static void pool_rung(const struct run_group *rg, const struct sig_pair *p, size_t np, struct rung_pool *rp)
{
	size_t f, fp;
	for (uint32_t k = 0; k < rg->ndurs; k++)
		for (size_t n = targets_of(p, np, rg->durs[k].sig, &f), i = f; i < f + n; i++)
			pool_add(rp, DURATION, p[i].target, rg->durs[k].sum, 0, rg->durs[k].count);
	for (uint32_t k = 0; k < rg->ngaps; k++) {
		const struct run_gap *x = &rg->gaps[k];
		size_t n = targets_of(p, np, x->sig, &f), nprev = 1;
		if (x->prev != RUN_NO_PREV)
			nprev = targets_of(p, np, x->prev, &fp);
		for (size_t j = 0; j < nprev; j++)
			for (size_t i = f; i < f + n; i++)
				pool_add(rp, x->prev == RUN_NO_PREV ? RUN_NO_PREV : p[fp + j].target, p[i].target, x->sum,
					 x->cpu.sum, x->count);
	}
	qsort(rp->p, rp->n, sizeof *rp->p, by_item);
	size_t m = 0;   /* one row per item */
	for (size_t i = 0; i < rp->n; i++) {
		if (m && !by_item(&rp->p[m - 1], &rp->p[i])) {
			struct pooled *y = &rp->p[m - 1];
			y->sum += rp->p[i].sum, y->cpu += rp->p[i].cpu, y->count += rp->p[i].count;
		} else {
			rp->p[m++] = rp->p[i];
		}
	}
	rp->n = m;
}

static struct rung_pool pool_at(const struct aligned_class *a, const uint32_t *occ_sig, size_t q)
{
	struct sig_pair *p = xmalloc((a->nocc + 1) * sizeof *p);
	for (uint32_t o = 0; o < a->nocc; o++)
		p[o] = (struct sig_pair){a->occ[o].rung_sigs[q], occ_sig[o]};
	qsort(p, a->nocc, sizeof *p, by_pair);
	size_t np = 0;   /* each pair once */
	for (uint32_t o = 0; o < a->nocc; o++)
		if (!np || by_pair(&p[np - 1], &p[o]))
			p[np++] = p[o];
	struct rung_pool rp = {0};
	pool_rung(&a->runs[q]->groups[a->groups[q]], p, np, &rp);
	free(p);
	return rp;
}

/* the mean per call at a rung of the target's duration of sig (prev DURATION) or gap (prev, sig) */
static double rung_mean(const struct rung_pool *rp, uint32_t prev, uint32_t sig, bool cpu)
{
	struct pooled key = {.prev = prev, .sig = sig};
	const struct pooled *y = bsearch(&key, rp->p, rp->n, sizeof key, by_item);
	return y && y->count > 0 ? (cpu ? y->cpu : y->sum) / y->count : NAN;
}

/* The items modeled: each duration, each gap's wall time, and each gap's CPU time when every rung
 * measured CPU times (else they follow the wall times). */
enum item_kind { ITEM_DURATION, ITEM_GAP, ITEM_GAP_CPU };

static enum item_kind kind_of(const struct run_group *g, uint32_t k, uint32_t *index)
{
	*index = k < g->ndurs ? k : (k - g->ndurs) % (g->ngaps ? g->ngaps : 1);
	return k < g->ndurs ? ITEM_DURATION : k < g->ndurs + g->ngaps ? ITEM_GAP : ITEM_GAP_CPU;
}

static bool rungs_have_cpu(const struct aligned_class *a)
{
	for (size_t q = 0; q < a->nrungs; q++)
		if (a->runs[q]->cpu_time == RUN_CPU_NONE)
			return false;
	return a->nrungs > 0;
}

/* the series of item k of the target's group g at every rung (pools: per rung); false when a rung
 * lacks it */
static bool series_of(const struct aligned_class *a, const struct rung_pool *pools, const struct run_group *g,
		      uint32_t k, double *v)
{
	uint32_t i;
	enum item_kind kind = kind_of(g, k, &i);
	bool dur = kind == ITEM_DURATION;
	uint32_t sig = dur ? g->durs[i].sig : g->gaps[i].sig, prev = dur ? DURATION : g->gaps[i].prev;
	for (size_t q = 0; q < a->nrungs; q++) {
		v[q] = rung_mean(&pools[q], prev, sig, kind == ITEM_GAP_CPU);
		if (!(v[q] > 0))
			return false;
	}
	return true;
}

static void scale_dur(struct run_dur *d, double f)
{
	d->sum *= f, d->sumsq *= f * f, d->min *= f, d->max *= f;
}

static void scale_gap(struct run_gap *x, double f)
{
	x->sum *= f, x->sumsq *= f * f, x->min *= f, x->max *= f;
	for (uint32_t b = 0; b < x->nbins; b++)
		x->bins[b].sum *= f, x->bins[b].min *= f, x->bins[b].max *= f;
}

static double at_least(double wall, double cpu) { return wall > cpu ? wall : cpu; }

/* The CPU times scaled by f; where they then exceed the (scaled) wall times, the wall times are
 * raised to them. A gap's CPU time is the application's work, the same at every rung; its wall
 * time also holds the waiting for a core, which on a shared or oversubscribed node changes from
 * rung to rung without a law (ft: 14.1, 13.9, 1.09 ms of wall time for 4.39, 1.92, 1.05 ms of CPU
 * time at 4, 9, 16 ranks), so where the two models disagree the CPU time's is the one to keep. */
void timing_scale_gap_cpu(struct run_gap *x, double f)
{
	x->cpu.sum *= f, x->cpu.min *= f, x->cpu.max *= f;
	x->sum = at_least(x->sum, x->cpu.sum);
	x->min = at_least(x->min, x->cpu.min);
	x->max = at_least(x->max, x->cpu.max);
	if (x->count)   /* a sum raised keeps a variance that is not negative */
		x->sumsq = at_least(x->sumsq, x->sum * x->sum / (double)x->count);
	for (uint32_t b = 0; b < x->nbins; b++) {
		struct run_bin *y = &x->bins[b];
		y->cpu.sum *= f, y->cpu.min *= f, y->cpu.max *= f;
		y->sum = at_least(y->sum, y->cpu.sum);
		y->min = at_least(y->min, y->cpu.min);
		y->max = at_least(y->max, y->cpu.max);
	}
}

/* the row of /extrap/intervals of a duration or a gap's wall time (item i of that kind in group gi) */
static struct run_interval interval_row(const struct run_group *g, uint32_t gi, enum item_kind kind, uint32_t i)
{
	struct run_interval row = {gi, RUN_INTERVAL_DURATION, 0, RUN_NO_PREV, 0, 0, 0, 0, 0};
	if (kind == ITEM_DURATION) {
		row.sig = g->durs[i].sig, row.count = g->durs[i].count;
	} else {
		row.kind = RUN_INTERVAL_GAP, row.prev = g->gaps[i].prev, row.sig = g->gaps[i].sig;
		row.count = g->gaps[i].count;
	}
	return row;
}

/* one modeled histogram of count calls: a row of predictions, and the summary's time and range */
static void add_interval(struct timing_summary *sum, const struct model_prediction *p, struct run_interval row)
{
	bool have = p->has_interval && isfinite(p->lo) && isfinite(p->hi) && p->lo <= p->value && p->value <= p->hi;
	double c = (double)row.count;
	row.has_interval = have;
	row.value = p->value;
	row.lo = have ? (p->lo > 0 ? p->lo : 0) : p->value;
	row.hi = have ? p->hi : p->value;
	XGROW(sum->rows, sum->caprows, sum->nrows + 1);
	sum->rows[sum->nrows++] = row;
	sum->modeled++;
	sum->intervals += have;
	sum->seconds += c * row.value;
	sum->lo += c * row.lo;
	sum->hi += c * row.hi;
}

/* the class's series by the law of three rungs (few_rungs_at), without an interval */
static bool few_rungs_law_at(const struct aligned_class *a, const double *v, int64_t target,
			 struct model_prediction *out)
{
	double *p = xmalloc((a->nrungs + 1) * sizeof *p);
	for (size_t q = 0; q < a->nrungs; q++)
		p[q] = (double)a->runs[q]->nranks;
	*out = (struct model_prediction){0};
	struct few_law law;
	bool ok = few_rungs_at(p, v, a->nrungs, (double)target, &out->value, &law);
	free(p);
	return ok;
}

/* the factor of each item: its prediction at the target over its series' value at the largest
 * rung, the reference: the growth its rungs show, whatever the reference's histogram folded (a
 * lossy walk's sums along dropped calls, alike calls pooled); 0 when not modeled. The summary
 * counts the durations and wall times of gaps (group gi's). */
static void model_items(const struct aligned_class *a, const struct rung_pool *pools, int64_t target,
			const struct run_group *g, uint32_t gi, uint32_t items, double *factor,
			struct timing_summary *sum)
{
	bool search = a->nrungs >= MODEL_MIN_POINTS;   /* else the law of three rungs per item */
	size_t reference = aligned_class_ref_index(a);   /* the largest rung */
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	double *v = xmalloc(a->nrungs * sizeof *v), *largest = xcalloc(items, sizeof *largest);
	bool *have = xcalloc(items, sizeof *have);
	struct model_prediction *power = xcalloc(items, sizeof *power);
	for (uint32_t k = 0; k < items; k++) {
		if (!(have[k] = series_of(a, pools, g, k, v)))
			continue;
		largest[k] = v[reference];
		if (!search) {
			have[k] = few_rungs_law_at(a, v, target, &power[k]);
			continue;
		}
		char name[32];
		snprintf(name, sizeof name, "t%u", k);
		size_t cp = experiment_intern_callpath(e, name), m = experiment_intern_metric(e, "time");
		for (size_t q = 0; q < a->nrungs; q++) {
			double p = a->runs[q]->nranks;
			experiment_add_values(e, cp, m, experiment_intern_point(e, &p), &v[q], 1);
		}
	}
	struct model_options o;
	model_options_init(&o);
	o.has_target = true;
	o.target[0] = (double)target;
	struct model_results *res = e->callpaths.n ? model_experiment(e, &o, NULL) : NULL;
	for (uint32_t k = 0, cp = 0; k < items; k++) {
		const struct model_result *r = have[k] && res ? &res->r[model_index(res, cp, 0)] : NULL;
		cp += have[k] && search;
		const struct model_prediction *pred = r && r->status == MODEL_OK ? &r->prediction
						    : have[k] && !search ? &power[k] : NULL;
		double ref = largest[k];
		uint32_t i;
		enum item_kind kind = kind_of(g, k, &i);
		bool ok = pred && pred->value > 0 && ref > 0;
		factor[k] = ok ? pred->value / ref : 0;
		if (kind == ITEM_GAP_CPU)
			continue;
		if (!ok)
			sum->kept++;
		else
			add_interval(sum, pred, interval_row(g, gi, kind, i));
		sum->powers += ok && !search;
	}
	free(power);
	if (res)
		model_results_free(res);
	experiment_free(e);
	free(v);
	free(largest);
	free(have);
}

/* the prediction rows (from the row first on) of a gap whose wall time its CPU time raised: its
 * value and the top of its interval at least the raised mean (the whole row without an interval),
 * and the summary's sums with them */
static void raise_gap_rows(struct timing_summary *sum, uint32_t first, uint32_t gi, const struct run_gap *x)
{
	double mean = x->count ? x->sum / (double)x->count : 0;
	for (uint32_t k = first; k < sum->nrows; k++) {
		struct run_interval *row = &sum->rows[k];
		if (row->kind != RUN_INTERVAL_GAP || row->group != gi || row->prev != x->prev || row->sig != x->sig ||
		    !(row->value < mean))
			continue;
		double c = (double)row->count;
		sum->seconds += c * (mean - row->value);
		row->value = mean;
		if (row->hi < mean)
			sum->hi += c * (mean - row->hi), row->hi = mean;
		if (!row->has_interval)   /* no interval: lo = hi = value */
			sum->lo += c * (mean - row->lo), row->lo = mean;
	}
}

void timing_extrapolate(const struct aligned_class *a, const uint32_t *occ_sig, int64_t target, struct run_group *g,
			uint32_t gi, struct timing_summary *sum)
{
	uint32_t items = g->ndurs + g->ngaps;
	if (a->nrungs < 3 || !items || aligned_class_ref_index(a) == a->nrungs) {
		sum->kept += items;
		return;
	}
	bool cpu = rungs_have_cpu(a);
	double *factor = xcalloc(items + g->ngaps + 1, sizeof *factor);
	uint32_t first = sum->nrows;
	struct rung_pool *pools = xmalloc((a->nrungs + 1) * sizeof *pools);
	for (size_t q = 0; q < a->nrungs; q++)
		pools[q] = pool_at(a, occ_sig, q);
	model_items(a, pools, target, g, gi, items + (cpu ? g->ngaps : 0), factor, sum);
	for (size_t q = 0; q < a->nrungs; q++)
		free(pools[q].p);
	free(pools);
	for (uint32_t k = 0; k < g->ndurs; k++)
		if (factor[k] > 0)
			scale_dur(&g->durs[k], factor[k]);
	for (uint32_t i = 0; i < g->ngaps; i++) {
		double wall = factor[g->ndurs + i], own = cpu ? factor[items + i] : 0;
		if (wall > 0)
			scale_gap(&g->gaps[i], wall);
		if (own > 0 || wall > 0)   /* the CPU model's factor, else the wall time's */
			timing_scale_gap_cpu(&g->gaps[i], own > 0 ? own : wall);
		if (wall > 0)
			raise_gap_rows(sum, first, gi, &g->gaps[i]);
	}
	free(factor);
}
