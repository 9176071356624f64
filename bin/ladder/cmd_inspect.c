/*
 * ladder inspect — a readable summary of a container: what it is, who wrote it, how many ranks,
 * functions, calls and groups, the compute gaps' wall and CPU time, and how big it is. --counts
 * prints the per-rank call and byte table in the format of the reference apps' --expect;
 * --timing every group's compute gaps; --storage the bytes of every object.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "command.h"
#include "run/ranklist.h"
#include "run/summary.h"
#include "store/campaign_h5.h"
#include "store/storage.h"
#include "store/store.h"
#include "util/escape.h"
#include "util/exitcode.h"
#include "util/log.h"
#include "util/xalloc.h"

static void print_object_size(const struct store_object_size *o, void *arg)
{
	uint64_t *total = arg;
	*total += o->header + o->index + o->data;
	printf("%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", o->path, o->header, o->index, o->data,
	       o->header + o->index + o->data);
}

/* every object's bytes, then the file's: what the objects do not account for is the superblock
 * and free space */
static bool print_storage(const char *path, struct h5_err *e)
{
	uint64_t total = 0, file = 0;
	printf("object\theader\tindex\tdata\ttotal\n");
	if (!store_storage(path, print_object_size, &total, &file, e))
		return false;
	printf("(file)\t\t\t\t%" PRIu64 "\n(the rest: superblock, free space)\t\t\t\t%" PRIu64 "\n", file,
	       file > total ? file - total : 0);
	return true;
}

static void print_counts(const struct run *r)
{
	printf("rank\tfunction\tcalls\tbytes_sent\tbytes_recv\n");
	for (uint32_t q = 0; q < r->nranks; q++) {
		struct fn_count *c;
		uint32_t n = run_function_counts(r, q, &c);
		for (uint32_t i = 0; i < n; i++)
			printf("%u\t%s\t%.0f\t%.0f\t%.0f\n", q, c[i].name, c[i].calls, c[i].bytes_sent, c[i].bytes_recv);
		free(c);
	}
}

/* a signature as its function and number ("MPI_Isend#12"), or "start" for a rank's first call */
static void sig_name(const struct run *r, uint32_t sig, char *out, size_t n)
{
	if (sig == RUN_NO_PREV)
		snprintf(out, n, "start");
	else
		snprintf(out, n, "%s#%u", r->fns[r->sigs[sig].fn].name, sig);
}

/* --timing: every group's compute gaps, mean wall and CPU time per gap, and the range */
static void print_timing(const struct run *r, bool json)
{
	json_t *rows = json ? json_array() : NULL;
	if (!json)
		printf("# CPU times: %s\ngroup\tprevious\tcall\tcount\twall_mean_s\tcpu_mean_s\twall_min_s\twall_max_s\n",
		       run_cpu_time_names[r->cpu_time]);
	for (uint32_t g = 0; g < r->ngroups; g++)
		for (uint32_t k = 0; k < r->groups[g].ngaps; k++) {
			const struct run_gap *x = &r->groups[g].gaps[k];
			char prev[96], sig[96];
			sig_name(r, x->prev, prev, sizeof prev);
			sig_name(r, x->sig, sig, sizeof sig);
			double n = x->count ? (double)x->count : 1;
			if (json)
				json_array_append_new(rows, json_pack("{s:i, s:s, s:s, s:I, s:f, s:f, s:f, s:f}", "group", (int)g,
								      "previous", prev, "call", sig, "count", (json_int_t)x->count,
								      "wall_mean_s", x->sum / n, "cpu_mean_s", x->cpu.sum / n,
								      "wall_min_s", x->min, "wall_max_s", x->max));
			else
				printf("%u\t%s\t%s\t%" PRIu64 "\t%.9g\t%.9g\t%.9g\t%.9g\n", g, prev, sig, x->count, x->sum / n,
				       x->cpu.sum / n, x->min, x->max);
		}
	if (json) {
		json_t *o = json_pack("{s:s, s:o}", "cpu_time", run_cpu_time_names[r->cpu_time], "gaps", rows);
		json_dumpf(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
		putchar('\n');
		json_decref(o);
	}
}

static void human_size(double bytes, char *out, size_t n)
{
	const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int u = 0;
	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(out, n, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

/* false when a text attribute is not UTF-8 */
static bool print_run_json(const char *path, const struct run *r, off_t size, const struct fn_count *fc,
			   uint32_t nf)
{
	uint64_t rules, syms, gaps;
	double wall, cpu;
	run_grammar_size(r, &rules, &syms);
	run_gap_totals(r, &gaps, &wall, &cpu);
	json_t *o = json_pack("{s:s, s:s, s:I, s:i, s:b, s:s?, s:s?, s:s?, s:s?, s:s?, s:s?, s:i, s:i, s:I, s:I, s:I, s:i, s:I, s:I}",
			      "file", path, "kind", "run", "bytes", (json_int_t)size, "ranks", (int)r->nranks,
			      "synthetic", r->synthetic, "command", r->command, "host", r->host,
			      "slurm_job_id", r->slurm_job_id, "created", r->created, "tool_version",
			      r->tool_version, "tracer_options", r->options, "signatures", (int)r->nsigs,
			      "groups", (int)r->ngroups, "rules", (json_int_t)rules, "symbols", (json_int_t)syms,
			      "streamed_values", (json_int_t)run_streamed_values(r), "streams", (int)r->nstreams,
			      "stored_values", (json_int_t)run_stored_cells(r), "calls", (json_int_t)run_total_calls(r));
	if (!o) {
		log_error("%s: cannot print the summary as JSON (a text attribute is not UTF-8)", path);
		return false;
	}
	json_object_set_new(o, "gaps", json_pack("{s:I, s:f, s:f, s:s}", "count", (json_int_t)gaps, "wall_s", wall,
						  "cpu_s", cpu, "cpu_time", run_cpu_time_names[r->cpu_time]));
	/* the slowest rank's wall time from MPI_Init's return to MPI_Finalize (the report's T_app) */
	json_object_set_new(o, "wall_time", json_real(r->t_end - r->t_start));
	json_t *labels = json_object();
	for (uint32_t i = 0; i < r->nlabels; i++)
		json_object_set_new(labels, r->labels[i].key, json_string(r->labels[i].value));
	json_object_set_new(o, "labels", labels);
	json_object_set_new(o, "predicted_histograms", json_integer(r->nintervals));
	json_t *fns = json_array();
	for (uint32_t i = 0; i < nf; i++)
		json_array_append_new(fns, json_pack("{s:s, s:I, s:I, s:I}", "name", fc[i].name, "calls",
						     (json_int_t)fc[i].calls, "bytes_sent", (json_int_t)fc[i].bytes_sent,
						     "bytes_recv", (json_int_t)fc[i].bytes_recv));
	json_object_set_new(o, "functions", fns);
	json_dumpf(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(o);
	return true;
}

static void print_groups(const struct run *r)
{
	printf("\ngroup  ranks  rules  symbols  members\n");
	for (uint32_t g = 0; g < r->ngroups && g < 50; g++) {
		char text[120];
		ranklist_format(r->groups[g].ranks.v, r->groups[g].ranks.len, text, sizeof text);
		printf("%5u  %5u  %5u  %7" PRIu64 "  %s\n", g, r->groups[g].nranks, r->groups[g].g.nrules,
		       r->groups[g].g.nsyms, text);
	}
	if (r->ngroups > 50)
		printf("  ... %u more groups\n", r->ngroups - 50);
}

/* a synthetic run's predicted time (not the rung's measured one it carries) and, lossy, the share of
 * the application's calls at its scale that it keeps */
static void print_synthetic(const struct run *r)
{
	const char *t = run_label(r, "timing_modeled_s"), *lo = run_label(r, "timing_modeled_lo_s");
	const char *hi = run_label(r, "timing_modeled_hi_s");
	if (t && lo && hi)
		printf("time        predicted %s s of modeled calls and gaps (95%% range %s to %s s); no rank ran it\n", t, lo,
		       hi);
	else
		printf("time        not predicted (fewer rungs than a model needs); no rank ran it\n");
	const char *calls = run_label(r, "lossy_kept_calls_share"), *bytes = run_label(r, "lossy_kept_bytes_share");
	const char *expected = run_label(r, "lossy_expected_calls");
	if (calls && bytes && expected)
		printf("lossy       keeps a share %s of the %s calls and %s of the bytes the application is expected to "
		       "make at %u ranks: not the application's calls\n", calls, expected, bytes, r->nranks);
	else if (run_label(r, "lossy_dropped_calls") || run_label(r, "lossy_unaligned"))
		printf("lossy       leaves calls out; the share of the application's calls it keeps was not measured\n");
}

static void print_run_text(const char *path, const struct store_identity *id, const struct run *r, off_t size,
			   const struct fn_count *fc, uint32_t nf)
{
	uint64_t rules, syms;
	run_grammar_size(r, &rules, &syms);
	double calls = run_total_calls(r);
	char hs[32];
	human_size((double)size, hs, sizeof hs);
	printf("file        %s (%s)\n", path, hs);
	/* the file's strings through the terminal escape (util/escape.h) */
	printf("kind        run (%s %d.%d)%s, written by ladder %s at %s\n", term_safe(id->schema), id->major, id->minor,
	       r->synthetic ? ", synthetic" : "", term_safe(r->tool_version), term_safe(r->created));
	printf("command     %s\n", term_safe(r->command));
	printf("host        %s%s%s\n", term_safe(r->host), r->slurm_job_id[0] ? ", slurm job " : "",
	       term_safe(r->slurm_job_id));
	printf("ranks       %u\n", r->nranks);
	if (r->synthetic)
		print_synthetic(r);
	else if (r->t_end > r->t_start)
		printf("wall time   %.6f s (the slowest rank, from MPI_Init's return to MPI_Finalize, without the tracer's time)\n", r->t_end - r->t_start);
	if (r->options[0])
		printf("tracer      %s\n", term_safe(r->options));
	if (r->nlabels) {
		printf("labels     ");
		for (uint32_t i = 0; i < r->nlabels; i++)
			printf(" %s=%s", term_safe(r->labels[i].key), term_safe(r->labels[i].value));
		printf("\n");
	}
	printf("calls       %.0f (%.1f per rank), %.2f bytes of container per call\n", calls,
	       calls / r->nranks, calls > 0 ? (double)size / calls : 0);
	printf("trace       %u signatures, %u groups, %" PRIu64 " rules with %" PRIu64 " symbols\n", r->nsigs,
	       r->ngroups, rules, syms);
	printf("streams     %" PRIu64 " streamed values, stored as %u streams of %" PRIu64 " values\n",
	       run_streamed_values(r), r->nstreams, run_stored_cells(r));
	uint64_t gaps;
	double wall, cpu;
	run_gap_totals(r, &gaps, &wall, &cpu);
	printf("gaps        %" PRIu64 " compute gaps of all ranks: %.6f s wall, %.6f s CPU (CPU times: %s)\n", gaps,
	       wall, cpu, run_cpu_time_names[r->cpu_time]);
	if (r->nintervals)
		printf("predicted   %u timing histograms modeled at this scale, with their 95%% intervals (/extrap/intervals)\n",
		       r->nintervals);
	print_groups(r);
	printf("\n%-28s %12s %14s %14s\n", "function", "calls", "bytes sent", "bytes received");
	for (uint32_t i = 0; i < nf; i++)
		printf("%-28s %12.0f %14.0f %14.0f\n", fc[i].name, fc[i].calls, fc[i].bytes_sent, fc[i].bytes_recv);
}

/* false when the summary cannot be printed */
static bool print_run(const char *path, const struct store_identity *id, const struct run *r, off_t size, bool json)
{
	struct fn_count *fc;
	uint32_t nf = run_function_counts(r, -1, &fc);
	bool ok = true;
	if (json)
		ok = print_run_json(path, r, size, fc, nf);
	else
		print_run_text(path, id, r, size, fc, nf);
	free(fc);
	return ok;
}

static void print_campaign_json(const char *path, const struct campaign_summary *s)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:b}", "file", path, "kind", "campaign", "application",
			      s->application ? s->application : "", "created", s->created ? s->created : "", "models",
			      s->models);
	json_t *runs = json_array();
	for (uint32_t i = 0; i < s->nruns; i++) {
		const struct campaign_run *r = &s->runs[i];
		char *p = campaign_run_path(path, r);
		json_array_append_new(runs, json_pack("{s:i, s:i, s:s, s:s, s:b}", "ranks", (int)r->ranks, "repetition",
						      (int)r->repetition, "size", r->size, "path", r->path, "present",
						      !access(p, R_OK)));
		free(p);
	}
	json_object_set_new(o, "runs", runs);
	json_dumpf(o, stdout, JSON_COMPACT | JSON_PRESERVE_ORDER);
	putchar('\n');
	json_decref(o);
}

static bool print_campaign(const char *path, bool json, struct h5_err *e)
{
	struct campaign_summary s;
	if (!campaign_read_summary(path, &s, e))
		return false;
	if (json) {
		print_campaign_json(path, &s);
		campaign_summary_free(&s);
		return true;
	}
	printf("file        %s\n", path);
	printf("kind        campaign (%s %d.%d), created %s\n", CAMPAIGN_SCHEMA, CAMPAIGN_SCHEMA_MAJOR,
	       CAMPAIGN_SCHEMA_MINOR, s.created ? term_safe(s.created) : "?");
	printf("application %s\n", s.application ? term_safe(s.application) : "?");
	printf("models      %s\n", s.models ? "present" : "none yet (ladder model)");
	printf("\n ranks  rep  size        run\n");
	for (uint32_t i = 0; i < s.nruns; i++) {
		const struct campaign_run *r = &s.runs[i];
		char *p = campaign_run_path(path, r);
		printf("%6u  %3u  %-10s  %s%s\n", r->ranks, r->repetition, r->size[0] ? term_safe(r->size) : "-",
		       term_safe(r->path),
		       access(p, R_OK) ? "  (missing)" : "");
		free(p);
	}
	campaign_summary_free(&s);
	return true;
}

struct inspect_opts {
	bool json, counts, timing, storage;
};

static const struct opt inspect_options[] = {
	OPT_FLAG('j', "json", struct inspect_opts, json, "the same as one JSON object"),
	OPT_FLAG('c', "counts", struct inspect_opts, counts,
		 "per rank and MPI function: calls, bytes sent, bytes received (tab separated, the format of "
		 "the reference apps' --expect)"),
	OPT_FLAG('t', "timing", struct inspect_opts, timing,
		 "per group, the compute gaps before each call given the call before it: count, mean wall and "
		 "CPU time, shortest and longest wall time (tab separated; JSON with --json)"),
	OPT_FLAG('s', "storage", struct inspect_opts, storage,
		 "where the bytes go: per group and dataset, the bytes of its object header, of its index "
		 "(chunk index, link and attribute storage) and of its data as stored, and the file's size (tab "
		 "separated)"),
	OPT_END(),
};

static int run_inspect(int argc, char **argv)
{
	struct inspect_opts o = {0};
	int rc = cmd_parse_options("inspect", inspect_options, argc, argv, &o);
	if (rc >= 0)
		return rc;
	bool json = o.json, counts = o.counts, timing = o.timing, storage = o.storage;
	if (counts && timing)
		return cmd_usage_error("inspect", "--counts and --timing are two different views; choose one");
	if (optind != argc - 1)
		return cmd_usage_error("inspect", "needs exactly one FILE");
	const char *path = argv[optind];
	struct h5_err e;
	struct store_identity id;
	if (!store_identify(path, &id, &e)) {
		log_error("%s", e.msg);
		return EXIT_FAIL;
	}
	if (storage)
		return print_storage(path, &e) ? EXIT_OK : (log_error("%s", e.msg), EXIT_FAIL);
	struct stat st;
	stat(path, &st);
	if (!strcmp(id.kind, "campaign")) {
		if (counts || timing)
			return cmd_usage_error("inspect", "--%s needs a run container", counts ? "counts" : "timing");
		return print_campaign(path, json, &e) ? EXIT_OK : (log_error("%s", e.msg), EXIT_FAIL);
	}
	struct run r;
	if (!store_read_run(path, &r, &e)) {
		log_error("%s", e.msg);
		return EXIT_FAIL;
	}
	bool ok = true;
	if (counts)
		print_counts(&r);
	else if (timing)
		print_timing(&r, json);
	else
		ok = print_run(path, &id, &r, st.st_size, json);
	run_free(&r);
	return ok ? EXIT_OK : EXIT_FAIL;
}

const struct command command_inspect = {
	"inspect", "summarize a container",
	"usage: ladder inspect [--json] [--counts | --timing] [--storage] FILE\n"
	"\n"
	"Summarize a run or campaign container: schema and version, who wrote it when, rank count,\n"
	"calls, signatures, groups (with their ranks), grammar size, value streams (the values read and\n"
	"how many are stored), the compute gaps' total wall and CPU time (and what the CPU times are:\n"
	"measured for every gap, for long gaps, or none), calls and bytes per MPI function, and the\n"
	"container's size per call.\n",
	run_inspect, inspect_options, NULL,
};
