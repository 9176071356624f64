/*
 * history — judging the nights of the history and appending one. See history.h.
 */
#include "report/history.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/accuracy.h"
#include "util/xalloc.h"

int history_lock(const char *path, struct h5_err *e)
{
	char *name = xasprintf("%s.lock", path);
	int fd = open(name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	struct stat st;
	if (fd < 0) {
		h5_fail(e, name, "cannot open the history's lock file (%s)", strerror(errno));
	} else if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		h5_fail(e, name, "the history's lock file is not a regular file");
		close(fd);
		fd = -1;
	} else if (flock(fd, LOCK_EX)) {
		h5_fail(e, name, "cannot lock the history (%s)", strerror(errno));
		close(fd);
		fd = -1;
	}
	free(name);
	return fd;
}

void history_unlock(int fd)
{
	if (fd >= 0)
		close(fd);   /* releases the lock */
}

void history_judge(const struct history *h, struct figures *f, size_t window, double margin)
{
	double *past = xcalloc(h->n + 1, sizeof *past);
	for (size_t i = 0; i < f->n; i++) {
		struct figure *g = &f->v[i];
		size_t n = 0;
		for (size_t k = 0; k < h->n; k++) /* rows are in night order */
			if (!strcmp(h->rows[k].figure, g->name) && (long)h->rows[k].target == g->target &&
			    isfinite(h->rows[k].value))
				past[n++] = h->rows[k].value;
		g->nights = n;
		size_t from = n > window ? n - window : 0;
		g->trailing_median = median_of(past + from, n - from);
		/* a figure without a rule (NAME=none) is recorded, not judged */
		g->regression = !g->no_rule && isfinite(g->value) && isfinite(g->trailing_median) &&
				g->value < g->trailing_median - margin;
	}
	free(past);
}

bool history_append(const char *path, struct history *h, const struct figures *f, const char *night,
		    const char *campaign, const char *application, struct h5_err *e)
{
	size_t n = h->n + f->n;
	struct history_row *rows = xcalloc(n + 1, sizeof *rows);
	if (h->n)
		memcpy(rows, h->rows, h->n * sizeof *rows);
	for (size_t i = 0; i < f->n; i++) {
		const struct figure *g = &f->v[i];
		rows[h->n + i] = (struct history_row){(char *)night, (char *)campaign, (char *)application, g->name,
			(uint32_t)g->target, g->value, g->has_threshold ? g->threshold : NAN, g->held, g->regression};
	}
	bool ok = history_write(path, rows, n, night, e);
	free(rows);
	return ok;
}

size_t history_nights(const struct history *h, char ***nights)
{
	char **v = xcalloc(h->n + 1, sizeof *v);
	size_t n = 0;
	for (size_t k = 0; k < h->n; k++)
		if (!n || strcmp(v[n - 1], h->rows[k].night))
			v[n++] = h->rows[k].night;
	*nights = v;
	return n;
}

size_t history_series(const struct history *h, const char *figure, uint32_t target, size_t last, double *values,
		      bool *regressed)
{
	size_t nights = 0;
	for (size_t k = 0; k < h->n; k++)
		nights += !k || strcmp(h->rows[k - 1].night, h->rows[k].night);
	size_t n = nights < last ? nights : last, first = nights - n, night = 0;
	for (size_t i = 0; i < n; i++) {
		values[i] = NAN;
		if (regressed)
			regressed[i] = false;
	}
	for (size_t k = 0; k < h->n; k++) {
		if (k && strcmp(h->rows[k - 1].night, h->rows[k].night))
			night++;
		if (night >= first && h->rows[k].target == target && !strcmp(h->rows[k].figure, figure)) {
			values[night - first] = h->rows[k].value;
			if (regressed)
				regressed[night - first] = h->rows[k].regression;
		}
	}
	return n;
}

double history_value(const struct history *h, const char *night, const char *figure, uint32_t target)
{
	for (size_t k = 0; k < h->n; k++)
		if (!strcmp(h->rows[k].night, night) && !strcmp(h->rows[k].figure, figure) && h->rows[k].target == target)
			return h->rows[k].value;
	return NAN;
}
