/*
 * spawn — the one way ladder starts another process: fork, set the child up (working directory,
 * environment additions, standard streams, a descriptor to hand over, session or process group,
 * signal dispositions), exec (or run a function), and wait for it, decoding its exit status.
 *
 * spawn_capture adds what helper programs need (input on stdin, stdout and stderr captured, a
 * timeout that kills the helper's process group). Used by `ladder trace`, `ladder replay`, the
 * campaign's local executor and the campaign's helper programs (sbatch, crontab, ...).
 */
#ifndef LADDER_UTIL_SPAWN_H
#define LADDER_UTIL_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

/* values of spawn_options.stdin_fd/stdout_fd/stderr_fd besides a descriptor > 0 */
#define SPAWN_INHERIT 0   /* the child shares ours */
#define SPAWN_NULL (-1)   /* /dev/null */

struct spawn_options {
	const char *cwd;            /* working directory of the child; NULL: ours */
	char *const *env;           /* NAME=VALUE strings added to its environment (NULL-terminated) */
	int stdin_fd, stdout_fd, stderr_fd;  /* SPAWN_INHERIT, SPAWN_NULL or a descriptor */
	const char *output_path;    /* stdout and stderr to this file (created, truncated, mode 0644) */
	int fd3;                    /* > 0: handed to the child as descriptor 3, every descriptor
	                               above 3 closed; 0: nothing handed over */
	bool new_session;           /* setsid(): its own session (outlives our terminal and pipes) */
	bool new_group;             /* its own process group (killed as a whole on timeout) */
	bool default_signals;       /* empty signal mask; SIGTERM, SIGINT, SIGHUP, SIGPIPE default */
	int (*function)(void *arg); /* instead of exec: run function(arg) and _exit with its value */
	void *arg;
};

/* Start argv[0] (looked up in PATH unless it contains a '/') with argv; o may be NULL. Returns
 * the child's pid, or -1 when it could not be started, with "cannot run NAME: reason" in *why
 * (a fresh string) if why is not NULL. argv is ignored when o->function is set. */
pid_t spawn_start(char *const argv[], const struct spawn_options *o, char **why);

/* Wait for pid (through interruptions) and return its decoded exit status, or -1 on error. */
int spawn_wait(pid_t pid);

/* Has pid ended? 1 yes (its decoded exit status in *status if not NULL), 0 not yet, -1 error
 * (errno; EINTR: ask again). Does not block. */
int spawn_try_wait(pid_t pid, int *status);

/* A waitpid status as one number: the exit status 0..255, or 128+N when killed by signal N. */
int spawn_status(int wait_status);

/* spawn_start + spawn_wait: the decoded exit status, or -1 when it could not be started (why). */
int spawn_run(char *const argv[], const struct spawn_options *o, char **why);

/* Run argv[0] without a shell in its own process group. cwd: working directory or NULL. input:
 * written to its stdin (NULL: /dev/null). out/err: if not NULL, receive its stdout/stderr (fresh
 * strings, at most 1 MiB each); else they go to /dev/null. timeout: seconds, 0 for none.
 * Returns the exit status (0..255), 128+signal when killed by a signal, -1 when it could not be
 * started (message in *err if given), -2 on timeout (the process group is killed). */
int spawn_capture(char *const argv[], const char *cwd, const char *input, char **out, char **err,
		  double timeout);

/* true when a program of that name is found in PATH (or is an executable path) */
bool spawn_in_path(const char *name);

#endif
