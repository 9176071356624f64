/*
 * slurm_state — what Slurm says about a job, turned into the campaign job's state: pending (or
 * being requeued) is QUEUED, running or suspended is RUNNING, an end is COMPLETED, FAILED (with the
 * exit status, or TIMEOUT/NODE_FAIL/... as the reason), CANCELLED, or SKIPPED when Slurm cancelled
 * it because a job it depends on failed. A job still completing is not final yet. See slurm_int.h.
 */
#include <slurm/slurm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "campaign/exec.h"
#include "campaign/slurm_int.h"
#include "util/log.h"

/* exported by libslurm 22.05, not declared in slurm.h */
extern char *slurm_job_reason_string(enum job_state_reason inx);

static bool deps_failed(const struct campaign *c, const struct campaign_job *j)
{
	for (size_t k = 0; k < j->ndeps; k++) {
		enum job_state s = c->jobs[j->dep[k]].state;
		if (s == JS_FAILED || s == JS_CANCELLED || s == JS_SKIPPED)
			return true;
	}
	return false;
}

/* apply a final or current Slurm state to j; base/flags as in job_state */
static void apply(struct campaign *c, struct campaign_job *j, uint32_t base, bool requeued, uint32_t wait_status,
		  long long start, long long end, const char *pending_reason, const char *state_name)
{
	if (requeued || base == JOB_PENDING) {
		if (j->state == JS_RUNNING) {
			j->started = 0;
			j->ended = 0;
		}
		if (pending_reason)
			job_set_reason(j, "%s", pending_reason);
		job_transition(c, j, JS_QUEUED);
		return;
	}
	if (base == JOB_RUNNING || base == JOB_SUSPENDED) {
		if (start > 0)
			j->started = start;
		job_set_reason(j, NULL);
		job_transition(c, j, JS_RUNNING);
		return;
	}
	if (start > 0)
		j->started = start;
	if (end > 0)
		j->ended = end;
	int rc = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
	j->has_exit = true;
	j->exit_code = rc;
	if (base == JOB_COMPLETE && rc == 0) {
		job_set_reason(j, NULL);
		job_transition(c, j, JS_COMPLETED);
	} else if (base == JOB_CANCELLED) {
		if (deps_failed(c, j)) {
			j->ended = 0;
			j->has_exit = false;
			job_set_reason(j, "a job it depends on did not complete");
			job_transition(c, j, JS_SKIPPED);
		} else {
			job_set_reason(j, "cancelled in Slurm");
			job_transition(c, j, JS_CANCELLED);
		}
	} else {
		if (base == JOB_COMPLETE || base == JOB_FAILED)
			job_set_reason(j, "exit status %d", rc);
		else
			job_set_reason(j, "%s", state_name);
		job_transition(c, j, JS_FAILED);
	}
}

static const char *const base_names[] = {"PENDING", "RUNNING", "SUSPENDED", "COMPLETED", "CANCELLED", "FAILED",
	"TIMEOUT", "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY"};
#define NBASE (sizeof base_names / sizeof base_names[0])

static const char *base_name(uint32_t base)
{
	return base < NBASE ? base_names[base] : "UNKNOWN";
}

void slurm_apply_info(struct campaign *c, struct campaign_job *j, const slurm_job_info_t *r)
{
	uint32_t base = r->job_state & JOB_STATE_BASE;
	log_debug("%s: Slurm job %u state 0x%x (%s) restarts %u exit 0x%x", j->name, r->job_id, r->job_state,
		  base_name(base), r->restart_cnt, r->exit_code);
	bool requeued = (r->job_state & (JOB_REQUEUE | JOB_REQUEUE_HOLD | JOB_SPECIAL_EXIT | JOB_REQUEUE_FED)) != 0;
	if (r->restart_cnt > j->restarts) {
		j->restarts = r->restart_cnt;
		log_info("  %-18s requeued by Slurm (restart %d); following it", j->name, j->restarts);
	}
	/* a job that ended but is still completing (epilog, or on its way back to the queue after a
	 * requeue, when Slurm briefly shows the killed instance's end) is not final yet */
	if ((r->job_state & JOB_COMPLETING) && base > JOB_SUSPENDED && !requeued)
		return;
	const char *reason = base == JOB_PENDING ? slurm_job_reason_string((enum job_state_reason)r->state_reason) : NULL;
	apply(c, j, base, requeued, r->exit_code, (long long)r->start_time, (long long)r->end_time, reason, base_name(base));
}

static uint32_t base_from_name(const char *s, bool *ok)
{
	*ok = true;
	for (uint32_t i = 0; i < NBASE; i++)
		if (!strncmp(s, base_names[i], strlen(base_names[i])))
			return i;
	*ok = false;
	return 0;
}

/* ---- resolving jobs the controller no longer knows ---------------------------------------- */

bool slurm_apply_record(struct campaign *c, struct campaign_job *j, const struct jobcomp_rec *r)
{
	bool ok;
	uint32_t base = base_from_name(r->state, &ok);
	if (!ok || base == JOB_PENDING || base == JOB_RUNNING || base == JOB_SUSPENDED)
		return false; /* REQUEUED and the like: not an end */
	int rc = r->exit_code;
	uint32_t ws = rc >= 128 ? (uint32_t)(rc - 128) : (uint32_t)(rc << 8);
	apply(c, j, base, false, ws, r->start, r->end, NULL, r->state);
	return true;
}

