/*
 * jobgraph — the job graph of one campaign and the state of every job, as the driver, the
 * executors and the state file (campaign/statefile.h) see it.
 *
 * A campaign lives in one directory:
 *
 *   DIR/state.json           this structure, written atomically (campaign/statefile.c)
 *   DIR/.lock                held (flock) by the process driving the campaign
 *   DIR/workflow.yaml, site.yaml   copies of the specs the scripts were generated from
 *   DIR/jobs/NAME.sh         one script per job; the local executor adds NAME.lock / NAME.rc
 *   DIR/logs/NAME.log        each job's output
 *   DIR/runs/pN/rK/trace.h5  the traced run of rung N, repetition K
 *   DIR/truth/pP/trace.h5    the real application at target P (ground truth, not merged)
 *   DIR/campaign.h5          the merged campaign container; DIR/STAGE/ for later stages
 *
 * Jobs: an optional build, one run per rung x repetition, the truth runs, merge, then the
 * workflow's stages (one job per target for per-target stages). Each job names the jobs it
 * depends on; a job starts only when all of them completed.
 */
#ifndef LADDER_CAMPAIGN_JOBGRAPH_H
#define LADDER_CAMPAIGN_JOBGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "campaign/spec.h"

enum job_state {
	JS_WAITING,    /* not submitted/started yet */
	JS_QUEUED,     /* in the scheduler's queue */
	JS_RUNNING,
	JS_COMPLETED,  /* exit status 0 */
	JS_FAILED,     /* non-zero exit, timeout, node failure, ... (reason says which) */
	JS_CANCELLED,
	JS_SKIPPED,    /* not run because a job it depends on did not complete */
};
enum job_kind { JK_BUILD, JK_RUN, JK_MERGE, JK_STAGE };

const char *job_state_name(enum job_state s);
bool job_state_parse(const char *name, enum job_state *s);
const char *job_kind_name(enum job_kind k);
bool job_kind_parse(const char *name, enum job_kind *k);
static inline bool job_final(enum job_state s) { return s >= JS_COMPLETED; }
static inline bool job_active(enum job_state s) { return s == JS_QUEUED || s == JS_RUNNING; }

struct campaign_job {
	/* the plan */
	char *name;             /* build, run-p16-r2, merge, model, extrap-t64 */
	enum job_kind kind;
	char *stage;            /* "run", "truth", "build", "merge" or the stage name */
	long ranks, nodes, tasks_per_node, rep, size, target;
	long time_limit;        /* minutes */
	char **deps;            /* names of the jobs it depends on */
	size_t ndeps;
	size_t *dep;            /* their indices (campaign_link) */
	char *script, *log, *output;   /* relative to the campaign directory; output may be NULL */
	char hash[17];          /* of the script's text: a changed script means a changed job */
	/* the state */
	enum job_state state;
	uint32_t id;            /* Slurm job id, 0 if none */
	long pid;               /* local executor: the job's process (group) */
	long long submitted, started, ended;   /* epoch seconds, 0 if not yet */
	int exit_code;          /* valid when has_exit */
	bool has_exit;
	int attempts;           /* times it was submitted/started */
	int restarts;           /* Slurm requeues seen */
	char *reason;           /* why it is in its state (pending reason, failure cause), or NULL */
	char *history;          /* earlier attempts: "id:STATE ..." */
	/* not saved */
	int misses;             /* polls in a row the scheduler did not know it */
	bool ours;              /* local: a child of this driver (else adopted after a restart) */
};

struct campaign {
	char *dir;              /* absolute */
	char *moved_from;       /* the directory state.json was written in, when not dir (moved or copied) */
	char *name;
	char *id;               /* random, tags the campaign's Slurm jobs (comment) */
	enum scheduler sched;
	char *workflow_src, *site_src;  /* the files it was generated from */
	/* what the executors need from the site */
	char *partition, *account, *qos;
	bool use_sbatch;        /* submit with sbatch (extra #SBATCH lines, or asked for) */
	long max_ranks;
	double poll_min, poll_max;
	long controller_timeout;
	char *jobcomp;          /* job completion file, learnt from the controller or the site */
	bool accounting;        /* the cluster has accounting (sacct works) */
	long long created, updated;
	/* counters, kept across drivers */
	long long queries, query_errors, jobcomp_reads, acct_queries, submissions;
	struct campaign_job *jobs;
	size_t njobs;
	/* runtime */
	int lockfd;
	long jobcomp_offset;    /* bytes of the jobcomp file already read */
};

void campaign_init(struct campaign *c);
void campaign_free(struct campaign *c);
struct campaign_job *campaign_add_job(struct campaign *c, const char *name, enum job_kind kind, const char *stage);
void job_add_dep(struct campaign_job *j, const char *name);
void job_set_reason(struct campaign_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct campaign_job *campaign_find_job(struct campaign *c, const char *name);
/* resolve dependency names to indices; false (e) on an unknown name or a cycle */
bool campaign_link(struct campaign *c, struct campaign_error *e);
/* absolute path of a file of the campaign (fresh string) */
char *campaign_path(const struct campaign *c, const char *rel);
/* count jobs per state into counts[JS_SKIPPED + 1] */
void campaign_count(const struct campaign *c, size_t *counts);
bool campaign_done(const struct campaign *c);
/* FNV-1a, 64 bits, as 16 hex digits */
void hash_text(const char *text, char out[17]);

#endif
