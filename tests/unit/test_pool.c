/* Unit tests for run/pool: groups' gap histograms and durations pool into one dictionary entry
 * when they come from the same call sites with means (wall and CPU) within POOL_SPREAD, and stay
 * apart otherwise; the run's total time is kept; a group's gap reads back with its own count,
 * bins that sum to it, and the entry's mean. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "run/histogram.h"
#include "run/pool.h"
#include "run/run.h"
#include "util/xalloc.h"

/* a gap of `count` samples of `wall` seconds, `share` of it CPU, in two bins */
static struct run_gap gap_of(uint32_t prev, uint32_t sig, uint64_t count, double wall, double share)
{
	struct run_gap g = {prev, sig, 0, 0, 0, 0, 0, {0, 0, 0}, 0, NULL};
	struct hist h = {NULL, 0, 0};
	for (uint64_t i = 0; i < count; i++) {
		double x = wall * (i % 4 ? 1.0 : 3.0);   /* a quarter of the samples three times as long */
		run_cpu_add(&g.cpu, g.count, x * share);
		if (!g.count || x < g.min)
			g.min = x;
		if (!g.count || x > g.max)
			g.max = x;
		g.count++;
		g.sum += x;
		g.sumsq += x * x;
		hist_add(&h, x, x * share, HIST_DEFAULT_BINS);
	}
	g.bins = h.bins;
	g.nbins = h.n;
	return g;
}

/* three groups of the same code: signatures 0 and 1 are one call site (two peers), 2 another */
static void build(struct run *r, const double *means, const double *shares)
{
	memset(r, 0, sizeof *r);
	r->nsigs = 3;
	r->sigs = xcalloc(3, sizeof *r->sigs);
	r->sigs[0] = (struct run_signature){0, 0x100, 0, 0, 0};
	r->sigs[1] = (struct run_signature){0, 0x100, 0, 0, 0};
	r->sigs[2] = (struct run_signature){1, 0x200, 0, 0, 0};
	r->ngroups = 3;
	r->groups = xcalloc(3, sizeof *r->groups);
	for (uint32_t g = 0; g < 3; g++) {
		struct run_group *grp = &r->groups[g];
		grp->nranks = g + 1;
		grp->ngaps = 1;
		grp->gaps = xcalloc(1, sizeof *grp->gaps);
		/* group 1 calls the site with the other peer: another signature, the same call site */
		grp->gaps[0] = gap_of(2, g == 1 ? 1 : 0, 40 * (g + 1), means[g], shares[g]);
		grp->ndurs = 1;
		grp->durs = xcalloc(1, sizeof *grp->durs);
		grp->durs[0] = (struct run_dur){2, 10, 10 * means[g], 0, means[g], means[g]};
	}
}

static void release(struct run *r)
{
	for (uint32_t g = 0; g < r->ngroups; g++) {
		free(r->groups[g].gaps[0].bins);
		free(r->groups[g].gaps);
		free(r->groups[g].durs);
	}
	free(r->groups);
	free(r->sigs);
}

static void alike_gaps_share_an_entry_and_keep_the_total(void **state)
{
	double means[] = {1e-3, 1.01e-3, 1.3e-3}, shares[] = {0.5, 0.5, 0.5};
	struct run r;
	build(&r, means, shares);
	struct timing_pool p;
	timing_pool_build(&r, &p);
	assert_int_equal(p.ngaps, 3);
	assert_int_equal(p.ndurs, 3);
	/* groups 0 and 1 (1% apart, different signatures of one call site) share; group 2 does not */
	assert_int_equal(p.gaps[0].entry, p.gaps[1].entry);
	assert_true(p.gaps[2].entry != p.gaps[0].entry);
	assert_int_equal(p.gaps[1].sig, 1);
	assert_int_equal(p.gaps[1].count, 80);
	/* durations pool among themselves, never with gaps */
	assert_int_equal(p.durs[0].entry, p.durs[1].entry);
	for (int i = 0; i < 3; i++)
		assert_true(p.durs[0].entry != p.gaps[i].entry);
	/* the pooled entry holds both groups' samples: the total wall and CPU time are kept */
	const struct pool_entry *e = &p.entries[p.gaps[0].entry];
	assert_int_equal(e->h.count, 40 + 80);
	assert_int_equal(e->ranks, 1 + 2);
	double wall = r.groups[0].gaps[0].sum + r.groups[1].gaps[0].sum;
	assert_true(fabs(e->h.sum - wall) < 1e-12);
	assert_true(fabs(e->h.cpu.sum - wall / 2) < 1e-12);
	timing_pool_free(&p);
	release(&r);
}

static void different_cpu_shares_stay_apart(void **state)
{
	double means[] = {1e-3, 1e-3, 1e-3}, shares[] = {1.0, 0.5, 1.0};
	struct run r;
	build(&r, means, shares);
	struct timing_pool p;
	timing_pool_build(&r, &p);
	assert_true(p.gaps[0].entry != p.gaps[1].entry);   /* the same wall time, half the work */
	assert_int_equal(p.gaps[0].entry, p.gaps[2].entry);
	timing_pool_free(&p);
	release(&r);
}

static void a_group_reads_back_with_its_count(void **state)
{
	double means[] = {1e-3, 1.01e-3, 1.3e-3}, shares[] = {0.5, 0.5, 0.5};
	struct run r;
	build(&r, means, shares);
	struct timing_pool p;
	timing_pool_build(&r, &p);
	const struct run_gap *e = &p.entries[p.gaps[0].entry].h;
	for (uint64_t count = 1; count <= 200; count += 7) {
		struct run_gap x;
		pool_expand(e, count, &x);
		uint64_t n = 0;
		for (uint32_t b = 0; b < x.nbins; b++) {
			n += x.bins[b].count;
			assert_true(x.bins[b].count > 0);
			assert_true(x.bins[b].cpu.sum <= x.bins[b].sum);
		}
		assert_int_equal(n, count);
		assert_int_equal(x.count, count);
		assert_true(fabs(x.sum / (double)count - e->sum / (double)e->count) < 1e-15);
		assert_true(fabs(x.cpu.sum / (double)count - e->cpu.sum / (double)e->count) < 1e-15);
		assert_true(x.min == e->min && x.max == e->max);
		free(x.bins);
	}
	struct run_dur d;
	pool_expand_dur(&p.entries[p.durs[2].entry].h, 10, &d);
	assert_true(fabs(d.sum - 10 * 1.3e-3) < 1e-12);
	timing_pool_free(&p);
	release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(alike_gaps_share_an_entry_and_keep_the_total),
		cmocka_unit_test(different_cpu_shares_stay_apart),
		cmocka_unit_test(a_group_reads_back_with_its_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
