/*
 * proc — running a helper program without a shell (the validity filter, sbatch, scancel, sacct,
 * crontab): an argument vector, optional input on stdin, stdout and stderr captured, a timeout.
 */
#ifndef LADDER_CAMPAIGN_PROC_H
#define LADDER_CAMPAIGN_PROC_H

/* Run argv[0] (looked up in PATH) with argv. cwd: working directory or NULL. input: written to
 * its stdin (NULL: /dev/null). out/err: if not NULL, receive its stdout/stderr (fresh strings,
 * at most 1 MiB each); else they go to /dev/null. timeout: seconds, 0 for none.
 * Returns the exit status (0..255), 128+signal when killed by a signal, -1 when it could not be
 * started (errno-style message in *err if given), -2 on timeout (the process group is killed). */
int proc_run(char *const argv[], const char *cwd, const char *input, char **out, char **err, double timeout);

/* true when a program of that name is found in PATH (or is an executable path) */
int proc_in_path(const char *name);

#endif
