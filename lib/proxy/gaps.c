/*
 * gaps — compute between calls, from the timing histograms of a group (ScalaBenchGen §3.3): for each
 * signature, the gaps before its calls whatever call came before, as a mean and as the merged
 * log-scale bins (with their means) the program samples from with --timing sample, in wall and in CPU time. The
 * program turns seconds into CPU work calibrated at startup (proxy.h: compute, compute_gap).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxy/proxy.h"
#include "util/xalloc.h"

struct merged_bin {
	int32_t bin;
	double count, min, max, sum, cpu_min, cpu_max, cpu_sum;
};

static int by_bin(const void *a, const void *b)
{
	const struct merged_bin *x = a, *y = b;
	return (x->bin > y->bin) - (x->bin < y->bin);
}

/* MPI_Init is made by main(), after the program's compute is calibrated */
static bool is_init(const struct proxy_gen *g, uint32_t sig)
{
	const char *name = g->r->fns[g->r->sigs[sig].fn].name;
	return !strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread");
}

static bool has_gaps(const struct proxy_gen *g, const struct run_group *grp, uint32_t sig)
{
	if (is_init(g, sig))
		return false;
	for (uint32_t i = 0; i < grp->ngaps; i++)
		if (grp->gaps[i].sig == sig && grp->gaps[i].count)
			return true;
	return false;
}

static void emit_table(struct proxy_gen *g, const struct run_group *grp, uint32_t sig)
{
	double sum = 0, cpu = 0, count = 0;
	struct merged_bin *bins = NULL;
	size_t nbins = 0;
	for (uint32_t i = 0; i < grp->ngaps; i++) {
		const struct run_gap *gap = &grp->gaps[i];
		if (gap->sig != sig)
			continue;
		sum += gap->sum;
		cpu += gap->cpu.sum;
		count += (double)gap->count;
		for (uint32_t j = 0; j < gap->nbins; j++) {
			const struct run_bin *b = &gap->bins[j];
			size_t k = 0;
			while (k < nbins && bins[k].bin != b->bin)
				k++;
			if (k == nbins) {
				bins = xrealloc(bins, (nbins + 1) * sizeof *bins);
				bins[nbins++] = (struct merged_bin){b->bin, 0, b->min, b->max, 0, b->cpu.min, b->cpu.max, 0};
			}
			bins[k].count += (double)b->count;
			bins[k].sum += b->sum;
			bins[k].cpu_sum += b->cpu.sum;
			bins[k].min = b->min < bins[k].min ? b->min : bins[k].min;
			bins[k].max = b->max > bins[k].max ? b->max : bins[k].max;
			bins[k].cpu_min = b->cpu.min < bins[k].cpu_min ? b->cpu.min : bins[k].cpu_min;
			bins[k].cpu_max = b->cpu.max > bins[k].cpu_max ? b->cpu.max : bins[k].cpu_max;
		}
	}
	qsort(bins, nbins, sizeof *bins, by_bin);
	if (nbins) {
		px_printf(&g->text, "static const double gap_bins_g%u_s%u[][7] = {", g->group, sig);
		for (size_t k = 0; k < nbins; k++)
			px_printf(&g->text, "%s{%.0f, %.9g, %.9g, %.9g, %.9g, %.9g, %.9g}", k ? ", " : "", bins[k].count,
				  bins[k].min, bins[k].max, bins[k].sum / bins[k].count, bins[k].cpu_min, bins[k].cpu_max,
				  bins[k].cpu_sum / bins[k].count);
		px_puts(&g->text, "};\n");
	}
	char table[64] = "NULL";
	if (nbins)
		snprintf(table, sizeof table, "gap_bins_g%u_s%u", g->group, sig);
	px_printf(&g->text, "static const struct gap_histogram gap_g%u_s%u = {%.9g, %.9g, %zu, %s};\n", g->group,
		  sig, count > 0 ? sum / count : 0.0, count > 0 ? cpu / count : 0.0, nbins, table);
	free(bins);
}

void px_emit_gap_tables(struct proxy_gen *g)
{
	const struct run_group *grp = &g->r->groups[g->group];
	bool *done = xcalloc(g->r->nsigs ? g->r->nsigs : 1, sizeof *done);
	bool any = false;
	for (uint32_t i = 0; i < grp->ngaps; i++) {
		uint32_t sig = grp->gaps[i].sig;
		if (sig >= g->r->nsigs || done[sig] || !has_gaps(g, grp, sig))
			continue;
		if (!any)
			px_puts(&g->text, "\n/* compute before each call (seconds): the mean wall and CPU time, and the histogram's bins\n"
					   " * (count, wall min, max, mean, CPU min, max, mean) */\n");
		any = done[sig] = true;
		emit_table(g, grp, sig);
	}
	free(done);
}

void px_emit_gap(struct proxy_gen *g, uint32_t sig, int indent)
{
	if (!has_gaps(g, &g->r->groups[g->group], sig))
		return;
	for (int i = 0; i < indent; i++)
		buf_put_u8(&g->text, '\t');
	px_printf(&g->text, "compute_gap(&gap_g%u_s%u);\n", g->group, sig);
}
