/*
 * markdown — the report as a Markdown summary: the answer first (the prediction at the target,
 * how far each figure was from the real run, the state and why), then the figures with thresholds
 * and trends, the validation at every target, and the models that matter. Every string from a
 * container or a path goes through md_escape. See writers.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/writers.h"

static const char *tri_text(int v, const char *yes, const char *no)
{
	return v < 0 ? "not checked" : v ? yes : no;
}

/* "- TEXT\n" with TEXT escaped */
static void md_item(FILE *out, const char *text)
{
	fputs("- ", out);
	md_escape(out, text);
	fputc('\n', out);
}

static void md_path(FILE *out, const struct report *r, const char *path)
{
	char *rel = relative_paths(r, path);
	md_escape(out, rel);
	free(rel);
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
		if (t->ntruth) {
			fprintf(out, "- real application: ");
			md_path(out, r, t->truth[0]);
			fprintf(out, " (%zu traced run%s, time %s s)\n", t->ntruth, t->ntruth == 1 ? "" : "s",
				fmt_num(t->traced_time, a, sizeof a));
		}
		if (t->ntimed) {
			fprintf(out, "- application time: %s s, untraced (median of %zu run%s timed by `ladder time`, ",
				fmt_num(t->app_time, a, sizeof a), t->ntimed, t->ntimed == 1 ? "" : "s");
			md_path(out, r, t->timed[0]);
			fprintf(out, "); replays and proxies are measured against it\n");
		} else if (t->ntruth) {
			fprintf(out, "- application time: %s s, traced (no untraced run timed: the tracer's cost to other ranks "
				"on shared cores is in it)\n", fmt_num(t->app_time, a, sizeof a));
		}
		if (!t->ntruth && !t->ntimed)
			fprintf(out, "- real application: not run at %ld ranks (no `truth` in the workflow)\n", t->ranks);
		if (t->extrap) {
			fprintf(out, "- extrapolated trace: ");
			md_path(out, r, t->extrap);
			fprintf(out, "%s\n", t->extrap_synthetic ? "" : " (**not marked synthetic: a measured run used as input**)");
		} else {
			fprintf(out, "- extrapolated trace: **absent** — ");
			md_escape(out, t->extrap_note);
			fputc('\n', out);
		}
		char *lossy = answer_lossy(t);
		if (lossy) {
			fprintf(out, "- **lossy**: ");
			md_escape(out, lossy);
			fputc('\n', out);
			free(lossy);
		}
		fprintf(out, "- events (extrapolated vs real, every rank): %s", tri_text(t->events_equal, "equal", "DIFFERENT"));
		if (t->events_equal == 0) {
			fprintf(out, " on %u rank%s; first: ", t->events_ranks_differ, t->events_ranks_differ == 1 ? "" : "s");
			md_escape(out, t->events_first_diff);
		}
		fprintf(out, "\n- calls and bytes per function and rank: %s\n", tri_text(t->counts_equal, "equal", "DIFFERENT"));
		if (t->replay) {
			fprintf(out, "- replay of the extrapolated trace: ");
			md_path(out, r, t->replay);
			fprintf(out, ", time %s s\n", fmt_num(t->replay_time, b, sizeof b));
		} else {
			fprintf(out, "- replay of the extrapolated trace: absent\n");
		}
		fprintf(out, "- time accuracy 1 − |T_replay − T_app| / T_app: **%s**\n", fmt_num(t->time_accuracy, c, sizeof c));
		for (size_t k = 0; k < t->nwhatif; k++) {
			const struct report_whatif *w = &t->whatif[k];
			fprintf(out, "- what if compute x%g, messages x%g: %s s, %s x the replay as recorded (",
				w->compute_scale, w->message_scale, fmt_num(w->time, a, sizeof a),
				fmt_num(w->time / t->replay_time, b, sizeof b));
			md_path(out, r, w->replay);
			fprintf(out, ")\n");
		}
		if (t->proxy) {
			fprintf(out, "- proxy program (ladder proxy of the extrapolated trace): ");
			md_path(out, r, t->proxy);
			fprintf(out, ", time %s s, %s x the replay; accuracy 1 − |T_proxy − T_app| / T_app: **%s**\n",
				fmt_num(t->proxy_time, a, sizeof a), fmt_num(t->proxy_time / t->replay_time, b, sizeof b),
				fmt_num(t->proxy_accuracy, c, sizeof c));
		}
		fprintf(out, "\n");
	}
	fprintf(out, "T_app is the application's untraced time where it was timed (`ladder time`), else its traced "
		"wall time; T_replay the replay's, first to last call, the longest rank.\n");
}

static void model_md_row(FILE *out, const struct report_model *x)
{
	char p[32], lo[32], hi[32], m[32], a[32];
	fprintf(out, "| ");
	md_escape(out, x->callpath);
	fprintf(out, " | ");
	md_escape(out, x->metric);
	fprintf(out, " | ");
	md_escape(out, x->model[0] ? x->model : x->status);
	fprintf(out, " | %s | [%s, %s]%s | %s | %s | %s |\n", fmt_num(x->prediction, p, sizeof p),
		fmt_num(x->lower, lo, sizeof lo), fmt_num(x->upper, hi, sizeof hi), x->supported ? "" : " unsupported",
		fmt_num(x->measured, m, sizeof m), fmt_num(x->accuracy, a, sizeof a), tri_text(x->held, "yes", "**no**"));
}

static void models_md(const struct report *r, FILE *out)
{
	char p[32], a[32];
	if (!r->nmodels) {
		fprintf(out, "\n## Models\n\nThe campaign has no models (no `model` stage ran).\n");
		return;
	}
	fprintf(out, "\n## Models at %ld ranks: the call paths that matter\n\n", r->model_target);
	fprintf(out, "Kernel ranking over %zu call paths: Spearman %s, top-%zu agreement %s. Shown: the time of the top %zu "
		"call paths and every prediction whose interval missed the measurement or that the ladder does not "
		"support; the other rows are in report.json and report.html.\n\n", r->ranked,
		fmt_num(r->spearman, p, sizeof p), r->k, fmt_num(r->topk, a, sizeof a), r->k ? r->k : 5);
	fprintf(out, "| call path | metric | model | predicted | interval | measured | accuracy | interval held |\n");
	fprintf(out, "|---|---|---|---:|---|---:|---:|---|\n");
	size_t rest = 0;
	double cutoff = model_topk_floor(r);
	for (size_t i = 0; i < r->nmodels; i++) {
		if (model_row_matters(&r->models[i], cutoff))
			model_md_row(out, &r->models[i]);
		else
			rest++;
	}
	fprintf(out, "\n%zu other row%s (small or held). Predicted and measured are per rank (%s over ranks); "
		"\"unsupported\": the ladder does not constrain the prediction at the target.\n", rest, rest == 1 ? "" : "s",
		r->reduce);
}

static void figures_md(const struct report *r, const struct verdict *v, FILE *out)
{
	char a[32], b[32], c[32];
	fprintf(out, "\n## Figures\n\n| figure | target | value | threshold | trailing median | nights | state | source |\n");
	fprintf(out, "|---|---:|---:|---:|---:|---:|---|---|\n");
	for (size_t i = 0; i < r->figs.n; i++) {
		const struct figure *g = &r->figs.v[i];
		fprintf(out, "| ");
		md_escape(out, g->name);
		fprintf(out, " | %ld | %s | %s%s | %s | %zu | %s | ", g->target, fmt_num(g->value, a, sizeof a),
			g->has_threshold ? fmt_num(g->threshold, b, sizeof b) : "none", g->default_threshold ? " (default)" : "",
			fmt_num(g->trailing_median, c, sizeof c), g->nights, figure_state(g));
		md_path(out, r, g->source);
		fprintf(out, " |\n");
	}
	char *dir = campaign_dir(r);
	fprintf(out, "\nEvery figure is higher-is-better; a threshold is the lowest acceptable value (defaults: events and "
		"counts 1, time and proxy 0.9, model_time 0.5, other models 0.9, interval 0.8, ranking 0.5, topk 0.6; the "
		"workflow's `acceptance` overrides them). Sources are relative to ");
	md_escape(out, dir);
	fprintf(out, ".\n");
	free(dir);
	for (size_t i = 0; v->thresholds && i < v->thresholds->n; i++)
		if (!v->thresholds->v[i].used) {
			fprintf(out, "\nNote: threshold '");
			md_escape(out, v->thresholds->v[i].name);
			fprintf(out, "' names no figure of this report.\n");
		}
	if (v->history_path) {
		fprintf(out, "\nHistory: ");
		md_escape(out, v->history_path);
		fprintf(out, " (regression: below the median of the last %zu nights by more than %g).\n",
			v->thresholds ? v->thresholds->window : 5, v->thresholds ? v->thresholds->margin : 0.05);
	}
}

bool report_write_markdown(const struct report *r, const struct verdict *v, FILE *out)
{
	struct answer a;
	answer_of(r, &a);
	fprintf(out, "# ladder report: ");
	md_escape(out, r->application[0] ? r->application : r->campaign);
	fprintf(out, "\n\n## The prediction\n\n");
	char **s = answer_prediction(r, &a);
	for (size_t i = 0; s[i]; i++)
		md_item(out, s[i]);
	strings_free(s);
	for (size_t i = 0; i < r->ntargets; i++) {
		char *lossy = answer_lossy(&r->targets[i]);
		if (lossy) {
			fprintf(out, "- **Lossy**: ");
			md_escape(out, lossy);
			fprintf(out, "\n");
			free(lossy);
		}
	}
	fprintf(out, "\n**State: %s**%s\n\n", report_state_name(v->state),
		v->state == STATE_PASS ? " (every figure computed, every threshold held, nothing regressed)" : "");
	for (size_t i = 0; v->reasons && v->reasons[i]; i++)
		md_item(out, v->reasons[i]);
	fprintf(out, "\n## How far from the real run\n\n");
	s = answer_accuracy(r);
	for (size_t i = 0; s[i]; i++)
		md_item(out, s[i]);
	strings_free(s);
	fprintf(out, "\nCampaign ");
	md_escape(out, r->campaign);
	fprintf(out, ", report of %s.\n", r->created ? r->created : "");
	figures_md(r, v, out);
	targets_md(r, out);
	models_md(r, out);
	return true;
}
