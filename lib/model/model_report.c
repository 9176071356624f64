/*
 * model_report — the aligned text table of ranked models. See model_report.h.
 */
#include "model/model_report.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

enum { C_RANK, C_PATH, C_PRED, C_INTERVAL, C_GROWTH, C_AR2, C_SMAPE, C_MODEL, NCOLS };

void model_format_target(const struct model_results *res, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t l = 0; l < res->e->nparams && used + 1 < len; l++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%g", l ? ", " : "", res->e->params[l], res->target[l]);
}

/* the cells of one row; every cell is freshly allocated */
static void row_cells(const struct model_results *res, size_t rank, size_t cp, size_t metric, char **cell)
{
	const struct model_result *r = &res->r[model_index(res, cp, metric)];
	char buf[1024];
	cell[C_RANK] = xasprintf("%zu", rank);
	cell[C_PATH] = xstrdup(experiment_callpath(res->e, cp));
	bool modeled = model_status_has_function(r->status);
	if (!modeled) {
		for (int c = C_PRED; c < NCOLS; c++)
			cell[c] = xstrdup(c == C_MODEL ? model_status_name(r->status) : "-");
		return;
	}
	cell[C_PRED] = xasprintf("%.4g", r->prediction.value);
	/* the ranking marks a prediction the ladder does not support where its interval is */
	const char *mark = r->prediction.supported ? "" : " unsupported";
	cell[C_INTERVAL] = r->prediction.has_interval
				   ? xasprintf("[%.4g, %.4g]%s", r->prediction.lo, r->prediction.hi, mark)
				   : xasprintf("-%s", mark);
	cell[C_GROWTH] = xstrdup(r->growth);
	if (r->status == MODEL_NOISY) {
		cell[C_AR2] = xstrdup("-");
		cell[C_SMAPE] = xstrdup("-");
		cell[C_MODEL] = xasprintf("(median level; too noisy)");
		return;
	}
	cell[C_AR2] = xasprintf("%.4f", r->quality.ar2);
	cell[C_SMAPE] = xasprintf("%.2f%%", r->quality.smape);
	if (r->exact) {
		cell[C_MODEL] = xasprintf("exact: %s", r->law);
		return;
	}
	pmnf_format(&r->fn, (const char *const *)res->e->params, buf, sizeof buf);
	cell[C_MODEL] = r->status == MODEL_POOR ? xasprintf("(poor fit) %s", buf) : xstrdup(buf);
}

void model_print_table(FILE *out, const struct model_results *res, size_t metric, const size_t *order, size_t limit)
{
	size_t rows = limit && limit < res->ncallpaths ? limit : res->ncallpaths;
	char target[256], pred_head[300], interval_head[64];
	model_format_target(res, target, sizeof target);
	snprintf(pred_head, sizeof pred_head, "%s at %s", experiment_metric(res->e, metric), target);
	snprintf(interval_head, sizeof interval_head, "%.0f%% interval", 100 * res->options.level);
	const char *head[NCOLS] = {"#", "call path", pred_head, interval_head, "growth", "adj.R2", "SMAPE", "model"};
	char **cells = xcalloc((rows ? rows : 1) * NCOLS, sizeof *cells);
	size_t width[NCOLS];
	for (int c = 0; c < NCOLS; c++)
		width[c] = strlen(head[c]);
	for (size_t k = 0; k < rows; k++) {
		row_cells(res, k + 1, order[k], metric, cells + k * NCOLS);
		for (int c = 0; c < NCOLS; c++)
			if (strlen(cells[k * NCOLS + c]) > width[c])
				width[c] = strlen(cells[k * NCOLS + c]);
	}
	/* numbers right-aligned, text left-aligned; the model is last and not padded */
	static const bool right[NCOLS] = {true, false, true, false, false, true, true, false};
	for (size_t k = 0; k <= rows; k++) {
		for (int c = 0; c < NCOLS; c++) {
			const char *s = k == 0 ? head[c] : cells[(k - 1) * NCOLS + c];
			if (c == NCOLS - 1)
				fprintf(out, "%s", s);
			else
				fprintf(out, right[c] ? "%*s  " : "%-*s  ", (int)width[c], s);
		}
		fputc('\n', out);
		if (k == 0)
			continue;
		const struct model_result *r = &res->r[model_index(res, order[k - 1], metric)];
		if (r->note[0])
			fprintf(out, "%*s  ! %s\n", (int)width[C_RANK], "", r->note);
	}
	for (size_t k = 0; k < rows * NCOLS; k++)
		free(cells[k]);
	free(cells);
}
