/*
 * html — the report as one self-contained HTML page: the verdict, the figures with thresholds
 * and trends, the validation at every target, the models against the truth, and plots drawn by
 * gnuplot and inlined as SVG (the measured ladder with its spread, the fitted curve, the
 * prediction interval and the measurement at the target; the figures over past nights). No
 * script, no stylesheet or image from elsewhere. See writers.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/accuracy.h"
#include "report/formula.h"
#include "report/plot.h"
#include "report/writers.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xalloc.h"

#define PLOTTED_CALLPATHS 6

static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* gnuplot text in single quotes: a quote is doubled */
static void gp_quoted(struct buf *b, const char *s)
{
	buf_put_u8(b, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			buf_put_u8(b, '\'');
		buf_put_u8(b, (uint8_t)*s);
	}
	buf_put_u8(b, '\'');
}

static void bprintf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s;
	if (vasprintf(&s, fmt, ap) >= 0) {
		buf_put(b, s, strlen(s));
		free(s);
	}
	va_end(ap);
}

/* the ladder of one call path: p, median, min, max per point; false when nothing was measured */
static bool ladder_block(const struct report *r, const char *callpath, struct buf *b, bool *positive)
{
	long cp = experiment_find_callpath(r->ladder, callpath), mt = experiment_find_metric(r->ladder, "time");
	if (cp < 0 || mt < 0)
		return false;
	bprintf(b, "$ladder << EOD\n");
	size_t rows = 0;
	for (size_t pt = 0; pt < r->ladder->npoints; pt++) {
		const struct series *s = experiment_values(r->ladder, (size_t)cp, (size_t)mt, pt);
		if (!s->n)
			continue;
		double *v = xmalloc(s->n * sizeof *v);
		memcpy(v, s->v, s->n * sizeof *v);
		double med = median_of(v, s->n);
		bprintf(b, "%g %.9g %.9g %.9g\n", experiment_point(r->ladder, pt)[0], med, v[0], v[s->n - 1]);
		*positive &= v[0] > 0;
		free(v);
		rows++;
	}
	bprintf(b, "EOD\n");
	return rows > 0;
}

static char *callpath_plot(const struct report *r, const struct report_model *m)
{
	struct buf b;
	buf_init(&b);
	bool positive = true;
	if (!ladder_block(r, m->callpath, &b, &positive)) {
		buf_free(&b);
		return NULL;
	}
	double target = (double)r->model_target, top = target * 1.25, value;
	char why[256];
	bprintf(&b, "$curve << EOD\n");
	for (double p = 1; p <= top; p *= 1.05)
		if (formula_eval(m->model, p, 0, &value, why, sizeof why)) {
			bprintf(&b, "%g %.9g\n", p, value);
			positive &= value > 0;
		}
	bprintf(&b, "EOD\n$interval << EOD\n%g %.9g %.9g %.9g\nEOD\n", target, m->prediction,
		isnan(m->lower) ? m->prediction : m->lower, isnan(m->upper) ? m->prediction : m->upper);
	positive &= m->prediction > 0 && !(m->lower <= 0);
	bprintf(&b, "$measured << EOD\n");
	if (m->measured_ok) {
		bprintf(&b, "%g %.9g\n", target, m->measured);
		positive &= m->measured > 0;
	} else {
		bprintf(&b, "%g NaN\n", target);
	}
	bprintf(&b, "EOD\nset title ");
	gp_quoted(&b, m->callpath);
	bprintf(&b, " noenhanced\nset logscale x 2\n%s\nset xlabel 'ranks'\nset ylabel 'time [s]'\n"
		"set key top left noenhanced\nset xrange [0.8:%g]\nset grid\n", positive ? "set logscale y" : "", top * 1.1);
	bprintf(&b, "plot $ladder using 1:2:3:4 with yerrorbars pt 7 lc rgb '#1f77b4' title 'ladder (median, min-max)', "
		"$curve using 1:2 with lines lw 2 lc rgb '#ff7f0e' title 'model', "
		"$interval using 1:2:3:4 with yerrorbars pt 5 lc rgb '#2ca02c' title 'prediction and %g%% interval', "
		"$measured using 1:2 with points pt 9 ps 1.8 lc rgb '#d62728' title 'measured at the target'\n",
		isnan(m->level) ? 95 : 100 * m->level);
	buf_put_u8(&b, 0);
	char *svg = plot_svg((char *)b.data, 560, 360);
	buf_free(&b);
	return svg;
}

static double plot_key(const struct report_model *m)
{
	return m->measured_ok ? m->measured : m->prediction;
}

static int by_key_desc(const void *a, const void *b)
{
	double x = plot_key(*(const struct report_model *const *)a), y = plot_key(*(const struct report_model *const *)b);
	return (x < y) - (x > y);
}

/* the time models to draw (fresh array): the largest at the target */
static size_t pick_models(const struct report *r, const struct report_model ***pick)
{
	const struct report_model **v = xcalloc(r->nmodels + 1, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < r->nmodels; i++) {
		const struct report_model *m = &r->models[i];
		if (!strcmp(m->metric, "time") && m->model[0] && isfinite(m->prediction))
			v[n++] = m;
	}
	qsort(v, n, sizeof *v, by_key_desc);
	*pick = v;
	return n < PLOTTED_CALLPATHS ? n : PLOTTED_CALLPATHS;
}

static char *history_plot(const struct report *r, const struct verdict *v)
{
	char **nights;
	size_t nn = history_nights(v->history, &nights);
	struct buf b;
	buf_init(&b);
	size_t blocks = 0;
	for (size_t i = 0; i < r->figs.n; i++) {
		const struct figure *g = &r->figs.v[i];
		if (isnan(g->value) || !g->nights)
			continue;
		bprintf(&b, "$f%zu << EOD\n", i);
		for (size_t k = 0; k < nn; k++)
			bprintf(&b, "%zu %.9g\n", k + 1, history_value(v->history, nights[k], g->name, (uint32_t)g->target));
		bprintf(&b, "%zu %.9g\nEOD\n", nn + 1, g->value);
		blocks++;
	}
	free(nights);
	char *svg = NULL;
	if (blocks) {
		bprintf(&b, "set title 'figures over the nights (the last one is this report)'\nset xlabel 'night'\n"
			"set ylabel 'value'\nset key outside right noenhanced\nset grid\nset xtics 1\nplot ");
		const char *sep = "";
		for (size_t i = 0; i < r->figs.n; i++) {
			const struct figure *g = &r->figs.v[i];
			if (isnan(g->value) || !g->nights)
				continue;
			bprintf(&b, "%s$f%zu using 1:2 with linespoints lw 2 title '%s at %ld'", sep, i, g->name, g->target);
			sep = ", ";
		}
		bprintf(&b, "\n");
		buf_put_u8(&b, 0);
		svg = plot_svg((char *)b.data, 760, 340);
	}
	buf_free(&b);
	return svg;
}

static const char *style =
	"body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;font-size:13px}"
	"th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums}"
	".pass{color:#1a7f37;font-weight:bold}.fail{color:#c62828;font-weight:bold}"
	".plots{display:flex;flex-wrap:wrap;gap:12px}.plots figure{margin:0}code{font-size:12px}";

static void figures_html(const struct report *r, const struct verdict *v, FILE *out)
{
	char a[32], b[32], c[32];
	fprintf(out, "<h2>Figures</h2>\n<table><tr><th>figure</th><th>target</th><th>value</th><th>threshold</th>"
		"<th>trailing median</th><th>nights</th><th>state</th><th>source</th></tr>\n");
	for (size_t i = 0; i < r->figs.n; i++) {
		const struct figure *g = &r->figs.v[i];
		const char *state = figure_state(g);
		bool bad = g->regression || !g->held;
		fprintf(out, "<tr><td>%s</td><td class=n>%ld</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td>"
			"<td class=n>%zu</td><td class=\"%s\">%s</td><td><code>", g->name, g->target,
			fmt_num(g->value, a, sizeof a), g->has_threshold ? fmt_num(g->threshold, b, sizeof b) : "-",
			fmt_num(g->trailing_median, c, sizeof c), g->nights, bad ? "fail" : (g->has_threshold ? "pass" : ""), state);
		esc(out, g->source);
		fprintf(out, "</code></td></tr>\n");
	}
	fprintf(out, "</table>\n");
	for (size_t i = 0; v->thresholds && i < v->thresholds->n; i++)
		if (!v->thresholds->v[i].used) {
			fprintf(out, "<p>Note: threshold '");
			esc(out, v->thresholds->v[i].name);
			fprintf(out, "' names no figure of this report.</p>\n");
		}
}

static void whatif_html(const struct report *r, FILE *out)
{
	char a[32], b[32];
	bool any = false;
	for (size_t i = 0; i < r->ntargets; i++)
		any |= r->targets[i].nwhatif > 0;
	if (!any)
		return;
	fprintf(out, "<h3>What if</h3>\n<table><tr><th>ranks</th><th>compute x</th><th>messages x</th><th>time [s]</th>"
		"<th>vs as recorded</th><th>replay</th></tr>\n");
	for (size_t i = 0; i < r->ntargets; i++)
		for (size_t k = 0; k < r->targets[i].nwhatif; k++) {
			const struct report_target *t = &r->targets[i];
			const struct report_whatif *w = &t->whatif[k];
			fprintf(out, "<tr><td class=n>%ld</td><td class=n>%g</td><td class=n>%g</td><td class=n>%s</td>"
				"<td class=n>%s</td><td><code>", t->ranks, w->compute_scale, w->message_scale,
				fmt_num(w->time, a, sizeof a), fmt_num(w->time / t->replay_time, b, sizeof b));
			esc(out, w->replay);
			fprintf(out, "</code></td></tr>\n");
		}
	fprintf(out, "</table>\n");
}

/* the proxy program written from the extrapolated trace, run at the target (ScalaBenchGen §5) */
static void proxy_html(const struct report *r, FILE *out)
{
	char a[32], b[32], c[32], d[32];
	bool any = false;
	for (size_t i = 0; i < r->ntargets; i++)
		any |= r->targets[i].proxy != NULL;
	if (!any)
		return;
	fprintf(out, "<h3>Proxy program</h3>\n<table><tr><th>ranks</th><th>T_proxy [s]</th><th>T_app [s]</th>"
		"<th>accuracy</th><th>T_replay [s]</th><th>T_proxy / T_replay</th><th>proxy run</th></tr>\n");
	for (size_t i = 0; i < r->ntargets; i++) {
		const struct report_target *t = &r->targets[i];
		if (!t->proxy)
			continue;
		fprintf(out, "<tr><td class=n>%ld</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td>"
			"<td class=n>%s</td><td class=n>%s</td><td><code>", t->ranks, fmt_num(t->proxy_time, a, sizeof a),
			fmt_num(t->app_time, b, sizeof b), fmt_num(t->proxy_accuracy, c, sizeof c),
			fmt_num(t->replay_time, d, sizeof d), fmt_num(t->proxy_time / t->replay_time, a, sizeof a));
		esc(out, t->proxy);
		fprintf(out, "</code></td></tr>\n");
	}
	fprintf(out, "</table>\n<p>The proxy is the C+MPI program <code>ladder proxy</code> wrote from the extrapolated "
		"trace, run on the target's ranks; its accuracy is 1 − |T_proxy − T_app| / T_app (ScalaBenchGen §5), "
		"T_proxy from after MPI_Init to MPI_Finalize, the slowest rank.</p>\n");
}

static void targets_html(const struct report *r, FILE *out)
{
	char a[32], b[32], c[32];
	fprintf(out, "<h2>Validation at the target</h2>\n<table><tr><th>ranks</th><th>real application</th><th>T_app [s]</th>"
		"<th>extrapolated trace</th><th>events</th><th>counts</th><th>replay</th><th>T_replay [s]</th>"
		"<th>time accuracy</th></tr>\n");
	for (size_t i = 0; i < r->ntargets; i++) {
		const struct report_target *t = &r->targets[i];
		fprintf(out, "<tr><td class=n>%ld</td><td><code>", t->ranks);
		if (t->ntruth)
			esc(out, t->truth[0]);
		else
			fprintf(out, "not run (no truth at %ld)", t->ranks);
		fprintf(out, "</code></td><td class=n>%s%s</td><td>", fmt_num(t->app_time, a, sizeof a),
			t->ntimed ? " (untraced)" : t->ntruth ? " (traced)" : "");
		if (t->extrap) {
			fprintf(out, "<code>");
			esc(out, t->extrap);
			fprintf(out, "</code>%s", t->extrap_synthetic ? "" : " <b>(not synthetic: a measured run as input)</b>");
		} else {
			fprintf(out, "<b>absent</b>: ");
			esc(out, t->extrap_note);
		}
		fprintf(out, "</td><td>%s", t->events_equal < 0 ? "not checked" : t->events_equal ? "equal" : "<span class=fail>different</span>");
		if (t->events_equal == 0 && t->events_first_diff) {
			fprintf(out, " on %u ranks; first: <code>", t->events_ranks_differ);
			esc(out, t->events_first_diff);
			fprintf(out, "</code>");
		}
		fprintf(out, "</td><td>%s</td><td><code>", t->counts_equal < 0 ? "not checked" : t->counts_equal ? "equal" : "<span class=fail>different</span>");
		esc(out, t->replay ? t->replay : "absent");
		fprintf(out, "</code></td><td class=n>%s</td><td class=n>%s</td></tr>\n",
			fmt_num(t->replay_time, b, sizeof b), fmt_num(t->time_accuracy, c, sizeof c));
	}
	fprintf(out, "</table>\n");
	whatif_html(r, out);
	proxy_html(r, out);
	fprintf(out, "<p>Time accuracy is 1 − |T_replay − T_app| / T_app (ScalaExtrap §5.2): T_app is the real run's "
		"traced wall time (from MPI_Init's return to MPI_Finalize), T_replay the replay's, first to last call, the longest rank.</p>\n");
}

static void models_html(const struct report *r, FILE *out)
{
	char p[32], lo[32], hi[32], m[32], a[32];
	if (!r->nmodels) {
		fprintf(out, "<h2>Models</h2>\n<p>The campaign has no models (no <code>model</code> stage ran).</p>\n");
		return;
	}
	fprintf(out, "<h2>Models at %ld ranks</h2>\n", r->model_target);
	fprintf(out, "<p>Kernel ranking (time) over %zu call paths: Spearman %s, top-%zu agreement %s. Models from "
		"<code>", r->ranked, fmt_num(r->spearman, p, sizeof p), r->k, fmt_num(r->topk, a, sizeof a));
	esc(out, r->campaign);
	fprintf(out, ":/models/callpaths</code> (");
	esc(out, r->settings);
	fprintf(out, ").</p>\n<table><tr><th>call path</th><th>metric</th><th>model</th><th>predicted</th><th>interval</th>"
		"<th>measured</th><th>accuracy</th><th>interval held</th></tr>\n");
	for (size_t i = 0; i < r->nmodels; i++) {
		const struct report_model *x = &r->models[i];
		fprintf(out, "<tr><td><code>");
		esc(out, x->callpath);
		fprintf(out, "</code></td><td>%s</td><td><code>", x->metric);
		esc(out, x->model[0] ? x->model : x->status);
		fprintf(out, "</code></td><td class=n>%s</td><td class=n>[%s, %s]</td><td class=n>%s</td><td class=n>%s</td><td>%s</td></tr>\n",
			fmt_num(x->prediction, p, sizeof p), fmt_num(x->lower, lo, sizeof lo), fmt_num(x->upper, hi, sizeof hi),
			fmt_num(x->measured, m, sizeof m), fmt_num(x->accuracy, a, sizeof a),
			x->held < 0 ? "-" : x->held ? "yes" : "<span class=fail>no</span>");
	}
	fprintf(out, "</table>\n");
}

static void plots_html(const struct report *r, const struct verdict *v, FILE *out)
{
	fprintf(out, "<h2>Plots</h2>\n");
	if (!plot_available()) {
		fprintf(out, "<p>No plots: gnuplot is not installed.</p>\n");
		return;
	}
	const struct report_model **pick;
	size_t n = pick_models(r, &pick);
	fprintf(out, "<div class=plots>\n");
	for (size_t i = 0; i < n; i++) {
		char *svg = callpath_plot(r, pick[i]);
		if (!svg)
			continue;
		fprintf(out, "<figure class=plot>%s</figure>\n", svg);
		free(svg);
	}
	free(pick);
	fprintf(out, "</div>\n");
	if (v->history && v->history->n) {
		char *svg = history_plot(r, v);
		if (svg) {
			fprintf(out, "<h2>History</h2>\n<figure class=plot>%s</figure>\n", svg);
			free(svg);
		}
	}
}

bool report_write_html(const struct report *r, const struct verdict *v, FILE *out)
{
	fprintf(out, "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>ladder report: ");
	esc(out, r->application);
	fprintf(out, "</title><style>%s</style></head><body>\n<h1>ladder report: ", style);
	esc(out, r->application);
	fprintf(out, "</h1>\n<p>Campaign <code>");
	esc(out, r->campaign);
	fprintf(out, "</code>, report of %s. <span class=%s>%s</span></p>\n", r->created ? r->created : "",
		v->pass ? "pass" : "fail",
		v->pass ? "PASS: every threshold held, nothing regressed" : "FAIL: a threshold was missed or a figure regressed");
	figures_html(r, v, out);
	targets_html(r, out);
	plots_html(r, v, out);
	models_html(r, out);
	fprintf(out, "</body></html>\n");
	return true;
}
