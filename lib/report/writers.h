/*
 * writers — a gathered report as JSON (for machines), Markdown (a summary for people and CI logs)
 * and one self-contained HTML file with plots (report/html.c). Each names the file every number
 * comes from; none needs the network to be read.
 */
#ifndef LADDER_REPORT_WRITERS_H
#define LADDER_REPORT_WRITERS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/answer.h"
#include "report/escape.h"
#include "report/figures.h"
#include "report/history.h"
#include "report/report.h"

/* what the verdict rests on, for every writer */
struct verdict {
	const struct thresholds *thresholds;
	const struct history *history;   /* the past nights (without this one), may be empty */
	const char *history_path;        /* NULL without --history */
	bool strict;
	enum report_state state;         /* report_judge() */
	char **reasons;                  /* its reasons, NULL-terminated */
	bool pass;                       /* state == STATE_PASS */
};

/* Each writes the whole report to out (the caller puts it in its file as a whole, or not at all);
 * false when it cannot be made. */
typedef bool report_writer(const struct report *r, const struct verdict *v, FILE *out);
report_writer report_write_json, report_write_markdown;
/* plots are drawn with gnuplot (SVG, inlined); without gnuplot the page says so */
report_writer report_write_html;

/* "0.953" or "-" for NaN, into buf */
const char *fmt_num(double x, char *buf, size_t len);
/* the figure's state: "held", "MISSED", "REGRESSED", "not computed", "no rule" */
const char *figure_state(const struct figure *g);

/* s with the campaign's directory taken off every path in it (fresh): what the tables show; the
 * full text is in a tooltip (HTML) or the JSON */
char *relative_paths(const struct report *r, const char *s);
/* the campaign's directory (fresh) */
char *campaign_dir(const struct report *r);

/* the models rows worth a table row: the time rows of the top-k call paths (by measured, else
 * predicted time) and every row whose interval missed or whose prediction is unsupported; the
 * rest behind a <details> (HTML) or left to the JSON. */
double model_topk_floor(const struct report *r);   /* the k-th largest time row at the target */
bool model_row_matters(const struct report_model *m, double cutoff);

#endif
