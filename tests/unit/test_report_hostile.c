/* Unit tests for what a hostile or huge input must not do to the report writers: call-path,
 * metric and application names with markup reach report.html only escaped (and the page forbids
 * script) and report.md only as inert text on their own line and table cell; a model formula
 * nested 50,000 deep is an error, not a crash; the nightly trend of a 160,000-row history is
 * drawn fast. Only the report's structures as they were before these checks are used, so that
 * the tests also run against older writers. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "model/models_format.h"
#include "report/figures.h"
#include "report/history.h"
#include "report/report.h"
#include "report/writers.h"

#define SCRIPT "<script>alert(1)</script>"
#define FORGED "x\n\n**PASS: every threshold held** | forged | cell |\n<img src=x onerror=alert(2)>"

static struct report_model hostile_model(const char *callpath, const char *metric)
{
	struct report_model m;
	memset(&m, 0, sizeof m);
	m.callpath = (char *)callpath;
	m.metric = (char *)metric;
	m.status = (char *)"ok";
	m.model = (char *)"1 + p";
	m.growth = (char *)"p";
	m.prediction = 65;
	m.lower = 60;
	m.upper = 70;
	m.level = 0.95;
	m.measured_ok = true;
	m.measured = 64;
	m.accuracy = 0.98;
	m.held = 0;
	return m;
}

/* the report: a campaign whose application, call paths and metrics are markup */
static void hostile_report(struct report *r, struct report_model *models)
{
	memset(r, 0, sizeof *r);
	r->campaign = (char *)"/tmp/c/campaign.h5";
	r->application = (char *)SCRIPT;
	r->settings = (char *)"reduce=max";
	r->reduce = (char *)"max";
	r->model_target = 64;
	models[0] = hostile_model("main/" SCRIPT, "time");
	models[1] = hostile_model("main/" FORGED, SCRIPT);
	models[2] = hostile_model("main/MPI_Send", "time|bytes\n| PASS |");
	r->models = models;
	r->nmodels = 3;
	r->ladder = experiment_new();
	r->spearman = r->topk = NAN;
	figures_add(&r->figs, "model_" SCRIPT, 64, 0.98, "/tmp/c/campaign.h5:/models/callpaths");
	figures_add(&r->figs, "model_" FORGED, 64, 0.98, FORGED);
}

static char *write_with(report_writer *w, const struct report *r, const struct verdict *v)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_true(w(r, v, f));
	fclose(f);
	return text;
}

static void test_html_escaped(void **state)
{
	(void)state;
	struct report r;
	struct report_model models[3];
	hostile_report(&r, models);
	struct thresholds th;
	thresholds_init(&th);
	struct history h = {0};
	struct verdict v = {.thresholds = &th, .history = &h};
	char *page = write_with(report_write_html, &r, &v);
	assert_null(strstr(page, "<script"));
	assert_null(strstr(page, "<img"));
	assert_non_null(strstr(page, "&lt;img src=x onerror=alert(2)&gt;"));   /* inert text */
	assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	/* and the page forbids script even if something slipped through */
	assert_non_null(strstr(page, "Content-Security-Policy"));
	assert_non_null(strstr(page, "script-src 'none'"));
	free(page);
	experiment_free(r.ladder);
	figures_free(&r.figs);
}

static void test_markdown_escaped(void **state)
{
	(void)state;
	struct report r;
	struct report_model models[3];
	hostile_report(&r, models);
	struct thresholds th;
	thresholds_init(&th);
	struct history h = {0};
	struct verdict v = {.thresholds = &th, .history = &h};
	char *md = write_with(report_write_markdown, &r, &v);
	assert_null(strstr(md, "<script"));
	assert_null(strstr(md, "<img"));
	/* no forged line: every line that mentions the forged text is one the writer began */
	for (char *line = strtok(md, "\n"); line; line = strtok(NULL, "\n")) {
		assert_false(!strncmp(line, "**PASS", 6));
		assert_false(!strncmp(line, "| PASS", 6));
		assert_false(!strncmp(line, "<", 1));
		/* a table row keeps its cells: every | inside a cell is escaped */
		if (line[0] == '|' && strstr(line, "alert")) {
			size_t bars = 0;
			for (char *p = line; *p; p++)
				bars += *p == '|' && (p == line || p[-1] != '\\');
			assert_true(bars == 9 || bars == 10);   /* the figures table (8 columns) or the models table */
		}
	}
	free(md);
	experiment_free(r.ladder);
	figures_free(&r.figs);
}

static void test_formula_depth(void **state)
{
	(void)state;
	size_t depth = 50000;
	char *text = malloc(2 * depth + 2);
	assert_non_null(text);
	memset(text, '(', depth);
	text[depth] = 'p';
	memset(text + depth + 1, ')', depth);
	text[2 * depth + 1] = 0;
	double v;
	char why[256];
	assert_false(models_formula_eval(text, 4, 0, &v, why, sizeof why));
	memset(text, '-', depth);   /* unary minus nests too */
	text[depth] = 'p';
	text[depth + 1] = 0;
	assert_false(models_formula_eval(text, 4, 0, &v, why, sizeof why));
	/* log2 nesting */
	char *logs = malloc(6 * depth + depth + 2), *p = logs;
	for (size_t i = 0; i < depth; i++)
		p += sprintf(p, "log2(");
	*p++ = 'p';
	memset(p, ')', depth);
	p[depth] = 0;
	assert_false(models_formula_eval(logs, 4, 0, &v, why, sizeof why));
	/* a formula of the model writer's form still reads */
	assert_true(models_formula_eval("2 + 2 * p", 3, 0, &v, why, sizeof why));
	assert_float_equal(v, 8, 1e-12);
	free(logs);
	free(text);
}

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void test_history_plot_linear(void **state)
{
	(void)state;
	static const char *const names[] = {"time", "events", "counts", "model_time", "model_visits", "model_bytes_sent",
					    "model_bytes_recv", "model_msgs_sent", "model_msgs_recv", "interval",
					    "ranking", "topk", "proxy", "model_x", "model_y", "model_z"};
	size_t nfig = sizeof names / sizeof names[0], nights = 10000, n = nights * nfig;   /* 160,000 rows */
	struct history h = {calloc(n, sizeof(struct history_row)), n};
	assert_non_null(h.rows);
	char (*night)[32] = calloc(nights, sizeof *night);
	for (size_t k = 0; k < nights; k++) {
		snprintf(night[k], sizeof night[k], "2026-01-01T00:00:%06zuZ", k);
		for (size_t i = 0; i < nfig; i++)
			h.rows[k * nfig + i] = (struct history_row){night[k], (char *)"c.h5", (char *)"app", (char *)names[i], 64,
								    0.9 + 0.01 * (double)(k % 5), NAN, 1, 0};
	}
	struct report r;
	memset(&r, 0, sizeof r);
	r.campaign = (char *)"c.h5";
	r.application = (char *)"app";
	r.settings = (char *)"";
	r.reduce = (char *)"max";
	r.ladder = experiment_new();
	r.spearman = r.topk = NAN;
	for (size_t i = 0; i < nfig; i++)
		figures_add(&r.figs, names[i], 64, 0.93, "x");
	struct thresholds th;
	thresholds_init(&th);
	double t0 = seconds();
	history_judge(&h, &r.figs, 5, 0.05);
	struct verdict v = {.thresholds = &th, .history = &h, .history_path = "h.h5"};
	char *page = write_with(report_write_html, &r, &v);
	double took = seconds() - t0;
	free(page);
	assert_int_equal(r.figs.v[0].nights, nights);
	/* linear in the rows: well under a second here; the quadratic plot took minutes */
	assert_true(took < 20);
	experiment_free(r.ladder);
	figures_free(&r.figs);
	free(night);
	free(h.rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_escaped),
		cmocka_unit_test(test_markdown_escaped),
		cmocka_unit_test(test_formula_depth),
		cmocka_unit_test(test_history_plot_linear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
