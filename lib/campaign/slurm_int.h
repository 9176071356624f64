/*
 * slurm_int — what the parts of the Slurm executor share (slurm.c: connecting, polling,
 * submitting, cancelling; slurm_state.c: Slurm's job states in campaign terms; slurm_resolve.c:
 * jobs the controller has forgotten). Not for use outside lib/campaign/slurm*.c.
 */
#ifndef LADDER_CAMPAIGN_SLURM_INT_H
#define LADDER_CAMPAIGN_SLURM_INT_H

#include <slurm/slurm.h>
#include <stdbool.h>
#include <stddef.h>

#include "campaign/jobgraph.h"
#include "campaign/jobcomp.h"

/* the name the campaign's job carries in Slurm: CAMPAIGN.JOB (fresh string) */
char *slurm_name(const struct campaign *c, const struct campaign_job *j);
/* update j from the controller's record of it */
void slurm_apply_info(struct campaign *c, struct campaign_job *j, const slurm_job_info_t *r);
/* update j from a completion record; false when the record is not an end (e.g. REQUEUED) */
bool slurm_apply_record(struct campaign *c, struct campaign_job *j, const struct jobcomp_rec *r);

/* resolving jobs the controller no longer knows: set up for c, release */
void slurm_resolve_init(struct campaign *c);
void slurm_resolve_fini(void);
/* missing[0..n) are indices of active jobs absent from the controller's answer; returns how many
 * changed state (the array is reordered) */
int slurm_resolve_missing(struct campaign *c, size_t *missing, size_t n);

#endif
