/*
 * exec — what the driver asks of an executor (the local one, or Slurm), and the driver itself.
 *
 * The driver (driver.c) loops: ask the executor for news about active jobs, mark jobs whose
 * dependencies failed as SKIPPED, hand ready jobs to the executor, save the state when anything
 * changed, then sleep (backing off while nothing changes). A local job is ready when all its
 * dependencies completed and the rank budget allows; a Slurm job as soon as its dependencies are
 * submitted (Slurm holds it with afterok), so the whole campaign is one submission.
 */
#ifndef LADDER_CAMPAIGN_EXEC_H
#define LADDER_CAMPAIGN_EXEC_H

#include <stdbool.h>

#include "campaign/jobgraph.h"
#include "campaign/campaign_error.h"

struct executor {
	const char *name;
	/* get ready (connect, learn where completed jobs are recorded); false on a permanent failure */
	bool (*open)(struct campaign *c, struct campaign_error *e);
	/* after a driver restart: pick up jobs a previous driver started or submitted */
	void (*adopt)(struct campaign *c);
	/* refresh active jobs; returns how many changed, or -1 when the scheduler could not be
	 * asked this time (the driver retries) */
	int (*poll)(struct campaign *c);
	/* may j start now (rank budget)? */
	bool (*can_start)(struct campaign *c, const struct campaign_job *j);
	/* start or submit j: 1 done, 0 not now (transient, retried later), -1 failed (e) */
	int (*start)(struct campaign *c, struct campaign_job *j, struct campaign_error *e);
	/* stop an active job */
	bool (*cancel)(struct campaign *c, struct campaign_job *j);
	void (*close)(struct campaign *c);
	/* sleep at most `seconds`, returning early when something may have happened */
	void (*sleep)(struct campaign *c, double seconds);
	bool submits_ahead;
};

extern const struct executor exec_local;
extern const struct executor exec_slurm;
const struct executor *executor_for(const struct campaign *c);

/* Record a job's new state (with its times) and tell the user. */
void job_transition(struct campaign *c, struct campaign_job *j, enum job_state s);

enum drive_result {
	DRIVE_DONE,         /* every job completed */
	DRIVE_INCOMPLETE,   /* everything final, but some jobs failed, were skipped or cancelled */
	DRIVE_SUBMITTED,    /* everything handed to the scheduler; not following (--no-wait) */
	DRIVE_TIMEOUT,      /* still going after the timeout */
	DRIVE_CANCELLED,    /* cancelled while driving */
	DRIVE_ERROR,        /* e says why */
	DRIVE_NOTHING_TO_RETRY, /* retry (control.h): no job failed, was skipped or cancelled */
};

struct drive_opts {
	double timeout;     /* seconds; 0 = until done */
	bool follow;        /* false: return once every job is submitted (Slurm) */
	bool once;          /* one round of polling only, no new jobs started (status) */
};

enum drive_result campaign_drive(struct campaign *c, const struct drive_opts *o, struct campaign_error *e);

/* ask a running driver (or do it ourselves) to cancel: writes DIR/.cancel */
bool campaign_request_cancel(struct campaign *c, struct campaign_error *e);
/* cancel every unfinished job now (the caller holds the lock) */
void campaign_cancel_all(struct campaign *c, const struct executor *x);

/* seconds since the epoch, with fractions */
double now_wall(void);

#endif
