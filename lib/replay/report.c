/*
 * report — what a replay did, reduced over ranks with PMPI (never recorded): the replay time (the
 * longest rank, from its first to its last replayed call, or over the window the options set),
 * the emulated compute, the CPU time the ranks used, and per function the calls and bytes of
 * every rank together. Rank 0 prints it as text on stdout and, on request, as JSON.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "mpi/signature.h"
#include "run/summary.h"
#include "util/log.h"
#include "util/xalloc.h"

struct totals {
	double total, window, compute, cpu;
	double modeled[3];        /* the extrapolation's predictions of the gaps, max over ranks */
	uint64_t gaps_modeled;
	uint64_t polls_skipped, polls_early, gaps_missing;
	uint64_t *v;              /* calls, sent, recv per function */
	double *time;             /* seconds in each function, summed over ranks */
};

static void gather(struct rp *x, struct totals *t)
{
	double mine[4] = {x->t_last - x->t_first, x->t_to - x->t_from, x->compute, x->cpu_end - x->cpu_start}, most[4];
	uint64_t cnt[3] = {x->polls_skipped, x->gaps_missing, x->polls_early}, sum[3];
	PMPI_Reduce(mine, most, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	PMPI_Reduce(cnt, sum, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	size_t n = 3 * (size_t)ladder_nfunctions;
	uint64_t *v = xmalloc(n * sizeof *v);
	for (uint32_t f = 0; f < ladder_nfunctions; f++) {
		v[3 * f] = x->stats[f].calls;
		v[3 * f + 1] = x->stats[f].sent;
		v[3 * f + 2] = x->stats[f].recv;
	}
	t->v = xmalloc(n * sizeof *t->v);
	PMPI_Reduce(v, t->v, (int)n, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	free(v);
	double *tm = xmalloc(ladder_nfunctions * sizeof *tm);
	for (uint32_t f = 0; f < ladder_nfunctions; f++)
		tm[f] = x->stats[f].time;
	t->time = xmalloc(ladder_nfunctions * sizeof *t->time);
	PMPI_Reduce(tm, t->time, (int)ladder_nfunctions, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	free(tm);
	PMPI_Reduce(x->modeled, t->modeled, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	PMPI_Reduce(&x->gaps_modeled, &t->gaps_modeled, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	t->total = most[0];
	t->window = most[1];
	t->compute = most[2];
	t->cpu = most[3];
	t->polls_skipped = sum[0];
	t->gaps_missing = sum[1];
	t->polls_early = sum[2];
}

static void mark_text(const struct rp_mark *m, const char *dflt, char *out, size_t len)
{
	if (m->fn[0])
		snprintf(out, len, "%s:%ld", m->fn, m->nth);
	else
		snprintf(out, len, "%s", dflt);
}

/* The functions the tracer only counted (not in the function table: one-sided, I/O, ...), over
 * all ranks, sorted by name; *n entries. The replayer cannot issue them. */
static struct fn_count *not_replayed(const struct run *r, uint32_t *n)
{
	struct fn_count *all;
	uint32_t nall = run_function_counts(r, -1, &all), k = 0;
	for (uint32_t i = 0; i < nall; i++)
		if (fn_lookup(all[i].name) < 0 && all[i].calls > 0)
			all[k++] = all[i];
	*n = k;
	return all;
}

static void print_not_replayed(const struct run *r)
{
	uint32_t n;
	struct fn_count *c = not_replayed(r, &n);
	if (n) {
		printf("not replayed (counted by the tracer, not recorded):");
		for (uint32_t i = 0; i < n; i++)
			printf("%s %s x%.0f", i ? "," : "", c[i].name, c[i].calls);
		printf("\n");
	}
	free(c);
}

static json_t *not_replayed_json(const struct run *r)
{
	uint32_t n;
	struct fn_count *c = not_replayed(r, &n);
	json_t *list = json_array();
	for (uint32_t i = 0; i < n; i++)
		json_array_append_new(list, json_pack("{s:s, s:I}", "function", c[i].name, "calls", (json_int_t)c[i].calls));
	free(c);
	return list;
}

static const char *clock_text(const struct rp_options *o)
{
	if (o->sleep)
		return "wall clock, sleep";
	return o->clock == RP_CLOCK_CPU ? "CPU clock, busy" : "wall clock, busy-wait";
}

static void print_text(struct rp *x, const char *path, const struct totals *t)
{
	const struct rp_options *o = &x->opt;
	char from[96], to[96];
	mark_text(&o->from, "first call", from, sizeof from);
	mark_text(&o->to, "last call", to, sizeof to);
	printf("replay of %s on %d ranks: timing %s, %s, compute x%g%s, messages x%g\n", path, x->size,
	       o->timing == RP_TIMING_MEAN ? "mean" : "sample", clock_text(o), o->compute_scale,
	       o->no_compute ? " (none)" : "", o->message_scale);
	printf("time     %.6f s  (%s .. %s, max over ranks)\n", t->window, from, to);
	printf("total    %.6f s  (first to last replayed call, max over ranks)\n", t->total);
	printf("compute  %.6f s  (emulated gaps, %s time, max over ranks)\n", t->compute,
	       o->clock == RP_CLOCK_CPU ? "CPU" : "wall");
	if (t->gaps_modeled)
		printf("modeled  %.6f s  [%.6f, %.6f]  (the extrapolation's predictions of those gaps' wall time and "
		       "their 95%% intervals, max over ranks)\n", t->modeled[0], t->modeled[1], t->modeled[2]);
	printf("cpu      %.6f s  (CPU time of the replay's calls and gaps, max over ranks)\n", t->cpu);
	if (t->polls_skipped)
		printf("note: %llu failed polls were not issued: nothing they polled was pending any more\n",
		       (unsigned long long)t->polls_skipped);
	if (t->polls_early)
		printf("note: %llu polls replayed as failed found something all the same (MPI progressed "
		       "inside them); the application's later polls of it were not issued again\n",
		       (unsigned long long)t->polls_early);
	if (t->gaps_missing)
		printf("note: %llu calls had no gap histogram and were replayed without compute before them\n",
		       (unsigned long long)t->gaps_missing);
	printf("%-28s %12s %16s %16s %12s\n", "function", "calls", "bytes_sent", "bytes_recv", "time_s");
	for (uint32_t f = 0; f < ladder_nfunctions; f++)
		if (t->v[3 * f])
			printf("%-28s %12llu %16llu %16llu %12.6f\n", ladder_functions[f].name,
			       (unsigned long long)t->v[3 * f], (unsigned long long)t->v[3 * f + 1],
			       (unsigned long long)t->v[3 * f + 2], t->time[f]);
	print_not_replayed(x->r);
	fflush(stdout);
}

static bool write_json(struct rp *x, const char *path, const char *json_path, const struct totals *t)
{
	const struct rp_options *o = &x->opt;
	json_t *fns = json_array();
	for (uint32_t f = 0; f < ladder_nfunctions; f++)
		if (t->v[3 * f])
			json_array_append_new(fns, json_pack("{s:s, s:I, s:I, s:I, s:f}", "function",
							     ladder_functions[f].name, "calls",
							     (json_int_t)t->v[3 * f], "bytes_sent",
							     (json_int_t)t->v[3 * f + 1], "bytes_recv",
							     (json_int_t)t->v[3 * f + 2], "time", t->time[f]));
	json_t *opts = json_pack("{s:s, s:s, s:b, s:b, s:f, s:f, s:I}", "timing",
				 o->timing == RP_TIMING_MEAN ? "mean" : "sample", "clock",
				 o->clock == RP_CLOCK_CPU ? "cpu" : "wall", "sleep", o->sleep,
				 "no_compute", o->no_compute, "compute_scale", o->compute_scale,
				 "message_scale", o->message_scale, "seed", (json_int_t)o->seed);
	char from[96], to[96];
	mark_text(&o->from, "first", from, sizeof from);
	mark_text(&o->to, "last", to, sizeof to);
	json_object_set_new(opts, "from", json_string(from));
	json_object_set_new(opts, "to", json_string(to));
	json_t *root = json_pack("{s:s, s:i, s:o, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:o}", "file", path, "ranks",
				 x->size, "options", opts, "time", t->window, "total_time", t->total,
				 "compute", t->compute, "cpu_time", t->cpu, "polls_skipped", (json_int_t)t->polls_skipped,
				 "polls_early", (json_int_t)t->polls_early,
				 "gaps_missing", (json_int_t)t->gaps_missing, "functions", fns);
	json_object_set_new(root, "not_replayed", not_replayed_json(x->r));
	if (t->gaps_modeled)
		json_object_set_new(root, "modeled_compute", json_pack("{s:f, s:f, s:f, s:I}", "predicted", t->modeled[0],
								     "lo", t->modeled[1], "hi", t->modeled[2], "gaps",
								     (json_int_t)t->gaps_modeled));
	bool ok = json_dump_file(root, json_path, JSON_INDENT(2)) == 0;
	json_decref(root);
	if (!ok)
		log_error("cannot write %s", json_path);
	return ok;
}

bool rp_report(struct rp *x, const char *path, bool text, const char *json_path)
{
	struct totals t;
	memset(&t, 0, sizeof t);
	gather(x, &t);
	bool ok = true;
	if (x->rank == 0) {
		if (text)
			print_text(x, path, &t);
		if (json_path)
			ok = write_json(x, path, json_path, &t);
	}
	free(t.v);
	free(t.time);
	return ok;
}
