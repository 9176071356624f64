/*
 * html — the report as one self-contained HTML page. It opens with the answer: the prediction at
 * the target (and what a lossy extrapolation kept), the state and why, how far each prediction
 * was from the real run in words, and plots of predicted against measured; then the figures with
 * thresholds, the trend of every figure over the last nights (regressions marked), the validation
 * at every target, the ladder plots of the leading call paths and the models that matter (the
 * rest behind a <details>). Plots are drawn by gnuplot and inlined as SVG. No script (a
 * Content-Security-Policy forbids it), no stylesheet or image from elsewhere; every string from a
 * container or a path goes through html_escape, and into gnuplot only through gp_text. See
 * writers.h.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/accuracy.h"
#include "model/models_format.h"
#include "report/plot.h"
#include "report/writers.h"
#include "util/buf.h"
#include "util/log.h"
#include "util/xalloc.h"

#define PLOTTED_CALLPATHS 6
#define TREND_NIGHTS 30

#define esc html_escape

/* text for gnuplot in single quotes: printable ASCII only (a quote doubled; anything that could
 * end the string, start a command or be markup in the SVG becomes '?') */
static void gp_text(struct buf *b, const char *s)
{
	buf_put_u8(b, '\'');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\'')
			buf_put_u8(b, '\'');
		buf_put_u8(b, c < 0x20 || c >= 0x7f || strchr("<>&\"\\`", c) ? '?' : c);
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

/* the plot of a script in b (consumed), inlined in a <figure>; nothing when gnuplot failed */
static void put_plot(FILE *out, struct buf *b, int width, int height, const char *caption)
{
	buf_put_u8(b, 0);
	char *svg = plot_svg((char *)b->data, width, height);
	buf_free(b);
	if (!svg)
		return;
	fprintf(out, "<figure class=plot>%s", svg);
	if (caption)
		fprintf(out, "<figcaption>%s</figcaption>", caption);
	fprintf(out, "</figure>\n");
	free(svg);
}

/* a path relative to the campaign, its full text in a tooltip */
static void path_html(FILE *out, const struct report *r, const char *path)
{
	char *rel = relative_paths(r, path);
	fprintf(out, "<code title=\"");
	esc(out, path);
	fprintf(out, "\">");
	esc(out, rel);
	fprintf(out, "</code>");
	free(rel);
}

/* ---- plots ------------------------------------------------------------------------------------- */

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

static void callpath_plot(const struct report *r, const struct report_model *m, FILE *out)
{
	struct buf b;
	buf_init(&b);
	bool positive = true;
	if (!ladder_block(r, m->callpath, &b, &positive)) {
		buf_free(&b);
		return;
	}
	double target = (double)r->model_target, top = target * 1.25, value;
	char why[256];
	bprintf(&b, "$curve << EOD\n");
	for (double p = 1; p <= top; p *= 1.05)
		if (models_formula_eval(m->model, p, 0, &value, why, sizeof why)) {
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
	gp_text(&b, m->callpath);
	bprintf(&b, " noenhanced\nset logscale x 2\n%s\nset xlabel 'ranks'\nset ylabel 'time [s]'\n"
		"set key top left noenhanced\nset xrange [0.8:%g]\nset grid\n", positive ? "set logscale y" : "", top * 1.1);
	bprintf(&b, "plot $ladder using 1:2:3:4 with yerrorbars pt 7 lc rgb '#1f77b4' title 'ladder (median, min-max)', "
		"$curve using 1:2 with lines lw 2 lc rgb '#ff7f0e' title 'model', "
		"$interval using 1:2:3:4 with yerrorbars pt 5 lc rgb '#2ca02c' title 'prediction and %g%% interval%s', "
		"$measured using 1:2 with points pt 9 ps 1.8 lc rgb '#d62728' title 'measured at the target'\n",
		isnan(m->level) ? 95 : 100 * m->level, m->supported ? "" : " (unsupported)");
	put_plot(out, &b, 520, 340, NULL);
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

/* predicted against measured at the model target, one plot per metric: every call path a point,
 * the diagonal is a perfect prediction */
static void metric_plot(const struct report *r, const char *metric, FILE *out)
{
	/* log scales when two or more points are positive (the others, zeros, are left out and counted) */
	size_t npos = 0, nall = 0;
	for (size_t i = 0; i < r->nmodels; i++) {
		const struct report_model *m = &r->models[i];
		if (strcmp(m->metric, metric) || !m->measured_ok || !isfinite(m->prediction))
			continue;
		nall++;
		npos += m->measured > 0 && m->prediction > 0;
	}
	bool logscale = npos >= 2;
	struct buf b;
	buf_init(&b);
	size_t n = 0, nbad = 0;
	double lo = INFINITY, hi = -INFINITY;
	bprintf(&b, "$ok << EOD\n");
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < r->nmodels; i++) {
			const struct report_model *m = &r->models[i];
			if (strcmp(m->metric, metric) || !m->measured_ok || !isfinite(m->prediction) || m->supported != !pass)
				continue;
			if (logscale && !(m->measured > 0 && m->prediction > 0))
				continue;
			bprintf(&b, "%.9g %.9g\n", m->measured, m->prediction);
			lo = fmin(lo, fmin(m->measured, m->prediction));
			hi = fmax(hi, fmax(m->measured, m->prediction));
			n++;
			nbad += pass;
		}
		bprintf(&b, pass ? "EOD\n" : "EOD\n$unsupported << EOD\n");
	}
	if (!n || !(hi > 0)) {
		buf_free(&b);
		return;
	}
	if (!nbad)
		bprintf(&b, "$unsupported << EOD\nNaN NaN\nEOD\n");
	double a = logscale ? lo / 2 : fmin(lo, 0) - 0.05 * (hi - lo + 1), z = logscale ? hi * 2 : hi + 0.05 * (hi - lo + 1);
	bprintf(&b, "set title ");
	char *title = nall > n ? xasprintf("%s (%zu zero values not drawn)", metric, nall - n) : xstrdup(metric);
	gp_text(&b, title);
	free(title);
	bprintf(&b, " noenhanced\n%s\nset xrange [%.9g:%.9g]\nset yrange [%.9g:%.9g]\nset xlabel 'measured at %ld ranks'\n"
		"set ylabel 'predicted'\nset key below noenhanced\nset grid\n"
		"plot x with lines lc rgb '#999999' dt 2 title 'predicted = measured', "
		"$ok using 1:2 with points pt 7 ps 1.2 lc rgb '#1f77b4' title 'call path', "
		"$unsupported using 1:2 with points pt 6 ps 1.4 lc rgb '#d62728' title 'unsupported prediction'\n",
		logscale ? "set logscale xy\nset format xy '%.0e'\nset xtics rotate by -30" : "", a, z, a, z, r->model_target);
	put_plot(out, &b, 340, 360, NULL);
}

/* the application's time at every target against what predicted it: the replay, the proxy, the
 * traced run and the sum of the time models */
static void times_plot(const struct report *r, const struct answer *a, FILE *out)
{
	struct buf b;
	buf_init(&b);
	size_t n = 0;
	double top = 0;
	bprintf(&b, "$t << EOD\n");
	for (size_t i = 0; i < r->ntargets; i++) {
		const struct report_target *t = &r->targets[i];
		struct {
			const char *what;
			double v;
		} bars[] = {{"application (untraced)", t->ntimed ? t->app_time : NAN}, {"traced run", t->traced_time},
			    {"replay", t->replay_time}, {"proxy", t->proxy_time},
			    {"time models (sum)", t->ranks == a->ranks ? a->time : NAN}};
		for (size_t k = 0; k < sizeof bars / sizeof bars[0]; k++)
			if (isfinite(bars[k].v)) {
				bprintf(&b, "%zu \"%s at %ld\" %.9g %zu\n", n++, bars[k].what, t->ranks, bars[k].v, k);
				top = fmax(top, bars[k].v);
			}
	}
	bprintf(&b, "EOD\n");
	if (n < 2 || !(top > 0)) {
		buf_free(&b);
		return;
	}
	bprintf(&b, "set title 'time at the target: measured and predicted'\nset style fill solid 0.8\nset boxwidth 0.6\n"
		"set ylabel 'seconds'\nset yrange [0:%.9g]\nset xtics rotate by -25 noenhanced\nset grid ytics\nunset key\n"
		"set palette defined (0 '#2ca02c', 1 '#98df8a', 2 '#1f77b4', 3 '#9467bd', 4 '#ff7f0e')\nset cbrange [0:4]\n"
		"unset colorbox\nplot $t using 1:3:4:xtic(2) with boxes lc palette, "
		"$t using 1:3:(sprintf('%%.3g s', $3)) with labels offset 0,0.7\n", top * 1.18);
	put_plot(out, &b, 420, 320, NULL);
}

/* every figure over the last TREND_NIGHTS nights and this one, its threshold dashed, regressions
 * marked */
static void trend_plot(const struct report *r, const struct verdict *v, FILE *out)
{
	size_t nf = 0;
	for (size_t i = 0; i < r->figs.n; i++)
		nf += r->figs.v[i].nights > 0;
	if (!nf)
		return;
	struct buf b;
	buf_init(&b);
	double values[TREND_NIGHTS];
	bool regressed[TREND_NIGHTS];
	size_t cols = nf < 3 ? nf : 3, rows = (nf + cols - 1) / cols;
	bprintf(&b, "set multiplot layout %zu,%zu\nset grid\nunset key\nset xlabel 'night'\nset offsets 0.3,0.3,0.05,0.05\n",
		rows, cols);
	for (size_t i = 0; i < r->figs.n; i++) {
		const struct figure *g = &r->figs.v[i];
		if (!g->nights)
			continue;
		size_t n = history_series(v->history, g->name, (uint32_t)g->target, TREND_NIGHTS, values, regressed);
		bprintf(&b, "$f%zu << EOD\n", i);
		for (size_t k = 0; k < n; k++)
			bprintf(&b, "%zu %.9g %.9g\n", k + 1, values[k], regressed[k] ? values[k] : NAN);
		bprintf(&b, "%zu %.9g %.9g\nEOD\n", n + 1, g->value, g->regression ? g->value : NAN);
		bprintf(&b, "set title ");
		char *title = xasprintf("%s at %ld%s", g->name, g->target, g->regression ? ": REGRESSED" : "");
		gp_text(&b, title);
		free(title);
		bprintf(&b, " noenhanced\nset xrange [0.5:%zu.5]\n", n + 1);
		bprintf(&b, "plot $f%zu using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4', "
			"$f%zu using 1:3 with points pt 7 ps 2 lc rgb '#d62728'", i, i);
		double lo = g->value, hi = g->value;
		for (size_t k = 0; k < n; k++)
			if (isfinite(values[k])) {
				lo = isfinite(lo) ? fmin(lo, values[k]) : values[k];
				hi = isfinite(hi) ? fmax(hi, values[k]) : values[k];
			}
		double span = fmax(hi - lo, 0.1);
		if (g->has_threshold && g->threshold >= lo - span && g->threshold <= hi + span)   /* near: drawn */
			bprintf(&b, ", %.9g with lines dt 2 lc rgb '#888888'", g->threshold);
		bprintf(&b, "\n");
	}
	bprintf(&b, "unset multiplot\n");
	put_plot(out, &b, 1000, (int)(230 * rows), NULL);
}

/* ---- sections ---------------------------------------------------------------------------------- */

static const char *style =
	"body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222;line-height:1.45}"
	"h1{font-size:1.6em;margin-bottom:.3em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}"
	"table{border-collapse:collapse;margin:.5em 0;max-width:100%}"
	"td,th{border:1px solid #ccc;padding:3px 7px;font-size:13px;vertical-align:top;overflow-wrap:anywhere}"
	"table.fixed{table-layout:fixed;width:100%}th{background:#f0f0f0;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
	"code{font-size:12px;overflow-wrap:anywhere;word-break:break-all}svg{max-width:100%;height:auto}"
	".answer{font-size:1.15em}.answer li{margin:.3em 0}"
	".state{padding:.5em 1em;border-radius:6px;margin:.8em 0}.state b{font-size:1.25em}"
	".PASS{background:#e6f4ea;color:#1a7f37}.FAIL{background:#fdecea;color:#b71c1c}"
	".NOT{background:#fff4e5;color:#7a4a00}.state ul{margin:.3em 0 0;color:#333}"
	".lossy{background:#fff4e5;border-left:5px solid #e69500;padding:.4em .8em;margin:.6em 0}"
	".fail{color:#b71c1c;font-weight:bold}.pass{color:#1a7f37}.dim{color:#777}"
	".plots{display:flex;flex-wrap:wrap;gap:10px}.plots figure{margin:0}"
	"p.note{font-size:13px;color:#444}details{margin:.5em 0}summary{cursor:pointer;color:#0b57d0}";

/* each string as an escaped list item, `after` following each </li> */
static void html_items(FILE *out, char *const *s, const char *after)
{
	for (size_t i = 0; s[i]; i++) {
		fprintf(out, "<li>");
		esc(out, s[i]);
		fprintf(out, "</li>%s", after);
	}
}

static void answer_html(const struct report *r, const struct verdict *v, const struct answer *a, FILE *out)
{
	fprintf(out, "<ul class=answer id=prediction>\n");
	char **s = answer_prediction(r, a);
	html_items(out, s, "\n");
	strings_free(s);
	fprintf(out, "</ul>\n");
	for (size_t i = 0; i < r->ntargets; i++) {
		char *lossy = answer_lossy(&r->targets[i]);
		if (lossy) {
			fprintf(out, "<p class=lossy id=lossy><b>Lossy:</b> ");
			esc(out, lossy);
			fprintf(out, "</p>\n");
			free(lossy);
		}
	}
	const char *name = report_state_name(v->state);
	fprintf(out, "<div class=\"state %s\" id=state><b>%s</b>%s", v->state == STATE_PASS ? "PASS" : v->state == STATE_FAIL ? "FAIL" : "NOT",
		name, v->state == STATE_PASS ? ": every figure computed, every threshold held, nothing regressed" : "");
	if (v->reasons && v->reasons[0]) {
		fprintf(out, "<ul>");
		html_items(out, v->reasons, "");
		fprintf(out, "</ul>");
	}
	fprintf(out, "</div>\n<h2>How far from the real run</h2>\n<ul id=accuracy>\n");
	s = answer_accuracy(r);
	html_items(out, s, "\n");
	strings_free(s);
	fprintf(out, "</ul>\n");
	if (!plot_available()) {
		fprintf(out, "<p>No plots: gnuplot is not installed.</p>\n");
		return;
	}
	fprintf(out, "<div class=plots>\n");
	times_plot(r, a, out);
	static const char *const metrics[] = {"time", "visits", "bytes_sent", "msgs_sent"};
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
		metric_plot(r, metrics[i], out);
	fprintf(out, "</div>\n<p class=note>Predicted against measured at %ld ranks: each point is a call path "
		"(per rank, %s over ranks), every prediction whatever its fit; on the dashed diagonal it is exact. The model "
		"figures count only the predictions whose fit is ok or noisy. The bars are the application's time at each "
		"target and what predicted it.</p>\n", r->model_target, r->reduce);
}

static void figures_html(const struct report *r, const struct verdict *v, FILE *out)
{
	char a[32], b[32], c[32];
	fprintf(out, "<h2>Figures</h2>\n<table><tr><th>figure</th><th>target</th><th>value</th><th>threshold</th>"
		"<th>trailing median</th><th>nights</th><th>state</th><th>source</th></tr>\n");
	for (size_t i = 0; i < r->figs.n; i++) {
		const struct figure *g = &r->figs.v[i];
		const char *state = figure_state(g);
		bool bad = g->regression || !g->held;
		fprintf(out, "<tr><td>");
		esc(out, g->name);
		fprintf(out, "</td><td class=n>%ld</td><td class=n>%s</td><td class=n>%s%s</td><td class=n>%s</td>"
			"<td class=n>%zu</td><td class=\"%s\">%s</td><td>", g->target, fmt_num(g->value, a, sizeof a),
			g->has_threshold ? fmt_num(g->threshold, b, sizeof b) : "none",
			g->default_threshold ? " <span class=dim>default</span>" : "", fmt_num(g->trailing_median, c, sizeof c),
			g->nights, bad ? "fail" : (isnan(g->value) || !g->has_threshold) ? "dim" : "pass", state);
		path_html(out, r, g->source);
		fprintf(out, "</td></tr>\n");
	}
	char *dir = campaign_dir(r);
	fprintf(out, "</table>\n<p class=note>Every figure is higher-is-better; the threshold is its lowest acceptable value "
		"(defaults: events and counts 1, time and proxy 0.9, model_time 0.5, the other models 0.9, interval 0.8, "
		"ranking 0.5, topk 0.6; the workflow's <code>acceptance</code> overrides them, NAME=none removes one). "
		"A regression is a value below the median of its last %zu nights by more than %g (a figure without a rule is not judged). Sources are relative to "
		"<code>", v->thresholds ? v->thresholds->window : 5, v->thresholds ? v->thresholds->margin : 0.05);
	esc(out, dir);
	fprintf(out, "</code> (the full path is in the tooltip).</p>\n");
	free(dir);
	for (size_t i = 0; v->thresholds && i < v->thresholds->n; i++)
		if (!v->thresholds->v[i].used) {
			fprintf(out, "<p>Note: threshold '");
			esc(out, v->thresholds->v[i].name);
			fprintf(out, "' names no figure of this report.</p>\n");
		}
	if (v->history && v->history->n && plot_available()) {
		fprintf(out, "<h2>Nightly trend</h2>\n");
		trend_plot(r, v, out);
		fprintf(out, "<p class=note>Every figure over the last %d nights of ", TREND_NIGHTS);
		esc(out, v->history_path ? v->history_path : "the history");
		fprintf(out, " and this report (the last point); red: a night that regressed; dashed: the threshold.</p>\n");
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
				"<td class=n>%s</td><td>", t->ranks, w->compute_scale, w->message_scale,
				fmt_num(w->time, a, sizeof a), fmt_num(w->time / t->replay_time, b, sizeof b));
			path_html(out, r, w->replay);
			fprintf(out, "</td></tr>\n");
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
			"<td class=n>%s</td><td class=n>%s</td><td>", t->ranks, fmt_num(t->proxy_time, a, sizeof a),
			fmt_num(t->app_time, b, sizeof b), fmt_num(t->proxy_accuracy, c, sizeof c),
			fmt_num(t->replay_time, d, sizeof d), fmt_num(t->proxy_time / t->replay_time, a, sizeof a));
		path_html(out, r, t->proxy);
		fprintf(out, "</td></tr>\n");
	}
	fprintf(out, "</table>\n<p class=note>The proxy is the C+MPI program <code>ladder proxy</code> wrote from the "
		"extrapolated trace, run on the target's ranks; its accuracy is 1 − |T_proxy − T_app| / T_app (ScalaBenchGen "
		"§5), T_proxy from after MPI_Init to MPI_Finalize, the slowest rank; T_app as in the table above.</p>\n");
}

static void targets_html(const struct report *r, FILE *out)
{
	char a[32], b[32], c[32];
	fprintf(out, "<h2>Validation at the target</h2>\n<table class=fixed><colgroup><col style=width:6%%><col style=width:17%%>"
		"<col style=width:10%%><col style=width:27%%><col style=width:14%%><col style=width:9%%><col style=width:8%%>"
		"<col style=width:9%%></colgroup><tr><th>ranks</th><th>real application</th><th>T_app [s]</th>"
		"<th>extrapolated trace</th><th>events</th><th>counts</th><th>T_replay [s]</th><th>time accuracy</th></tr>\n");
	for (size_t i = 0; i < r->ntargets; i++) {
		const struct report_target *t = &r->targets[i];
		fprintf(out, "<tr><td class=n>%ld</td><td>", t->ranks);
		if (t->ntruth)
			path_html(out, r, t->truth[0]);
		else
			fprintf(out, "not run");
		fprintf(out, "</td><td class=n>%s%s</td><td>", fmt_num(t->app_time, a, sizeof a),
			t->ntimed ? " untraced" : t->ntruth ? " traced" : "");
		if (t->extrap) {
			path_html(out, r, t->extrap);
			fprintf(out, "%s%s", t->extrap_synthetic ? "" : " <b>(not synthetic: a measured run as input)</b>",
				t->lossy.lossy ? " <b>(lossy)</b>" : "");
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
		fprintf(out, "</td><td>%s</td><td class=n>%s</td><td class=n>%s</td></tr>\n",
			t->counts_equal < 0 ? "not checked" : t->counts_equal ? "equal" : "<span class=fail>different</span>",
			fmt_num(t->replay_time, b, sizeof b), fmt_num(t->time_accuracy, c, sizeof c));
	}
	fprintf(out, "</table>\n<p class=note>T_app is the application's untraced time where <code>ladder time</code> timed it "
		"(else, marked traced, the traced run's wall time from MPI_Init's return to MPI_Finalize); T_replay is the "
		"replay of the extrapolated trace, first to last call, the longest rank; time accuracy is 1 − |T_replay − "
		"T_app| / T_app (ScalaExtrap §5.2).</p>\n");
	whatif_html(r, out);
	proxy_html(r, out);
}

static void model_row_html(FILE *out, const struct report_model *x)
{
	char p[32], lo[32], hi[32], m[32], a[32];
	fprintf(out, "<tr><td><code>");
	esc(out, x->callpath);
	fprintf(out, "</code></td><td>");
	esc(out, x->metric);
	fprintf(out, "</td><td><code>");
	esc(out, x->model[0] ? x->model : x->status);
	fprintf(out, "</code></td><td class=n>%s</td><td class=n>[%s, %s]%s</td><td class=n>%s</td><td class=n>%s</td>"
		"<td>%s</td></tr>\n", fmt_num(x->prediction, p, sizeof p), fmt_num(x->lower, lo, sizeof lo),
		fmt_num(x->upper, hi, sizeof hi), x->supported ? "" : " <span class=fail>unsupported</span>",
		fmt_num(x->measured, m, sizeof m), fmt_num(x->accuracy, a, sizeof a),
		x->held < 0 ? "-" : x->held ? "yes" : "<span class=fail>no</span>");
}

static const char *model_head = "<table class=fixed><colgroup><col style=width:22%><col style=width:8%>"
				"<col style=width:25%><col style=width:9%><col style=width:15%><col style=width:8%>"
				"<col style=width:7%><col style=width:6%></colgroup><tr><th>call path</th><th>metric</th><th>model</th><th>predicted</th>"
				"<th>interval</th><th>measured</th><th>accuracy</th><th>interval held</th></tr>\n";

static void models_html(const struct report *r, FILE *out)
{
	char p[32], a[32];
	if (!r->nmodels) {
		fprintf(out, "<h2>Models</h2>\n<p>The campaign has no models (no <code>model</code> stage ran).</p>\n");
		return;
	}
	fprintf(out, "<h2>Models at %ld ranks</h2>\n", r->model_target);
	fprintf(out, "<p>Kernel ranking (time) over %zu call paths: Spearman %s, top-%zu agreement %s. Shown: the time of the "
		"top %zu call paths and every prediction whose interval missed the measurement or that the ladder does not "
		"support. Models from <code>campaign.h5:/models/callpaths</code> (", r->ranked, fmt_num(r->spearman, p, sizeof p),
		r->k, fmt_num(r->topk, a, sizeof a), r->k ? r->k : 5);
	esc(out, r->settings);
	fprintf(out, ").</p>\n%s", model_head);
	size_t rest = 0;
	double cutoff = model_topk_floor(r);
	for (size_t i = 0; i < r->nmodels; i++) {
		if (model_row_matters(&r->models[i], cutoff))
			model_row_html(out, &r->models[i]);
		else
			rest++;
	}
	fprintf(out, "</table>\n");
	if (rest) {
		fprintf(out, "<details><summary>The other %zu rows (small or held)</summary>\n%s", rest, model_head);
		for (size_t i = 0; i < r->nmodels; i++)
			if (!model_row_matters(&r->models[i], cutoff))
				model_row_html(out, &r->models[i]);
		fprintf(out, "</table></details>\n");
	}
	fprintf(out, "<p class=note>Predicted and measured are per rank (%s over ranks) at the models' target; accuracy is "
		"1 − |predicted − measured| / measured; unsupported: the ladder does not constrain the prediction at the "
		"target (its interval reaches 0 or spans more than 10x, or the model says so).</p>\n", r->reduce);
	if (!plot_available())
		return;
	fprintf(out, "<h3>The leading call paths over the ladder</h3>\n<div class=plots>\n");
	const struct report_model **pick;
	size_t n = pick_models(r, &pick);
	for (size_t i = 0; i < n; i++)
		callpath_plot(r, pick[i], out);
	free(pick);
	fprintf(out, "</div>\n");
}

bool report_write_html(const struct report *r, const struct verdict *v, FILE *out)
{
	struct answer a;
	answer_of(r, &a);
	fprintf(out, "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>\n"
		"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
		"img-src data:; script-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'\">\n"
		"<meta name=viewport content=\"width=device-width, initial-scale=1\">\n<title>ladder report: ");
	esc(out, r->application);
	fprintf(out, "</title><style>%s</style></head><body>\n<h1>ladder report: ", style);
	esc(out, r->application);
	fprintf(out, "</h1>\n<p class=note>Campaign ");
	path_html(out, r, r->campaign);
	fprintf(out, ", report of %s.</p>\n", r->created ? r->created : "");
	answer_html(r, v, &a, out);
	figures_html(r, v, out);
	targets_html(r, out);
	models_html(r, out);
	fprintf(out, "</body></html>\n");
	return true;
}
