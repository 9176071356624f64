/*
 * timing — compute gaps between calls (ScalaExtrap §2, §5.2). The tracer keeps, per group of ranks
 * and per (previous signature, signature), a histogram of the time the application spent outside
 * MPI before the call, in wall time and in the thread's CPU time. The replay reproduces it before
 * each call: the histogram's mean, or a sample (a bin drawn with probability proportional to its
 * count, then a time uniform on the widest interval centred on the bin's mean inside its [min, max],
 * so that the draws keep the recorded mean: histogram.h) from a generator seeded per rank, so a
 * sampled replay is reproducible.
 *
 * The gap is kept on one of two clocks (--clock). On the CPU clock (util/cpuclock.h) the replayer
 * computes until its thread has used the gap's recorded CPU time: the application's work, which
 * takes longer in wall time when the replaying node is shared by more ranks than it has cores, as
 * the application's did. On the wall clock it busy-waits (or sleeps) for the recorded wall time,
 * which already holds the waiting the traced ranks did for a core; a replay as oversubscribed as
 * the traced run then waits twice. Either way the wait lasts until a deadline: the clock at the
 * end of the previous call plus the gap, so that the replayer's own work between calls is part of
 * the gap. A synthetic run's predictions of its gaps (/extrap/intervals) are summed over the gaps
 * emulated into a range of the modeled compute.
 *
 * The gaps before the sends a wildcard receive took are paced by the recorded order instead
 * (run/pace.h): as many turns of the receiver as it took messages from the others in between, so
 * that the sender the receiver waits for next, in the recorded order, is the one whose message
 * comes next.
 */
#include <errno.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "replay/replay.h"
#include "run/histogram.h"
#include "run/pace.h"
#include "util/cpuclock.h"
#include "util/xalloc.h"

struct rp_gaps {
	const struct run_group *g;
	enum rp_timing timing;
	bool cpu;
	gsl_rng *rng;
	const struct run_interval **modeled;   /* the group's gap predictions, by (prev, sig) */
	uint32_t nmodeled;
	struct run_pace pace;
	uint32_t group, rank;
	uint32_t next_paced;                   /* the rank's next entry of its pace table */
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

double rp_gap_clock(const struct rp *x, double wall)
{
	return x->opt.clock == RP_CLOCK_CPU ? cpuclock_at(wall) : wall;
}

void rp_mark_end(struct rp *x, double wall)
{
	x->t_prev_end = wall;
	x->g_prev_end = rp_gap_clock(x, wall);
}

double rp_wait_until(const struct rp *x, double until)
{
	double now = rp_gap_clock(x, rp_now());
	if (x->opt.sleep && now < until) {   /* --sleep keeps the wall clock (main.c) */
		struct timespec ts = {(time_t)until, (long)((until - (double)(time_t)until) * 1e9)};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = rp_gap_clock(x, rp_now());
	}
	while (now < until)
		now = rp_gap_clock(x, rp_now());
	return now - until;
}

/* A rank that was not running when its gap ended (or decoded the call for longer than the gap)
 * is late: the recorded gap already holds the application's own share of such delays, so the
 * lateness is taken off the gaps that follow, and the emulated compute of a rank adds up to the
 * recorded compute. */
void rp_wait_gap(struct rp *x, double until)
{
	x->late += rp_wait_until(x, until);
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
	g->cpu = o->clock == RP_CLOCK_CPU;
	g->modeled = xmalloc((r->nintervals + 1) * sizeof *g->modeled);
	for (uint32_t i = 0; i < r->nintervals; i++)
		if (r->intervals[i].group == group && r->intervals[i].kind == RUN_INTERVAL_GAP)
			g->modeled[g->nmodeled++] = &r->intervals[i];
	qsort(g->modeled, g->nmodeled, sizeof *g->modeled, by_gap);
	char why[256];
	if (!run_pace_build(r, &g->pace, why, sizeof why) && rank == 0)
		fprintf(stderr, "ladder-replay: the compute before the sends wildcard receives took is not paced: %s\n", why);
	g->group = group, g->rank = (uint32_t)rank;
	if (o->timing == RP_TIMING_SAMPLE) {
		g->rng = gsl_rng_alloc(gsl_rng_mt19937);
		gsl_rng_set(g->rng, (unsigned long)(o->seed * 1000003u + (uint64_t)rank));
	}
	if (g->cpu)
		cpuclock_open();   /* without perf events every reading is a system call: slower, as right */
	return g;
}

void rp_gaps_free(struct rp_gaps *g)
{
	if (!g)
		return;
	if (g->rng)
		gsl_rng_free(g->rng);
	if (g->cpu)
		cpuclock_close();
	free(g->modeled);
	run_pace_free(&g->pace);
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

/* a bin drawn by count, then a time within its range around its mean (hist_bin_draw): wall or CPU */
static double sample(gsl_rng *rng, const struct run_gap *h, bool cpu)
{
	uint64_t total = 0;
	for (uint32_t b = 0; b < h->nbins; b++)
		total += h->bins[b].count;
	if (!total)
		return h->count ? (cpu ? h->cpu.sum : h->sum) / (double)h->count : 0;
	double pick = gsl_rng_uniform(rng) * (double)total;
	const struct run_bin *bin = &h->bins[h->nbins - 1];
	for (uint32_t b = 0; b < h->nbins; b++) {
		if (pick < (double)h->bins[b].count) {
			bin = &h->bins[b];
			break;
		}
		pick -= (double)h->bins[b].count;
	}
	double lo = cpu ? bin->cpu.min : bin->min, hi = cpu ? bin->cpu.max : bin->max;
	double mean = (cpu ? bin->cpu.sum : bin->sum) / (double)(bin->count ? bin->count : 1);
	return hist_bin_draw(lo, hi, mean, gsl_rng_uniform(rng));
}

/* a paced gap: turns x the length of a turn; false for a call its table leaves to the histogram */
static bool paced(struct rp_gaps *g, uint32_t sig, double *t)
{
	if (!run_pace_is_paced(&g->pace, g->group, sig))
		return false;
	const struct pace_rank *pr = &g->pace.ranks[g->rank];
	int32_t turns = g->next_paced < pr->n ? pr->turns[g->next_paced++] : -1;
	*t = turns * (g->cpu ? pr->cpu : pr->wall);
	return turns >= 0;
}

double rp_gap(struct rp_gaps *g, uint32_t prev, uint32_t sig, bool *missing)
{
	double t;
	*missing = false;
	if (paced(g, sig, &t))
		return t;
	const struct run_gap *h = find(g->g, prev, sig);
	*missing = !h;
	if (!h || !h->count)
		return 0;
	t = g->timing == RP_TIMING_SAMPLE ? sample(g->rng, h, g->cpu)
						 : (g->cpu ? h->cpu.sum : h->sum) / (double)h->count;
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
