/*
 * resume — carrying state across drivers: a freshly planned campaign takes over the state of
 * the one on disk job by job (same name and same script: same job, so a finished job is not
 * redone), and `retry` puts failed jobs and everything after them back to WAITING.
 */
#ifndef LADDER_CAMPAIGN_RESUME_H
#define LADDER_CAMPAIGN_RESUME_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign/jobgraph.h"
#include "campaign/campaign_error.h"

/* Take over old's state into fresh (linked). A job whose script changed starts again, and so does
 * everything depending on it; refused (e) when such a job is queued or running. */
bool campaign_resume(struct campaign *fresh, const struct campaign *old, struct campaign_error *e);

/* Put jobs back to WAITING: the named ones (names != NULL), or every FAILED, CANCELLED and
 * SKIPPED job; and every job depending on them. Returns how many, or -1 (e) for an unknown name
 * or a job that is still queued or running. */
long campaign_reset(struct campaign *c, char *const *names, size_t n, struct campaign_error *e);

#endif
