/*
 * spec — the two inputs of a campaign, read from YAML and checked field by field:
 *
 *   workflow  what to run: the application command with placeholders, an optional build step,
 *             the ladder of rank counts, scaling mode and problem sizes, repetitions, target
 *             scales, tracer options, the downstream stages and acceptance thresholds
 *   site      where and how: scheduler (local or slurm), partition/account/QoS, ranks per node,
 *             rank budget, launcher template, modules, environment, setup lines, extra #SBATCH
 *             lines, time limits per stage, polling
 *
 * The formats are documented in `ladder help workflow` and `ladder help site` (bin/ladder/topic_campaign.c).
 * Workflow values are untrusted: every command is an argument vector, every value is checked for
 * control characters here and quoted when it is written into a script. Site files are the
 * administrator's: their `setup` lines are shell, on purpose.
 */
#ifndef LADDER_CAMPAIGN_SPEC_H
#define LADDER_CAMPAIGN_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign/campaign_error.h"
#include "campaign/grid.h"
#include "campaign/rungs.h"
#include "campaign/template.h"

enum scaling { SCALING_STRONG, SCALING_WEAK };

struct kvstr {
	char *key, *value;
};
struct kvnum {
	char *key;
	double value;
};

struct stage_spec {
	char *name;
	struct tmpl cmd;
	struct tmpl prepare;    /* a built-in stage's step before its launched command (not launched), may
				   be empty: the proxy is written and built, then run at the target */
	char **after;       /* names of stages (or "merge") it consumes; NULL-terminated */
	size_t nafter;
	bool per_target;    /* one job per target scale, {target} set */
	long ranks;         /* ranks of the job; 0 = the target scale */
	bool launch;        /* put the site's launcher in front of the command */
	const char *needs;  /* a stage whose output the (built-in) command reads, or NULL */
	bool after_truth;   /* waits for the truth runs too (the built-in report) */
	int line;           /* where it is declared (0 for the implicit merge) */
};

struct workflow {
	char *path;         /* absolute path of the file */
	char *dir;          /* its directory */
	char *name, *description;
	struct tmpl command;        /* app.command */
	struct tmpl build;          /* app.build, may be empty */
	/* ladder */
	enum rung_gen gen;
	long from, to;
	long *list;
	size_t nlist;
	struct rung_filter filter;
	struct tmpl valid;          /* ladder.valid.command, may be empty */
	int ladder_line;
	/* problem */
	enum scaling scaling;
	bool has_size;
	long size;                  /* one size for every rung, or 0 when given per rung */
	long *size_rung, *size_value;
	size_t nsizes;
	int size_line;
	long repetitions;
	/* the process grid of each rank count, for {dims} {dims.x} {dims.0} ... (workflow_grid.h): 0
	 * dimensions when the workflow has no 'grid'; axis grid_order[i] takes the i-th largest factor */
	int grid_ndims;
	int grid_order[GRID_MAX_DIMS];
	int grid_line;
	long *targets;
	size_t ntargets;
	long *truth;                /* rank counts at which the real application runs as ground truth */
	size_t ntruth;
	int truth_line;
	/* tracer */
	bool timestamps;
	long callsite_depth;        /* 0: the tracer's default */
	long stream_after;          /* -1: the tracer's default */
	/* stages after the runs; stages[0] is always merge */
	struct stage_spec *stages;
	size_t nstages;
	struct template_vars vars;  /* the names under 'vars', each with one value */
	struct kvnum *acceptance;
	size_t nacceptance;
};

enum scheduler { SCHED_LOCAL, SCHED_SLURM };
enum submit_method { SUBMIT_AUTO, SUBMIT_LIBSLURM, SUBMIT_SBATCH };

struct stage_time {
	char *stage;
	long minutes;
};

struct site {
	char *path;
	char *name;
	enum scheduler scheduler;
	char *partition, *account, *qos;   /* NULL when not set */
	long ranks_per_node;
	long max_ranks;                    /* local: ranks at a time; slurm: largest job (0 = no limit) */
	long max_nodes;                    /* 0 = no limit */
	struct tmpl launcher;
	struct stage_time *times;          /* time limits per stage ("run", "build", "merge", ...) */
	size_t ntimes;
	long time_default;                 /* minutes */
	char **modules;
	size_t nmodules;
	struct kvstr *env;
	size_t nenv;
	char **setup;                      /* raw shell lines */
	size_t nsetup;
	char **sbatch;                     /* extra #SBATCH options */
	size_t nsbatch;
	char *shell;                       /* the #! interpreter */
	enum submit_method submit;
	double poll_min, poll_max;         /* seconds */
	char *jobcomp;                     /* job completion file, NULL = ask the controller */
	long controller_timeout;           /* seconds to keep retrying an unreachable controller */
};

bool workflow_load(const char *path, struct workflow *w, struct campaign_error *e);
void workflow_free(struct workflow *w);
bool site_load(const char *path, struct site *s, struct campaign_error *e);
void site_free(struct site *s);

/* minutes for jobs of stage ("run", "build", "merge", a stage name) */
long site_time_limit(const struct site *s, const char *stage);
/* parse "MINUTES", "H:MM:SS", "D-H:MM:SS" or "D-H" into minutes (rounded up); false if malformed */
bool parse_time_limit(const char *s, long *minutes);
/* the size of rung p, false when the workflow gives sizes per rung and p has none */
bool workflow_size(const struct workflow *w, long p, long *size);
const struct stage_spec *workflow_stage(const struct workflow *w, const char *name);

/* placeholder names each template may use (NULL-terminated), besides the workflow's vars */
extern const char *const placeholders_app[];
extern const char *const placeholders_build[];
extern const char *const placeholders_valid[];
extern const char *const placeholders_stage[];
extern const char *const placeholders_launcher[];

/* workflow_load and site_load; on failure neither needs freeing */
bool specs_load(const char *workflow_path, const char *site_path, struct workflow *w, struct site *s,
		struct campaign_error *e);

#endif
