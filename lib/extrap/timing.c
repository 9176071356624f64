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

/* the occurrence whose target signature is sig, or -1 */
static long occurrence_of(const struct aligned_class *a, const uint32_t *occ_sig, uint32_t sig)
{
	for (uint32_t i = 0; i < a->nocc; i++)
		if (occ_sig[i] == sig)
			return i;
	return -1;
}

static double dur_mean(const struct run_group *g, uint32_t sig)
{
	for (uint32_t k = 0; k < g->ndurs; k++)
		if (g->durs[k].sig == sig && g->durs[k].count)
			return g->durs[k].sum / (double)g->durs[k].count;
	return NAN;
}

static double gap_mean(const struct run_group *g, uint32_t prev, uint32_t sig, bool cpu)
{
	for (uint32_t k = 0; k < g->ngaps; k++)
		if (g->gaps[k].prev == prev && g->gaps[k].sig == sig && g->gaps[k].count)
			return (cpu ? g->gaps[k].cpu.sum : g->gaps[k].sum) / (double)g->gaps[k].count;
	return NAN;
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

/* the mean per call of item k in g (the target's group, or a rung's) */
static double item_mean(const struct run_group *g, uint32_t k)
{
	uint32_t i;
	enum item_kind kind = kind_of(g, k, &i);
	if (kind == ITEM_DURATION)
		return g->durs[i].sum / (double)g->durs[i].count;
	return (kind == ITEM_GAP ? g->gaps[i].sum : g->gaps[i].cpu.sum) / (double)g->gaps[i].count;
}

/* the series of item k at every rung; false when a rung lacks it */
static bool series_of(const struct aligned_class *a, const uint32_t *occ_sig, const struct run_group *g, uint32_t k,
		      double *v)
{
	uint32_t i;
	enum item_kind kind = kind_of(g, k, &i);
	bool dur = kind == ITEM_DURATION;
	uint32_t sig = dur ? g->durs[i].sig : g->gaps[i].sig;
	uint32_t prev = dur ? 0 : g->gaps[i].prev;
	long o = occurrence_of(a, occ_sig, sig), po = dur || prev == RUN_NO_PREV ? -1 : occurrence_of(a, occ_sig, prev);
	if (o < 0 || (!dur && prev != RUN_NO_PREV && po < 0))
		return false;
	for (size_t q = 0; q < a->nrungs; q++) {
		const struct run_group *rg = &a->runs[q]->groups[a->groups[q]];
		uint32_t rs = a->occ[o].rung_sigs[q], rp = po < 0 ? RUN_NO_PREV : a->occ[po].rung_sigs[q];
		v[q] = dur ? dur_mean(rg, rs) : gap_mean(rg, rp, rs, kind == ITEM_GAP_CPU);
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

/* the factor of each item: its prediction at the target over its value at the largest rung, 0
 * when not modeled; the summary counts the durations and wall times of gaps (group gi's) */
static void model_items(const struct aligned_class *a, const uint32_t *occ_sig, int64_t target,
			const struct run_group *g, uint32_t gi, uint32_t items, double *factor,
			struct timing_summary *sum)
{
	bool search = a->nrungs >= MODEL_MIN_POINTS;   /* else the law of three rungs per item */
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	double *v = xmalloc(a->nrungs * sizeof *v);
	bool *have = xcalloc(items, sizeof *have);
	struct model_prediction *power = xcalloc(items, sizeof *power);
	for (uint32_t k = 0; k < items; k++) {
		if (!(have[k] = series_of(a, occ_sig, g, k, v)))
			continue;
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
		double ref = item_mean(g, k);
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
	if (a->nrungs < 3 || !items) {
		sum->kept += items;
		return;
	}
	bool cpu = rungs_have_cpu(a);
	double *factor = xcalloc(items + g->ngaps + 1, sizeof *factor);
	uint32_t first = sum->nrows;
	model_items(a, occ_sig, target, g, gi, items + (cpu ? g->ngaps : 0), factor, sum);
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
