/*
 * validation — the checks at one target scale (ScalaExtrap §5): the real application traced
 * there (truth), the extrapolated trace compared with it call by call and by counts per
 * function and rank, and the replay of the extrapolated trace and the proxy program written from
 * it timed against the application (ScalaBenchGen §5). The application's time is that of its
 * untraced runs (`ladder time`, truth/p<P>/time.json) where there are any: a traced run is slower
 * where ranks share cores, each rank's recording delaying the others on its core; else the traced
 * runs' (t_end - t_start, the tracer's own time taken off). Inputs are files next to the campaign
 * (CAMPAIGN_DIR/truth/p<P>/, extrap/p<P>/trace.h5, replay/p<P>/replay.json, proxy/p<P>/proxy.json,
 * where the campaign stages write them) or given explicitly.
 */
#include "report/validation.h"

#include <glob.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare.h"
#include "report/accuracy.h"
#include "run/summary.h"
#include "store/store.h"
#include "util/xalloc.h"

void target_init(struct report_target *t, long ranks)
{
	memset(t, 0, sizeof *t);
	t->ranks = ranks;
	t->traced_time = t->app_time = t->replay_time = t->time_accuracy = t->proxy_time = t->proxy_accuracy = NAN;
	t->extrap_calls = t->extrap_bytes = NAN;
	t->events_equal = t->counts_equal = -1;
}

void target_free(struct report_target *t)
{
	for (size_t i = 0; i < t->ntruth; i++)
		free(t->truth[i]);
	free(t->truth);
	for (size_t i = 0; i < t->ntimed; i++)
		free(t->timed[i]);
	free(t->timed);
	free(t->extrap);
	free(t->extrap_note);
	lossy_free(&t->lossy);
	for (size_t i = 0; i < t->nextrap_fns; i++)
		free(t->extrap_fns[i].name);
	free(t->extrap_fns);
	free(t->events_first_diff);
	free(t->replay);
	for (size_t i = 0; i < t->nreplay_inputs; i++)
		free(t->replay_inputs[i]);
	free(t->replay_inputs);
	for (size_t i = 0; i < t->nwhatif; i++)
		free(t->whatif[i].replay);
	free(t->whatif);
	free(t->proxy);
	for (size_t i = 0; i < t->nproxy_inputs; i++)
		free(t->proxy_inputs[i]);
	free(t->proxy_inputs);
	memset(t, 0, sizeof *t);
}

/* files of the target next to the campaign: truth/p<P>/NAME and truth/p<P>/r<K>/NAME */
static void find_truth_files(const char *dir, long ranks, const char *name, char ***files, size_t *n)
{
	const char *patterns[] = {"%s/truth/p%ld/%s", "%s/truth/p%ld/r*/%s"};
	for (size_t k = 0; k < 2; k++) {
		char *pat = xasprintf(patterns[k], dir, ranks, name);
		glob_t g;
		if (glob(pat, 0, NULL, &g) == 0)
			for (size_t i = 0; i < g.gl_pathc; i++) {
				*files = xrealloc(*files, (*n + 1) * sizeof **files);
				(*files)[(*n)++] = xstrdup(g.gl_pathv[i]);
			}
		globfree(&g);
		free(pat);
	}
}

/* a timing report of the target (ladder-replay --json, a proxy's --json, ladder time -o): the file
 * with its number FIELD, not negative, in *value and 'ranks' the target's; NULL with why filled
 * otherwise (written by: WRITERS) */
static json_t *load_timing(const char *path, long ranks, const char *field, const char *writers, double *value,
			   char *why, size_t whylen)
{
	json_error_t err;
	json_t *root = json_load_file(path, 0, &err);
	if (!root) {
		snprintf(why, whylen, "%s:%d: %s", path, err.line, err.text);
		return NULL;
	}
	json_t *v = json_object_get(root, field), *n = json_object_get(root, "ranks");
	if (!json_is_number(v) || !(json_number_value(v) >= 0) || !json_is_integer(n))
		snprintf(why, whylen, "%s: field '%s' (seconds, a number not below 0) and 'ranks' (an integer) expected, "
			 "as %s write them", path, field, writers);
	else if (json_integer_value(n) != ranks)
		snprintf(why, whylen, "%s: field 'ranks' is %lld, expected the target's %ld", path,
			 (long long)json_integer_value(n), ranks);
	else {
		*value = json_number_value(v);
		return root;
	}
	json_decref(root);
	return NULL;
}

/* the untraced runs' times (`ladder time -o`): their median in t->app_time */
static bool read_timed(struct report_target *t, char *why, size_t whylen)
{
	double *times = xcalloc(t->ntimed + 1, sizeof *times);
	bool ok = true;
	for (size_t i = 0; i < t->ntimed && ok; i++) {
		json_t *root = load_timing(t->timed[i], t->ranks, "time", "ladder time -o", &times[i], why, whylen);
		ok = root != NULL;
		json_decref(root);
	}
	if (ok && t->ntimed)
		t->app_time = median_of(times, t->ntimed);
	free(times);
	return ok;
}

/* the application's time in each truth run; the first truth run read into *first (for compare) */
static bool read_truth(struct report_target *t, struct run *first, char *why, size_t whylen)
{
	double *times = xcalloc(t->ntruth + 1, sizeof *times);
	bool ok = true;
	for (size_t i = 0; i < t->ntruth && ok; i++) {
		struct run r;
		struct h5_err e;
		if (!store_read_run(t->truth[i], &r, &e)) {
			snprintf(why, whylen, "%s", e.msg);
			ok = false;
			break;
		}
		if ((long)r.nranks != t->ranks) {
			snprintf(why, whylen, "%s: the truth run has %u ranks, expected the target's %ld", t->truth[i],
				 r.nranks, t->ranks);
			ok = false;
		}
		times[i] = r.t_end - r.t_start;
		if (i == 0)
			*first = r;
		else
			run_free(&r);
	}
	if (ok)
		t->traced_time = median_of(times, t->ntruth);
	else if (t->ntruth && first->nranks)
		run_free(first);
	free(times);
	return ok;
}

static int by_calls_desc(const void *a, const void *b)
{
	double x = ((const struct report_fn_count *)a)->calls, y = ((const struct report_fn_count *)b)->calls;
	return (x < y) - (x > y);
}

/* what the extrapolated trace makes per rank: calls and bytes sent per function (its profile),
 * the mean over ranks */
static void count_extrapolated(struct report_target *t, const struct run *x)
{
	if (!x->nnodes || !x->nranks)
		return;
	struct fn_count *c;
	uint32_t n = run_function_counts(x, -1, &c);
	t->extrap_fns = xcalloc(n + 1, sizeof *t->extrap_fns);
	t->extrap_calls = t->extrap_bytes = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct report_fn_count *f = &t->extrap_fns[t->nextrap_fns++];
		f->name = xstrdup(c[i].name);
		f->calls = c[i].calls / x->nranks;
		f->bytes = c[i].bytes_sent / x->nranks;
		t->extrap_calls += f->calls;
		t->extrap_bytes += f->bytes;
	}
	free(c);
	qsort(t->extrap_fns, t->nextrap_fns, sizeof *t->extrap_fns, by_calls_desc);
}

/* the extrapolated trace against the first truth run: calls per rank, then counts */
static void check_events(struct report_target *t, const struct run *truth)
{
	struct run x;
	struct h5_err e;
	if (!store_read_run(t->extrap, &x, &e)) {
		t->extrap_note = xstrdup(e.msg);
		return;
	}
	t->extrap_synthetic = x.synthetic;
	lossy_from_labels(x.labels, x.nlabels, &t->lossy);
	count_extrapolated(t, &x);
	if (!truth)
		goto out;
	struct cmp_result res;
	t->events_equal = compare_runs(&x, truth, 1, CMP_TYPES_EXACT, &res);
	t->events_ranks_differ = res.ndiffs;
	if (res.header)
		t->events_first_diff = xstrdup(res.header);
	else if (res.kept)
		t->events_first_diff = xasprintf("rank %u, call %llu: %s (extrapolated: %s; measured: %s)",
						 res.diffs[0].rank, (unsigned long long)res.diffs[0].a_call,
						 res.diffs[0].why ? res.diffs[0].why : "differs",
						 res.diffs[0].a_line ? res.diffs[0].a_line : "none",
						 res.diffs[0].b_line ? res.diffs[0].b_line : "none");
	cmp_result_free(&res);
	t->counts_equal = compare_counts(&x, truth, 1, &res);
	t->counts_differ = res.ndiffs;
	if (res.header && t->counts_equal == 0 && res.ndiffs == 0)
		t->counts_equal = -1; /* a run without a profile: not checked */
	cmp_result_free(&res);
out:
	run_free(&x);
}

/* one timing report (ladder-replay --json, a proxy's --json): its rank count, total time and
 * what-if scales */
static bool read_replay(const char *path, long ranks, struct report_whatif *out, char *why, size_t whylen)
{
	double total;
	json_t *root = load_timing(path, ranks, "total_time", "ladder-replay --json and a proxy's --json", &total, why,
				   whylen);
	if (!root)
		return false;
	json_t *opts = json_object_get(root, "options");
	json_t *cs = json_object_get(opts, "compute_scale"), *ms = json_object_get(opts, "message_scale");
	out->replay = xstrdup(path);
	out->time = total;
	out->compute_scale = json_is_number(cs) ? json_number_value(cs) : 1;
	out->message_scale = json_is_number(ms) ? json_number_value(ms) : 1;
	if (json_is_true(json_object_get(opts, "no_compute")))
		out->compute_scale = 0;
	json_decref(root);
	return true;
}

/* the timing reports of the target: FILE in every stage's directory (DIR/STAGE/p<P>/FILE) after
 * the given ones; the first as recorded (scales 1) in *recorded, the others in *others (when
 * given, else dropped) */
static bool read_timings(struct report_target *t, const char *dir, const char *file, char *const *given,
			 size_t ngiven, struct report_whatif *recorded, struct report_whatif **others, size_t *nothers,
			 char *why, size_t whylen)
{
	char *pat = xasprintf("%s/*/p%ld/%s", dir, t->ranks, file);
	glob_t g;
	int found = glob(pat, 0, NULL, &g);
	free(pat);
	size_t n = ngiven + (found == 0 ? g.gl_pathc : 0);
	char **paths = xcalloc(n + 1, sizeof *paths);
	size_t k = 0;
	for (size_t i = 0; i < ngiven; i++)
		paths[k++] = xstrdup(given[i]);
	for (size_t i = 0; found == 0 && i < g.gl_pathc; i++)
		paths[k++] = xstrdup(g.gl_pathv[i]);
	if (found == 0)
		globfree(&g);
	bool ok = true;
	for (size_t i = 0; i < n && ok; i++) {
		struct report_whatif w;
		if (!(ok = read_replay(paths[i], t->ranks, &w, why, whylen)))
			break;
		if (w.compute_scale == 1 && w.message_scale == 1 && !recorded->replay) {
			*recorded = w;
		} else if (w.compute_scale == 1 && w.message_scale == 1) {
			free(w.replay);   /* the same report found twice (given and next to the campaign) */
		} else if (others) {
			*others = xrealloc(*others, (*nothers + 1) * sizeof **others);
			(*others)[(*nothers)++] = w;
		} else {
			free(w.replay);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return ok;
}

/* the replay as recorded times the target, the others are what-if rows; the proxy as recorded */
static bool read_replays_and_proxy(struct report_target *t, const char *dir, char *why, size_t whylen)
{
	struct report_whatif replay = {.time = NAN}, proxy = {.time = NAN};
	bool ok = read_timings(t, dir, "replay.json", t->replay_inputs, t->nreplay_inputs, &replay, &t->whatif,
			       &t->nwhatif, why, whylen) &&
		  read_timings(t, dir, "proxy.json", t->proxy_inputs, t->nproxy_inputs, &proxy, NULL, NULL, why, whylen);
	t->replay = replay.replay;
	t->replay_time = replay.time;
	t->proxy = proxy.replay;
	t->proxy_time = proxy.time;
	return ok;
}

bool target_validate(struct report_target *t, const char *dir, char *why, size_t whylen)
{
	if (!t->ntruth)
		find_truth_files(dir, t->ranks, "trace.h5", &t->truth, &t->ntruth);
	if (!t->ntimed)
		find_truth_files(dir, t->ranks, "time.json", &t->timed, &t->ntimed);
	if (!t->extrap) {
		char *p = xasprintf("%s/extrap/p%ld/trace.h5", dir, t->ranks);
		if (access(p, R_OK) == 0)
			t->extrap = p;
		else
			free(p);
	}
	struct run truth;
	memset(&truth, 0, sizeof truth);
	bool have_truth = false;
	if (t->ntruth) {
		if (!read_truth(t, &truth, why, whylen))
			return false;
		have_truth = true;
	}
	if (!read_timed(t, why, whylen)) {
		if (have_truth)
			run_free(&truth);
		return false;
	}
	if (!t->ntimed)
		t->app_time = t->traced_time;
	if (t->extrap)
		check_events(t, have_truth ? &truth : NULL);
	else
		t->extrap_note = xasprintf("no extrapolated trace at %ld ranks (looked for %s/extrap/p%ld/trace.h5)",
					   t->ranks, dir, t->ranks);
	if (have_truth)
		run_free(&truth);
	if (!read_replays_and_proxy(t, dir, why, whylen))
		return false;
	t->time_accuracy = accuracy_of(t->replay_time, t->app_time);
	t->proxy_accuracy = accuracy_of(t->proxy_time, t->app_time);
	return true;
}
