/* Unit tests for reading workflow and site files: what is accepted, and that every error names
 * the file, the line and the field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "campaign/spec.h"

static char path[64];

static const char *write_tmp(const char *text, size_t len)
{
	snprintf(path, sizeof path, "/tmp/ladder-spec-test.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	return path;
}

static const char *wf_ok =
	"name: demo\n"
	"app:\n"
	"  command: \"{prefix}/apps/cg --size {size} -n {ranks} {extra}\"\n"
	"  build: [make, -C, \"{workflow_dir}\"]\n"
	"ladder:\n"
	"  generate: powers-of-two\n"
	"  from: 2\n"
	"  to: 64\n"
	"  valid: {divides: 240, multiple-of: 2}\n"
	"scaling: weak\n"
	"size: {2: 10, 4: 20}\n"
	"repetitions: 2\n"
	"target: [128, 256]\n"
	"vars: {extra: \"--iterations 5\"}\n"
	"trace: {timestamps: yes, callsite-depth: 2}\n"
	"stages:\n"
	"  - model\n"
	"  - name: extrap\n"
	"  - name: check\n"
	"    command: \"{prefix}/bin/check {campaign} --t {target}\"\n"
	"    per-target: true\n"
	"    after: [extrap]\n"
	"acceptance: {time: 0.9}\n";

static void a_full_workflow_is_read(void **state)
{
	struct workflow w;
	struct campaign_error e;
	assert_true(workflow_load(write_tmp(wf_ok, strlen(wf_ok)), &w, &e));
	assert_string_equal(w.name, "demo");
	assert_int_equal(w.command.n, 6);
	assert_string_equal(w.command.words[5], "{extra}");
	assert_int_equal(w.build.n, 3);
	assert_int_equal(w.gen, RUNGS_POW2);
	assert_int_equal(w.from, 2);
	assert_int_equal(w.to, 64);
	assert_int_equal(w.filter.divides, 240);
	assert_int_equal(w.scaling, SCALING_WEAK);
	long s;
	assert_true(workflow_size(&w, 4, &s));
	assert_int_equal(s, 20);
	assert_false(workflow_size(&w, 8, &s));
	assert_int_equal(w.ntargets, 2);
	assert_true(w.timestamps);
	assert_int_equal(w.callsite_depth, 2);
	assert_int_equal(w.nstages, 4);
	assert_string_equal(w.stages[0].name, "merge");
	assert_string_equal(w.stages[1].name, "model");
	assert_string_equal(w.stages[1].after[0], "merge");
	assert_true(w.stages[2].per_target);
	assert_string_equal(w.stages[3].after[0], "extrap");
	assert_int_equal(w.nacceptance, 1);
	workflow_free(&w);
	unlink(path);
}

/* load text, expect failure with a message containing every piece of want */
static void expect_workflow_error(const char *text, size_t len, const char *const *want)
{
	struct workflow w;
	struct campaign_error e;
	const char *p = write_tmp(text, len);
	bool ok = workflow_load(p, &w, &e);
	if (ok)
		fail_msg("accepted: %s", text);
	if (strncmp(e.msg, p, strlen(p)))
		fail_msg("message does not start with the file name: %s", e.msg);
	for (const char *const *s = want; *s; s++)
		if (!strstr(e.msg, *s))
			fail_msg("message '%s' lacks '%s'", e.msg, *s);
	unlink(p);
}

#define WANT(...) ((const char *const[]){__VA_ARGS__, NULL})

static void workflow_errors_name_file_line_and_field(void **state)
{
	const char *base = "name: demo\napp:\n  command: app -n {ranks}\nladder: [1, 2]\n";
	char buf[1024];
	struct {
		const char *extra;
		const char *const *want;
	} cases[] = {
		{"ladder2: 1\n", WANT(":5: field 'ladder2': unknown field")},
		{"repetitions: many\n", WANT(":5: field 'repetitions': expected an integer from 1 to 1000, got 'many'")},
		{"scaling: sideways\n", WANT(":5: field 'scaling'", "strong or weak")},
		{"target: [64, x]\n", WANT(":5: field 'target[1]'")},
		{"trace: {callsite-depth: 99}\n", WANT(":5: field 'trace.callsite-depth'")},
		{"stages: [frobnicate]\n", WANT(":5: field 'stages[0]'", "give its 'command'")},
		{"stages: [{name: x, command: \"y {nope}\"}]\n", WANT(":5: field 'stages[0].command'", "unknown placeholder {nope}")},
		{"stages: [{name: x, command: y, after: [z]}]\n", WANT(":5: field 'stages[0].after'", "'z'")},
		{"stages: [extrap]\n", WANT(":5: field 'stages[0]'", "no 'target'")},
		{"vars: {ranks: 3}\n", WANT(":5: field 'vars.ranks'", "built-in")},
		{"size: -3\n", WANT(":5: field 'size'")},
		{"repetitions: 2\nrepetitions: 3\n", WANT(":6: field 'repetitions': given twice (first on line 5)")},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(buf, sizeof buf, "%s%s", base, cases[i].extra);
		expect_workflow_error(buf, strlen(buf), cases[i].want);
	}
	const char *t1 = "name: demo\napp:\n  command: \"app {size}\"\nladder: [1]\n";
	expect_workflow_error(t1, strlen(t1), WANT(":3: field 'app.command'", "{size}", "'size' field"));
	const char *t2 = "name: demo\napp:\n  command: {prefix}/app\nladder: [1]\n";
	expect_workflow_error(t2, strlen(t2), WANT(":3: YAML syntax error", "a value that starts with '{' must be quoted"));
	const char *t3 = "name: demo\napp:\n  command: app\n";
	expect_workflow_error(t3, strlen(t3), WANT(":1: field 'ladder': missing"));
	const char *t4 = "name: demo\napp:\n  command: app\nladder: {generate: squares, from: 9}\n";
	expect_workflow_error(t4, strlen(t4), WANT(":4: field 'ladder'", "'to'"));
	const char *t5 = "name: demo\napp:\n  command: app\nladder: {generate: primes, from: 1, to: 9}\n";
	expect_workflow_error(t5, strlen(t5), WANT(":4: field 'ladder.generate'", "primes"));
	const char *t6 = "name: demo\napp:\n  command: app\n  ladder: [1]\n";
	expect_workflow_error(t6, strlen(t6), WANT(":4: field 'app.ladder': unknown field"));
	const char *t7 = "name: \"de mo\"\napp: {command: app}\nladder: [1]\n";
	expect_workflow_error(t7, strlen(t7), WANT(":1: field 'name'", "not a valid name"));
	const char *t8 = "name: demo\napp: {command: app\nladder: [1]\n";
	expect_workflow_error(t8, strlen(t8), WANT("YAML syntax error"));
	const char *t9 = "";
	expect_workflow_error(t9, 0, WANT("empty"));
	const char *t10 = "- a\n- b\n";
	expect_workflow_error(t10, strlen(t10), WANT(":1:", "expected a mapping"));
}

static void control_characters_are_refused(void **state)
{
	/* escapes in double-quoted YAML produce control characters: newline, NUL, ESC, tab */
	const char *esc[] = {"\\n", "\\0", "\\e", "\\t", "\\x7f", "\\r"};
	char buf[256];
	for (size_t i = 0; i < sizeof esc / sizeof esc[0]; i++) {
		snprintf(buf, sizeof buf, "name: demo\napp:\n  command: \"app --x a%sreboot\"\nladder: [1]\n", esc[i]);
		expect_workflow_error(buf, strlen(buf), WANT(":3: field 'app.command'", "control character"));
		snprintf(buf, sizeof buf, "name: demo\napp: {command: app}\nladder: [1]\nvars: {x: \"1%s2\"}\n", esc[i]);
		expect_workflow_error(buf, strlen(buf), WANT(":4: field 'vars.x'", "control character"));
	}
	/* a raw NUL or control byte in the file is a YAML error (libyaml refuses it) with a line */
	const char raw[] = "name: demo\napp: {command: \"app\x01\"}\nladder: [1]\n";
	expect_workflow_error(raw, sizeof raw - 1, WANT(":2:", "control characters are not allowed"));
	const char nul[] = "name: demo\napp: {command: app}\nladder: [1]\x00\n";
	expect_workflow_error(nul, sizeof nul - 1, WANT("YAML syntax error"));
}

static void site_files_are_checked(void **state)
{
	struct site s;
	struct campaign_error e;
	const char *ok = "name: big\nscheduler: slurm\npartition: batch\naccount: p42\nranks-per-node: 128\n"
			 "launcher: [srun, --mpi=pmix, -n, \"{ranks}\"]\ntime: {run: \"1:00:00\", default: 5}\n"
			 "modules: gcc/12\nenv: {A_B: \"x y\"}\nsbatch: [--exclusive]\npoll: {interval: 2, max: 60}\n";
	assert_true(site_load(write_tmp(ok, strlen(ok)), &s, &e));
	assert_int_equal(s.scheduler, SCHED_SLURM);
	assert_string_equal(s.partition, "batch");
	assert_int_equal(site_time_limit(&s, "run"), 60);
	assert_int_equal(site_time_limit(&s, "merge"), 5);
	assert_int_equal(s.nmodules, 1);
	assert_string_equal(s.env[0].value, "x y");
	assert_true(s.poll_max == 60);
	site_free(&s);
	unlink(path);
	struct {
		const char *text;
		const char *const *want;
	} cases[] = {
		{"name: l\nscheduler: pbs\nlauncher: x\n", WANT(":2: field 'scheduler'", "local or slurm")},
		{"name: l\nscheduler: local\nlauncher: x\n", WANT(":1: field 'max-ranks': missing")},
		{"name: l\nscheduler: local\nmax-ranks: 4\nlauncher: x\npartition: p\n", WANT(":5: field 'partition'", "only for 'scheduler: slurm'")},
		{"name: l\nscheduler: slurm\nlauncher: x\n", WANT(":1: field 'ranks-per-node': missing")},
		{"name: l\nscheduler: slurm\nranks-per-node: 4\nlauncher: \"srun -n {rank}\"\n", WANT(":4: field 'launcher'", "{rank}")},
		{"name: l\nscheduler: slurm\nranks-per-node: 4\nlauncher: x\npartition: \"a;b\"\n", WANT(":5: field 'partition'")},
		{"name: l\nscheduler: slurm\nranks-per-node: 4\nlauncher: x\nenv: {\"A-B\": 1}\n", WANT(":5: field 'env.A-B'")},
		{"name: l\nscheduler: slurm\nranks-per-node: 4\nlauncher: x\ntime: {run: 10m}\n", WANT(":5: field 'time.run'")},
		{"name: l\nscheduler: slurm\nranks-per-node: 4\nlauncher: x\nsbatch: [exclusive]\n", WANT(":5: field 'sbatch'", "must start with '-'")},
		{"name: l\nscheduler: slurm\nranks-per-node: 4\nlauncher: x\nsetup: [\"echo a\\necho b\"]\n", WANT(":5: field 'setup[0]'", "control character")},
		{"name: l\nscheduler: slurm\nranks-per-node: 4\nlauncher: x\npoll: {interval: 5, max: 1}\n", WANT(":5: field 'poll.max'")},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const char *p = write_tmp(cases[i].text, strlen(cases[i].text));
		if (site_load(p, &s, &e))
			fail_msg("accepted: %s", cases[i].text);
		for (const char *const *w = cases[i].want; *w; w++)
			if (!strstr(e.msg, *w))
				fail_msg("message '%s' lacks '%s'", e.msg, *w);
		assert_int_equal(strncmp(e.msg, p, strlen(p)), 0);
		unlink(p);
	}
	assert_false(site_load("/nonexistent/site.yaml", &s, &e));
	assert_non_null(strstr(e.msg, "/nonexistent/site.yaml: cannot open"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_full_workflow_is_read),
		cmocka_unit_test(workflow_errors_name_file_line_and_field),
		cmocka_unit_test(control_characters_are_refused),
		cmocka_unit_test(site_files_are_checked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
