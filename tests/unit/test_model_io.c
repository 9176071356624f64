/* Unit tests for model/extra_p: Extra-P's text, JSON, JSON Lines and id-based JSON inputs
 * give the same experiment; the JSON writer round-trips; bad files are refused with the file,
 * line, call path and problem named. Run from the top of the tree (tests/run does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>
#include <cmocka.h>

#include "model/extra_p.h"

#define FIX "tests/model/fixtures/"

/* the values of (callpath, metric) at p, or NULL */
static const struct series *at(const struct experiment *e, const char *cp, const char *m, double p)
{
	long c = experiment_find_callpath(e, cp), k = experiment_find_metric(e, m), pt = experiment_find_point(e, &p);
	if (c < 0 || k < 0 || pt < 0)
		return NULL;
	return experiment_values(e, (size_t)c, (size_t)k, (size_t)pt);
}

static void reads_the_text_format(void **state)
{
	struct model_error err;
	struct experiment *e = extra_p_read(FIX "weak.txt", &err);
	assert_non_null(e);
	assert_int_equal(e->nparams, 1);
	assert_string_equal(e->params[0], "p");
	assert_int_equal(e->npoints, 7);
	assert_int_equal(e->callpaths.n, 5);
	assert_int_equal(e->metrics.n, 4);
	const struct series *s = at(e, "main->solve", "time", 64);
	assert_non_null(s);
	assert_int_equal(s->n, 5);
	assert_true(fabs(s->v[0] - (12 + 0.8 * 64)) < 1e-9);
	assert_non_null(at(e, "main->sweep->MPI_Recv", "msgs_recv", 4));
	experiment_free(e);
}

static void json_forms_agree_with_text(void **state)
{
	struct model_error err;
	struct experiment *t = extra_p_read(FIX "weak.txt", &err), *j = extra_p_read(FIX "weak.json", &err),
			  *l = extra_p_read(FIX "weak.jsonl", &err), *g = extra_p_read(FIX "legacy.json", &err);
	assert_non_null(t);
	assert_non_null(j);
	assert_non_null(l);
	assert_non_null(g);
	double p = 32;
	const struct series *a = at(t, "main->solve->MPI_Allreduce", "time", p), *b = at(j, "main/solve/MPI_Allreduce", "time", p),
			    *c = at(l, "main->solve->MPI_Allreduce", "time", p), *d = at(g, "main->solve", "time", p),
			    *ref = at(t, "main->solve", "time", p);
	assert_true(a && b && c && d && ref);
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->n, c->n);
	for (size_t k = 0; k < a->n; k++) {
		assert_true(fabs(a->v[k] - b->v[k]) < 1e-9 && fabs(a->v[k] - c->v[k]) < 1e-9);
		assert_true(fabs(ref->v[k] - d->v[k]) < 1e-9);
	}
	assert_int_equal(j->callpaths.n, 5);
	assert_int_equal(g->callpaths.n, 1);
	experiment_free(t);
	experiment_free(j);
	experiment_free(l);
	experiment_free(g);
}

static void reads_two_parameters(void **state)
{
	struct model_error err;
	struct experiment *e = extra_p_read(FIX "two_params.txt", &err);
	assert_non_null(e);
	assert_int_equal(e->nparams, 2);
	assert_int_equal(e->npoints, 25);
	double pt[] = {8, 400};
	long k = experiment_find_point(e, pt);
	assert_true(k >= 0);
	const struct series *s = experiment_values(e, (size_t)experiment_find_callpath(e, "kernel"), 0, (size_t)k);
	assert_true(fabs(s->v[0] - (1 + 0.01 * 400 * 3)) < 1e-9);
	experiment_free(e);
}

static void writer_round_trips(void **state)
{
	struct model_error err;
	struct experiment *e = extra_p_read(FIX "two_params.txt", &err);
	char path[] = "/tmp/ladder-model-io-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(extra_p_write_json(path, e, NULL, &err), 0);
	struct experiment *back = extra_p_read(path, &err);
	assert_non_null(back);
	assert_int_equal(back->npoints, e->npoints);
	assert_int_equal(back->callpaths.n, e->callpaths.n);
	for (size_t c = 0; c < e->callpaths.n; c++)
		for (size_t p = 0; p < e->npoints; p++) {
			const struct series *a = experiment_values(e, c, 0, p);
			long bp = experiment_find_point(back, experiment_point(e, p));
			long bc = experiment_find_callpath(back, experiment_callpath(e, c));
			const struct series *b = experiment_values(back, (size_t)bc, 0, (size_t)bp);
			assert_int_equal(a->n, b->n);
			for (size_t r = 0; r < a->n; r++)
				assert_true(a->v[r] == b->v[r]);
		}
	unlink(path);
	experiment_free(back);
	experiment_free(e);
}

/* write text to a temporary file and read it; returns the error message (static) or NULL */
static const char *read_error(const char *suffix, const char *text)
{
	static struct model_error err;
	char path[64];
	snprintf(path, sizeof path, "/tmp/ladder-model-io-XXXXXX%s", suffix);
	int fd = mkstemps(path, (int)strlen(suffix));
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	struct experiment *e = extra_p_read(path, &err);
	unlink(path);
	if (e) {
		experiment_free(e);
		return NULL;
	}
	/* drop the temporary name: "PATH:LINE: msg" -> ":LINE: msg" */
	return strstr(err.msg, ".txt") ? strstr(err.msg, ".txt") + 4 : strstr(err.msg, ".json") ? strstr(err.msg, ".json") + 5 : err.msg;
}

static void refuses_bad_text(void **state)
{
	const char *head = "PARAMETER p\nPOINTS 2 4 8 16 32\n";
	char buf[512];
	snprintf(buf, sizeof buf, "%sREGION main/x\nMETRIC time\nDATA 1\nDATA 2\nDATA nan\nDATA 4\nDATA 5\n", head);
	assert_string_equal(read_error(".txt", buf), ":7: region 'main/x', metric 'time', point (p=8): NaN value");
	snprintf(buf, sizeof buf, "%sREGION main/x\nMETRIC time\nDATA 1\nDATA -2\n", head);
	assert_string_equal(read_error(".txt", buf), ":6: region 'main/x', metric 'time', point (p=4): negative value -2");
	snprintf(buf, sizeof buf, "%sREGION main/x\nMETRIC time\nDATA 1\nDATA 2\nREGION main/y\n", head);
	assert_string_equal(read_error(".txt", buf), ":4: region 'main/x', metric 'time' has 2 DATA lines for 5 POINTS");
	assert_string_equal(read_error(".txt", "PARAMETER p\nPOINTS (2) (4 8)\n"),
			    ":2: point (4 8) has 2 values but there is 1 parameter");
	assert_string_equal(read_error(".txt", "PARAMETER p n\nPOINTS 2 4\n"),
			    ":2: with 2 parameters, POINTS must group coordinates in parentheses: (4 100) (8 100)");
	assert_string_equal(read_error(".txt", "PARAMETER p\nPOINTS 2 4 2\n"), ":2: point (2) is listed twice");
	assert_string_equal(read_error(".txt", "PARAMETER p\nREGION a\nDATA 1\n"), ":3: DATA before POINTS");
	assert_string_equal(read_error(".txt", "PARAMETER p\nPOINTS 1 2\nBOGUS\n"),
			    ":3: unknown line 'BOGUS' (expected PARAMETER, POINTS, REGION, METRIC, DATA or a # comment)");
	snprintf(buf, sizeof buf, "%sREGION a\nDATA 1\nDATA 2\nDATA 3\nDATA 4\nDATA 5\nDATA 6\n", head);
	assert_string_equal(read_error(".txt", buf), ":9: region 'a', metric '<default>': more DATA lines than the 5 POINTS");
}

static void refuses_bad_json(void **state)
{
	assert_string_equal(read_error(".json", "{\"parameters\": [\"p\"], \"measurements\": {\"a\": {\"time\": "
						"[{\"point\": [2], \"values\": [1, -3]}]}}}"),
			    ": call path 'a', metric 'time', point (p=2): value 2 is negative");
	assert_string_equal(read_error(".json", "{\"parameters\": [\"p\", \"n\"], \"measurements\": {\"a\": {\"time\": "
						"[{\"point\": [2], \"values\": [1]}]}}}"),
			    ": call path 'a', metric 'time', measurement 1: the point has a different number of "
			    "coordinates than there are parameters");
	assert_non_null(strstr(read_error(".json", "{\"parameters\": [\"p\"],"), ":1:"));
	assert_string_equal(read_error(".json", "{\"params\": {\"p\": 2}, \"value\": 1}\n{\"params\": {\"q\": 4}, \"value\": 2}\n"),
			    ":2: unknown parameter 'q'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_the_text_format),
		cmocka_unit_test(json_forms_agree_with_text),
		cmocka_unit_test(reads_two_parameters),
		cmocka_unit_test(writer_round_trips),
		cmocka_unit_test(refuses_bad_text),
		cmocka_unit_test(refuses_bad_json),
	};
	return cmocka_run_group_tests_name("model_io", tests, NULL, NULL);
}
