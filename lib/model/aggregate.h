/*
 * aggregate — from the repetitions of one point to the value the model is fitted to (median by
 * default; mean, min, max or midrange selectable), the spread kept alongside, and the check of
 * the paper's §2.2: when repetitions of the same point vary more than the points differ from each
 * other, a model would fit noise, and the modeler says so instead of fitting.
 */
#ifndef LADDER_MODEL_AGGREGATE_H
#define LADDER_MODEL_AGGREGATE_H

#include <stdbool.h>
#include <stddef.h>

enum model_aggregate { MODEL_AGG_MEDIAN, MODEL_AGG_MEAN, MODEL_AGG_MIN, MODEL_AGG_MAX, MODEL_AGG_MIDRANGE };

const char *model_aggregate_name(enum model_aggregate a);
/* "median", "mean", "min", "max", "midrange"; false when unknown */
bool model_aggregate_parse(const char *s, enum model_aggregate *out);

/* one point: the aggregate and the spread of its repetitions */
struct point_stats {
	double value;                 /* the aggregate the model is fitted to */
	double min, max, median, mean, sd;
	size_t nreps;
};

/* v: n >= 1 values; sorted receives them sorted (may alias nothing else) */
void point_stats_compute(const double *v, size_t n, enum model_aggregate a, double *sorted,
			 struct point_stats *out);
/* The aggregate of n values (reorders v). */
double aggregate_values(double *v, size_t n, enum model_aggregate a);
/* The aggregate of a resample given as a count per sorted value (count[k] copies of sorted[k],
 * total copies in all). Used by the bootstrap. */
double aggregate_counts(const double *sorted, const unsigned *count, size_t n, size_t total,
			enum model_aggregate a);

/* The relative variance of a per-point value (the aggregate of a point's repetitions, relative
 * to the point's level), from the noise of all points pooled (multiplicative noise: the same
 * relative spread everywhere): the variance of the aggregate of r draws from the pooled relative
 * deviations, since the spread of a median of five depends on the shape of the noise. Exact
 * from the order statistics of the pooled deviations (min, max, median of an odd number, the
 * joint law of min and max for the midrange), their second moment for the mean, simulated for
 * the median of an even number. dof receives the
 * degrees of freedom of the estimate (0: no repetitions). */
double aggregate_relative_variance(const double *const *reps, const size_t *nreps, size_t npoints,
				   enum model_aggregate a, unsigned long seed, double *dof);

/* The aggregate the model search chooses terms with, and its relative variance (as above). It
 * is the requested aggregate, except that for the median the mean or the midrange (the middle
 * of the smallest and the largest) is taken when the pooled noise makes it the most precise:
 * the median of five has about 1.4x the variance of the mean under Gaussian noise and 2.1x
 * under uniform noise, the midrange of five 0.7x the mean's under uniform noise (bounded noise,
 * a timer's ticks), while with heavy tails or a rare large outlier (one repetition in 20 three
 * times too slow) the median stays the most precise. All variances come from the same pooled
 * sample, so the choice follows the noise measured, not an assumption about it (the sample's
 * deviations from each point's mean are smoother than the noise, which hides part of the
 * midrange's advantage: under uniform noise it is chosen about two times in three). Under
 * multiplicative noise these aggregates of a point are the same multiple of its true value, so
 * all follow the same function class: the choice changes how surely the class is found, not
 * what is modeled (the coefficients are fitted to the requested aggregate). requested_var: the
 * relative variance of the requested aggregate. */
enum model_aggregate aggregate_for_selection(const double *const *reps, const size_t *nreps, size_t npoints,
					     enum model_aggregate requested, unsigned long seed, double *var,
					     double *requested_var, double *dof);

struct noise_verdict {
	bool tested;        /* there were repetitions to test with */
	double p_value;     /* one-way ANOVA (on logarithms) of "the points differ" */
	double spread;      /* median over points of (max - min) / |median| of the repetitions */
	double between;     /* (max - min) / |median| of the point aggregates */
	bool too_noisy;     /* not significant at 5% and spread > limit */
};

/* reps[k] holds the nreps[k] values of point k, sorted; values[k] its aggregate */
void noise_assess(const double *const *reps, const size_t *nreps, const double *values, size_t npoints,
		  double limit, struct noise_verdict *out);

#endif
