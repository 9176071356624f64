/*
 * markdown — the report as a Markdown summary: the verdict, the figures with thresholds and
 * trends, the validation at every target, and the models against the truth. See writers.h.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/writers.h"

const char *fmt_num(double x, char *buf, size_t len)
{
	if (isnan(x))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.4g", x);
	return buf;
}

const char *figure_state(const struct figure *g)
{
	if (g->regression)
		return "REGRESSED";
	if (!g->held)
		return "MISSED";
	if (isnan(g->value))
		return "not computed";
	return g->has_threshold ? "held" : "-";
}

static const char *tri_text(int v, const char *yes, const char *no)
{
	return v < 0 ? "not checked" : v ? yes : no;
}

static void targets_md(const struct report *r, FILE *out)
{
	char a[32], b[32], c[32];
	fprintf(out, "\n## Validation at the target\n\n");
	if (!r->ntargets)
		fprintf(out, "No target scale: the workflow names none and nothing was run at one.\n");
	for (size_t i = 0; i < r->ntargets; i++) {
		const struct report_target *t = &r->targets[i];
		fprintf(out, "### %ld ranks\n\n", t->ranks);
		if (t->ntruth)
			fprintf(out, "- real application: %s (%zu traced run%s, time %s s)\n", t->truth[0], t->ntruth,
				t->ntruth == 1 ? "" : "s", fmt_num(t->traced_time, a, sizeof a));
		if (t->ntimed)
			fprintf(out, "- application time: %s s, untraced (median of %zu run%s timed by `ladder time`, %s); "
				"replays and proxies are measured against it\n", fmt_num(t->app_time, a, sizeof a), t->ntimed,
				t->ntimed == 1 ? "" : "s", t->timed[0]);
		else if (t->ntruth)
			fprintf(out, "- application time: %s s, traced (no untraced run timed: the tracer's cost to other ranks "
				"on shared cores is in it)\n", fmt_num(t->app_time, a, sizeof a));
		if (!t->ntruth && !t->ntimed)
			fprintf(out, "- real application: not run at %ld ranks (no `truth` in the workflow)\n", t->ranks);
		if (t->extrap)
			fprintf(out, "- extrapolated trace: %s%s\n", t->extrap,
				t->extrap_synthetic ? "" : " (**not marked synthetic: a measured run used as input**)");
		else
			fprintf(out, "- extrapolated trace: **absent** — %s\n", t->extrap_note ? t->extrap_note : "");
		fprintf(out, "- events (extrapolated vs real, every rank): %s", tri_text(t->events_equal, "equal", "DIFFERENT"));
		if (t->events_equal == 0)
			fprintf(out, " on %u rank%s; first: %s", t->events_ranks_differ, t->events_ranks_differ == 1 ? "" : "s",
				t->events_first_diff ? t->events_first_diff : "");
		fprintf(out, "\n- calls and bytes per function and rank: %s\n", tri_text(t->counts_equal, "equal", "DIFFERENT"));
		if (t->replay)
			fprintf(out, "- replay of the extrapolated trace: %s, time %s s\n", t->replay,
				fmt_num(t->replay_time, b, sizeof b));
		else
			fprintf(out, "- replay of the extrapolated trace: absent\n");
		fprintf(out, "- time accuracy 1 − |T_replay − T_app| / T_app: **%s**\n", fmt_num(t->time_accuracy, c, sizeof c));
		for (size_t k = 0; k < t->nwhatif; k++) {
			const struct report_whatif *w = &t->whatif[k];
			fprintf(out, "- what if compute x%g, messages x%g: %s s, %s x the replay as recorded (%s)\n",
				w->compute_scale, w->message_scale, fmt_num(w->time, a, sizeof a),
				fmt_num(w->time / t->replay_time, b, sizeof b), w->replay);
		}
		if (t->proxy)
			fprintf(out, "- proxy program (ladder proxy of the extrapolated trace): %s, time %s s, %s x the replay; "
				"accuracy 1 − |T_proxy − T_app| / T_app: **%s**\n", t->proxy, fmt_num(t->proxy_time, a, sizeof a),
				fmt_num(t->proxy_time / t->replay_time, b, sizeof b), fmt_num(t->proxy_accuracy, c, sizeof c));
		fprintf(out, "\n");
	}
}

static void models_md(const struct report *r, FILE *out)
{
	char p[32], lo[32], hi[32], m[32], a[32];
	if (!r->nmodels) {
		fprintf(out, "\n## Models\n\nThe campaign has no models (no `model` stage ran).\n");
		return;
	}
	fprintf(out, "\n## Models at %ld ranks (metric time)\n\n", r->model_target);
	fprintf(out, "Kernel ranking over %zu call paths: Spearman %s, top-%zu agreement %s.\n\n", r->ranked,
		fmt_num(r->spearman, p, sizeof p), r->k, fmt_num(r->topk, a, sizeof a));
	fprintf(out, "| call path | model | predicted | interval | measured | accuracy | interval held |\n");
	fprintf(out, "|---|---|---:|---|---:|---:|---|\n");
	for (size_t i = 0; i < r->nmodels; i++) {
		const struct report_model *x = &r->models[i];
		if (strcmp(x->metric, "time"))
			continue;
		fprintf(out, "| `%s` | `%s` | %s | [%s, %s] | %s | %s | %s |\n", x->callpath, x->model[0] ? x->model : x->status,
			fmt_num(x->prediction, p, sizeof p), fmt_num(x->lower, lo, sizeof lo), fmt_num(x->upper, hi, sizeof hi),
			fmt_num(x->measured, m, sizeof m), fmt_num(x->accuracy, a, sizeof a), tri_text(x->held, "yes", "**no**"));
	}
}

bool report_write_markdown(const struct report *r, const struct verdict *v, FILE *out)
{
	char a[32], b[32], c[32];
	fprintf(out, "# ladder report: %s\n\n", r->application[0] ? r->application : r->campaign);
	fprintf(out, "Campaign `%s`, report of %s. **%s**\n\n", r->campaign, r->created ? r->created : "",
		v->pass ? "PASS: every threshold held, nothing regressed" : "FAIL: a threshold was missed or a figure regressed");
	fprintf(out, "| figure | target | value | threshold | trailing median | nights | state | source |\n");
	fprintf(out, "|---|---:|---:|---:|---:|---:|---|---|\n");
	for (size_t i = 0; i < r->figs.n; i++) {
		const struct figure *g = &r->figs.v[i];
		fprintf(out, "| %s | %ld | %s | %s | %s | %zu | %s | %s |\n", g->name, g->target,
			fmt_num(g->value, a, sizeof a), g->has_threshold ? fmt_num(g->threshold, b, sizeof b) : "-",
			fmt_num(g->trailing_median, c, sizeof c), g->nights, figure_state(g), g->source);
	}
	for (size_t i = 0; v->thresholds && i < v->thresholds->n; i++)
		if (!v->thresholds->v[i].used)
			fprintf(out, "\nNote: threshold '%s' names no figure of this report.\n", v->thresholds->v[i].name);
	if (v->history_path)
		fprintf(out, "\nHistory: %s (regression: below the median of the last %zu nights by more than %g).\n",
			v->history_path, v->thresholds ? v->thresholds->window : 5, v->thresholds ? v->thresholds->margin : 0.05);
	targets_md(r, out);
	models_md(r, out);
	return true;
}
