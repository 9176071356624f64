/*
 * proc — run a helper program, capture its output, with a timeout. See proc.h.
 */
#include "campaign/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
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

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int proc_run(char *const argv[], const char *cwd, const char *input, char **out, char **err, double timeout)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, pi[2] = {-1, -1}, px[2] = {-1, -1};
	if ((out && pipe2(po, O_CLOEXEC)) || (err && pipe2(pe, O_CLOEXEC)) || (input && pipe2(pi, O_CLOEXEC)) ||
	    pipe2(px, O_CLOEXEC)) {
		if (err)
			*err = xasprintf("cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	/* a helper that stops reading its input must not kill us with SIGPIPE */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_pipe;
	sigaction(SIGPIPE, &ign, &old_pipe);
	pid_t pid = fork();
	if (pid < 0) {
		sigaction(SIGPIPE, &old_pipe, NULL);
		if (err)
			*err = xasprintf("cannot fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		sigset_t none;
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		int devnull = open("/dev/null", O_RDWR);
		dup2(input ? pi[0] : devnull, 0);
		dup2(out ? po[1] : devnull, 1);
		dup2(err ? pe[1] : devnull, 2);
		if (cwd && chdir(cwd)) {
			int e = errno;
			if (write(px[1], &e, sizeof e) < 0)
				_exit(127);
			_exit(127);
		}
		execvp(argv[0], argv);
		int e = errno;
		if (write(px[1], &e, sizeof e) < 0)
			_exit(127);
		_exit(127);
	}
	close(px[1]);
	if (out)
		close(po[1]);
	if (err)
		close(pe[1]);
	if (input)
		close(pi[0]);
	int exec_errno = 0;
	if (read(px[0], &exec_errno, sizeof exec_errno) != sizeof exec_errno)
		exec_errno = 0;
	close(px[0]);
	struct buf bo, be;
	buf_init(&bo);
	buf_init(&be);
	size_t in_off = 0, in_len = input ? strlen(input) : 0;
	if (input && exec_errno) {
		close(pi[1]);
		input = NULL;
	}
	if (input) {
		fcntl(pi[1], F_SETFL, O_NONBLOCK);
		if (in_len == 0) {
			close(pi[1]);
			input = NULL;
		}
	}
	double deadline = timeout > 0 ? now() + timeout : 0;
	bool timed_out = false;
	int fo = out ? po[0] : -1, fe = err ? pe[0] : -1, fi = input ? pi[1] : -1;
	while (fo >= 0 || fe >= 0 || fi >= 0) {
		struct pollfd p[3];
		int np = 0, io = -1, ie = -1, ii = -1;
		if (fo >= 0) {
			io = np;
			p[np++] = (struct pollfd){fo, POLLIN, 0};
		}
		if (fe >= 0) {
			ie = np;
			p[np++] = (struct pollfd){fe, POLLIN, 0};
		}
		if (fi >= 0) {
			ii = np;
			p[np++] = (struct pollfd){fi, POLLOUT, 0};
		}
		int ms = -1;
		if (deadline) {
			double left = deadline - now();
			if (left <= 0) {
				timed_out = true;
				break;
			}
			ms = (int)(left * 1000) + 1;
		}
		int r = poll(p, (nfds_t)np, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		char chunk[8192];
		if (io >= 0 && p[io].revents) {
			ssize_t k = read(fo, chunk, sizeof chunk);
			if (k > 0 && bo.len < CAPTURE_MAX)
				buf_put(&bo, chunk, (size_t)k);
			if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) {
				close(fo);
				fo = -1;
			}
		}
		if (ie >= 0 && p[ie].revents) {
			ssize_t k = read(fe, chunk, sizeof chunk);
			if (k > 0 && be.len < CAPTURE_MAX)
				buf_put(&be, chunk, (size_t)k);
			if (k == 0 || (k < 0 && errno != EINTR && errno != EAGAIN)) {
				close(fe);
				fe = -1;
			}
		}
		if (ii >= 0 && p[ii].revents) {
			ssize_t k = (p[ii].revents & POLLOUT) ? write(fi, input + in_off, in_len - in_off) : -1;
			if (k > 0)
				in_off += (size_t)k;
			if (in_off >= in_len || (k < 0 && errno != EINTR && errno != EAGAIN)) {
				close(fi);
				fi = -1;
			}
		}
	}
	if (timed_out)
		kill(-pid, SIGKILL);
	if (fo >= 0)
		close(fo);
	if (fe >= 0)
		close(fe);
	if (fi >= 0)
		close(fi);
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
	sigaction(SIGPIPE, &old_pipe, NULL);
	buf_put_u8(&bo, 0);
	buf_put_u8(&be, 0);
	if (out)
		*out = xstrdup((char *)bo.data);
	if (err) {
		if (exec_errno)
			*err = xasprintf("cannot run %s: %s", argv[0], strerror(exec_errno));
		else
			*err = xstrdup((char *)be.data);
	}
	buf_free(&bo);
	buf_free(&be);
	if (exec_errno)
		return -1;
	if (timed_out)
		return -2;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int proc_in_path(const char *name)
{
	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	char *copy = xstrdup(path);
	int found = 0;
	for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char full[PATH_MAX];
		snprintf(full, sizeof full, "%s/%s", *d ? d : ".", name);
		found = access(full, X_OK) == 0;
	}
	free(copy);
	return found;
}
