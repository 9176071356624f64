/*
 * status — the human view of a campaign's state: a summary line with progress, then one line
 * per job with its state, scheduler id, attempts, times, exit code, log and reason; and the
 * report at the end of a drive.
 */
#ifndef LADDER_CAMPAIGN_STATUS_H
#define LADDER_CAMPAIGN_STATUS_H

#include <stdio.h>
#include <sys/types.h>

#include "campaign/exec.h"
#include "campaign/jobgraph.h"

/* driver: pid of the process driving it now, 0 if none */
void campaign_print_status(FILE *out, const struct campaign *c, pid_t driver);
/* one summary line: "13 jobs: 10 completed, 1 running, 2 waiting (77% done)" */
void campaign_print_summary(FILE *out, const struct campaign *c);
/* the same line without the newline, into text */
void campaign_summary(const struct campaign *c, char *text, size_t len);

/* Tell how a drive ended (not DRIVE_ERROR): the summary, where the results are, the failed jobs
 * with their logs, what to run next. True when that counts as success (done, submitted). */
bool campaign_report_end(const struct campaign *c, enum drive_result r);

#endif
