/*
 * timeline — one rank's calls with start and duration. See timeline.h.
 */
#include "export/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static int gap_order(const void *a, const void *b)
{
	const struct gap_mean *x = a, *y = b;
	if (x->prev != y->prev)
		return x->prev < y->prev ? -1 : 1;
	return x->sig < y->sig ? -1 : x->sig > y->sig;
}

static const struct run_timestamps *recorded_times(const struct run *r, uint32_t rank)
{
	for (uint32_t i = 0; i < r->ntimestamps; i++)
		if (r->timestamps[i].rank == rank)
			return &r->timestamps[i];
	return NULL;
}

bool timeline_has_recorded_times(const struct run *r, uint32_t rank)
{
	return recorded_times(r, rank) != NULL;
}

void timeline_init(struct timeline *t, const struct run *r, uint32_t rank)
{
	memset(t, 0, sizeof *t);
	event_iter_init(&t->it, r, rank);
	const struct run_group *g = &r->groups[run_rank_group(r, rank)];
	t->dur_mean = xcalloc(r->nsigs ? r->nsigs : 1, sizeof *t->dur_mean);
	for (uint32_t i = 0; i < g->ndurs; i++)
		if (g->durs[i].sig < r->nsigs && g->durs[i].count)
			t->dur_mean[g->durs[i].sig] = g->durs[i].sum / (double)g->durs[i].count;
	t->gaps = xcalloc(g->ngaps ? g->ngaps : 1, sizeof *t->gaps);
	for (uint32_t i = 0; i < g->ngaps; i++) {
		const struct run_gap *x = &g->gaps[i];
		t->gaps[i] = (struct gap_mean){x->prev, x->sig, x->count ? x->sum / (double)x->count : 0};
	}
	t->ngaps = g->ngaps;
	qsort(t->gaps, t->ngaps, sizeof *t->gaps, gap_order);
	t->ts = recorded_times(r, rank);
	t->prev = RUN_NO_PREV;
	t->recorded = t->ts != NULL;
}

void timeline_free(struct timeline *t)
{
	event_iter_free(&t->it);
	free(t->dur_mean);
	free(t->gaps);
	memset(t, 0, sizeof *t);
}

static double gap_before(const struct timeline *t, uint32_t sig)
{
	struct gap_mean key = {t->prev, sig, 0};
	const struct gap_mean *g = bsearch(&key, t->gaps, t->ngaps, sizeof *t->gaps, gap_order);
	return g ? g->mean : 0;
}

bool timeline_next(struct timeline *t, struct timed_event *out)
{
	if (!t->repeat_left) {
		if (!event_next(&t->it, &t->pending))
			return false;
		t->repeat_left = t->pending.repeat ? t->pending.repeat : 1;
	}
	t->repeat_left--;
	out->ev = t->pending;
	out->ev.repeat = 1;
	uint32_t sig = t->pending.sig;
	if (t->ts && t->ts_next < t->ts->n) {
		out->start = t->ts->start[t->ts_next];
		out->dur = t->ts->dur[t->ts_next];
		t->ts_next++;
	} else {
		t->recorded = false;
		out->start = t->now + gap_before(t, sig);
		out->dur = t->dur_mean[sig];
	}
	if (out->start < t->now)      /* keep time monotonic whatever the inputs say */
		out->start = t->now;
	if (!(out->dur >= 0))
		out->dur = 0;
	t->now = out->start + out->dur;
	t->prev = sig;
	return true;
}

const char *timeline_error(const struct timeline *t)
{
	return t->it.error[0] ? t->it.error : NULL;
}
