/*
 * gather — everything a report says about one campaign, read from its containers: models and
 * their settings, the measured ladder, the validation at every target, the model predictions
 * against the truth at the models' target, the kernel ranking there, and the figures. See
 * report.h.
 */
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glob.h>
#include <jansson.h>

#include "model/from_campaign.h"
#include "model/modeler.h"
#include "report/accuracy.h"
#include "model/models_format.h"
#include "store/campaign_h5.h"
#include "report/report.h"
#include "report/validation.h"
#include "store/h5.h"
#include "store/peek.h"
#include "store/store.h"
#include "util/xalloc.h"

static struct report_target *target_of(struct report *r, long ranks)
{
	for (size_t i = 0; i < r->ntargets; i++)
		if (r->targets[i].ranks == ranks)
			return &r->targets[i];
	r->targets = xrealloc(r->targets, (r->ntargets + 1) * sizeof *r->targets);
	target_init(&r->targets[r->ntargets], ranks);
	return &r->targets[r->ntargets++];
}

/* the rank count a timing report (replay, proxy, ladder time) names inside, 0 when it cannot be
 * read (the error comes later) */
static long ranks_of_json(const char *path)
{
	json_t *root = json_load_file(path, 0, NULL);
	json_t *ranks = json_object_get(root, "ranks");
	long n = json_is_integer(ranks) ? (long)json_integer_value(ranks) : 0;
	json_decref(root);
	return n;
}

/* target scales: given, the models' target, and every p<P> directory of the validation stages */
static void collect_targets(struct report *r, const struct report_inputs *in, const char *dir)
{
	for (size_t i = 0; i < in->ntargets; i++)
		target_of(r, in->targets[i]);
	if (r->model_target)
		target_of(r, r->model_target);
	const char *stages[] = {"truth", "extrap", "replay", "proxy"};
	for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++) {
		char *pat = xasprintf("%s/%s/p*", dir, stages[s]);
		glob_t g;
		if (glob(pat, GLOB_ONLYDIR, NULL, &g) == 0)
			for (size_t i = 0; i < g.gl_pathc; i++) {
				const char *base = strrchr(g.gl_pathv[i], '/') + 2;
				char *end;
				long p = strtol(base, &end, 10);
				if (!*end && p > 0)
					target_of(r, p);
			}
		globfree(&g);
		free(pat);
	}
	for (size_t i = 0; i < in->ntruth; i++) {
		struct report_target *t = target_of(r, store_peek_ranks(in->truth[i]));
		t->truth = xrealloc(t->truth, (t->ntruth + 1) * sizeof *t->truth);
		t->truth[t->ntruth++] = xstrdup(in->truth[i]);
	}
	for (size_t i = 0; i < in->ntimed; i++) {
		struct report_target *t = target_of(r, ranks_of_json(in->timed[i]));
		t->timed = xrealloc(t->timed, (t->ntimed + 1) * sizeof *t->timed);
		t->timed[t->ntimed++] = xstrdup(in->timed[i]);
	}
	for (size_t i = 0; i < in->nextrap; i++) {
		struct report_target *t = target_of(r, store_peek_ranks(in->extrap[i]));
		free(t->extrap);
		t->extrap = xstrdup(in->extrap[i]);
	}
	for (size_t i = 0; i < in->nreplay; i++) {
		struct report_target *t = target_of(r, ranks_of_json(in->replay[i]));
		t->replay_inputs = xrealloc(t->replay_inputs, (t->nreplay_inputs + 1) * sizeof *t->replay_inputs);
		t->replay_inputs[t->nreplay_inputs++] = xstrdup(in->replay[i]);
	}
	for (size_t i = 0; i < in->nproxy; i++) {
		struct report_target *t = target_of(r, ranks_of_json(in->proxy[i]));
		t->proxy_inputs = xrealloc(t->proxy_inputs, (t->nproxy_inputs + 1) * sizeof *t->proxy_inputs);
		t->proxy_inputs[t->nproxy_inputs++] = xstrdup(in->proxy[i]);
	}
}

static bool read_campaign(struct report *r, const char *campaign, char *why, size_t whylen)
{
	struct h5_err e;
	struct store_identity id;
	if (!store_identify(campaign, &id, &e) || !store_expect(campaign, &id, "campaign", &e)) {
		snprintf(why, whylen, "%s", e.msg);
		return false;
	}
	if (!store_peek_application(campaign, &r->application, &e)) {
		snprintf(why, whylen, "%s", e.msg);
		return false;
	}
	if (!r->application)
		r->application = xstrdup("");
	struct stored_models stored;
	struct model_error me;
	if (!models_read(campaign, &stored, &me)) {
		snprintf(why, whylen, "%s", me.msg);
		return false;
	}
	const struct campaign_model *rows = stored.row;
	r->models = xcalloc(stored.n + 1, sizeof *r->models);
	for (size_t i = 0; i < stored.n; i++) {
		struct report_model *m = &r->models[r->nmodels++];
		m->callpath = xstrdup(rows[i].callpath);
		m->metric = xstrdup(rows[i].metric);
		m->status = xstrdup(rows[i].status);
		m->model = xstrdup(rows[i].model);
		m->growth = xstrdup(rows[i].growth);
		m->note = xstrdup(rows[i].note ? rows[i].note : "");
		m->supported = rows[i].supported;   /* lib/model's judgement (support.h) */
		m->prediction = rows[i].prediction;
		m->lower = rows[i].lower;
		m->upper = rows[i].upper;
		m->level = rows[i].level;
		m->measured = m->accuracy = NAN;
		m->held = -1;
	}
	r->settings = xstrdup(stored.settings);
	r->reduce = xstrdup(stored.reduce ? stored.reduce : "max");
	r->model_target = stored.target_ranks;
	stored_models_free(&stored);
	return true;
}

/* the truth runs as an experiment, reduced over ranks as the models were: merged into a
 * scratch campaign so that the values come from the same code as the ladder's */
static struct experiment *truth_experiment(const struct report_target *t, enum rank_reduction how, char *why,
					   size_t whylen)
{
	char dir[] = "/tmp/ladder-report.XXXXXX";
	if (!mkdtemp(dir)) {
		snprintf(why, whylen, "cannot create a scratch directory under /tmp");
		return NULL;
	}
	char *scratch = xasprintf("%s/truth.h5", dir);
	struct h5_err e;
	struct experiment *x = NULL;
	if (campaign_merge(scratch, t->truth, (int)t->ntruth, false, &e)) {
		struct model_error me;
		x = experiment_from_campaign(scratch, "p", how, &me);
		if (!x)
			snprintf(why, whylen, "%s", me.msg);
	} else {
		snprintf(why, whylen, "the truth runs at %ld ranks: %s", t->ranks, e.msg);
	}
	unlink(scratch);
	rmdir(dir);
	free(scratch);
	return x;
}

/* every model against the truth at the models' target */
static bool measure_models(struct report *r, char *why, size_t whylen)
{
	struct report_target *t = NULL;
	for (size_t i = 0; i < r->ntargets; i++)
		if (r->targets[i].ranks == r->model_target && r->targets[i].ntruth)
			t = &r->targets[i];
	if (!t || !r->nmodels)
		return true;
	enum rank_reduction how = REDUCE_MAX;
	rank_reduction_parse(r->reduce, &how);
	struct experiment *x = truth_experiment(t, how, why, whylen);
	if (!x)
		return false;
	double coords[1] = {(double)t->ranks};
	long pt = experiment_find_point(x, coords);
	for (size_t i = 0; i < r->nmodels && pt >= 0; i++) {
		struct report_model *m = &r->models[i];
		long cp = experiment_find_callpath(x, m->callpath), mt = experiment_find_metric(x, m->metric);
		const struct series *s = cp >= 0 && mt >= 0 ? experiment_values(x, (size_t)cp, (size_t)mt, (size_t)pt) : NULL;
		if (!s || !s->n)
			continue;
		double *v = xmalloc(s->n * sizeof *v);
		memcpy(v, s->v, s->n * sizeof *v);
		m->measured = median_of(v, s->n);
		free(v);
		m->measured_ok = true;
		m->accuracy = accuracy_of(m->prediction, m->measured);
		m->held = interval_held(m->lower, m->upper, m->measured);
	}
	experiment_free(x);
	return true;
}

bool report_model_predicts(const struct report_model *m)
{
	return (!strcmp(m->status, "ok") || !strcmp(m->status, "noisy")) && isfinite(m->prediction);
}

/* kernel ranking at the target: predicted against measured time per call path */
static void rank_kernels(struct report *r, size_t k)
{
	double *pred = xcalloc(r->nmodels + 1, sizeof *pred), *meas = xcalloc(r->nmodels + 1, sizeof *meas);
	size_t n = 0;
	for (size_t i = 0; i < r->nmodels; i++) {
		const struct report_model *m = &r->models[i];
		if (!strcmp(m->metric, "time") && report_model_predicts(m) && m->measured_ok) {
			pred[n] = m->prediction;
			meas[n++] = m->measured;
		}
	}
	r->ranked = n;
	r->k = k < n ? k : n;
	r->spearman = rank_correlation(pred, meas, n);
	r->topk = topk_agreement(pred, meas, n, k);
	free(pred);
	free(meas);
}

/* the figures of the night, with the file each comes from */
static void compute_figures(struct report *r)
{
	for (size_t i = 0; i < r->ntargets; i++) {
		const struct report_target *t = &r->targets[i];
		char *src = xasprintf("%s vs %s", t->replay ? t->replay : "(no replay)",
				      t->ntruth ? t->truth[0] : "(no truth run)");
		figures_add(&r->figs, "time", t->ranks, t->time_accuracy, src);
		free(src);
		if (t->proxy) {   /* only where the proxy ran: a campaign without the stage has no such figure */
			src = xasprintf("%s vs %s", t->proxy, t->ntruth ? t->truth[0] : "(no truth run)");
			figures_add(&r->figs, "proxy", t->ranks, t->proxy_accuracy, src);
			free(src);
		}
		src = xasprintf("%s vs %s", t->extrap ? t->extrap : "(no extrapolated trace)",
				t->ntruth ? t->truth[0] : "(no truth run)");
		figures_add(&r->figs, "events", t->ranks, t->events_equal < 0 ? NAN : t->events_equal, src);
		figures_add(&r->figs, "counts", t->ranks, t->counts_equal < 0 ? NAN : t->counts_equal, src);
		free(src);
	}
	if (!r->model_target || !r->nmodels)
		return;
	/* per metric: the accuracy of its supported predictions together (an unsupported one is shown,
	 * marked, and judged by its interval); and interval coverage over all */
	char *src = xasprintf("%s:/models/callpaths vs the truth at %ld ranks", r->campaign, r->model_target);
	double *pred = xcalloc(r->nmodels + 1, sizeof *pred), *meas = xcalloc(r->nmodels + 1, sizeof *meas);
	size_t held = 0, intervals = 0;
	for (size_t i = 0; i < r->nmodels; i++) {
		const struct report_model *m = &r->models[i];
		if (m->held >= 0 && report_model_predicts(m)) {
			intervals++;
			held += (size_t)m->held;
		}
		bool first = true;
		for (size_t j = 0; j < i; j++)
			first &= strcmp(r->models[j].metric, m->metric) != 0;
		if (!first)
			continue;
		size_t n = 0;
		for (size_t j = i; j < r->nmodels; j++)   /* the predictions the ladder supports: the model's claims */
			if (!strcmp(r->models[j].metric, m->metric) && report_model_predicts(&r->models[j]) && r->models[j].supported &&
			    r->models[j].measured_ok) {
				pred[n] = r->models[j].prediction;
				meas[n++] = r->models[j].measured;
			}
		char *name = xasprintf("model_%s", m->metric);
		figures_add(&r->figs, name, r->model_target, aggregate_accuracy(pred, meas, n), src);
		free(name);
	}
	figures_add(&r->figs, "interval", r->model_target, intervals ? (double)held / (double)intervals : NAN, src);
	figures_add(&r->figs, "ranking", r->model_target, r->spearman, src);
	figures_add(&r->figs, "topk", r->model_target, r->topk, src);
	free(pred);
	free(meas);
	free(src);
}

static int by_ranks(const void *a, const void *b)
{
	long x = ((const struct report_target *)a)->ranks, y = ((const struct report_target *)b)->ranks;
	return (x > y) - (x < y);
}

bool report_gather(const char *campaign, const struct report_inputs *in, struct report *r, char *why,
		   size_t whylen)
{
	memset(r, 0, sizeof *r);
	r->campaign = xstrdup(campaign);
	r->spearman = r->topk = NAN;
	if (!read_campaign(r, campaign, why, whylen))
		return false;
	enum rank_reduction how = REDUCE_MAX;
	rank_reduction_parse(r->reduce, &how);
	struct model_error me;
	r->ladder = experiment_from_campaign(campaign, "p", how, &me);
	if (!r->ladder) {
		snprintf(why, whylen, "%s", me.msg);
		return false;
	}
	char *copy = xstrdup(campaign);
	char *dir = xstrdup(dirname(copy));
	free(copy);
	collect_targets(r, in, dir);
	qsort(r->targets, r->ntargets, sizeof *r->targets, by_ranks);
	bool ok = true;
	for (size_t i = 0; i < r->ntargets && ok; i++)
		ok = target_validate(&r->targets[i], dir, why, whylen);
	free(dir);
	if (!ok || !measure_models(r, why, whylen))
		return false;
	rank_kernels(r, in->topk ? in->topk : 5);
	compute_figures(r);
	return true;
}

void report_free(struct report *r)
{
	free(r->campaign);
	free(r->application);
	free(r->created);
	free(r->settings);
	free(r->reduce);
	for (size_t i = 0; i < r->nmodels; i++) {
		struct report_model *m = &r->models[i];
		free(m->callpath);
		free(m->metric);
		free(m->status);
		free(m->model);
		free(m->growth);
		free(m->note);
	}
	free(r->models);
	if (r->ladder)
		experiment_free(r->ladder);
	for (size_t i = 0; i < r->ntargets; i++)
		target_free(&r->targets[i]);
	free(r->targets);
	figures_free(&r->figs);
	memset(r, 0, sizeof *r);
}
