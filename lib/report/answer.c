/*
 * answer — the prediction, its accuracy and the verdict in words. See answer.h.
 */
#include "report/answer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void strings_free(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

static void push(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof **v);
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

const char *fmt_count(double x, char *buf, size_t len)
{
	if (!isfinite(x))
		snprintf(buf, len, "-");
	else if (fabs(x) >= 1e9)
		snprintf(buf, len, "%.3g G", x / 1e9);
	else if (fabs(x) >= 1e6)
		snprintf(buf, len, "%.3g M", x / 1e6);
	else if (fabs(x) >= 1e4)
		snprintf(buf, len, "%.3g k", x / 1e3);
	else
		snprintf(buf, len, "%.4g", x);
	return buf;
}

const char *fmt_bytes(double x, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	if (!isfinite(x)) {
		snprintf(buf, len, "-");
		return buf;
	}
	size_t u = 0;
	while (fabs(x) >= 1024 && u + 1 < sizeof unit / sizeof unit[0]) {
		x /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.3g %s" : "%.0f %s", x, unit[u]);
	return buf;
}

static const struct report_target *target_at(const struct report *r, long ranks)
{
	for (size_t i = 0; i < r->ntargets; i++)
		if (r->targets[i].ranks == ranks)
			return &r->targets[i];
	return NULL;
}

static const char *function_of(const char *callpath)
{
	const char *slash = strrchr(callpath, '/');
	return slash ? slash + 1 : callpath;
}

/* the models' calls and bytes per rank: visits and bytes_sent summed over call paths, per function */
static void counts_from_models(const struct report *r, struct answer *a)
{
	struct answer_count all[64];
	size_t n = 0;
	a->calls = a->bytes = NAN;
	for (size_t i = 0; i < r->nmodels; i++) {
		const struct report_model *m = &r->models[i];
		bool visits = !strcmp(m->metric, "visits"), bytes = !strcmp(m->metric, "bytes_sent");
		if ((!visits && !bytes) || !isfinite(m->prediction))
			continue;
		double *total = visits ? &a->calls : &a->bytes;
		*total = (isnan(*total) ? 0 : *total) + m->prediction;
		const char *fn = function_of(m->callpath);
		if (strncmp(fn, "MPI_", 4))
			continue;
		size_t k = 0;
		while (k < n && strcmp(all[k].name, fn))
			k++;
		if (k == n && n < sizeof all / sizeof all[0])
			all[n++] = (struct answer_count){fn, 0, 0};
		if (k < n)
			*(visits ? &all[k].calls : &all[k].bytes) += m->prediction;
	}
	for (size_t i = 0; i < n; i++)   /* most calls first */
		for (size_t j = i + 1; j < n; j++)
			if (all[j].calls > all[i].calls) {
				struct answer_count t = all[i];
				all[i] = all[j];
				all[j] = t;
			}
	a->nfns = n < ANSWER_FUNCTIONS ? n : ANSWER_FUNCTIONS;
	memcpy(a->fns, all, a->nfns * sizeof *a->fns);
}

void answer_of(const struct report *r, struct answer *a)
{
	memset(a, 0, sizeof *a);
	a->ranks = r->model_target;
	if (!a->ranks && r->ntargets)
		a->ranks = r->targets[r->ntargets - 1].ranks;
	a->target = target_at(r, a->ranks);
	const struct report_target *t = a->target;
	if (t && t->extrap && isfinite(t->extrap_calls)) {
		a->counts_from_trace = true;
		a->calls = t->extrap_calls;
		a->bytes = t->extrap_bytes;
		for (size_t i = 0; i < t->nextrap_fns && a->nfns < ANSWER_FUNCTIONS; i++)
			a->fns[a->nfns++] = (struct answer_count){t->extrap_fns[i].name, t->extrap_fns[i].calls,
								   t->extrap_fns[i].bytes};
	} else {
		counts_from_models(r, a);
	}
	a->time = a->lower = a->upper = NAN;
	a->time_supported = true;
	for (size_t i = 0; i < r->nmodels; i++) {
		const struct report_model *m = &r->models[i];
		if (strcmp(m->metric, "time") || !isfinite(m->prediction))
			continue;
		if (isnan(a->time))
			a->time = a->lower = a->upper = 0;
		a->time += m->prediction;
		a->lower += isfinite(m->lower) ? m->lower : m->prediction;
		a->upper += isfinite(m->upper) ? m->upper : m->prediction;
		size_t k = a->nkernels < ANSWER_KERNELS ? a->nkernels++ : ANSWER_KERNELS - 1;
		if (k == ANSWER_KERNELS - 1 && a->kernels[k] && a->kernels[k]->prediction >= m->prediction)
			continue;
		a->kernels[k] = m;
		for (; k > 0 && a->kernels[k - 1]->prediction < a->kernels[k]->prediction; k--) {
			const struct report_model *x = a->kernels[k - 1];
			a->kernels[k - 1] = a->kernels[k];
			a->kernels[k] = x;
		}
	}
	for (size_t i = 0; i < r->nmodels; i++) {   /* a term of 1% or more that the ladder does not support */
		const struct report_model *m = &r->models[i];
		if (!strcmp(m->metric, "time") && isfinite(m->prediction) && m->prediction >= 0.01 * a->time &&
		    !m->supported)
			a->time_supported = false;
	}
}

static double pct(double x)
{
	return 100 * x;
}

char **answer_prediction(const struct report *r, const struct answer *a)
{
	char **v = NULL, c[32], b[32], lo[32], hi[32];
	size_t n = 0;
	if (!a->ranks) {
		push(&v, &n, xstrdup("The report has no target scale: the campaign has no models and nothing ran at a target."));
		return v;
	}
	if (isfinite(a->calls)) {
		char *s = xasprintf("At %ld ranks the application is predicted to make %s MPI calls and send %s per rank",
				    a->ranks, fmt_count(a->calls, c, sizeof c), fmt_bytes(a->bytes, b, sizeof b));
		for (size_t i = 0; i < a->nfns; i++) {
			char *t = xasprintf("%s%s %s %s calls, %s", s, i ? ";" : ":", a->fns[i].name,
					    fmt_count(a->fns[i].calls, c, sizeof c), fmt_bytes(a->fns[i].bytes, b, sizeof b));
			free(s);
			s = t;
		}
		char *t = xasprintf("%s (%s).", s, a->counts_from_trace
			? "the counts of the extrapolated trace at the target, the prediction where one exists"
			: "the counts of the models, the busiest rank of every call path");
		free(s);
		push(&v, &n, t);
	} else {
		push(&v, &n, xasprintf("At %ld ranks no count is predicted: neither an extrapolated trace nor count models.",
				       a->ranks));
	}
	if (isfinite(a->time)) {
		char t[32];
		snprintf(t, sizeof t, "%.3g", a->time);
		snprintf(lo, sizeof lo, "%.3g", a->lower);
		snprintf(hi, sizeof hi, "%.3g", a->upper);
		char *s = xasprintf("Its MPI and compute time per rank is predicted at %s s (interval %s to %s s, the sum of "
				    "the call paths' models%s)", t, lo, hi,
				    a->time_supported ? "" : "; NOT SUPPORTED by the ladder: see the models' notes");
		for (size_t i = 0; i < a->nkernels; i++) {
			const struct report_model *m = a->kernels[i];
			char *x = xasprintf("%s%s %s %.3g s (%.0f%%%s)", s, i ? "," : ", dominated by", m->callpath,
					    m->prediction, a->time > 0 ? pct(m->prediction / a->time) : 0,
					    m->supported ? "" : ", unsupported");
			free(s);
			s = x;
		}
		char *x = xasprintf("%s.", s);
		free(s);
		push(&v, &n, x);
	}
	const struct report_target *t = a->target;
	if (t && isfinite(t->replay_time))
		push(&v, &n, xasprintf("The replay of the extrapolated trace takes %.3g s at %ld ranks.", t->replay_time,
				       t->ranks));
	return v;
}

/* "6% longer", "2% shorter", "exactly as long" */
static char *longer_shorter(double predicted, double measured)
{
	double d = (predicted - measured) / measured;
	if (fabs(d) < 0.005)
		return xstrdup("as long as (within 0.5%)");
	return xasprintf("%.0f%% %s than", pct(fabs(d)), d > 0 ? "longer" : "shorter");
}

static char *figure_sentence(const struct report *r, const struct figure *g)
{
	const struct report_target *t = target_at(r, g->target);
	long p = g->target;
	if (!strcmp(g->name, "events")) {
		if (isnan(g->value))
			return xasprintf("Events at %ld ranks were not compared: %s.", p,
					 t && !t->extrap ? "there is no extrapolated trace" : "there is no real run to compare with");
		if (g->value == 1)
			return xasprintf("The extrapolated trace is call-for-call the real %ld-rank run.", p);
		return xasprintf("The extrapolated trace differs from the real %ld-rank run on %u rank%s.", p,
				 t ? t->events_ranks_differ : 0, t && t->events_ranks_differ == 1 ? "" : "s");
	}
	if (!strcmp(g->name, "counts")) {
		if (isnan(g->value))
			return xasprintf("Calls and bytes per function and rank at %ld ranks were not compared.", p);
		if (g->value == 1)
			return xasprintf("Its calls and bytes per function and rank equal the real %ld-rank run's.", p);
		return xasprintf("Its calls and bytes differ from the real %ld-rank run's in %u function and rank pair%s.", p,
				 t ? t->counts_differ : 0, t && t->counts_differ == 1 ? "" : "s");
	}
	if (!strcmp(g->name, "time") || !strcmp(g->name, "proxy")) {
		bool replay = !strcmp(g->name, "time");
		double x = !t ? NAN : replay ? t->replay_time : t->proxy_time;
		const char *what = replay ? "the replay of the extrapolated trace" : "the proxy program";
		if (isnan(g->value) || !t)
			return xasprintf("No %s accuracy at %ld ranks: %s.", replay ? "replay" : "proxy", p,
					 t && isnan(x) ? (replay ? "no replay ran there" : "the proxy did not run there")
						       : "the application's time there is unknown");
		char *ls = longer_shorter(x, t->app_time);
		char *s = xasprintf("At %ld ranks %s ran %s the application (%.3g s against %.3g s %s; accuracy %.3f).", p, what,
				    ls, x, t->app_time, t->ntimed ? "untraced" : "traced", g->value);
		free(ls);
		return s;
	}
	if (!strncmp(g->name, "model_", 6)) {
		size_t measured = 0, supported = 0;   /* the call paths the figure could and did judge */
		for (size_t i = 0; i < r->nmodels; i++) {
			const struct report_model *m = &r->models[i];
			if (!strcmp(m->metric, g->name + 6) && report_model_predicts(m) && m->measured_ok) {
				measured++;
				supported += m->supported;
			}
		}
		if (isnan(g->value) && measured && !supported)
			return xasprintf("The %s models were not judged at %ld ranks: the ladder supports none of their %zu "
					 "predictions there.", g->name + 6, p, measured);
		if (isnan(g->value))
			return xasprintf("The %s models could not be checked at %ld ranks (no measurement there).", g->name + 6, p);
		return xasprintf("The %s models at %ld ranks were off by %.1f%% of the measured total (accuracy %.3f; the "
				 "%zu of %zu call paths whose prediction the ladder supports).",
				 g->name + 6, p, pct(1 - g->value), g->value, supported, measured);
	}
	if (!strcmp(g->name, "interval")) {
		if (isnan(g->value))
			return xasprintf("No prediction interval could be checked at %ld ranks.", p);
		return xasprintf("%.0f%% of the prediction intervals held the measured value at %ld ranks.", pct(g->value), p);
	}
	if (!strcmp(g->name, "ranking")) {
		if (isnan(g->value))
			return xasprintf("The kernel ranking could not be checked at %ld ranks.", p);
		return xasprintf("The predicted ranking of kernels by time correlates %.2f with the measured one (Spearman, "
				 "%zu call paths).", g->value, r->ranked);
	}
	if (!strcmp(g->name, "topk")) {
		if (isnan(g->value))
			return xasprintf("The top kernels could not be checked at %ld ranks.", p);
		return xasprintf("%.0f of the measured top %zu kernels are among the predicted top %zu.",
				 g->value * (double)r->k, r->k, r->k);
	}
	return xasprintf("%s at %ld ranks: %.3g.", g->name, p, g->value);
}

char **answer_accuracy(const struct report *r)
{
	char **v = NULL;
	size_t n = 0;
	for (size_t i = 0; i < r->figs.n; i++)
		push(&v, &n, figure_sentence(r, &r->figs.v[i]));
	if (!v)
		push(&v, &n, xstrdup("Nothing was measured to compare with."));
	return v;
}

char *answer_lossy(const struct report_target *t)
{
	const struct lossy *l = &t->lossy;
	if (!l->lossy)
		return NULL;
	if (!l->has_share)
		return xasprintf("The extrapolation at %ld ranks is lossy and its kept share is unknown (%s).", t->ranks,
				 l->problem);
	char c[32], b[32];
	char *s = xasprintf("The extrapolation at %ld ranks is lossy: it keeps %.1f%% of the %s expected calls and %.1f%% of "
			    "the %s expected bytes", t->ranks, pct(l->kept_calls_share), fmt_count((double)l->expected_calls, c, sizeof c),
			    pct(l->kept_bytes_share), fmt_bytes((double)l->expected_bytes, b, sizeof b));
	for (size_t i = 0; i < l->nfns; i++) {
		const struct lossy_function *f = &l->fns[i];
		char *x = xasprintf("%s%s %s %.1f%% of calls, %.1f%% of bytes", s, i ? ";" : ":", f->name,
				    f->expected_calls ? pct((double)f->kept_calls / (double)f->expected_calls) : 100.0,
				    f->expected_bytes ? pct((double)f->kept_bytes / (double)f->expected_bytes) : 100.0);
		free(s);
		s = x;
	}
	char *x = xasprintf("%s.", s);
	free(s);
	return x;
}

enum report_state report_judge(const struct report *r, char ***reasons)
{
	char **v = NULL, a[32];
	size_t n = 0;
	enum report_state s = figures_state(&r->figs);
	for (size_t i = 0; i < r->figs.n; i++) {
		const struct figure *g = &r->figs.v[i];
		if (g->regression)
			push(&v, &n, xasprintf("%s at %ld ranks regressed: %.3g, below the median of its last nights (%.3g).",
					       g->name, g->target, g->value, g->trailing_median));
		else if (!g->held)
			push(&v, &n, xasprintf("%s at %ld ranks is %.3g, below its %sthreshold %g.", g->name, g->target, g->value,
					       g->default_threshold ? "default " : "", g->threshold));
		else if (isnan(g->value))
			push(&v, &n, xasprintf("%s at %ld ranks could not be computed.", g->name, g->target));
		else if (!g->has_threshold)
			push(&v, &n, xasprintf("%s at %ld ranks has no threshold (%s=none).", g->name, g->target, g->name));
	}
	for (size_t i = 0; i < r->ntargets; i++) {
		const struct report_target *t = &r->targets[i];
		if (t->events_equal == 0 || t->counts_equal == 0) {
			s = STATE_FAIL;
			const struct figure *ev = NULL;
			for (size_t k = 0; k < r->figs.n; k++)
				if (r->figs.v[k].target == t->ranks && !strcmp(r->figs.v[k].name, "events"))
					ev = &r->figs.v[k];
			if (ev && ev->no_rule)
				push(&v, &n, xasprintf("The extrapolated trace differs from the real run at %ld ranks.", t->ranks));
		}
		if (t->lossy.lossy) {
			if (s == STATE_PASS)
				s = STATE_NOT_VALIDATED;
			push(&v, &n, t->lossy.has_share
				? xasprintf("The extrapolation at %ld ranks is lossy (it keeps %.1f%% of the calls, %.1f%% of the "
					    "bytes): not a validation of the whole application.", t->ranks,
					    pct(t->lossy.kept_calls_share), pct(t->lossy.kept_bytes_share))
				: xasprintf("The extrapolation at %ld ranks is lossy, its kept share unknown.", t->ranks));
		}
		if (t->extrap && !t->extrap_synthetic) {
			if (s == STATE_PASS)
				s = STATE_NOT_VALIDATED;
			push(&v, &n, xasprintf("The trace given as extrapolated at %ld ranks is a measured run, not an extrapolation.",
					       t->ranks));
		}
	}
	if (!r->figs.n) {
		s = s == STATE_FAIL ? s : STATE_NOT_VALIDATED;
		push(&v, &n, xstrdup("The report has no figure to judge."));
	}
	(void)a;
	*reasons = v ? v : xcalloc(1, sizeof *v);
	return s;
}
