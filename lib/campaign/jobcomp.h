/*
 * jobcomp — reading Slurm's job completion file (JobCompType=jobcomp/filetxt, JobCompLoc):
 * one line per finished job, "JobId=12 UserId=... Name=... JobState=COMPLETED ... StartTime=
 * 2024-05-01T08:38:13 EndTime=... ExitCode=0:0". It is where a job is still known after the
 * controller purged it (MinJobAge). The file is read incrementally: each scan starts where the
 * last one ended.
 */
#ifndef LADDER_CAMPAIGN_JOBCOMP_H
#define LADDER_CAMPAIGN_JOBCOMP_H

#include <stdbool.h>
#include <stdint.h>

struct jobcomp_rec {
	uint32_t id;
	char name[256];
	char state[32];       /* COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ... */
	int exit_code;        /* the script's exit status, 128+signal when killed */
	long long start, end; /* epoch seconds, 0 if unknown */
};

/* parse one line; false when it is not a job record */
bool jobcomp_parse_line(const char *line, struct jobcomp_rec *r);
/* "2024-05-01T08:38:13" (local time) to epoch seconds, 0 when unknown or malformed */
long long slurm_time_parse(const char *s);
/* exit code "a:b" as a shell status: a, or 128+b when b (a signal) is set */
int slurm_exit_parse(const char *s);

/* Read complete lines of path from *offset on (0 at first; a shorter file starts over), calling
 * cb for each record. Returns the number of records, -1 if the file cannot be read. */
int jobcomp_scan(const char *path, long *offset, void (*cb)(const struct jobcomp_rec *r, void *arg), void *arg);

#endif
