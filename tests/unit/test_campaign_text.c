/* Unit tests for the pure parts of campaigns: command templates, shell quoting, ladder
 * generation, time limits, backoff, job completion records and cron entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "campaign/backoff.h"
#include "util/xalloc.h"
#include "campaign/jobcomp.h"
#include "campaign/rungs.h"
#include "campaign/schedule.h"
#include "campaign/shquote.h"
#include "campaign/spec.h"
#include "campaign/template.h"
#include "util/buf.h"

static bool known_abc(const char *name, void *arg)
{
	(void)arg;
	return !strcmp(name, "ranks") || !strcmp(name, "size") || !strcmp(name, "runs");
}

static void template_splits_words_and_keeps_quotes_grouped(void **state)
{
	struct tmpl t;
	char why[256];
	assert_true(tmpl_parse("  app --size {size}  'a b' \"c \\\"d\" e\\ f ", &t, why, sizeof why));
	assert_int_equal(t.n, 6);
	assert_string_equal(t.words[0], "app");
	assert_string_equal(t.words[2], "{size}");
	assert_string_equal(t.words[3], "a b");
	assert_string_equal(t.words[4], "c \"d");
	assert_string_equal(t.words[5], "e f");
	assert_null(t.words[6]);
	tmpl_free(&t);
	assert_false(tmpl_parse("app 'open", &t, why, sizeof why));
	assert_string_equal(why, "unbalanced single quote");
	assert_false(tmpl_parse("app \"open", &t, why, sizeof why));
	assert_false(tmpl_parse("app \\", &t, why, sizeof why));
}

static void template_checks_placeholders(void **state)
{
	struct tmpl t;
	char why[256];
	assert_true(tmpl_parse("app -n {ranks} --size={size} {{literal}}", &t, why, sizeof why));
	assert_true(tmpl_check(&t, known_abc, NULL, why, sizeof why));
	tmpl_free(&t);
	assert_true(tmpl_parse("app {rank}", &t, why, sizeof why));
	assert_false(tmpl_check(&t, known_abc, NULL, why, sizeof why));
	assert_string_equal(why, "unknown placeholder {rank}");
	tmpl_free(&t);
	const char *bad[] = {"app {ranks", "app {1x}", "app }", "app {}"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_true(tmpl_parse(bad[i], &t, why, sizeof why));
		assert_false(tmpl_check(&t, known_abc, NULL, why, sizeof why));
		tmpl_free(&t);
	}
}

static void template_expansion_never_splits_values(void **state)
{
	struct tmpl t;
	char why[256];
	assert_true(tmpl_parse("app -n {ranks} --size={size} {runs} x{{y}}", &t, why, sizeof why));
	struct template_vars tv = {0};
	template_vars_set(&tv, "ranks", "4; rm -rf /");
	template_vars_set(&tv, "size", "$(id)");
	char *runs[] = {"a.h5", "b c.h5"};
	template_vars_set_list(&tv, "runs", runs, 2);
	char **argv;
	size_t argc;
	assert_true(tmpl_expand(&t, &tv, &argv, &argc, why, sizeof why));
	assert_int_equal(argc, 7);
	assert_string_equal(argv[2], "4; rm -rf /");
	assert_string_equal(argv[3], "--size=$(id)");
	assert_string_equal(argv[4], "a.h5");
	assert_string_equal(argv[5], "b c.h5");
	assert_string_equal(argv[6], "x{y}");
	assert_null(argv[7]);
	strv_free(argv);
	tmpl_free(&t);
	/* a list inside a longer word is refused */
	assert_true(tmpl_parse("app --in={runs}", &t, why, sizeof why));
	assert_false(tmpl_expand(&t, &tv, &argv, &argc, why, sizeof why));
	assert_non_null(strstr(why, "must be a word of its own"));
	tmpl_free(&t);
	template_vars_free(&tv);
}

static char *quote(const char *s)
{
	struct buf b;
	buf_init(&b);
	sh_quote(&b, s);
	buf_put_u8(&b, 0);
	char *r = strdup((char *)b.data);
	buf_free(&b);
	return r;
}

static char *quote_cmd(const char *s)
{
	struct buf b;
	buf_init(&b);
	sh_quote_command(&b, s);
	buf_put_u8(&b, 0);
	char *r = strdup((char *)b.data);
	buf_free(&b);
	return r;
}

static void shell_quoting_is_strict(void **state)
{
	struct {
		const char *in, *out;
	} cases[] = {
		{"plain/path-1.0_x", "plain/path-1.0_x"},
		{"--size=96", "--size=96"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", "'it'\\''s'"},
		{"$(reboot)", "'$(reboot)'"},
		{"`id`", "'`id`'"},
		{"a;b", "'a;b'"},
		{"~root", "'~root'"},
		{"*", "'*'"},
		{"\"x\"", "'\"x\"'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *q = quote(cases[i].in);
		assert_string_equal(q, cases[i].out);
		free(q);
	}
	assert_false(sh_quotable("a\nb"));
	assert_false(sh_quotable("a\tb"));
	assert_false(sh_quotable("a\x7f"));
	assert_false(sh_quotable("\x1b[31m"));
	assert_true(sh_quotable("ünïcode"));
	/* a command word that would be an assignment or a keyword is quoted */
	char *q = quote_cmd("LD_PRELOAD=x.so");
	assert_string_equal(q, "'LD_PRELOAD=x.so'");
	free(q);
	q = quote_cmd("if");
	assert_string_equal(q, "'if'");
	free(q);
	q = quote_cmd("/bin/app");
	assert_string_equal(q, "/bin/app");
	free(q);
	assert_true(sh_var_name("OMPI_MCA_btl"));
	assert_false(sh_var_name("1X"));
	assert_false(sh_var_name("A-B"));
	assert_false(sh_var_name(""));
}

static void ladders_are_generated_between_bounds(void **state)
{
	long v[64];
	assert_int_equal(rungs_generate(RUNGS_POW2, 3, 64, v, 64), 5);
	assert_int_equal(v[0], 4);
	assert_int_equal(v[4], 64);
	assert_int_equal(rungs_generate(RUNGS_SQUARES, 1, 16, v, 64), 4);
	assert_int_equal(v[2], 9);
	assert_int_equal(rungs_generate(RUNGS_CUBES, 2, 1000, v, 64), 9);
	assert_int_equal(v[0], 8);
	assert_int_equal(v[8], 1000);
	assert_int_equal(rungs_generate(RUNGS_SQUARES, 10, 15, v, 64), 0);
	/* counts beyond max are reported, not written */
	assert_int_equal(rungs_generate(RUNGS_POW2, 1, 1L << 40, v, 4), 41);
	struct rung_filter f = {240, 2};
	assert_true(rungs_keep(4, &f));
	assert_false(rungs_keep(9, &f));
	assert_false(rungs_keep(1, &f));
	assert_false(rungs_keep(7, &f));
	long w[] = {16, 4, 4, 1, 9, 16};
	assert_int_equal(rungs_normalise(w, 6), 4);
	assert_int_equal(w[0], 1);
	assert_int_equal(w[3], 16);
	enum rung_gen g;
	assert_true(rungs_gen_parse("cubes", &g));
	assert_int_equal(g, RUNGS_CUBES);
	assert_false(rungs_gen_parse("primes", &g));
}

static void time_limits_parse_like_slurm(void **state)
{
	long m;
	assert_true(parse_time_limit("10", &m));
	assert_int_equal(m, 10);
	assert_true(parse_time_limit("1:30:00", &m));
	assert_int_equal(m, 90);
	assert_true(parse_time_limit("0:00:30", &m));
	assert_int_equal(m, 1);
	assert_true(parse_time_limit("2-00:00:00", &m));
	assert_int_equal(m, 2880);
	assert_true(parse_time_limit("1-2", &m));
	assert_int_equal(m, 1560);
	const char *bad[] = {"", "0", "-5", "1:60:00", "1:00", "abc", "10m", "1-25:00:00", "1:00:00x"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_false(parse_time_limit(bad[i], &m));
}

static void backoff_grows_and_resets(void **state)
{
	struct backoff b;
	backoff_init(&b, 1, 4);
	assert_true(backoff_next(&b) == 1);
	assert_true(backoff_next(&b) == 1.5);
	assert_true(backoff_next(&b) == 2.25);
	assert_true(backoff_next(&b) == 3.375);
	assert_true(backoff_next(&b) == 4);
	assert_true(backoff_next(&b) == 4);
	assert_true(backoff_reset(&b) == 1);
	assert_true(backoff_next(&b) == 1.5);
}

static void jobcomp_lines_are_parsed(void **state)
{
	struct jobcomp_rec r;
	const char *line = "JobId=12 UserId=root(0) GroupId=root(0) Name=stencil2d.run-p16-r3 JobState=COMPLETED "
			   "Partition=debug TimeLimit=10 StartTime=2024-05-01T08:52:30 EndTime=2024-05-01T08:52:34 "
			   "NodeList=n[1-2] WorkDir=/tmp/c DerivedExitCode=0:0 ExitCode=0:0 \n";
	assert_true(jobcomp_parse_line(line, &r));
	assert_int_equal(r.id, 12);
	assert_string_equal(r.name, "stencil2d.run-p16-r3");
	assert_string_equal(r.state, "COMPLETED");
	assert_int_equal(r.exit_code, 0);
	assert_int_equal(r.end - r.start, 4);
	assert_true(jobcomp_parse_line("JobId=7 Name=x JobState=FAILED ExitCode=3:0", &r));
	assert_int_equal(r.exit_code, 3);
	assert_true(jobcomp_parse_line("JobId=8 Name=x JobState=CANCELLED ExitCode=0:15", &r));
	assert_int_equal(r.exit_code, 128 + 15);
	/* DerivedExitCode must not be taken for ExitCode */
	assert_true(jobcomp_parse_line("JobId=9 JobState=FAILED DerivedExitCode=0:0 ExitCode=2:0", &r));
	assert_int_equal(r.exit_code, 2);
	assert_false(jobcomp_parse_line("garbage", &r));
	assert_false(jobcomp_parse_line("JobId=x JobState=COMPLETED", &r));
	assert_int_equal(slurm_time_parse("Unknown"), 0);
}

static int count_recs;
static void count_cb(const struct jobcomp_rec *r, void *arg)
{
	(void)r;
	(void)arg;
	count_recs++;
}

static void jobcomp_is_read_incrementally(void **state)
{
	char path[] = "/tmp/ladder-test-jobcomp.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("JobId=1 Name=a JobState=COMPLETED ExitCode=0:0\nJobId=2 Name=b JobState=FAILED ExitCode=1:0\nJobId=3 Na", f);
	fflush(f);
	long off = 0;
	count_recs = 0;
	assert_int_equal(jobcomp_scan(path, &off, count_cb, NULL), 2);
	/* the half-written line is read once it is complete, and nothing twice */
	fputs("me=c JobState=COMPLETED ExitCode=0:0\n", f);
	fflush(f);
	assert_int_equal(jobcomp_scan(path, &off, count_cb, NULL), 1);
	assert_int_equal(jobcomp_scan(path, &off, count_cb, NULL), 0);
	assert_int_equal(count_recs, 3);
	/* a truncated (rotated) file starts over */
	fclose(fopen(path, "w"));
	f = freopen(path, "w", f);
	fputs("JobId=4 Name=d JobState=COMPLETED ExitCode=0:0\n", f);
	fflush(f);
	assert_int_equal(jobcomp_scan(path, &off, count_cb, NULL), 1);
	fclose(f);
	unlink(path);
	assert_int_equal(jobcomp_scan(path, &off, count_cb, NULL), -1);
}

static void cron_entries_quote_and_replace(void **state)
{
	int h, m;
	assert_true(schedule_parse_time("02:30", &h, &m));
	assert_int_equal(h, 2);
	assert_int_equal(m, 30);
	assert_false(schedule_parse_time("24:00", &h, &m));
	assert_false(schedule_parse_time("2:30", &h, &m));
	assert_false(schedule_parse_time("02:3x", &h, &m));
	struct schedule_in in = {"demo", "/opt/ladder/bin/ladder", "/w/demo 1.yaml", "/s/site.yaml", "/data/100%", "/home/u",
				 NULL, NULL, 2, 30, false, NULL, NULL, NULL};
	char *e = schedule_entry(&in);
	assert_non_null(e);
	assert_non_null(strstr(e, "30 2 * * * cd /home/u && /opt/ladder/bin/ladder --quiet campaign run "
				  "'/w/demo 1.yaml' --site /s/site.yaml --dated /data/100\\% >> /data/100\\%/nightly.log 2>&1\n"));
	char *marker = schedule_marker("demo");
	assert_int_equal(strncmp(e, marker, strlen(marker)), 0);
	/* installing twice keeps one entry and the other lines */
	char *t1 = schedule_merge("MAILTO=x\n0 1 * * * other\n", "demo", e);
	char *t2 = schedule_merge(t1, "demo", e);
	assert_string_equal(t1, t2);
	assert_non_null(strstr(t2, "MAILTO=x\n0 1 * * * other\n"));
	assert_null(strstr(strstr(t2, marker) + 1, marker));
	free(t1);
	free(t2);
	free(e);
	in.slurm = true;
	in.partition = "batch";
	e = schedule_entry(&in);
	assert_non_null(strstr(e, "#SCRON --partition=batch\n"));
	assert_non_null(strstr(e, " --no-wait "));
	t1 = schedule_merge("", "demo", e);
	t2 = schedule_merge(t1, "demo", e);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	free(e);
	free(marker);
	in.cwd = "/home/u\n* * * * * evil";
	assert_null(schedule_entry(&in));
}

/* only the lines between ladder's two markers are replaced: a user's line after a start marker
 * whose block was edited by hand stays */
static void cron_merge_removes_only_its_own_lines(void **state)
{
	(void)state;
	char *marker = schedule_marker("demo"), *end = schedule_end_marker("demo");
	char *block = xasprintf("%s\n0 3 * * * new\n%s\n", marker, end);
	/* a start marker followed by the user's own line, not ladder's entry */
	char *hand = xasprintf("%s\n15 4 * * * /home/u/backup.sh\nMAILTO=x\n", marker);
	char *t = schedule_merge(hand, "demo", block);
	assert_non_null(strstr(t, "15 4 * * * /home/u/backup.sh\nMAILTO=x\n"));
	assert_non_null(strstr(t, "0 3 * * * new\n"));
	free(t);
	/* a complete block is replaced, what follows its end marker stays */
	char *full = xasprintf("A=1\n%s\n#SCRON --time=30\n0 2 * * * cd /x && l --quiet campaign run w --site s --dated b\n"
			       "%s\n15 4 * * * /home/u/backup.sh\n", marker, end);
	t = schedule_merge(full, "demo", block);
	char *want = xasprintf("A=1\n15 4 * * * /home/u/backup.sh\n%s", block);
	assert_string_equal(t, want);
	free(want);
	free(t);
	free(full);
	free(hand);
	free(block);
	free(marker);
	free(end);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(template_splits_words_and_keeps_quotes_grouped),
		cmocka_unit_test(cron_merge_removes_only_its_own_lines),
		cmocka_unit_test(template_checks_placeholders),
		cmocka_unit_test(template_expansion_never_splits_values),
		cmocka_unit_test(shell_quoting_is_strict),
		cmocka_unit_test(ladders_are_generated_between_bounds),
		cmocka_unit_test(time_limits_parse_like_slurm),
		cmocka_unit_test(backoff_grows_and_resets),
		cmocka_unit_test(jobcomp_lines_are_parsed),
		cmocka_unit_test(jobcomp_is_read_incrementally),
		cmocka_unit_test(cron_entries_quote_and_replace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
