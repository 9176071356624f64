/*
 * status — the human view of a campaign's state: a summary line with progress, then one line
 * per job with its state, scheduler id, attempts, times, exit code, log and reason.
 */
#ifndef LADDER_CAMPAIGN_STATUS_H
#define LADDER_CAMPAIGN_STATUS_H

#include <stdio.h>
#include <sys/types.h>

#include "campaign/jobgraph.h"

/* driver: pid of the process driving it now, 0 if none */
void campaign_print_status(FILE *out, const struct campaign *c, pid_t driver);
/* one summary line: "13 jobs: 10 completed, 1 running, 2 waiting (77% done)" */
void campaign_print_summary(FILE *out, const struct campaign *c);
/* the same line without the newline, into text */
void campaign_summary(const struct campaign *c, char *text, size_t len);

#endif
