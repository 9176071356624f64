/*
 * status — printing a campaign's state for people. See status.h.
 */
#include "campaign/status.h"

#include <string.h>
#include <time.h>

#include "util/log.h"

static void clock_text(long long t, char *out, size_t len)
{
	if (!t) {
		snprintf(out, len, "-");
		return;
	}
	time_t tt = (time_t)t;
	struct tm tm;
	localtime_r(&tt, &tm);
	strftime(out, len, "%m-%d %H:%M:%S", &tm);
}

void campaign_print_summary(FILE *out, const struct campaign *c)
{
	char text[512];
	campaign_summary(c, text, sizeof text);
	fprintf(out, "%s\n", text);
}

void campaign_summary(const struct campaign *c, char *text, size_t len)
{
	size_t n[JS_SKIPPED + 1];
	campaign_count(c, n);
	FILE *out = fmemopen(text, len, "w");
	if (!out) {
		snprintf(text, len, "%zu jobs", c->njobs);
		return;
	}
	fprintf(out, "%zu jobs:", c->njobs);
	bool first = true;
	static const enum job_state order[] = {JS_COMPLETED, JS_RUNNING, JS_QUEUED, JS_WAITING, JS_FAILED,
					       JS_SKIPPED, JS_CANCELLED};
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		if (!n[order[i]])
			continue;
		char lower[16];
		const char *name = job_state_name(order[i]);
		size_t k = 0;
		for (; name[k] && k < sizeof lower - 1; k++)
			lower[k] = (char)(name[k] + ('a' - 'A'));
		lower[k] = 0;
		fprintf(out, "%s %zu %s", first ? "" : ",", n[order[i]], lower);
		first = false;
	}
	size_t final = n[JS_COMPLETED] + n[JS_FAILED] + n[JS_SKIPPED] + n[JS_CANCELLED];
	fprintf(out, " (%zu%% done)", c->njobs ? final * 100 / c->njobs : 100);
	fclose(out);
}

void campaign_print_status(FILE *out, const struct campaign *c, pid_t driver)
{
	fprintf(out, "campaign %s (%s) in %s\n", c->name, c->sched == SCHED_SLURM ? "slurm" : "local", c->dir);
	if (driver)
		fprintf(out, "driven by process %ld\n", (long)driver);
	campaign_print_summary(out, c);
	fprintf(out, "\n%-18s %-9s %8s %3s %-14s %-14s %-14s %7s %4s  %s\n", "JOB", "STATE", "ID", "ATT", "SUBMITTED",
		"STARTED", "ENDED", "TIME", "EXIT", "LOG");
	for (size_t i = 0; i < c->njobs; i++) {
		const struct campaign_job *j = &c->jobs[i];
		char sub[32], sta[32], end[32], id[32], took[32], ec[16];
		clock_text(j->submitted, sub, sizeof sub);
		clock_text(j->started, sta, sizeof sta);
		clock_text(j->ended, end, sizeof end);
		if (j->id)
			snprintf(id, sizeof id, "%u", j->id);
		else if (j->pid && job_active(j->state))
			snprintf(id, sizeof id, "pid%ld", j->pid);
		else
			snprintf(id, sizeof id, "-");
		if (j->started && j->ended >= j->started)
			snprintf(took, sizeof took, "%llds", j->ended - j->started);
		else if (j->started && j->state == JS_RUNNING)
			snprintf(took, sizeof took, "%llds+", (long long)time(NULL) - j->started);
		else
			snprintf(took, sizeof took, "-");
		if (j->has_exit)
			snprintf(ec, sizeof ec, "%d", j->exit_code);
		else
			snprintf(ec, sizeof ec, "-");
		fprintf(out, "%-18s %-9s %8s %3d %-14s %-14s %-14s %7s %4s  %s", j->name, job_state_name(j->state), id,
			j->attempts, sub, sta, end, took, ec, j->log);
		if (j->reason)
			fprintf(out, "  (%s)", j->reason);
		fputc('\n', out);
	}
}

static const char *result_text(enum drive_result r)
{
	switch (r) {
	case DRIVE_DONE: return "completed";
	case DRIVE_INCOMPLETE: return "finished with failures";
	case DRIVE_SUBMITTED: return "submitted";
	case DRIVE_TIMEOUT: return "still running";
	case DRIVE_CANCELLED: return "cancelled";
	default: return "stopped";
	}
}

bool campaign_report_end(const struct campaign *c, enum drive_result r)
{
	char summary[512];
	campaign_summary(c, summary, sizeof summary);
	if (r == DRIVE_DONE) {
		const struct campaign_job *merge = campaign_find_job((struct campaign *)c, "merge");
		log_info("campaign %s %s: %s", c->name, result_text(r), summary);
		if (merge && merge->output)
			log_info("results in %s (campaign container %s/%s; runs under %s/runs)", c->dir, c->dir,
				 merge->output, c->dir);
		else
			log_info("results in %s", c->dir);
		return true;
	}
	if (r == DRIVE_SUBMITTED) {
		log_info("campaign %s %s: %s", c->name, result_text(r), summary);
		log_info("follow it with: ladder campaign wait %s", c->dir);
		return true;
	}
	fprintf(stderr, "campaign %s %s: %s\n", c->name, result_text(r), summary);
	if (r == DRIVE_TIMEOUT) {
		fprintf(stderr, "follow it with: ladder campaign wait %s\n", c->dir);
		return false;
	}
	for (size_t i = 0; i < c->njobs; i++) {
		const struct campaign_job *j = &c->jobs[i];
		if (j->state == JS_FAILED)
			fprintf(stderr, "  failed: %s (%s); log %s/%s\n", j->name, j->reason ? j->reason : "", c->dir,
				j->log);
	}
	if (r == DRIVE_INCOMPLETE)
		fprintf(stderr, "after fixing the cause: ladder campaign retry %s\n", c->dir);
	return false;
}
