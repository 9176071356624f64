/*
 * local — the local executor: runs each job script as a process of its own session, at most
 * the site's rank budget at a time, dependencies honoured by the driver.
 *
 * Each job is run by a small wrapper process (a copy of the driver, util/spawn) that holds an flock on
 * DIR/jobs/NAME.lock (holding its pid) for as long as the job runs, runs the script with its
 * output in the job's log, and writes the script's exit status to DIR/jobs/NAME.rc (atomically)
 * when it ends. So a job outlives a driver that is killed, and the next driver knows what
 * happened: the lock still held means the job still runs (it is adopted and watched); the lock
 * free and an .rc file means it ended with that status; the lock free and no .rc means it was
 * interrupted, and it is run again.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "campaign/exec.h"
#include "campaign/statefile.h"
#include "util/file.h"
#include "util/log.h"
#include "util/spawn.h"
#include "util/xalloc.h"

static sigset_t old_mask;
static bool mask_saved;

static char *job_file(const struct campaign *c, const struct campaign_job *j, const char *ext)
{
	return xasprintf("%s/jobs/%s.%s", c->dir, j->name, ext);
}

static bool local_open(struct campaign *c, struct campaign_error *e)
{
	(void)e;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	sigprocmask(SIG_BLOCK, &s, &old_mask);
	mask_saved = true;
	char *jobs = campaign_path(c, "jobs");
	char *logs = campaign_path(c, "logs");
	bool ok = make_dirs(jobs, e->msg, sizeof e->msg) && make_dirs(logs, e->msg, sizeof e->msg);
	free(jobs);
	free(logs);
	return ok;
}

static void local_close(struct campaign *c)
{
	(void)c;
	if (mask_saved)
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
	mask_saved = false;
}

/* Is the job's wrapper alive? 1 yes (its pid in *pid), 0 no, -1 unknown. */
static int wrapper_alive(const struct campaign *c, const struct campaign_job *j, long *pid)
{
	char *path = job_file(c, j, "lock");
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	int r;
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		r = 0;
	} else if (errno == EWOULDBLOCK) {
		r = 1;
		char buf[32] = "";
		ssize_t k = pread(fd, buf, sizeof buf - 1, 0);
		if (pid && k > 0)
			*pid = atol(buf);
	} else {
		r = -1;
	}
	close(fd);
	return r;
}

/* the exit status the wrapper recorded, or -1; *when receives the file's time */
static int read_rc(const struct campaign *c, const struct campaign_job *j, long long *when)
{
	char *path = job_file(c, j, "rc");
	char *text = read_file(path);
	struct stat st;
	if (when && !stat(path, &st))
		*when = (long long)st.st_mtime;
	free(path);
	if (!text)
		return -1;
	char *end;
	long rc = strtol(text, &end, 10);
	bool ok = end != text && rc >= 0 && rc < 512;
	free(text);
	return ok ? (int)rc : -1;
}

static void finish(struct campaign *c, struct campaign_job *j, int rc, long long when)
{
	j->has_exit = true;
	j->exit_code = rc;
	j->ended = when;
	j->pid = 0;
	if (rc == 0) {
		job_set_reason(j, NULL);
		job_transition(c, j, JS_COMPLETED);
	} else {
		if (rc > 128 && rc < 128 + 65)
			job_set_reason(j, "exit status %d (signal %d)", rc, rc - 128);
		else
			job_set_reason(j, "exit status %d", rc);
		job_transition(c, j, JS_FAILED);
	}
}

static void local_adopt(struct campaign *c)
{
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		j->ours = false;
		long pid = 0;
		if (j->state == JS_WAITING && wrapper_alive(c, j, &pid) == 1) {
			/* started by a driver that died before it could record it */
			j->pid = pid;
			j->attempts++;
			job_set_reason(j, "adopted from an earlier driver");
			job_transition(c, j, JS_RUNNING);
		} else if (j->state == JS_RUNNING || j->state == JS_QUEUED) {
			if (wrapper_alive(c, j, &pid) == 1)
				j->pid = pid;
		}
	}
}

static int local_poll(struct campaign *c)
{
	int changed = 0;
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		if (!job_active(j->state))
			continue;
		if (j->ours) {
			int status = 0;
			int ended = spawn_try_wait((pid_t)j->pid, &status);
			if (ended == 0 || (ended < 0 && errno == EINTR))
				continue;
			j->ours = false;
			long long when = 0;
			int rc = read_rc(c, j, &when);
			if (rc < 0) {
				/* the wrapper itself died (killed by a signal) before the job's status was known */
				rc = ended > 0 && status > 128 ? status : 255;
			}
			finish(c, j, rc, (long long)time(NULL));
			changed++;
			continue;
		}
		long pid = 0;
		int alive = wrapper_alive(c, j, &pid);
		if (alive != 0)
			continue;
		long long when = (long long)time(NULL);
		int rc = read_rc(c, j, &when);
		if (rc >= 0) {
			finish(c, j, rc, when);
		} else {
			/* interrupted without a trace of its end: run it again */
			j->pid = 0;
			j->started = 0;
			job_set_reason(j, "interrupted (no exit status recorded); started again");
			job_transition(c, j, JS_WAITING);
		}
		changed++;
	}
	return changed;
}

/* a job larger than max-ranks, waiting with every dependency done: it starts once nothing runs */
static bool waits_to_run_alone(const struct campaign *c, const struct campaign_job *j)
{
	if (j->state != JS_WAITING || j->ranks <= c->max_ranks)
		return false;
	for (size_t k = 0; k < j->ndeps; k++)
		if (c->jobs[j->dep[k]].state != JS_COMPLETED)
			return false;
	return true;
}

/* Within max-ranks, or alone when larger. A job listed after one that waits to run alone does not
 * overtake it: the running jobs drain and the large one starts, rather than waiting for a moment
 * when no job at all is left to start. */
static bool local_can_start(struct campaign *c, const struct campaign_job *j)
{
	long busy = 0;
	for (size_t i = 0; i < c->njobs; i++)
		if (job_active(c->jobs[i].state))
			busy += c->jobs[i].ranks;
	if (busy == 0)
		return true;
	for (const struct campaign_job *o = c->jobs; o < j; o++)
		if (waits_to_run_alone(c, o))
			return false;
	return busy + j->ranks <= c->max_ranks;
}

/* what the wrapper of one job needs */
struct wrapper_job {
	char *script, *log, *rcfile, *dir;
};

/* write the job's exit status to its .rc file, atomically */
static void write_rc(const char *rcfile, int rc)
{
	char text[32];
	snprintf(text, sizeof text, "%d\n", rc);
	char *tmp = xasprintf("%s.tmp", rcfile);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		if (write(fd, text, strlen(text)) > 0)
			fsync(fd);
		close(fd);
		rename(tmp, rcfile);
	}
	free(tmp);
}

/* the wrapper: runs in its own session, holds the job lock on descriptor 3 (with its pid) */
static int wrapper(void *arg)
{
	const struct wrapper_job *w = arg;
	char pid[32];
	int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (ftruncate(3, 0) || pwrite(3, pid, (size_t)n, 0) != n) {
		/* the pid is informational */
	}
	fcntl(3, F_SETFD, FD_CLOEXEC);   /* the lock stays with the wrapper, not the script */
	struct sigaction ign = {.sa_handler = SIG_IGN};
	sigaction(SIGTERM, &ign, NULL);
	sigaction(SIGINT, &ign, NULL);
	sigaction(SIGHUP, &ign, NULL);
	char *argv[] = {w->script, NULL};
	struct spawn_options o = {.cwd = w->dir, .stdin_fd = SPAWN_NULL, .output_path = w->log,
				  .default_signals = true};
	char *why = NULL;
	int rc = spawn_run(argv, &o, &why);
	if (rc < 0) {
		int fd = open(w->log, O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0) {
			dprintf(fd, "ladder: %s\n", why ? why : "cannot run the job script");
			close(fd);
		}
		rc = 126;
	}
	free(why);
	write_rc(w->rcfile, rc);
	return 0;
}

/* the job lock of j taken by someone else: a wrapper of an earlier driver still runs it */
static int adopt_running(struct campaign *c, struct campaign_job *j)
{
	long pid = 0;
	wrapper_alive(c, j, &pid);
	j->pid = pid;
	j->ours = false;
	j->attempts++;
	job_transition(c, j, JS_RUNNING);
	return 1;
}

static int local_start(struct campaign *c, struct campaign_job *j, struct campaign_error *e)
{
	char *lock = job_file(c, j, "lock");
	struct wrapper_job w = {campaign_path(c, j->script), campaign_path(c, j->log), job_file(c, j, "rc"),
				c->dir};
	int result = -1;
	int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0 && fd <= 2) {   /* a driver started with closed standard descriptors */
		int high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		close(fd);
		fd = high;
	}
	if (fd < 0) {
		campaign_error_set(e, "cannot open %s: %s", lock, strerror(errno));
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		result = adopt_running(c, j);
		goto out;
	}
	unlink(w.rcfile);
	/* the wrapper lets go of the driver's terminal or pipes: whoever reads the driver's output
	 * must not wait for jobs that outlive it */
	struct spawn_options o = {.stdin_fd = SPAWN_NULL, .stdout_fd = SPAWN_NULL, .stderr_fd = SPAWN_NULL,
				  .fd3 = fd, .new_session = true, .function = wrapper, .arg = &w};
	char *why = NULL;
	pid_t pid = spawn_start(NULL, &o, &why);
	close(fd);
	if (pid < 0) {
		campaign_error_set(e, "cannot start job %s: %s", j->name, why);
		free(why);
		goto out;
	}
	j->pid = pid;
	j->ours = true;
	j->attempts++;
	j->started = 0;
	j->ended = 0;
	j->has_exit = false;
	job_set_reason(j, NULL);
	job_transition(c, j, JS_RUNNING);
	result = 1;
out:
	free(lock);
	free(w.rcfile);
	free(w.script);
	free(w.log);
	return result;
}

static bool local_cancel(struct campaign *c, struct campaign_job *j)
{
	long pid = j->pid;
	if (wrapper_alive(c, j, &pid) != 1) {
		if (j->ours)
			spawn_try_wait((pid_t)j->pid, NULL);
		return true;
	}
	if (pid <= 1)
		return false;
	kill(-(pid_t)pid, SIGTERM);
	for (int i = 0; i < 200 && wrapper_alive(c, j, NULL) == 1; i++) {
		struct timespec ts = {0, 50 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (wrapper_alive(c, j, NULL) == 1)
		kill(-(pid_t)pid, SIGKILL);
	if (j->ours)
		spawn_wait((pid_t)j->pid);
	j->ours = false;
	return true;
}

static void local_sleep(struct campaign *c, double seconds)
{
	(void)c;
	if (seconds > 0.25)
		seconds = 0.25;
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGCHLD);
	struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
	sigtimedwait(&s, NULL, &ts);
}

const struct executor exec_local = {
	"local", local_open, local_adopt, local_poll, local_can_start, local_start, local_cancel,
	local_close, local_sleep, false,
};
