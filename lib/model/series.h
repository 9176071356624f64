/*
 * series — modeling one (call path, metric): aggregate the repetitions, check the noise, search
 * the hypotheses, compute the quality figures and the prediction interval. The context holds
 * what every series of an experiment shares.
 */
#ifndef LADDER_MODEL_SERIES_H
#define LADDER_MODEL_SERIES_H

#include "model/candidates.h"
#include "model/modeler.h"
#include "model/search.h"

struct series_context {
	const struct experiment *e;
	const struct model_options *o;
	struct search_options search;
	struct candidates single;          /* the candidates when there is one parameter */
	double *single_basis;              /* their values at every point of the experiment */
	const double *target;
	struct fit_work *w;
	struct fit_critical critical;      /* the critical F values, shared by series alike */
	struct fit_critical neighbour_critical;   /* those of the neighbours' problems (neighbours.h) */
	/* scratch, sized for the experiment */
	double *pts, *y, *ysel, *sorted;   /* ysel: the values terms are selected with */
	const double **reps;
	size_t *nreps;
};

void series_context_init(struct series_context *ctx, const struct experiment *e, const struct model_options *o,
			 const double *target);
void series_context_free(struct series_context *ctx);
void model_series(struct series_context *ctx, size_t cp, size_t metric, struct model_result *out);

#endif
