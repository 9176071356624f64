/*
 * driver — following a campaign to its end through an executor. See exec.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "campaign/backoff.h"
#include "campaign/exec.h"
#include "campaign/statefile.h"
#include "util/file.h"
#include "util/log.h"
#include "util/xalloc.h"

double now_wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

const struct executor *executor_for(const struct campaign *c)
{
	return c->sched == SCHED_SLURM ? &exec_slurm : &exec_local;
}

static size_t count_final(const struct campaign *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->njobs; i++)
		n += job_final(c->jobs[i].state);
	return n;
}

void job_transition(struct campaign *c, struct campaign_job *j, enum job_state s)
{
	if (j->state == s)
		return;
	long long now = (long long)time(NULL);
	j->state = s;
	if (s == JS_QUEUED && !j->submitted)
		j->submitted = now;
	if (s == JS_RUNNING && !j->started)
		j->started = now;
	if (job_final(s) && !j->ended && s != JS_SKIPPED)
		j->ended = now;
	char extra[256] = "";
	if (s == JS_COMPLETED || s == JS_FAILED) {
		int n = 0;
		if (j->has_exit)
			n = snprintf(extra, sizeof extra, "  exit %d", j->exit_code);
		if (j->started && j->ended >= j->started)
			n += snprintf(extra + n, sizeof extra - (size_t)n, "  %llds", j->ended - j->started);
		if (s == JS_FAILED)
			snprintf(extra + n, sizeof extra - (size_t)n, "  log %s/%s", c->dir, j->log);
	} else if (s == JS_SKIPPED && j->reason) {
		snprintf(extra, sizeof extra, "  (%s)", j->reason);
	} else if (s == JS_QUEUED && j->id) {
		snprintf(extra, sizeof extra, "  job %u", j->id);
	}
	log_info("  %-18s %-9s [%zu/%zu]%s", j->name, job_state_name(s), count_final(c), c->njobs, extra);
}

/* a job that waits for a dependency that will never complete is skipped (and, when it is already
 * in the scheduler's queue, cancelled there) */
static int propagate_failures(struct campaign *c, const struct executor *x)
{
	int changed = 0;
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		if (j->state != JS_WAITING && j->state != JS_QUEUED)
			continue;
		for (size_t k = 0; k < j->ndeps; k++) {
			struct campaign_job *d = &c->jobs[j->dep[k]];
			if (d->state == JS_FAILED || d->state == JS_CANCELLED || d->state == JS_SKIPPED) {
				if (j->state == JS_QUEUED)
					x->cancel(c, j);
				job_set_reason(j, "%s %s", d->name,
						d->state == JS_FAILED ? "failed" : d->state == JS_CANCELLED ? "was cancelled" : "was skipped");
				job_transition(c, j, JS_SKIPPED);
				changed++;
				break;
			}
		}
	}
	return changed;
}

static bool ready(const struct campaign *c, const struct campaign_job *j, bool ahead)
{
	for (size_t k = 0; k < j->ndeps; k++) {
		enum job_state s = c->jobs[j->dep[k]].state;
		if (s == JS_COMPLETED)
			continue;
		if (ahead && (s == JS_QUEUED || s == JS_RUNNING))
			continue;
		return false;
	}
	return true;
}

/* start what can start; returns the number started, -1 on a permanent failure */
static int start_ready(struct campaign *c, const struct executor *x, bool *transient, struct campaign_error *e)
{
	int started = 0;
	*transient = false;
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		if (j->state != JS_WAITING || !ready(c, j, x->submits_ahead) || !x->can_start(c, j))
			continue;
		int r = x->start(c, j, e);
		if (r < 0)
			return -1;
		if (r == 0) {
			*transient = true;
			break;
		}
		started++;
		/* record each submission at once: a driver killed now must not lose the job id */
		struct campaign_error se;
		if (!state_save(c, &se))
			log_warn("%s", se.msg);
	}
	return started;
}

static bool cancel_requested(const struct campaign *c)
{
	char *p = campaign_path(c, ".cancel");
	bool r = access(p, F_OK) == 0;
	free(p);
	return r;
}

static void clear_cancel_request(const struct campaign *c)
{
	char *p = campaign_path(c, ".cancel");
	unlink(p);
	free(p);
}

void campaign_cancel_all(struct campaign *c, const struct executor *x)
{
	for (size_t i = 0; i < c->njobs; i++) {
		struct campaign_job *j = &c->jobs[i];
		if (job_final(j->state))
			continue;
		if (job_active(j->state))
			x->cancel(c, j);
		job_set_reason(j, "cancelled by 'ladder campaign cancel'");
		job_transition(c, j, JS_CANCELLED);
	}
}

bool campaign_request_cancel(struct campaign *c, struct campaign_error *e)
{
	char *p = campaign_path(c, ".cancel");
	bool ok = write_file_atomic(p, "cancel\n", 0644, e->msg, sizeof e->msg);
	free(p);
	return ok;
}

static bool all_handed_over(const struct campaign *c)
{
	for (size_t i = 0; i < c->njobs; i++)
		if (c->jobs[i].state == JS_WAITING)
			return false;
	return true;
}

/* the driver between two rounds */
struct drive {
	struct campaign *c;
	const struct executor *x;
	const struct drive_opts *o;
	struct backoff backoff;
	double start, unreachable_since;  /* unreachable_since: 0 while the scheduler answers */
};

/* ask the executor for news; false (e) when the scheduler has not answered for controller-timeout */
static bool poll_jobs(struct drive *d, int *polled, struct campaign_error *e)
{
	struct campaign *c = d->c;
	*polled = d->x->poll(c);
	if (*polled >= 0) {
		d->unreachable_since = 0;
	} else if (!d->unreachable_since) {
		d->unreachable_since = now_wall();
	} else if (now_wall() - d->unreachable_since > (double)c->controller_timeout) {
		return campaign_error_set(e, "the scheduler has not answered for %ld s (controller-timeout); the campaign is "
					  "saved: run 'ladder campaign wait %s' to follow it again", c->controller_timeout,
					  c->dir);
	}
	return true;
}

/* start or submit what is ready: 1 something started, 0 nothing, -1 error (e) */
static int start_jobs(struct drive *d, struct campaign_error *e)
{
	bool transient = false;
	int started = start_ready(d->c, d->x, &transient, e);
	if (started > 0)
		backoff_reset(&d->backoff);   /* the first answer about fresh jobs is worth having soon */
	if (started >= 0 && transient && !d->unreachable_since)
		d->unreachable_since = now_wall();
	return started < 0 ? -1 : started > 0;
}

/* the result when the drive ends after this round, or -1 to go on */
static int round_result(const struct drive *d)
{
	const struct campaign *c = d->c;
	if (campaign_done(c)) {
		for (size_t i = 0; i < c->njobs; i++)
			if (c->jobs[i].state != JS_COMPLETED)
				return DRIVE_INCOMPLETE;
		return DRIVE_DONE;
	}
	if (d->o->once || (!d->o->follow && all_handed_over(c)))
		return DRIVE_SUBMITTED;
	if (d->o->timeout > 0 && now_wall() - d->start >= d->o->timeout)
		return DRIVE_TIMEOUT;
	return -1;
}

static void save_state(struct campaign *c)
{
	struct campaign_error se;
	if (!state_save(c, &se))
		log_warn("%s", se.msg);
}

/* sleep until the next round: backing off while nothing changes, never past the timeout */
static void pause_round(struct drive *d, bool changed)
{
	double wait = changed ? backoff_reset(&d->backoff) : backoff_next(&d->backoff);
	double left = d->o->timeout - (now_wall() - d->start);
	if (d->o->timeout > 0 && wait > left)
		wait = left;
	if (wait > 0)
		d->x->sleep(d->c, wait);
}

enum drive_result campaign_drive(struct campaign *c, const struct drive_opts *o, struct campaign_error *e)
{
	struct drive d = {.c = c, .x = executor_for(c), .o = o, .start = now_wall()};
	if (!d.x->open(c, e))
		return DRIVE_ERROR;
	d.x->adopt(c);
	backoff_init(&d.backoff, c->poll_min, c->poll_max);
	int result = -1;
	bool dirty = true;
	while (result < 0) {
		if (!o->once && cancel_requested(c)) {
			campaign_cancel_all(c, d.x);
			clear_cancel_request(c);
			result = DRIVE_CANCELLED;
			break;
		}
		int polled;
		if (!poll_jobs(&d, &polled, e)) {
			result = DRIVE_ERROR;
			break;
		}
		bool changed = polled > 0;
		changed |= propagate_failures(c, d.x);
		int started = !o->once && polled >= 0 ? start_jobs(&d, e) : 0;
		if (started < 0) {
			result = DRIVE_ERROR;
			break;
		}
		changed |= started > 0;
		if (changed || dirty)
			save_state(c);
		dirty = false;
		result = round_result(&d);
		if (result < 0)
			pause_round(&d, changed);
	}
	/* always: the counters (queries) changed even when no job did */
	save_state(c);
	d.x->close(c);
	return (enum drive_result)result;
}
