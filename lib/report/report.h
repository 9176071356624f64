/*
 * report — what `ladder report` knows about one campaign after gathering it from the containers:
 * the models (/models/callpaths of the campaign) with the measurement at the target next to each
 * prediction, the measured ladder (for the plots), and per target scale the validation runs: the
 * real application traced there (the truth), the extrapolated trace, the replay of the
 * extrapolated trace and the proxy program written from it. Every number names the file it came from. The writers (HTML, Markdown,
 * JSON) and the history only read this structure.
 */
#ifndef LADDER_REPORT_REPORT_H
#define LADDER_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/experiment.h"
#include "report/figures.h"
#include "report/lossy.h"

/* one row of /models/callpaths and what was measured at its target */
struct report_model {
	char *callpath, *metric, *status, *model, *growth, *note;
	bool supported;          /* the ladder supports the prediction: the stored 'supported' field,
				    lib/model's judgement (model/support.h) */
	double prediction, lower, upper, level;
	bool measured_ok;        /* the truth run at the target has this call path */
	double measured;         /* at the target (median of the truth runs), NaN when none */
	double accuracy;         /* accuracy_of(prediction, measured), NaN when not measured */
	int held;                /* interval_held(): 1, 0, or -1 without an interval */
};

/* a what-if replay at a target: the extrapolated trace with scaled compute or messages */
struct report_whatif {
	char *replay;            /* its JSON (ladder-replay --json) */
	double compute_scale, message_scale;
	double time;             /* its total time */
};

/* calls and bytes sent of one MPI function, per rank (the mean over ranks) */
struct report_fn_count {
	char *name;
	double calls, bytes;
};

/* the validation at one target scale */
struct report_target {
	long ranks;
	char **truth;            /* the real application traced at the target (run containers) */
	size_t ntruth;
	char **timed;            /* the application timed untraced at the target (`ladder time -o`) */
	size_t ntimed;
	double traced_time;      /* median over the truth runs of t_end - t_start, NaN when none */
	double app_time;         /* the application's time: the median of the timed runs, else (none)
				    traced_time; NaN when neither */
	char *extrap;            /* the extrapolated trace, NULL when absent */
	bool extrap_synthetic;   /* its root attribute synthetic == 1 */
	struct lossy lossy;      /* what a lossy extrapolation kept (its labels) */
	double extrap_calls, extrap_bytes;   /* per rank (mean), from its profile; NaN when unread */
	struct report_fn_count *extrap_fns;  /* per function, most calls first */
	size_t nextrap_fns;
	char *extrap_note;       /* why it is absent or unreadable, NULL otherwise */
	int events_equal;        /* compare_runs(extrap, truth): 1, 0; -1 not checked */
	unsigned events_ranks_differ;
	char *events_first_diff; /* the first difference, one line, or NULL */
	int counts_equal;        /* compare_counts: calls and bytes per function and rank; -1 not checked */
	unsigned counts_differ;
	char *replay;            /* JSON of the replay of the extrapolated trace as recorded (compute and
				    message scales 1), NULL when absent */
	double replay_time;      /* its total time (max over ranks), NaN when none */
	double time_accuracy;    /* accuracy_of(replay_time, app_time), NaN when either is missing */
	char **replay_inputs;    /* replay reports given explicitly (--replay), read with the others */
	size_t nreplay_inputs;
	struct report_whatif *whatif;   /* replays with other scales (CAMPAIGN_DIR/STAGE/p<P>/replay.json) */
	size_t nwhatif;
	char *proxy;             /* JSON of the proxy program run at the target (its --json), NULL when absent */
	double proxy_time;       /* its time (the slowest rank, MPI_Init to MPI_Finalize), NaN when none */
	double proxy_accuracy;   /* accuracy_of(proxy_time, app_time), NaN when either is missing */
	char **proxy_inputs;     /* proxy reports given explicitly (--proxy) */
	size_t nproxy_inputs;
};

struct report {
	char *campaign;          /* the campaign container */
	char *application, *created;
	char *settings;          /* /models settings attribute, "" when no models */
	char *reduce;            /* how the models reduced over ranks (from settings), "max" by default */
	long model_target;       /* p of the models' target, 0 when none */
	struct report_model *models;
	size_t nmodels;
	struct experiment *ladder;   /* the measured ladder, reduced as the models were */
	struct report_target *targets;
	size_t ntargets;
	/* kernel ranking at the model target (metric time) */
	size_t ranked;           /* call paths with both a prediction and a measurement */
	double spearman, topk;
	size_t k;
	/* the figures the thresholds and the history are about */
	struct figures figs;
};

/* inputs given explicitly (repeatable options) besides what is found next to the campaign */
struct report_inputs {
	char **truth, **timed, **extrap, **replay, **proxy;
	size_t ntruth, ntimed, nextrap, nreplay, nproxy;
	long *targets;
	size_t ntargets;
	size_t topk;             /* k of the top-k agreement (default 5) */
};

/* Read everything about the campaign. Missing optional inputs are noted in the report, not
 * errors; an unreadable campaign or model table is (false, why filled). */
bool report_gather(const char *campaign, const struct report_inputs *in, struct report *r, char *why,
		   size_t whylen);
void report_free(struct report *r);

/* does a model row predict at its target (a model was found, its prediction is a number)? */
bool report_model_predicts(const struct report_model *m);

#endif
