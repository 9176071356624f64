/*
 * loss_at — what a lossy synthetic run keeps of the calls the application is expected to make at
 * the target. See loss_at.h.
 */
#include "extrap/loss_at.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "meet/call_facts.h"
#include "meet/comms.h"
#include "extrap/law.h"
#include "run/events.h"
#include "util/buf.h"
#include "util/xalloc.h"

/* per function: calls and bytes (sent and received) at each rung, and in the synthetic run */
struct fn_tally {
	const char *name;
	int64_t *calls, *bytes;   /* per rung */
	uint64_t kept_calls, kept_bytes;
	uint64_t expected_calls, expected_bytes;
};

struct tallies {
	struct fn_tally *t;
	size_t n, cap, nrungs;
};

static struct fn_tally *tally_of(struct tallies *all, const char *name)
{
	for (size_t i = 0; i < all->n; i++)
		if (!strcmp(all->t[i].name, name))
			return &all->t[i];
	XGROW(all->t, all->cap, all->n + 1);
	struct fn_tally *t = &all->t[all->n++];
	memset(t, 0, sizeof *t);
	t->name = name;
	t->calls = xcalloc(all->nrungs + 1, sizeof *t->calls);
	t->bytes = xcalloc(all->nrungs + 1, sizeof *t->bytes);
	return t;
}

/* every call of every rank of r: into rung `rung`'s column, or (rung SIZE_MAX) the kept counts */
static void count_run(struct tallies *all, const struct run *r, size_t rung)
{
	struct comm_table comms;
	comm_table_build(&comms, r);
	for (uint32_t rank = 0; rank < r->nranks; rank++) {
		struct event_iter it;
		struct event ev;
		struct call_facts f;
		event_iter_init(&it, r, rank);
		while (event_next(&it, &ev)) {
			call_facts_read(&ev, rank, &comms, &f);
			struct fn_tally *t = tally_of(all, ev.fn->name);
			uint64_t calls = ev.repeat > 1 ? ev.repeat : 1, bytes = f.vol.sent + f.vol.recv;
			if (rung == SIZE_MAX) {
				t->kept_calls += calls, t->kept_bytes += bytes;
			} else {
				t->calls[rung] += (int64_t)calls, t->bytes[rung] += (int64_t)bytes;
			}
		}
		event_iter_free(&it);
	}
	comm_table_free(&comms);
}

/* the total at the target: an exact law of the grid (law.h) when the rungs' totals follow one, else
 * the per-rank mean as a power of P fitted through the rungs (least squares in log-log; the largest
 * rung's mean when fewer than two rungs have any) times the target's ranks */
static uint64_t project(const int64_t *totals, struct run *const *rungs, const struct grid *grids, size_t n,
			const struct grid *target)
{
	struct law law;
	law_solve(totals, grids, n, target, &law);
	if (law.status == LAW_OK && law.predicted >= 0)
		return (uint64_t)law.predicted;
	double P = (double)grid_size(target), sx = 0, sy = 0, sxx = 0, sxy = 0, largest = 0;
	uint32_t most = 0;
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		double mean = (double)totals[i] / rungs[i]->nranks;
		if (rungs[i]->nranks > most)
			most = rungs[i]->nranks, largest = mean;
		if (mean <= 0)
			continue;
		double x = log((double)rungs[i]->nranks), y = log(mean);
		sx += x, sy += y, sxx += x * x, sxy += x * y, m++;
	}
	double det = (double)m * sxx - sx * sx;
	if (m < 2 || det <= 0)
		return (uint64_t)llround(largest * P);
	double k = ((double)m * sxy - sx * sy) / det, a = (sy - k * sx) / (double)m;
	return (uint64_t)llround(exp(a + k * log(P)) * P);
}

static double share(uint64_t kept, uint64_t expected)
{
	if (!expected)
		return 1.0;
	double s = (double)kept / (double)expected;
	return s > 1.0 ? 1.0 : s;
}

void loss_at_record(struct run *const *rungs, const struct grid *grids, size_t n, const struct grid *target,
		    struct run *out, struct loss_at *sum)
{
	struct tallies all = {NULL, 0, 0, n};
	for (size_t i = 0; i < n; i++)
		count_run(&all, rungs[i], i);
	count_run(&all, out, SIZE_MAX);
	memset(sum, 0, sizeof *sum);
	struct buf list;
	buf_init(&list);
	for (size_t i = 0; i < all.n; i++) {
		struct fn_tally *t = &all.t[i];
		t->expected_calls = project(t->calls, rungs, grids, n, target);
		t->expected_bytes = project(t->bytes, rungs, grids, n, target);
		sum->expected_calls += t->expected_calls, sum->expected_bytes += t->expected_bytes;
		sum->kept_calls += t->kept_calls, sum->kept_bytes += t->kept_bytes;
		char entry[200];
		int len = snprintf(entry, sizeof entry, "%s%s %llu %llu %llu %llu", i ? ";" : "", t->name,
				   (unsigned long long)t->kept_calls, (unsigned long long)t->expected_calls,
				   (unsigned long long)t->kept_bytes, (unsigned long long)t->expected_bytes);
		buf_put(&list, entry, (size_t)len);
		free(t->calls);
		free(t->bytes);
	}
	buf_put(&list, "", 1);
	free(all.t);
	sum->calls_share = share(sum->kept_calls, sum->expected_calls);
	sum->bytes_share = share(sum->kept_bytes, sum->expected_bytes);
	char v[64];
	snprintf(v, sizeof v, "%llu", (unsigned long long)sum->expected_calls);
	run_set_label(out, "lossy_expected_calls", v);
	snprintf(v, sizeof v, "%llu", (unsigned long long)sum->expected_bytes);
	run_set_label(out, "lossy_expected_bytes", v);
	snprintf(v, sizeof v, "%.4f", sum->calls_share);
	run_set_label(out, "lossy_kept_calls_share", v);
	snprintf(v, sizeof v, "%.4f", sum->bytes_share);
	run_set_label(out, "lossy_kept_bytes_share", v);
	run_set_label(out, "lossy_kept_by_function", (const char *)list.data);
	buf_free(&list);
}
