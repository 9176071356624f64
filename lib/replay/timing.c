/*
 * timing — compute gaps between calls (ScalaExtrap §2, §5.2). The tracer keeps, per group of ranks
 * and per (previous signature, signature), a histogram of the time the application spent outside
 * MPI before the call. The replay reproduces it before each call: the histogram's mean, or a
 * sample (a bin drawn with probability proportional to its count, then a time uniform within the
 * bin's [min, max]) from a generator seeded per rank, so a sampled replay is reproducible.
 * The wait is a busy loop on the monotonic clock (as a computing application keeps its core busy)
 * or a sleep, until a deadline: the end of the previous call plus the gap, so that the replayer's
 * own work between calls is part of the gap. A synthetic run's predictions of its gaps
 * (/extrap/intervals) are summed over the gaps emulated into a range of the modeled compute.
 */
#include <errno.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <time.h>

#include "replay/replay.h"
#include "util/xalloc.h"

struct rp_gaps {
	const struct run_group *g;
	enum rp_timing timing;
	gsl_rng *rng;
	const struct run_interval **modeled;   /* the group's gap predictions, by (prev, sig) */
	uint32_t nmodeled;
};

static int by_gap(const void *a, const void *b)
{
	const struct run_interval *x = *(const struct run_interval *const *)a, *y = *(const struct run_interval *const *)b;
	return x->prev != y->prev ? (x->prev < y->prev ? -1 : 1) : (x->sig > y->sig) - (x->sig < y->sig);
}

double rp_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double rp_wait_until(double until, bool sleep)
{
	double now = rp_now();
	if (sleep && now < until) {
		struct timespec ts = {(time_t)until, (long)((until - (double)(time_t)until) * 1e9)};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = rp_now();
	}
	while (now < until)
		now = rp_now();
	return now - until;
}

/* A rank that was not running when its gap ended (or decoded the call for longer than the gap)
 * is late: the recorded gap already holds the application's own share of such delays, so the
 * lateness is taken off the gaps that follow, and the emulated compute of a rank adds up to the
 * recorded compute. */
void rp_wait_gap(struct rp *x, double until)
{
	x->late += rp_wait_until(until, x->opt.sleep);
}

double rp_gap_after_lateness(struct rp *x, double gap)
{
	double take = gap < x->late ? gap : x->late;
	x->late -= take;
	return gap - take;
}

struct rp_gaps *rp_gaps_new(const struct run *r, uint32_t group, const struct rp_options *o, int rank)
{
	struct rp_gaps *g = xcalloc(1, sizeof *g);
	g->g = &r->groups[group];
	g->timing = o->timing;
	g->modeled = xmalloc((r->nintervals + 1) * sizeof *g->modeled);
	for (uint32_t i = 0; i < r->nintervals; i++)
		if (r->intervals[i].group == group && r->intervals[i].kind == RUN_INTERVAL_GAP)
			g->modeled[g->nmodeled++] = &r->intervals[i];
	qsort(g->modeled, g->nmodeled, sizeof *g->modeled, by_gap);
	if (o->timing == RP_TIMING_SAMPLE) {
		g->rng = gsl_rng_alloc(gsl_rng_mt19937);
		gsl_rng_set(g->rng, (unsigned long)(o->seed * 1000003u + (uint64_t)rank));
	}
	return g;
}

void rp_gaps_free(struct rp_gaps *g)
{
	if (!g)
		return;
	if (g->rng)
		gsl_rng_free(g->rng);
	free(g->modeled);
	free(g);
}

static const struct run_gap *find(const struct run_group *g, uint32_t prev, uint32_t sig)
{
	uint32_t lo = 0, hi = g->ngaps;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const struct run_gap *m = &g->gaps[mid];
		if (m->prev < prev || (m->prev == prev && m->sig < sig))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->ngaps && g->gaps[lo].prev == prev && g->gaps[lo].sig == sig ? &g->gaps[lo] : NULL;
}

static double sample(gsl_rng *rng, const struct run_gap *h)
{
	uint64_t total = 0;
	for (uint32_t b = 0; b < h->nbins; b++)
		total += h->bins[b].count;
	if (!total)
		return h->count ? h->sum / (double)h->count : 0;
	double pick = gsl_rng_uniform(rng) * (double)total;
	const struct run_bin *bin = &h->bins[h->nbins - 1];
	for (uint32_t b = 0; b < h->nbins; b++) {
		if (pick < (double)h->bins[b].count) {
			bin = &h->bins[b];
			break;
		}
		pick -= (double)h->bins[b].count;
	}
	return bin->min + gsl_rng_uniform(rng) * (bin->max - bin->min);
}

double rp_gap(struct rp_gaps *g, uint32_t prev, uint32_t sig, bool *missing)
{
	const struct run_gap *h = find(g->g, prev, sig);
	*missing = !h;
	if (!h || !h->count)
		return 0;
	double t = g->timing == RP_TIMING_SAMPLE ? sample(g->rng, h) : h->sum / (double)h->count;
	return t > 0 ? t : 0;
}

bool rp_gap_modeled(const struct rp_gaps *g, uint32_t prev, uint32_t sig, double k, double *m)
{
	struct run_interval key = {.prev = prev, .sig = sig};
	const struct run_interval *want = &key, **hit = bsearch(&want, g->modeled, g->nmodeled, sizeof *g->modeled, by_gap);
	if (!hit)
		return false;
	m[0] += k * (*hit)->value, m[1] += k * (*hit)->lo, m[2] += k * (*hit)->hi;
	return true;
}
