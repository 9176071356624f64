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

enum drive_result campaign_drive(struct campaign *c, const struct drive_opts *o, struct campaign_error *e)
{
	const struct executor *x = executor_for(c);
	if (!x->open(c, e))
		return DRIVE_ERROR;
	x->adopt(c);
	enum drive_result result = DRIVE_ERROR;
	struct backoff b;
	backoff_init(&b, c->poll_min, c->poll_max);
	double start = now_wall(), unreachable_since = 0;
	bool dirty = true;
	for (;;) {
		if (!o->once && cancel_requested(c)) {
			campaign_cancel_all(c, x);
			clear_cancel_request(c);
			result = DRIVE_CANCELLED;
			dirty = true;
			break;
		}
		int n = x->poll(c);
		bool changed = n > 0;
		if (n < 0) {
			if (!unreachable_since)
				unreachable_since = now_wall();
			else if (now_wall() - unreachable_since > (double)c->controller_timeout) {
				campaign_error_set(e, "the scheduler has not answered for %ld s (controller-timeout); the campaign is "
					 "saved: run 'ladder campaign wait %s' to follow it again", c->controller_timeout, c->dir);
				result = DRIVE_ERROR;
				break;
			}
		} else {
			unreachable_since = 0;
		}
		if (propagate_failures(c, x))
			changed = true;
		bool transient = false;
		if (!o->once && n >= 0) {
			int s = start_ready(c, x, &transient, e);
			if (s < 0) {
				result = DRIVE_ERROR;
				dirty = true;
				break;
			}
			if (s > 0) {
				changed = true;
				/* the first answer about fresh jobs is worth having soon */
				backoff_reset(&b);
			}
			if (transient && !unreachable_since)
				unreachable_since = now_wall();
		}
		if (changed || dirty) {
			struct campaign_error se;
			if (!state_save(c, &se))
				log_warn("%s", se.msg);
			dirty = false;
		}
		if (campaign_done(c)) {
			result = DRIVE_DONE;
			for (size_t i = 0; i < c->njobs; i++)
				if (c->jobs[i].state != JS_COMPLETED)
					result = DRIVE_INCOMPLETE;
			break;
		}
		if (o->once) {
			result = DRIVE_SUBMITTED;
			break;
		}
		if (!o->follow && all_handed_over(c)) {
			result = DRIVE_SUBMITTED;
			break;
		}
		if (o->timeout > 0 && now_wall() - start >= o->timeout) {
			result = DRIVE_TIMEOUT;
			break;
		}
		double wait = changed ? backoff_reset(&b) : backoff_next(&b);
		if (o->timeout > 0 && now_wall() + wait - start > o->timeout)
			wait = o->timeout - (now_wall() - start);
		if (wait > 0)
			x->sleep(c, wait);
	}
	/* always: the counters (queries) changed even when no job did */
	struct campaign_error se;
	if (!state_save(c, &se))
		log_warn("%s", se.msg);
	x->close(c);
	return result;
}
