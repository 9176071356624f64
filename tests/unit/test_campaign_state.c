/* Unit tests for campaign state: the state file round trip, the driver lock, resuming a
 * campaign (finished jobs kept, changed jobs and their dependants redone) and retries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "campaign/jobgraph.h"
#include "campaign/resume.h"
#include "campaign/statefile.h"
#include "util/log.h"

static char dir[64];

static int setup(void **state)
{
	snprintf(dir, sizeof dir, "/tmp/ladder-state-test.XXXXXX");
	assert_non_null(mkdtemp(dir));
	log_set_quiet(true);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

/* build: a 2-rung x 1-rep campaign: run-p1-r1, run-p2-r1, merge, model */
static void make_campaign(struct campaign *c, const char *hash_p2)
{
	campaign_init(c);
	c->dir = strdup(dir);
	c->name = strdup("demo");
	c->id = strdup("0123456789abcdef");
	const char *names[] = {"run-p1-r1", "run-p2-r1", "merge", "model"};
	for (int i = 0; i < 4; i++) {
		struct campaign_job *j = campaign_add_job(c, names[i], i < 2 ? JK_RUN : i == 2 ? JK_MERGE : JK_STAGE,
						  i < 2 ? "run" : names[i]);
		j->ranks = i < 2 ? i + 1 : 1;
		j->script = malloc(64);
		snprintf(j->script, 64, "jobs/%s.sh", names[i]);
		j->log = malloc(64);
		snprintf(j->log, 64, "logs/%s.log", names[i]);
		hash_text(i == 1 && hash_p2 ? hash_p2 : names[i], j->hash);
	}
	job_add_dep(&c->jobs[2], "run-p1-r1");
	job_add_dep(&c->jobs[2], "run-p2-r1");
	job_add_dep(&c->jobs[3], "merge");
	struct campaign_error e;
	assert_true(campaign_link(c, &e));
}

static void state_round_trips(void **state)
{
	struct campaign c, d;
	struct campaign_error e;
	make_campaign(&c, NULL);
	c.sched = SCHED_SLURM;
	c.partition = strdup("debug");
	c.queries = 42;
	c.jobs[0].state = JS_COMPLETED;
	c.jobs[0].id = 17;
	c.jobs[0].has_exit = true;
	c.jobs[0].exit_code = 0;
	c.jobs[0].started = 1000;
	c.jobs[0].ended = 1005;
	c.jobs[1].state = JS_FAILED;
	c.jobs[1].has_exit = true;
	c.jobs[1].exit_code = 3;
	job_set_reason(&c.jobs[1], "exit status %d", 3);
	c.jobs[2].state = JS_SKIPPED;
	assert_true(state_save(&c, &e));
	campaign_init(&d);
	assert_true(state_load(dir, &d, &e));
	assert_string_equal(d.name, "demo");
	assert_int_equal(d.sched, SCHED_SLURM);
	assert_string_equal(d.partition, "debug");
	assert_int_equal(d.queries, 42);
	assert_int_equal(d.njobs, 4);
	assert_int_equal(d.jobs[0].state, JS_COMPLETED);
	assert_int_equal(d.jobs[0].id, 17);
	assert_int_equal(d.jobs[0].ended - d.jobs[0].started, 5);
	assert_int_equal(d.jobs[1].exit_code, 3);
	assert_string_equal(d.jobs[1].reason, "exit status 3");
	assert_false(d.jobs[2].has_exit);
	assert_int_equal(d.jobs[2].dep[1], 1);
	assert_string_equal(d.jobs[3].hash, c.jobs[3].hash);
	/* no temporary file is left behind */
	char cmd[160];
	snprintf(cmd, sizeof cmd, "ls %s | grep -q tmp", dir);
	assert_int_not_equal(system(cmd), 0);
	campaign_free(&c);
	campaign_free(&d);
}

static void malformed_state_is_an_error(void **state)
{
	struct campaign c;
	struct campaign_error e;
	campaign_init(&c);
	assert_false(state_load(dir, &c, &e));
	assert_non_null(strstr(e.msg, "not a campaign directory"));
	char p[128];
	snprintf(p, sizeof p, "%s/state.json", dir);
	FILE *f = fopen(p, "w");
	fputs("{\"format\": \"ladder-campaign-state\", \"version\": 9}", f);
	fclose(f);
	assert_false(state_load(dir, &c, &e));
	assert_non_null(strstr(e.msg, "version 9"));
	f = fopen(p, "w");
	fputs("{\"format\": ", f);
	fclose(f);
	assert_false(state_load(dir, &c, &e));
	assert_non_null(strstr(e.msg, "malformed state file"));
	campaign_free(&c);
}

/* the saved state with one edit (a jq-like path set to a JSON value), loaded: false and the message */
static bool load_edited(const char *object, const char *key, const char *value, char *msg, size_t len)
{
	struct campaign c;
	struct campaign_error e;
	make_campaign(&c, NULL);
	assert_true(state_save(&c, &e));
	campaign_free(&c);
	char p[128];
	snprintf(p, sizeof p, "%s/state.json", dir);
	json_error_t je;
	json_t *root = json_load_file(p, 0, &je), *o = root;
	assert_non_null(root);
	if (!strcmp(object, "jobs[1]"))
		o = json_array_get(json_object_get(root, "jobs"), 1);
	else if (*object)
		o = json_object_get(root, object);
	if (value)
		json_object_set_new(o, key, json_loads(value, JSON_DECODE_ANY, &je));
	else
		json_object_del(o, key);
	assert_int_equal(json_dump_file(root, p, JSON_INDENT(1) | JSON_PRESERVE_ORDER), 0);
	json_decref(root);
	campaign_init(&c);
	bool ok = state_load(dir, &c, &e);
	campaign_free(&c);
	snprintf(msg, len, "%s", ok ? "" : e.msg);
	return ok;
}

/* every field read from the one table: an error names the file, the object, the field and what
 * was expected */
static void a_bad_field_is_named(void **state)
{
	char msg[1536];
	assert_false(load_edited("jobs[1]", "ranks", "\"four\"", msg, sizeof msg));
	assert_non_null(strstr(msg, "state.json: jobs[1]: 'ranks' is missing or not an integer"));
	assert_false(load_edited("jobs[1]", "kind", "\"nope\"", msg, sizeof msg));
	assert_non_null(strstr(msg, "jobs[1]: 'kind' is 'nope', not a job kind; expected build, run, merge or stage"));
	assert_false(load_edited("jobs[1]", "deps", "[1]", msg, sizeof msg));
	assert_non_null(strstr(msg, "jobs[1]: 'deps' holds a non-string"));
	assert_false(load_edited("jobs[1]", "log", "\"../../etc/passwd\"", msg, sizeof msg));
	assert_non_null(strstr(msg, "jobs[1]: 'log' is '../../etc/passwd', a path outside the campaign directory"));
	assert_false(load_edited("site", "poll_max", "\"soon\"", msg, sizeof msg));
	assert_non_null(strstr(msg, "state.json: site: 'poll_max' is missing or not a number"));
	assert_false(load_edited("campaign", "name", NULL, msg, sizeof msg));
	assert_non_null(strstr(msg, "state.json: campaign: 'name' is missing or not a string"));
	assert_false(load_edited("", "counters", NULL, msg, sizeof msg));
	assert_non_null(strstr(msg, "state.json: counters is missing or not an object"));
	/* what may be null or missing reads as unset */
	assert_true(load_edited("jobs[1]", "output", "null", msg, sizeof msg));
	assert_true(load_edited("site", "accounting", NULL, msg, sizeof msg));
}

/* the lines of a file, those of the campaign's directory and update time left out */
static char *lines_but_dir_and_update(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[512], *out = calloc(1, 1);
	size_t len = 0;
	while (fgets(line, sizeof line, f)) {
		if (strstr(line, "  \"dir\": ") == line || strstr(line, "  \"updated\": ") == line)
			continue;
		out = realloc(out, len + strlen(line) + 1);
		strcpy(out + len, line);
		len += strlen(line);
	}
	fclose(f);
	return out;
}

/* a state file the previous reader and writer made (tests/campaign/state-v1.json, a Slurm
 * campaign with a failed job, a null output and the largest job id) reads, and is written back
 * byte for byte but for the campaign's directory and the time of the update */
static void an_earlier_state_file_reads_and_writes_back_alike(void **state)
{
	char cmd[256], p[128];
	snprintf(cmd, sizeof cmd, "cp tests/campaign/state-v1.json %s/state.json", dir);
	assert_int_equal(system(cmd), 0);
	struct campaign c;
	struct campaign_error e;
	campaign_init(&c);
	assert_true(state_load(dir, &c, &e));
	assert_string_equal(c.moved_from, "/nonexistent/small");
	assert_int_equal(c.sched, SCHED_SLURM);
	assert_true(c.use_sbatch && c.accounting);
	assert_string_equal(c.partition, "debug");
	assert_null(c.workflow_src);
	assert_int_equal(c.queries, 42);
	assert_int_equal(c.updated, 1700000000);
	assert_int_equal(c.njobs, 10);
	assert_int_equal(c.jobs[1].state, JS_FAILED);
	assert_false(c.jobs[1].has_exit);
	assert_string_equal(c.jobs[1].reason, "NodeFail");
	assert_string_equal(c.jobs[1].history, "17:FAILED 18:RUNNING");
	assert_null(c.jobs[2].output);
	assert_int_equal(c.jobs[2].id, 4294967295u);
	assert_true(c.jobs[0].has_exit && c.jobs[0].exit_code == 0);
	assert_true(state_save(&c, &e));
	campaign_free(&c);
	snprintf(p, sizeof p, "%s/state.json", dir);
	char *was = lines_but_dir_and_update("tests/campaign/state-v1.json"), *now = lines_but_dir_and_update(p);
	assert_string_equal(now, was);
	free(was);
	free(now);
}

static void the_lock_admits_one_driver(void **state)
{
	struct campaign a, b;
	struct campaign_error e;
	campaign_init(&a);
	campaign_init(&b);
	pid_t holder = 0;
	assert_int_equal(state_lock(&a, dir, &holder, &e), 1);
	assert_int_equal(state_lock(&b, dir, &holder, &e), 0);
	assert_int_equal(holder, getpid());
	state_unlock(&a);
	assert_int_equal(state_lock(&b, dir, &holder, &e), 1);
	state_unlock(&b);
}

static void resume_keeps_finished_jobs_and_redoes_changed_ones(void **state)
{
	struct campaign old, fresh;
	struct campaign_error e;
	make_campaign(&old, NULL);
	old.jobs[0].state = JS_COMPLETED;
	old.jobs[0].id = 5;
	old.jobs[1].state = JS_COMPLETED;
	old.jobs[1].id = 6;
	old.jobs[2].state = JS_COMPLETED;
	old.jobs[3].state = JS_FAILED;
	old.queries = 7;
	/* same scripts: everything is carried over */
	make_campaign(&fresh, NULL);
	assert_true(campaign_resume(&fresh, &old, &e));
	assert_int_equal(fresh.jobs[0].state, JS_COMPLETED);
	assert_int_equal(fresh.jobs[1].id, 6);
	assert_int_equal(fresh.jobs[3].state, JS_FAILED);
	assert_int_equal(fresh.queries, 7);
	assert_string_equal(fresh.id, old.id);
	campaign_free(&fresh);
	/* run-p2-r1's script changed: it and what depends on it run again, run-p1-r1 does not */
	make_campaign(&fresh, "changed");
	assert_true(campaign_resume(&fresh, &old, &e));
	assert_int_equal(fresh.jobs[0].state, JS_COMPLETED);
	assert_int_equal(fresh.jobs[0].id, 5);
	assert_int_equal(fresh.jobs[1].state, JS_WAITING);
	assert_int_equal(fresh.jobs[1].id, 0);
	assert_string_equal(fresh.jobs[1].history, "6:COMPLETED");
	assert_int_equal(fresh.jobs[2].state, JS_WAITING);
	assert_int_equal(fresh.jobs[3].state, JS_WAITING);
	campaign_free(&fresh);
	/* but not while that job is still running */
	old.jobs[1].state = JS_RUNNING;
	make_campaign(&fresh, "changed");
	assert_false(campaign_resume(&fresh, &old, &e));
	assert_non_null(strstr(e.msg, "run-p2-r1 is RUNNING"));
	campaign_free(&fresh);
	campaign_free(&old);
}

static void retry_resets_failures_and_their_dependants(void **state)
{
	struct campaign c;
	struct campaign_error e;
	make_campaign(&c, NULL);
	c.jobs[0].state = JS_COMPLETED;
	c.jobs[1].state = JS_FAILED;
	c.jobs[1].id = 9;
	c.jobs[2].state = JS_SKIPPED;
	c.jobs[3].state = JS_SKIPPED;
	assert_int_equal(campaign_reset(&c, NULL, 0, &e), 3);
	assert_int_equal(c.jobs[0].state, JS_COMPLETED);
	for (int i = 1; i < 4; i++)
		assert_int_equal(c.jobs[i].state, JS_WAITING);
	assert_string_equal(c.jobs[1].history, "9:FAILED");
	/* nothing failed: nothing to do */
	for (int i = 0; i < 4; i++)
		c.jobs[i].state = JS_COMPLETED;
	assert_int_equal(campaign_reset(&c, NULL, 0, &e), 0);
	/* a named job and its dependants */
	char *names[] = {"merge"};
	assert_int_equal(campaign_reset(&c, names, 1, &e), 2);
	assert_int_equal(c.jobs[1].state, JS_COMPLETED);
	assert_int_equal(c.jobs[3].state, JS_WAITING);
	char *bad[] = {"nope"};
	assert_int_equal(campaign_reset(&c, bad, 1, &e), -1);
	assert_non_null(strstr(e.msg, "no job named 'nope'"));
	c.jobs[0].state = JS_RUNNING;
	char *running[] = {"run-p1-r1"};
	assert_int_equal(campaign_reset(&c, running, 1, &e), -1);
	campaign_free(&c);
}

static void a_dependency_cycle_is_refused(void **state)
{
	struct campaign c;
	struct campaign_error e;
	make_campaign(&c, NULL);
	job_add_dep(&c.jobs[0], "model");
	assert_false(campaign_link(&c, &e));
	assert_non_null(strstr(e.msg, "comes after it"));
	job_add_dep(&c.jobs[1], "nothing");
	campaign_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(state_round_trips, setup, teardown),
		cmocka_unit_test_setup_teardown(malformed_state_is_an_error, setup, teardown),
		cmocka_unit_test_setup_teardown(a_bad_field_is_named, setup, teardown),
		cmocka_unit_test_setup_teardown(an_earlier_state_file_reads_and_writes_back_alike, setup, teardown),
		cmocka_unit_test_setup_teardown(the_lock_admits_one_driver, setup, teardown),
		cmocka_unit_test_setup_teardown(resume_keeps_finished_jobs_and_redoes_changed_ones, setup, teardown),
		cmocka_unit_test_setup_teardown(retry_resets_failures_and_their_dependants, setup, teardown),
		cmocka_unit_test_setup_teardown(a_dependency_cycle_is_refused, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
