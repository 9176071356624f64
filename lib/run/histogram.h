/*
 * histogram — the compute-gap histograms of a trace (ScalaExtrap §2, §3.5): at most a fixed number
 * of bins per histogram, each with count, sum, min and max of its samples, so that size does not
 * grow with the run's length.
 *
 * A sample of g nanoseconds belongs to quarter-octave q = 4 floor(log2 g) + (the two bits after
 * g's leading one); q = -1 for g < 1 ns. Bins start as one quarter octave each; when a new one
 * would exceed the limit, the adjacent pair with the fewest samples merges into one bin (numbered
 * by its lower quarter octave, its range given by its min and max). The bulk keeps fine bins, the
 * rare tails get coarse ones.
 *
 * A sample is a gap's wall time, which picks its bin, and its CPU time (the thread's CPU clock),
 * which the bin keeps beside it (struct run_cpu): so a bin says how much of its wall time was work.
 */
#ifndef LADDER_RUN_HISTOGRAM_H
#define LADDER_RUN_HISTOGRAM_H

#include <stdint.h>

#include "run/run.h"

#define HIST_DEFAULT_BINS 8

int32_t hist_quarter_octave(double seconds);

struct hist {
	struct run_bin *bins;   /* sorted by bin */
	uint32_t n, cap;
};

/* a sample: wall and CPU seconds */
void hist_add(struct hist *h, double seconds, double cpu, uint32_t maxbins);
/* add the bins of another histogram (sorted) */
void hist_merge(struct hist *h, const struct run_bin *bins, uint32_t n, uint32_t maxbins);

/* bins holding fewer than 1/share of the histogram's samples merge, the rarest first, into their
 * neighbour with fewer samples, until every bin holds at least that share or one bin is left: a
 * histogram whose bins describe its distribution's shape, not how long the run was sampled (the
 * rare tails a longer run meets fold into the bins beside them; the range, the sums and the count
 * stay as they were) */
void hist_fold_rare(struct hist *h, uint32_t share);

/* one sample (wall and CPU seconds) added to a gap's statistics and histogram */
void run_gap_add(struct run_gap *g, double wall, double cpu, uint32_t maxbins);
/* fold the samples of gap `from` (the same previous call and call) into `into` */
void run_gap_fold(struct run_gap *into, const struct run_gap *from, uint32_t maxbins);

/* a time drawn from a bin with range [min, max] and mean `mean`, given u uniform in [0, 1): uniform on
 * the widest interval centred on the mean inside the range. Its expectation is the bin's mean, which a
 * draw uniform on [min, max] misses when the bin is skewed (a merged bin whose samples crowd one end) */
double hist_bin_draw(double min, double max, double mean, double u);

/* CPU statistics: add one sample, or fold in another's (either may be empty: n or m zero) */
void run_cpu_add(struct run_cpu *c, uint64_t n, double cpu);
void run_cpu_merge(struct run_cpu *c, uint64_t n, const struct run_cpu *other, uint64_t m);
/* a gap whose CPU times were not recorded (RUN_CPU_NONE): the gap's and its bins' copies of their
 * wall times */
void run_gap_cpu_as_wall(struct run_gap *g);

#endif
