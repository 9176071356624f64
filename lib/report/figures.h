/*
 * figures — the handful of numbers a night is judged by, their thresholds and their regressions.
 * Every figure is "higher is better" and named:
 *
 *   time          1 - |T_replay - T_app| / T_app at a target: the replay of the extrapolated trace
 *                 against the real application there (ScalaExtrap §5.2)
 *   proxy         1 - |T_proxy - T_app| / T_app at a target where the proxy program written from the
 *                 extrapolated trace ran (ScalaBenchGen §5)
 *   events        1 when the extrapolated trace makes the same calls as the real run on every rank
 *                 (ladder compare), else 0
 *   counts        1 when calls and bytes per function and rank agree, else 0
 *   model_METRIC  the accuracy of the model predictions of METRIC at the target over all call
 *                 paths together, 1 - sum |pred - meas| / sum meas (model_time, model_visits,
 *                 model_bytes_sent, ...): errors do not cancel, large call paths weigh more
 *   interval      the share of predictions whose interval held the measurement
 *   ranking       Spearman's rank correlation of predicted and measured time per call path
 *   topk          the share of the measured top-k call paths also in the predicted top k
 *
 * Thresholds: "NAME=MIN,..." (the workflow's `acceptance`); a METRIC alone means model_METRIC
 * when no figure has that name; "NAME=none" leaves the figure without a rule; "margin=M" sets the
 * regression margin. A regression is a figure below the median of its last `window` nights (same
 * figure and target) by more than the margin (absolute, default 0.05: five accuracy points).
 *
 * Every figure has a default threshold, so that no verdict is given without a rule:
 *
 *   events 1, counts 1                       the extrapolated trace is the real run, call for call
 *   time 0.9, proxy 0.9                      within 10% of the application's time
 *   model_time 0.5                           timing models at the target (noise on shared cores)
 *   model_METRIC 0.9 for the count metrics   visits, bytes, messages: deterministic
 *   interval 0.8, ranking 0.5, topk 0.6
 *
 * The overall state (figures_state): FAIL when a figure missed its threshold or regressed; else
 * NOT VALIDATED when a figure could not be computed or has no rule, or the extrapolation is lossy
 * (report.h); else PASS.
 */
#ifndef LADDER_REPORT_FIGURES_H
#define LADDER_REPORT_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

struct figure {
	char *name;
	long target;              /* ranks */
	double value;             /* NaN: not computed (an input is missing) */
	char *source;             /* the file(s) it comes from */
	bool has_threshold;
	bool default_threshold;   /* the threshold is the default (not given) */
	bool no_rule;             /* NAME=none: deliberately without a threshold */
	double threshold;
	bool held;                /* value >= threshold; true without a threshold */
	size_t nights;            /* earlier nights of the same figure and target in the history */
	double trailing_median;   /* of the last `window` of them, NaN without any */
	bool regression;
};

struct figures {
	struct figure *v;
	size_t n;
};

struct threshold {
	char *name;
	double min;               /* NaN: none (no rule) */
	bool used;
};

struct thresholds {
	struct threshold *v;
	size_t n;
	double margin;            /* default 0.05 */
	size_t window;            /* default 5 */
};

void figures_add(struct figures *f, const char *name, long target, double value, const char *source);
struct figure *figures_find(struct figures *f, const char *name, long target);
void figures_free(struct figures *f);

void thresholds_init(struct thresholds *t);
/* "time=0.9,ranking=0.5,model_time=none,margin=0.1" (empty: none given); false with why on a
 * malformed entry */
bool thresholds_parse(const char *text, struct thresholds *t, char *why, size_t whylen);
void thresholds_free(struct thresholds *t);

/* the default threshold of a figure (see above) */
double figure_default_threshold(const char *name);

/* Set has_threshold/threshold/held of every figure: the threshold given, else the default; a
 * threshold that names no figure is left unused (the caller reports it). */
void figures_apply_thresholds(struct figures *f, struct thresholds *t);

enum report_state { STATE_PASS, STATE_NOT_VALIDATED, STATE_FAIL };
/* the state the figures alone give (see above); "PASS", "NOT VALIDATED", "FAIL" */
enum report_state figures_state(const struct figures *f);
const char *report_state_name(enum report_state s);

/* true when every threshold held and nothing regressed (figures that could not be computed do
 * not fail unless strict) */
bool figures_pass(const struct figures *f, bool strict);

#endif
