/*
 * `ladder help model-method`: how ladder model chooses a model, its prediction interval, when
 * the ladder supports a prediction and the exact laws of counts (the parts of the method that do
 * not fit `ladder help model`). The command is cmd_model.c; the method lib/model.
 */
#include "command.h"

const struct topic topic_model_method = {
	"model-method", "how 'ladder model' chooses a model, its interval and its support",
	"ladder model: the method.\n"
	"\n"
	"How it works: repetitions are aggregated per point; if they vary more than the points differ,\n"
	"the series is reported as too noisy instead of fitted. Every single term and every pair of\n"
	"terms is fitted (least squares of relative residuals), larger sets around the best while the\n"
	"residuals exceed the repetitions' noise. The model is the most probable hypothesis given the\n"
	"data: how well it fits, against the noise the repetitions measured (with their degrees of\n"
	"freedom, so a misfit all hypotheses share does not drive the choice to the most terms), how\n"
	"much of a prior over term sizes its terms needed, and a term that subtracts from the metric\n"
	"taken as 7x less likely than one that adds to it. Terms are chosen with the most precise of the\n"
	"median, the mean and the midrange of the repetitions (by the noise measured), then fitted to\n"
	"the per-point values. The prediction is the median over the three most probable hypotheses\n"
	"(where the ladder cannot tell rival models apart it lies between them; without noise it is the\n"
	"model's value). The interval covers a bootstrap over the repetitions that re-selects the model\n"
	"each time and the average over all hypotheses searched, weighted by their probability, each\n"
	"with its own estimate of the noise. Hypotheses whose terms cancel each other (parts more than\n"
	"4x the value they add up to, in the data or at the target) or that are not positive at the\n"
	"target are not considered. A prediction is supported by the ladder only when two rungs beyond\n"
	"its coefficients check the model, every term of its model shows on the rungs (none is most of\n"
	"the prediction at the target while at most a third of that on every rung), the model's terms\n"
	"fitted without each rung in turn agree at the target within the interval's width, the interval\n"
	"spans at most 10x, and no rival model that fits the rungs as well predicts more than 3x outside\n"
	"it (the hypotheses the search screened; where it screened only some, every one of the model's\n"
	"size and, fitting significantly better, of one term more, up to three terms; with several\n"
	"parameters, the model with a term moved or added anywhere in the space, an added one fitting\n"
	"significantly better); otherwise the table marks the interval\n"
	"unsupported, the note says why, the JSON says \"supported\": false and the campaign's /models\n"
	"says supported = 0 (--advise names the rung that narrows it). Counts the same at every\n"
	"repetition (visits, messages, bytes) are modeled by an exact integer law of p when one\n"
	"reproduces every rung (terms 1, p, log2 p, ceil(log2 p), sqrt p, cbrt p, the widths of the 2-D\n"
	"and 3-D grids of p ranks, p log2 p, p^2, 1/p; the table shows \"exact: LAW\"); it supports a\n"
	"prediction when two rungs beyond its unknowns check it and no other law disagrees. Other counts\n"
	"predict whole numbers. Three rungs (1, 8, 27) give the constant or one term, or an exact law.\n"
	"A model that misses the measured values by more than a third on average (SMAPE) is reported\n"
	"as a poor fit and not counted as modeled; a series that is zero at its smallest rank counts\n"
	"only (no neighbours at p = 1) is modeled from its first non-zero rung when the zeros cannot be\n"
	"fitted.\n"
	"For each call path whose time grows faster than its bytes, messages or visits can explain, a\n"
	"note says wait states are likely.\n",
};
