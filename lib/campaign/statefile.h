/*
 * statefile — the campaign's state file DIR/state.json and the driver lock DIR/.lock.
 *
 * The file is JSON (jansson), rewritten whole after every change: written to a temporary file in
 * the same directory, flushed to disk, then renamed over the old one, so a reader (or a driver
 * killed at any moment) always sees either the old or the new state, never half of one.
 * Format (version 1):
 *
 *   { "format": "ladder-campaign-state", "version": 1,
 *     "campaign": { "name", "id", "dir", "scheduler": "local"|"slurm", "workflow", "site",
 *                   "created", "updated" },
 *     "site": { "partition", "account", "qos", "submit": "libslurm"|"sbatch", "max_ranks",
 *               "poll_interval", "poll_max", "controller_timeout", "jobcomp", "accounting" },
 *     "counters": { "queries", "query_errors", "jobcomp_reads", "acct_queries", "submissions" },
 *     "jobs": [ { "name", "kind", "stage", "ranks", "nodes", "tasks_per_node", "rep", "size",
 *                 "target", "time_limit", "deps": [...], "script", "log", "output", "hash",
 *                 "state", "id", "pid", "submitted", "started", "ended", "exit_code",
 *                 "attempts", "restarts", "reason", "history" }, ... ] }
 *
 * Times are epoch seconds (0: not yet); "exit_code" is null until known. The objects' fields are
 * written and read by walking the tables of campaign/state_fields.h, which say each one's type,
 * member, whether it may be null and how it is checked.
 *
 * The lock is an flock on DIR/.lock held by whichever process drives the campaign (run, wait,
 * retry, cancel); it holds that process's pid for messages. It is released when the process
 * exits, however it exits.
 */
#ifndef LADDER_CAMPAIGN_STATEFILE_H
#define LADDER_CAMPAIGN_STATEFILE_H

#include <stdbool.h>
#include <sys/types.h>

#include "campaign/jobgraph.h"
#include "campaign/campaign_error.h"

bool state_save(struct campaign *c, struct campaign_error *e);
/* load DIR/state.json into c (initialised); false with e when missing or malformed */
bool state_load(const char *dir, struct campaign *c, struct campaign_error *e);
bool state_exists(const char *dir);

/* Take the driver lock without waiting. Returns 1 when taken (c->lockfd set), 0 when another
 * process holds it (*holder = its pid, or 0 if unknown), -1 on error (e). */
int state_lock(struct campaign *c, const char *dir, pid_t *holder, struct campaign_error *e);
void state_unlock(struct campaign *c);

#endif
