/*
 * timing — PMNF models of the mean duration and gap per call across the rungs. See timing.h.
 */
#include "extrap/timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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

static double gap_mean(const struct run_group *g, uint32_t prev, uint32_t sig)
{
	for (uint32_t k = 0; k < g->ngaps; k++)
		if (g->gaps[k].prev == prev && g->gaps[k].sig == sig && g->gaps[k].count)
			return g->gaps[k].sum / (double)g->gaps[k].count;
	return NAN;
}

/* the series of item k (durations first, then gaps) at every rung; false when a rung lacks it */
static bool series_of(const struct aligned_class *a, const uint32_t *occ_sig, const struct run_group *g, uint32_t k,
		      double *v)
{
	bool dur = k < g->ndurs;
	uint32_t sig = dur ? g->durs[k].sig : g->gaps[k - g->ndurs].sig;
	uint32_t prev = dur ? 0 : g->gaps[k - g->ndurs].prev;
	long o = occurrence_of(a, occ_sig, sig), po = dur || prev == RUN_NO_PREV ? -1 : occurrence_of(a, occ_sig, prev);
	if (o < 0 || (!dur && prev != RUN_NO_PREV && po < 0))
		return false;
	for (size_t q = 0; q < a->nrungs; q++) {
		const struct run_group *rg = &a->runs[q]->groups[a->groups[q]];
		uint32_t rs = a->occ[o].rung_sigs[q], rp = po < 0 ? RUN_NO_PREV : a->occ[po].rung_sigs[q];
		v[q] = dur ? dur_mean(rg, rs) : gap_mean(rg, rp, rs);
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

void timing_extrapolate(const struct aligned_class *a, const uint32_t *occ_sig, int64_t target, struct run_group *g,
			uint32_t gi, struct timing_summary *sum)
{
	uint32_t items = g->ndurs + g->ngaps;
	if (a->nrungs < MODEL_MIN_POINTS || !items) {
		sum->kept += items;
		return;
	}
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", NULL);
	double *v = xmalloc(a->nrungs * sizeof *v);
	bool *have = xcalloc(items, sizeof *have);
	for (uint32_t k = 0; k < items; k++) {
		if (!(have[k] = series_of(a, occ_sig, g, k, v)))
			continue;
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
		cp += have[k];
		double ref = k < g->ndurs ? g->durs[k].sum / (double)g->durs[k].count
					  : g->gaps[k - g->ndurs].sum / (double)g->gaps[k - g->ndurs].count;
		if (!r || r->status != MODEL_OK || !(r->prediction.value > 0) || !(ref > 0)) {
			sum->kept++;
			continue;
		}
		struct run_interval row = {gi, RUN_INTERVAL_DURATION, 0, RUN_NO_PREV, 0, 0, 0, 0, 0};
		if (k < g->ndurs) {
			scale_dur(&g->durs[k], r->prediction.value / ref);
			row.sig = g->durs[k].sig, row.count = g->durs[k].count;
		} else {
			const struct run_gap *x = &g->gaps[k - g->ndurs];
			scale_gap(&g->gaps[k - g->ndurs], r->prediction.value / ref);
			row.kind = RUN_INTERVAL_GAP, row.prev = x->prev, row.sig = x->sig, row.count = x->count;
		}
		add_interval(sum, &r->prediction, row);
	}
	if (res)
		model_results_free(res);
	experiment_free(e);
	free(v);
	free(have);
}
