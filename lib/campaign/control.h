/*
 * control — what `ladder campaign status|wait|retry|cancel` do to an existing campaign
 * directory: load it, take the driver lock or learn who holds it, and act (refresh the states
 * once, follow to the end, reset jobs and follow, cancel) either here or, when another process
 * drives the campaign, by watching its state file or asking that driver (DIR/.cancel).
 */
#ifndef LADDER_CAMPAIGN_CONTROL_H
#define LADDER_CAMPAIGN_CONTROL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "campaign/campaign_error.h"
#include "campaign/exec.h"
#include "campaign/jobgraph.h"

/* Load DIR's campaign into c; when nobody drives it and it is an unfinished Slurm campaign, ask
 * the scheduler once first. *driver: the pid of the process driving it, 0 if none. False (e)
 * when DIR holds no readable campaign. c is initialised in any case (campaign_free it). */
bool campaign_refresh(const char *dir, struct campaign *c, pid_t *driver, struct campaign_error *e);

struct follow_request {
	double timeout;            /* seconds; 0 = until done */
	bool follow;               /* false: return once everything is submitted (Slurm) */
	bool retry;                /* put jobs back to WAITING first (campaign_reset) */
	char *const *jobs;         /* retry only these jobs (and what depends on them); NULL: every */
	size_t njobs;              /* failed, skipped and cancelled one */
};

/* Follow DIR's campaign until it ends (wait), or reset jobs and follow it (retry). When another
 * process drives it, wait watches its state file (and takes over if that driver stops); retry
 * is refused. c receives the campaign as it ended (initialised in any case: campaign_free it).
 * DRIVE_NOTHING_TO_RETRY when a retry found no job to run again. */
enum drive_result campaign_follow(const char *dir, const struct follow_request *r, struct campaign *c,
				  struct campaign_error *e);

/* Cancel every unfinished job of DIR's campaign: through its driver when one runs (waiting up to
 * 60 s until it has done it; *driver receives its pid), else here (*driver = 0). c receives the
 * campaign (initialised in any case: campaign_free it). */
bool campaign_cancel_dir(const char *dir, struct campaign *c, pid_t *driver, struct campaign_error *e);

#endif
