/*
 * control — status refresh, wait/retry, cancel on a campaign directory. See control.h.
 */
#include "campaign/control.h"

#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "campaign/resume.h"
#include "campaign/statefile.h"
#include "util/log.h"

static void pause_seconds(double seconds)
{
	struct timespec ts = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
	nanosleep(&ts, NULL);
}

bool campaign_refresh(const char *dir, struct campaign *c, pid_t *driver, struct campaign_error *e)
{
	campaign_init(c);
	*driver = 0;
	if (!state_load(dir, c, e))
		return false;
	pid_t holder = 0;
	int locked = state_lock(c, dir, &holder, e);
	if (locked == 1 && c->sched == SCHED_SLURM && !campaign_done(c)) {
		/* nobody follows it: ask Slurm once */
		struct drive_opts o = {0, false, true};
		if (campaign_drive(c, &o, e) == DRIVE_ERROR)
			log_warn("%s", e->msg);
	}
	if (locked == 1)
		state_unlock(c);
	if (locked == 0)
		*driver = holder;
	return true;
}

/* Another process (holder) drives DIR: watch its state file until the campaign is final (c
 * receives it), or take over when that driver stops. */
static enum drive_result watch_driver(const char *dir, const struct follow_request *r, pid_t holder,
				      struct campaign *c, struct campaign_error *e)
{
	log_info("campaign %s is driven by process %ld; watching its state", c->name, (long)holder);
	double start = now_wall();
	for (;;) {
		struct campaign seen;
		campaign_init(&seen);
		if (state_load(dir, &seen, e) && campaign_done(&seen)) {
			bool ok = true;
			for (size_t i = 0; i < seen.njobs; i++)
				ok &= seen.jobs[i].state == JS_COMPLETED;
			campaign_free(c);
			*c = seen;
			return ok ? DRIVE_DONE : DRIVE_INCOMPLETE;
		}
		campaign_free(&seen);
		double waited = now_wall() - start;
		if (r->timeout && waited >= r->timeout) {
			campaign_error_set(e, "%s: not finished after %.0f s", dir, r->timeout);
			return DRIVE_ERROR;
		}
		/* the driver may have stopped without finishing: take over */
		pid_t other;
		struct campaign probe;
		campaign_init(&probe);
		if (state_lock(&probe, dir, &other, e) == 1) {
			state_unlock(&probe);
			campaign_free(&probe);
			campaign_free(c);
			struct follow_request rest = {r->timeout ? r->timeout - waited : 0, r->follow, false, NULL, 0};
			return campaign_follow(dir, &rest, c, e);
		}
		campaign_free(&probe);
		pause_seconds(0.3);
	}
}

/* reset the jobs to retry and save; DRIVE_DONE to go on, else the result to return */
static enum drive_result reset_jobs(const struct follow_request *r, struct campaign *c, struct campaign_error *e)
{
	long n = campaign_reset(c, r->jobs, r->njobs, e);
	if (n < 0)
		return DRIVE_ERROR;
	if (n == 0)
		return DRIVE_NOTHING_TO_RETRY;
	log_info("retrying %ld jobs of campaign %s", n, c->name);
	return state_save(c, e) ? DRIVE_DONE : DRIVE_ERROR;
}

enum drive_result campaign_follow(const char *dir, const struct follow_request *r, struct campaign *c,
				  struct campaign_error *e)
{
	campaign_init(c);
	if (!state_load(dir, c, e))
		return DRIVE_ERROR;
	pid_t holder = 0;
	int locked = state_lock(c, dir, &holder, e);
	if (locked < 0)
		return DRIVE_ERROR;
	if (locked == 0 && r->retry) {
		campaign_error_set(e, "%s: the campaign is being driven by process %ld; retry once it has stopped", dir,
				   (long)holder);
		return DRIVE_ERROR;
	}
	if (locked == 0)
		return watch_driver(dir, r, holder, c, e);
	enum drive_result result = r->retry ? reset_jobs(r, c, e) : DRIVE_DONE;
	if (result == DRIVE_DONE) {
		struct drive_opts o = {r->timeout, r->follow, false};
		result = campaign_drive(c, &o, e);
	}
	state_unlock(c);
	return result;
}

/* ask the driver (holder) to cancel, and wait until it has done it */
static bool cancel_through_driver(struct campaign *c, pid_t holder, struct campaign_error *e)
{
	if (!campaign_request_cancel(c, e))
		return false;
	char *flag = campaign_path(c, ".cancel");
	for (int i = 0; i < 600 && access(flag, F_OK) == 0; i++)
		pause_seconds(0.1);
	bool done = access(flag, F_OK) != 0;
	free(flag);
	if (!done)
		campaign_error_set(e, "the driver (process %ld) did not act on the cancel request within 60 s",
				   (long)holder);
	return done;
}

static bool cancel_here(struct campaign *c, struct campaign_error *e)
{
	const struct executor *x = executor_for(c);
	if (!x->open(c, e))
		return false;
	x->adopt(c);
	campaign_cancel_all(c, x);
	x->close(c);
	char *flag = campaign_path(c, ".cancel");
	unlink(flag);
	free(flag);
	return state_save(c, e);
}

bool campaign_cancel_dir(const char *dir, struct campaign *c, pid_t *driver, struct campaign_error *e)
{
	campaign_init(c);
	*driver = 0;
	if (!state_load(dir, c, e))
		return false;
	pid_t holder = 0;
	int locked = state_lock(c, dir, &holder, e);
	if (locked < 0)
		return false;
	if (locked == 0) {
		*driver = holder;
		return cancel_through_driver(c, holder, e);
	}
	bool ok = cancel_here(c, e);
	state_unlock(c);
	return ok;
}
