/*
 * `ladder help report-figures`: the figures of ladder report, what a regression is, and the
 * state it ends in (the parts that do not fit `ladder help report`). The command is cmd_report.c.
 */
#include "command.h"

const struct topic topic_report_figures = {
	"report-figures", "the figures of 'ladder report', regressions and its PASS/FAIL state",
	"ladder report: the figures and the state.\n"
	"\n"
	"Figures, all higher-is-better: time (accuracy of the replay time), proxy (accuracy of the proxy's\n"
	"time, where it ran), events and counts (1 equal,\n"
	"0 different), model_METRIC (accuracy of the supported predictions of METRIC over all call\n"
	"paths together: 1 - sum |predicted - measured| / sum measured; each call path's own accuracy,\n"
	"supported or not, is in the tables),\n"
	"interval (share of prediction intervals that held the measurement), ranking (Spearman), topk.\n"
	"A regression is a figure below the median of its last 5 nights in the history by more than the\n"
	"margin.\n"
	"\n"
	"The state: FAIL when a figure missed its threshold or regressed, or the extrapolated trace's\n"
	"events or counts differ from the real run's (whatever the thresholds); else NOT VALIDATED when\n"
	"a figure could not be computed or has no rule, the extrapolation is lossy (its kept share of\n"
	"calls and bytes is in the headline) or the trace given as extrapolated is a measured run;\n"
	"else PASS. The report opens with the prediction at the target and, where the real run was\n"
	"measured, how far each prediction was from it.\n",
};
