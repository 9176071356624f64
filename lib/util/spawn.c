/*
 * spawn — fork/exec/wait in one place, and helper programs with captured output. See spawn.h.
 *
 * A failure between fork and exec (a missing program, a working directory or output file that
 * cannot be used) is sent to the parent as an errno value over a close-on-exec pipe, so
 * spawn_start can report it instead of a child that exits with a made-up status.
 */
#include "util/spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/xalloc.h"

#define CAPTURE_MAX (1 << 20)

/* in the child: tell the parent why we cannot go on, and end */
static _Noreturn void child_fail(int report)
{
	int e = errno;
	if (write(report, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

/* in the child: make `from` (SPAWN_NULL resolved already) descriptor `to` */
static void child_stream(int from, int to, int report)
{
	if (from == SPAWN_INHERIT)
		return;
	if (from == to) {
		if (fcntl(to, F_SETFD, 0))
			child_fail(report);
	} else if (dup2(from, to) < 0) {
		child_fail(report);
	}
}

static void child_signals(void)
{
	static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};
	struct sigaction dfl = {.sa_handler = SIG_DFL};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &dfl, NULL);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* in the child, between fork and exec: everything the options ask for */
static void child_setup(const struct spawn_options *o, int report)
{
	if (o->new_session)
		setsid();
	else if (o->new_group)
		setpgid(0, 0);
	if (o->default_signals)
		child_signals();
	int in = o->stdin_fd, out = o->stdout_fd, err = o->stderr_fd, devnull = -1, file = -1;
	if (in == SPAWN_NULL || out == SPAWN_NULL || err == SPAWN_NULL) {
		devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (devnull < 0)
			child_fail(report);
	}
	if (o->output_path) {
		file = open(o->output_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (file < 0)
			child_fail(report);
		out = err = file;
	}
	child_stream(in == SPAWN_NULL ? devnull : in, 0, report);
	child_stream(out == SPAWN_NULL ? devnull : out, 1, report);
	child_stream(err == SPAWN_NULL ? devnull : err, 2, report);
	if (devnull > 2)
		close(devnull);
	if (file > 2)
		close(file);
	if (o->fd3 > 0) {
		child_stream(o->fd3, 3, report);
		/* everything else goes, except the report pipe (moved above 3 by spawn_start) */
		if (report > 4)
			close_range(4, (unsigned)report - 1, 0);
		close_range((unsigned)report + 1, ~0U, 0);
	}
	if (o->cwd && chdir(o->cwd))
		child_fail(report);
	for (char *const *v = o->env; v && *v; v++)
		if (putenv(*v))
			child_fail(report);
}

pid_t spawn_start(char *const argv[], const struct spawn_options *o, char **why)
{
	static const struct spawn_options none = {0};
	if (!o)
		o = &none;
	const char *name = o->function ? "a process" : argv[0];
	int report[2];
	if (pipe2(report, O_CLOEXEC)) {
		if (why)
			*why = xasprintf("cannot start %s: %s", name, strerror(errno));
		return -1;
	}
	/* above the descriptors the child rearranges (0..3), so they cannot overwrite it */
	int high = fcntl(report[1], F_DUPFD_CLOEXEC, 10);
	close(report[1]);
	fflush(NULL);
	pid_t pid = high < 0 ? -1 : fork();
	if (pid == 0) {
		child_setup(o, high);
		if (o->function) {
			close(high);
			_exit(o->function(o->arg));
		}
		execvp(argv[0], argv);
		child_fail(high);
	}
	int fork_errno = errno;
	if (high >= 0)
		close(high);
	int child_errno = 0;
	if (pid > 0) {
		ssize_t k;
		while ((k = read(report[0], &child_errno, sizeof child_errno)) < 0 && errno == EINTR)
			;
		if (k != (ssize_t)sizeof child_errno)
			child_errno = 0;
	}
	close(report[0]);
	if (pid < 0 || child_errno) {
		if (pid > 0)
			spawn_wait(pid);
		if (why)
			*why = xasprintf("cannot %s %s: %s", pid < 0 ? "start" : "run", name,
					 strerror(pid < 0 ? fork_errno : child_errno));
		errno = pid < 0 ? fork_errno : child_errno;
		return -1;
	}
	return pid;
}

int spawn_status(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return -1;
}

int spawn_wait(pid_t pid)
{
	int status;
	pid_t w;
	while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
		;
	return w == pid ? spawn_status(status) : -1;
}

int spawn_try_wait(pid_t pid, int *status)
{
	int raw;
	pid_t w = waitpid(pid, &raw, WNOHANG);
	if (w <= 0)
		return w;
	if (status)
		*status = spawn_status(raw);
	return 1;
}

int spawn_run(char *const argv[], const struct spawn_options *o, char **why)
{
	pid_t pid = spawn_start(argv, o, why);
	return pid < 0 ? -1 : spawn_wait(pid);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* the parent's ends of a helper's streams while it runs; -1 when closed */
struct capture {
	int out, err, in;
	struct buf out_text, err_text;
	const char *input;
	size_t input_off, input_len;
};

/* read one chunk of fd into b (at most CAPTURE_MAX kept); false at its end */
static bool drain(int fd, struct buf *b)
{
	char chunk[8192];
	ssize_t k = read(fd, chunk, sizeof chunk);
	if (k > 0 && b->len < CAPTURE_MAX)
		buf_put(b, chunk, (size_t)k);
	return !(k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN));
}

static void close_stream(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* feed the input and collect the output until all streams end; false on timeout */
static bool capture_loop(struct capture *c, double deadline)
{
	while (c->out >= 0 || c->err >= 0 || c->in >= 0) {
		struct pollfd p[3] = {{c->out, POLLIN, 0}, {c->err, POLLIN, 0}, {c->in, POLLOUT, 0}};
		int ms = -1;
		if (deadline) {
			double left = deadline - now();
			if (left <= 0)
				return false;
			ms = (int)(left * 1000) + 1;
		}
		int r = poll(p, 3, ms);   /* negative descriptors are ignored */
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (c->out >= 0 && p[0].revents && !drain(c->out, &c->out_text))
			close_stream(&c->out);
		if (c->err >= 0 && p[1].revents && !drain(c->err, &c->err_text))
			close_stream(&c->err);
		if (c->in >= 0 && p[2].revents) {
			ssize_t k = (p[2].revents & POLLOUT)
					    ? write(c->in, c->input + c->input_off, c->input_len - c->input_off)
					    : -1;
			if (k > 0)
				c->input_off += (size_t)k;
			if (c->input_off >= c->input_len || (k < 0 && errno != EINTR && errno != EAGAIN))
				close_stream(&c->in);
		}
	}
	return true;
}

/* wait for the helper; past the deadline its process group is killed. -2 on timeout. */
static int wait_deadline(pid_t pid, double deadline, bool timed_out)
{
	if (timed_out)
		kill(-pid, SIGKILL);
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, deadline && !timed_out ? WNOHANG : 0);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			break;
		if (w == 0) {
			if (now() >= deadline) {
				kill(-pid, SIGKILL);
				timed_out = true;
			} else {
				struct timespec ts = {0, 10 * 1000 * 1000};
				nanosleep(&ts, NULL);
			}
		}
	}
	return timed_out ? -2 : spawn_status(status);
}

int spawn_capture(char *const argv[], const char *cwd, const char *input, char **out, char **err, double timeout)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, pi[2] = {-1, -1};
	if ((out && pipe2(po, O_CLOEXEC)) || (err && pipe2(pe, O_CLOEXEC)) || (input && pipe2(pi, O_CLOEXEC))) {
		if (err)
			*err = xasprintf("cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	/* a helper that stops reading its input must not kill us with SIGPIPE */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_pipe;
	sigaction(SIGPIPE, &ign, &old_pipe);
	struct spawn_options o = {.cwd = cwd, .stdin_fd = input ? pi[0] : SPAWN_NULL,
				  .stdout_fd = out ? po[1] : SPAWN_NULL, .stderr_fd = err ? pe[1] : SPAWN_NULL,
				  .new_group = true, .default_signals = true};
	char *why = NULL;
	pid_t pid = spawn_start(argv, &o, &why);
	close_stream(&po[1]);
	close_stream(&pe[1]);
	close_stream(&pi[0]);
	struct capture c = {po[0], pe[0], pi[1], {0}, {0}, input, 0, input ? strlen(input) : 0};
	buf_init(&c.out_text);
	buf_init(&c.err_text);
	if (pid < 0 || c.input_len == 0)
		close_stream(&c.in);
	if (c.in >= 0)
		fcntl(c.in, F_SETFL, O_NONBLOCK);
	int rc = -1;
	if (pid >= 0) {
		double deadline = timeout > 0 ? now() + timeout : 0;
		bool finished = capture_loop(&c, deadline);
		close_stream(&c.out);
		close_stream(&c.err);
		close_stream(&c.in);
		rc = wait_deadline(pid, deadline, !finished);
	} else {
		close_stream(&c.out);
		close_stream(&c.err);
	}
	sigaction(SIGPIPE, &old_pipe, NULL);
	buf_put_u8(&c.out_text, 0);
	buf_put_u8(&c.err_text, 0);
	if (out)
		*out = xstrdup((char *)c.out_text.data);
	if (err)
		*err = why ? xstrdup(why) : xstrdup((char *)c.err_text.data);
	free(why);
	buf_free(&c.out_text);
	buf_free(&c.err_text);
	return rc;
}

bool spawn_in_path(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	char *copy = xstrdup(path);
	bool found = false;
	for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char full[PATH_MAX];
		snprintf(full, sizeof full, "%s/%s", *d ? d : ".", name);
		found = access(full, X_OK) == 0;
	}
	free(copy);
	return found;
}
