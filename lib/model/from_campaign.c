/*
 * from_campaign — build an experiment from a campaign container's runs. See from_campaign.h.
 */
#include "model/from_campaign.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/run.h"
#include "store/campaign_h5.h"
#include "store/store.h"
#include "util/xalloc.h"

static const char *const reduction_names[] = {"max", "min", "mean", "median", "sum"};

bool rank_reduction_parse(const char *s, enum rank_reduction *out)
{
	for (int i = 0; i < 5; i++)
		if (!strcmp(s, reduction_names[i])) {
			*out = (enum rank_reduction)i;
			return true;
		}
	return false;
}

const char *rank_reduction_name(enum rank_reduction r) { return reduction_names[r]; }

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* reduce one count metric of one call path over the ranks that visited it */
static double reduce_counts(const struct run *r, uint32_t node, int metric, enum rank_reduction how, double *tmp)
{
	uint32_t n = 0;
	for (uint32_t q = 0; q < r->nranks; q++) {
		const uint64_t *c = r->counts + ((size_t)q * r->nnodes + node) * RUN_PC_COUNT;
		if (c[RUN_PC_VISITS])
			tmp[n++] = (double)c[metric];
	}
	if (!n)
		return 0;
	double s = 0, mn = tmp[0], mx = tmp[0];
	for (uint32_t i = 0; i < n; i++) {
		s += tmp[i];
		mn = fmin(mn, tmp[i]);
		mx = fmax(mx, tmp[i]);
	}
	switch (how) {
	case REDUCE_MAX: return mx;
	case REDUCE_MIN: return mn;
	case REDUCE_MEAN: return s / n;
	case REDUCE_SUM: return s;
	case REDUCE_MEDIAN:
		qsort(tmp, n, sizeof *tmp, cmp_double);
		return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
	}
	return 0;
}

static double reduce_time(const struct run *r, uint32_t node, enum rank_reduction how)
{
	const double *st = r->time_stats + (size_t)node * RUN_STAT_COUNT;
	switch (how) {
	case REDUCE_MAX: return st[RUN_STAT_MAX];
	case REDUCE_MIN: return st[RUN_STAT_MIN];
	case REDUCE_MEAN: return st[RUN_STAT_MEAN];
	case REDUCE_MEDIAN: return st[RUN_STAT_MEDIAN];
	case REDUCE_SUM: return st[RUN_STAT_SUM];
	}
	return 0;
}

static char *path_of(const struct run *r, uint32_t i)
{
	if (r->nodes[i].parent < 0)
		return xstrdup(r->nodes[i].name);
	char *parent = path_of(r, (uint32_t)r->nodes[i].parent);
	char *s = xasprintf("%s/%s", parent, r->nodes[i].name);
	free(parent);
	return s;
}

struct experiment *experiment_from_campaign(const char *path, const char *params, enum rank_reduction reduce,
					    struct model_error *err)
{
	bool with_size;
	if (!strcmp(params, "p"))
		with_size = false;
	else if (!strcmp(params, "p,n"))
		with_size = true;
	else {
		model_error_set(err, "--params expects p or p,n, got '%s'", params);
		return NULL;
	}
	struct campaign_run *runs;
	uint32_t nruns;
	struct h5_err he;
	if (!campaign_read_runs(path, &runs, &nruns, &he)) {
		model_error_set(err, "%s", he.msg);
		return NULL;
	}
	struct experiment *e = experiment_new();
	experiment_add_parameter(e, "p", err);
	if (with_size)
		experiment_add_parameter(e, "n", err);
	size_t mtime = experiment_intern_metric(e, "time");
	size_t mcount[RUN_PC_COUNT];
	for (int k = 0; k < RUN_PC_COUNT; k++)
		mcount[k] = experiment_intern_metric(e, run_count_names[k]);
	bool ok = true;
	for (uint32_t i = 0; i < nruns && ok; i++) {
		char *rp = campaign_run_path(path, &runs[i]);
		struct run r;
		if (!store_read_run(rp, &r, &he)) {
			model_error_set(err, "%s (run %s of %s)", he.msg, runs[i].link, path);
			free(rp);
			ok = false;
			break;
		}
		double coords[2] = {r.nranks, 0};
		if (with_size) {
			char *end;
			coords[1] = strtod(runs[i].size, &end);
			if (!runs[i].size[0] || *end || !(coords[1] > 0)) {
				model_error_set(err, "%s: run %s has problem size '%s'; --params p,n needs a positive number "
						"(the runs' 'size' label)", path, runs[i].link, runs[i].size);
				ok = false;
			}
		}
		size_t pt = experiment_intern_point(e, coords);
		double *tmp = xmalloc((r.nranks + 1) * sizeof *tmp);
		for (uint32_t node = 0; node < r.nnodes && ok; node++) {
			char *cp_name = path_of(&r, node);
			size_t cp = experiment_intern_callpath(e, cp_name);
			free(cp_name);
			double t = reduce_time(&r, node, reduce);
			experiment_add_values(e, cp, mtime, pt, &t, 1);
			for (int k = 0; k < RUN_PC_COUNT; k++) {
				double v = reduce_counts(&r, node, k, reduce, tmp);
				experiment_add_values(e, cp, mcount[k], pt, &v, 1);
			}
		}
		free(tmp);
		run_free(&r);
		free(rp);
	}
	campaign_runs_free(runs, nruns);
	if (!ok) {
		experiment_free(e);
		return NULL;
	}
	return e;
}
