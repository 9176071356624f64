/*
 * histogram — bounded adaptive gap histograms. See histogram.h.
 */
#include "run/histogram.h"

#include <stdbool.h>
#include <string.h>

#include "util/xalloc.h"

const char *const run_cpu_time_names[3] = {"none", "long gaps", "every gap"};

int32_t hist_quarter_octave(double seconds)
{
	double nsd = seconds * 1e9;
	if (!(nsd >= 1))
		return -1;
	uint64_t ns = nsd > 1.8e19 ? UINT64_MAX : (uint64_t)nsd;
	int oct = 63 - __builtin_clzll(ns);
	uint64_t q = oct >= 2 ? (ns >> (oct - 2)) & 3 : (ns << (2 - oct)) & 3;
	return oct * 4 + (int32_t)q;
}

void run_cpu_add(struct run_cpu *c, uint64_t n, double cpu)
{
	struct run_cpu one = {cpu, cpu, cpu};
	run_cpu_merge(c, n, &one, 1);
}

void run_cpu_merge(struct run_cpu *c, uint64_t n, const struct run_cpu *other, uint64_t m)
{
	if (!m)
		return;
	if (!n || other->min < c->min)
		c->min = other->min;
	if (!n || other->max > c->max)
		c->max = other->max;
	c->sum += other->sum;
}

void run_gap_cpu_as_wall(struct run_gap *g)
{
	g->cpu = (struct run_cpu){g->sum, g->min, g->max};
	for (uint32_t k = 0; k < g->nbins; k++)
		g->bins[k].cpu = (struct run_cpu){g->bins[k].sum, g->bins[k].min, g->bins[k].max};
}

static void combine(struct run_bin *a, const struct run_bin *b)
{
	run_cpu_merge(&a->cpu, a->count, &b->cpu, b->count);
	if (b->min < a->min)
		a->min = b->min;
	if (b->max > a->max)
		a->max = b->max;
	if (b->bin < a->bin)
		a->bin = b->bin;
	a->count += b->count;
	a->sum += b->sum;
}

/* bins i and i + 1 become one */
static void merge_pair(struct hist *h, uint32_t i)
{
	combine(&h->bins[i], &h->bins[i + 1]);
	memmove(h->bins + i + 1, h->bins + i + 2, (h->n - i - 2) * sizeof *h->bins);
	h->n--;
}

/* merge the adjacent pair with the fewest samples until there are at most maxbins */
static void shrink(struct hist *h, uint32_t maxbins)
{
	if (maxbins < 1)
		maxbins = 1;
	while (h->n > maxbins) {
		uint32_t best = 0;
		for (uint32_t i = 1; i + 1 < h->n; i++)
			if (h->bins[i].count + h->bins[i + 1].count < h->bins[best].count + h->bins[best + 1].count)
				best = i;
		merge_pair(h, best);
	}
}

void hist_fold_rare(struct hist *h, uint32_t share)
{
	uint64_t total = 0;
	for (uint32_t i = 0; i < h->n; i++)
		total += h->bins[i].count;
	while (h->n > 1) {
		uint32_t least = 0;
		for (uint32_t i = 1; i < h->n; i++)
			if (h->bins[i].count < h->bins[least].count)
				least = i;
		if (h->bins[least].count * (uint64_t)share >= total)
			return;
		/* into the neighbour with fewer samples (the only one at either end) */
		bool left = least + 1 == h->n || (least > 0 && h->bins[least - 1].count <= h->bins[least + 1].count);
		merge_pair(h, left ? least - 1 : least);
	}
}

static void insert(struct hist *h, const struct run_bin *b)
{
	uint32_t i = 0;
	while (i < h->n && h->bins[i].bin < b->bin)
		i++;
	if (i < h->n && h->bins[i].bin == b->bin) {
		combine(&h->bins[i], b);
		return;
	}
	if (h->n == h->cap) {
		h->cap = h->cap ? 2 * h->cap : 4;
		h->bins = xrealloc(h->bins, h->cap * sizeof *h->bins);
	}
	memmove(h->bins + i + 1, h->bins + i, (h->n - i) * sizeof *h->bins);
	h->bins[i] = *b;
	h->n++;
}

void hist_add(struct hist *h, double x, double cpu, uint32_t maxbins)
{
	int32_t q = hist_quarter_octave(x);
	/* a merged bin whose range covers the sample takes it */
	for (uint32_t i = 0; i < h->n; i++) {
		struct run_bin *b = &h->bins[i];
		if (b->bin == q || (b->min <= x && x <= b->max)) {
			if (x < b->min)
				b->min = x;
			if (x > b->max)
				b->max = x;
			run_cpu_add(&b->cpu, b->count, cpu);
			b->count++;
			b->sum += x;
			return;
		}
	}
	struct run_bin b = {q, 1, x, x, x, {cpu, cpu, cpu}};
	insert(h, &b);
	shrink(h, maxbins);
}

void hist_merge(struct hist *h, const struct run_bin *bins, uint32_t n, uint32_t maxbins)
{
	for (uint32_t i = 0; i < n; i++)
		insert(h, &bins[i]);
	shrink(h, maxbins);
}

double hist_bin_draw(double min, double max, double mean, double u)
{
	if (!(mean > min))   /* also a mean below the range (rounding) */
		return min;
	if (mean >= max)
		return max;
	double half = mean - min < max - mean ? mean - min : max - mean;
	return mean - half + 2 * half * u;
}

void run_gap_add(struct run_gap *g, double wall, double cpu, uint32_t maxbins)
{
	run_cpu_add(&g->cpu, g->count, cpu);
	if (!g->count || wall < g->min)
		g->min = wall;
	if (!g->count || wall > g->max)
		g->max = wall;
	g->count++;
	g->sum += wall;
	g->sumsq += wall * wall;
	struct hist h = {g->bins, g->nbins, g->nbins};
	hist_add(&h, wall, cpu, maxbins);
	g->bins = h.bins;
	g->nbins = h.n;
}

void run_gap_fold(struct run_gap *into, const struct run_gap *from, uint32_t maxbins)
{
	if (!from->count)
		return;
	run_cpu_merge(&into->cpu, into->count, &from->cpu, from->count);
	if (!into->count || from->min < into->min)
		into->min = from->min;
	if (!into->count || from->max > into->max)
		into->max = from->max;
	into->count += from->count;
	into->sum += from->sum;
	into->sumsq += from->sumsq;
	struct hist h = {into->bins, into->nbins, into->nbins};
	hist_merge(&h, from->bins, from->nbins, maxbins);
	into->bins = h.bins;
	into->nbins = h.n;
}
