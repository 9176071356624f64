/*
 * ladder model — fit PMNF scaling models to every call path and metric of an experiment,
 * predict each at a target scale with a prediction interval, and rank the call paths there.
 * Reads a campaign container (the profiles of its runs; the models are written back into it) or
 * Extra-P's text and JSON inputs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "model/advise.h"
#include "model/extra_p.h"
#include "model/from_campaign.h"
#include "model/model_json.h"
#include "model/model_report.h"
#include "model/models_format.h"
#include "model/modeler.h"
#include "store/campaign_h5.h"
#include "util/escape.h"
#include "util/exitcode.h"
#include "util/file.h"
#include "util/log.h"
#include "util/xalloc.h"

#define NAME "model"

static const char help[] =
	"usage: ladder model CAMPAIGN.h5 [--params p|p,n] [--reduce R] [options]\n"
	"       ladder model --input FILE [options]\n"
	"\n"
	"Fit a performance model f(p) = c0 + sum c_k p^i_k log2(p)^j_k (the performance model normal\n"
	"form of Calotoiu et al., SC13) to every call path and metric, predict each at a target scale\n"
	"with a prediction interval, and print the call paths ranked by their prediction there.\n"
	"Several parameters (rank count x problem size) give products of per-parameter terms.\n"
	"\n"
	"CAMPAIGN.h5 is a campaign container: one point per rung, one repetition per run; metrics time,\n"
	"visits, bytes_sent, bytes_recv, msgs_sent, msgs_recv; the models are written into it (/models).\n";

static const char help_end[] =
	"Exponents: 'default' is the paper's set, i in {0, 1/2, 1, 3/2, 2, 5/2, 3}, j in {0, 1, 2} (20\n"
	"terms); 'strong' adds i in {-1/2, -1, -3/2, -2}, j in {0, 1}. Both are searched unless -e says.\n"
	"'i=0,1/4,1/3,1/2,1;j=0,1' gives the products of the two lists; 'terms=1:0,1/2:1' lists terms.\n"
	"\n"
	"How a model is chosen, its interval, when the ladder supports it: 'ladder help model-method'.\n"
	"\n"
	"Exit status: 0 models printed, 1 unreadable input or data the search cannot use (too few\n"
	"points, NaN or negative values, non-positive parameter values where logarithms are needed,\n"
	"inconsistent points), 2 usage error.\n";

struct model_cli {
	const char *input;
	const char *campaign;
	const char *params;
	enum rank_reduction reduce;
	const char *metric;
	const char *format;
	const char *export_path;
	const char *target_text;
	size_t top;
	bool advise;
	bool exponents_given;
	struct model_options o;
};

/* "4096" or "p=4096,n=1e6" against the experiment's parameters */
static bool parse_target(const char *text, const struct experiment *e, struct model_options *o)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", text);
	bool seen[PMNF_MAX_PARAMS] = {false};
	if (!strchr(buf, '=')) {
		if (e->nparams != 1) {
			cmd_usage_error(NAME, "--target: the input has %zu parameters; name them, e.g. --target %s=...,%s=...",
					e->nparams, e->params[0], e->params[1]);
			return false;
		}
		if (!cmd_parse_double(NAME, "--target", buf, &o->target[0]))
			return false;
		o->has_target = true;
		return true;
	}
	for (char *save = NULL, *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq)
			return cmd_usage_error(NAME, "--target: '%s' is not NAME=VALUE", item), false;
		*eq = 0;
		long l = experiment_find_parameter(e, item);
		if (l < 0)
			return cmd_usage_error(NAME, "--target: the input has no parameter '%s'", item), false;
		if (!cmd_parse_double(NAME, "--target", eq + 1, &o->target[l]))
			return false;
		seen[l] = true;
	}
	for (size_t l = 0; l < e->nparams; l++)
		if (!seen[l])
			return cmd_usage_error(NAME, "--target: no value for parameter '%s'", e->params[l]), false;
	o->has_target = true;
	return true;
}

static bool parse_cv(const char *s, struct model_options *o)
{
	if (!strcmp(s, "loo")) {
		o->cv = FIT_CV_LOO;
		return true;
	}
	long k;
	if (strncmp(s, "k=", 2))
		return cmd_usage_error(NAME, "--cv expects loo or k=K, got '%s'", s), false;
	if (!cmd_parse_long(NAME, "--cv k=K", s + 2, 2, 100, &k))
		return false;
	o->cv = FIT_CV_KFOLD;
	o->kfold = (unsigned)k;
	return true;
}

static void print_header(FILE *out, const struct model_cli *cli, const struct model_results *res, size_t metric)
{
	const struct experiment *e = res->e;
	size_t reps = 0;
	for (size_t c = 0; c < e->callpaths.n && !reps; c++)
		for (size_t p = 0; p < e->npoints && !reps; p++)
			reps = experiment_values(e, c, metric, p)->n;
	fprintf(out, "%s: %zu call path%s x %zu metric%s, %zu points (", cli->input, e->callpaths.n,
		e->callpaths.n == 1 ? "" : "s", e->metrics.n, e->metrics.n == 1 ? "" : "s", e->npoints);
	for (size_t l = 0; l < e->nparams; l++) {
		double lo = INFINITY, hi = -INFINITY;
		for (size_t p = 0; p < e->npoints; p++) {
			lo = fmin(lo, experiment_point(e, p)[l]);
			hi = fmax(hi, experiment_point(e, p)[l]);
		}
		fprintf(out, "%s%s = %g..%g", l ? ", " : "", e->params[l], lo, hi);
	}
	fprintf(out, "), %zu repetition%s\n", reps, reps == 1 ? "" : "s");
	char target[256];
	model_format_target(res, target, sizeof target);
	const struct model_options *o = &res->options;
	char search[64];
	if (o->basic)
		snprintf(search, sizeof search, "Extra-P basic modeler behaviour");
	else
		snprintf(search, sizeof search, "up to %u terms", o->max_terms);
	fprintf(out, "metric %s; target %s%s; %s of repetitions; %s cross-validation; %s\n\n", experiment_metric(e, metric),
		target, res->target_given ? "" : " (the largest point: ranked by growth class, then value)",
		model_aggregate_name(o->aggregate), o->cv == FIT_CV_LOO ? "leave-one-out" : "k-fold", search);
}

static void print_summary(FILE *out, const struct model_results *res, size_t metric, double seconds)
{
	size_t counts[MODEL_STATUSES] = {0}, waits = 0;
	for (size_t c = 0; c < res->ncallpaths; c++) {
		const struct model_result *r = &res->r[model_index(res, c, metric)];
		counts[r->status]++;
		waits += r->wait_state;
	}
	fprintf(out, "\n%zu modeled, %zu too noisy, %zu with too few points, %zu not measured, %zu failed, "
		"%zu poor fit%s (not counted as modeled); %zu with likely wait states (%zu model%s in %.2f s)\n",
		counts[MODEL_OK], counts[MODEL_NOISY], counts[MODEL_FEW_POINTS], counts[MODEL_NO_DATA], counts[MODEL_FAILED],
		counts[MODEL_POOR], counts[MODEL_POOR] == 1 ? "" : "s",
		waits, res->ncallpaths * res->nmetrics, res->ncallpaths * res->nmetrics == 1 ? "" : "s", seconds);
}

static void format_fn(const struct experiment *e, const struct pmnf *f, char *buf, size_t len)
{
	pmnf_format(f, (const char *const *)e->params, buf, len);
}

/* one line of advice for call path cp */
static void print_advice_line(FILE *out, const struct model_results *res, size_t cp, size_t metric)
{
	const struct experiment *e = res->e;
	const char *p = e->params[0];
	struct advice a;
	fprintf(out, "  %s: ", experiment_callpath(e, cp));
	if (model_advise(res, cp, metric, &a)) {
		fprintf(out, "%s\n", a.note);
		return;
	}
	char best[256], rival[256];
	format_fn(e, &a.best, best, sizeof best);
	if (a.has_rival) {
		format_fn(e, &a.rival, rival, sizeof rival);
		fprintf(out, "measure %s = %g to tell %s from %s (%.4g vs %.4g at the target): they differ by %.1f noise sd at "
			"%s = %g, %.1f at %s = %g%s", p, a.separate_at, best, rival, a.best_pred, a.rival_pred, a.separation_now,
			p, a.largest, a.separation, p, a.separate_at,
			a.separation < ADVISE_SEPARATION ? " (not enough to tell them apart with one measurement)" : "");
		if (a.agree_to > 0)
			fprintf(out, "; they agree within the noise up to %s = %g", p, a.agree_to);
	} else {
		fprintf(out, "no rival fits the ladder as well as %s", best);
	}
	if (a.has_narrowing)
		fprintf(out, "; %s = %g narrows the prediction of %s at the target from +-%.1f%% to +-%.1f%% (one sd)", p,
			a.narrow_at, best, 100 * a.sd_now, 100 * a.sd_after);
	fprintf(out, " [noise of a per-point value %.1f%%]\n", 100 * a.noise_sd);
}

static void print_advice(FILE *out, const struct model_results *res, size_t metric, const size_t *order, size_t top)
{
	char target[256];
	model_format_target(res, target, sizeof target);
	fprintf(out, "\nadvice for %s at %s (the rung to measure next):\n", experiment_metric(res->e, metric), target);
	size_t rows = top && top < res->ncallpaths ? top : res->ncallpaths;
	for (size_t k = 0; k < rows; k++)
		print_advice_line(out, res, order[k], metric);
}

/* the advice as JSON, one object per call path in ranking order */
static json_t *advice_json(const struct model_results *res, size_t metric, const size_t *order, size_t top)
{
	json_t *list = json_array();
	size_t rows = top && top < res->ncallpaths ? top : res->ncallpaths;
	for (size_t k = 0; k < rows; k++) {
		struct advice a;
		json_t *o = json_pack("{s:s}", "callpath", experiment_callpath(res->e, order[k]));
		if (model_advise(res, order[k], metric, &a)) {
			json_object_set_new(o, "note", json_string(a.note));
		} else {
			char buf[256];
			json_object_set_new(o, "noise_sd", json_real(a.noise_sd));
			if (a.has_rival) {
				format_fn(res->e, &a.rival, buf, sizeof buf);
				json_object_set_new(o, "rival", json_string(buf));
				json_object_set_new(o, "rival_prediction", json_real(a.rival_pred));
				json_object_set_new(o, "separate_at", json_real(a.separate_at));
				json_object_set_new(o, "separation", json_real(a.separation));
				json_object_set_new(o, "separation_now", json_real(a.separation_now));
				json_object_set_new(o, "agree_to", json_real(a.agree_to));
			}
			if (a.has_narrowing) {
				json_object_set_new(o, "narrow_at", json_real(a.narrow_at));
				json_object_set_new(o, "sd_now", json_real(a.sd_now));
				json_object_set_new(o, "sd_after", json_real(a.sd_after));
			}
		}
		json_array_append_new(list, o);
	}
	return list;
}

/* everything after reading: the part the campaign-container form will share */
/* every (call path, metric) result into the campaign's /models */
static bool store_models(const struct model_cli *cli, const struct model_results *res)
{
	struct model_error err;
	bool ok = models_write(cli->campaign, res, cli->params, cli->reduce, cli->o.aggregate, &err);
	if (!ok)
		log_error("%s", err.msg);
	return ok;
}

static int run_model(const struct model_cli *cli, struct experiment *e)
{
	struct model_options o = cli->o;
	long metric = cli->metric ? experiment_find_metric(e, cli->metric) : experiment_find_metric(e, "time");
	if (cli->metric && metric < 0) {
		char names[512] = "";
		for (size_t m = 0, used = 0; m < e->metrics.n && used + 1 < sizeof names; m++)
			used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", m ? ", " : "", experiment_metric(e, m));
		log_error("%s: no metric '%s' (the input has: %s)", cli->input, cli->metric, names);
		return EXIT_FAIL;
	}
	if (metric < 0)
		metric = 0;
	if (cli->target_text && !parse_target(cli->target_text, e, &o))
		return EXIT_USAGE;
	struct model_error err;
	struct model_results *res = model_experiment(e, &o, &err);
	if (!res) {
		log_error("%s: %s", cli->input, err.msg);
		return EXIT_FAIL;
	}
	size_t *order = xmalloc((res->ncallpaths ? res->ncallpaths : 1) * sizeof *order);
	model_rank(res, (size_t)metric, order);
	if (cli->export_path && extra_p_write_json(cli->export_path, e, res, &err)) {
		log_error("%s", err.msg);
		free(order);
		model_results_free(res);
		return EXIT_FAIL;
	}
	if (cli->campaign && !store_models(cli, res)) {
		free(order);
		model_results_free(res);
		return EXIT_FAIL;
	}
	if (!strcmp(cli->format, "json")) {
		json_t *doc = model_results_json(res, (size_t)metric, order);
		json_object_set_new(doc, "input", json_string(cli->input));
		if (cli->advise)
			json_object_set_new(doc, "advice", advice_json(res, (size_t)metric, order, cli->top));
		json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', stdout);
		json_decref(doc);
	} else {   /* the text holds the file's call paths and metrics: through the terminal escape */
		char *text = NULL;
		size_t len = 0;
		FILE *out = open_memstream(&text, &len);
		print_header(out, cli, res, (size_t)metric);
		model_print_table(out, res, (size_t)metric, order, cli->top);
		print_summary(out, res, (size_t)metric, res->seconds);
		if (cli->advise)
			print_advice(out, res, (size_t)metric, order, cli->top);
		fclose(out);
		struct buf safe;
		buf_init(&safe);
		term_escape_lines_put(&safe, text, len);
		fwrite(safe.data, 1, safe.len, stdout);
		buf_free(&safe);
		free(text);
	}
	free(order);
	model_results_free(res);
	return EXIT_OK;
}

/* the options of ladder model that need more than a field set: their own parsing and checks */
static bool long_option(struct opt_parser *p, const char *arg, long min, long max, long *v)
{
	return cmd_parse_long(NAME, p->option, arg, min, max, v);
}

static bool terms_option(struct opt_parser *p, const char *arg)
{
	long v;
	if (!long_option(p, arg, 1, PMNF_MAX_TERMS, &v))
		return false;
	((struct model_cli *)p->opts)->o.max_terms = (unsigned)v;
	return true;
}

static bool exponents_option(struct opt_parser *p, const char *arg)
{
	struct model_cli *cli = p->opts;
	struct model_error err;
	if (exponents_parse(arg, &cli->o.exponents, &err))
		return cmd_usage_error(NAME, "--exponents: %s", err.msg), false;
	cli->exponents_given = true;
	return true;
}

static bool cv_option(struct opt_parser *p, const char *arg)
{
	return parse_cv(arg, &((struct model_cli *)p->opts)->o);
}

static bool aggregate_option(struct opt_parser *p, const char *arg)
{
	if (!model_aggregate_parse(arg, &((struct model_cli *)p->opts)->o.aggregate))
		return cmd_usage_error(NAME, "--aggregate expects median, mean, min, max or midrange, got '%s'", arg), false;
	return true;
}

static bool format_option(struct opt_parser *p, const char *arg)
{
	if (strcmp(arg, "text") && strcmp(arg, "json"))
		return cmd_usage_error(NAME, "--format expects text or json, got '%s'", arg), false;
	((struct model_cli *)p->opts)->format = arg;
	return true;
}

/* --export FORMAT FILE: the file is the next word */
static bool export_option(struct opt_parser *p, const char *arg)
{
	/* extrap-json: the option's earlier name, kept as an alias */
	if (strcmp(arg, "extra-p-json") && strcmp(arg, "extrap-json"))
		return cmd_usage_error(NAME, "--export expects the format extra-p-json, got '%s'", arg), false;
	if (optind >= p->argc || p->argv[optind][0] == '-')
		return cmd_usage_error(NAME, "--export %s needs a FILE", arg), false;
	((struct model_cli *)p->opts)->export_path = p->argv[optind++];
	return true;
}

static bool level_option(struct opt_parser *p, const char *arg)
{
	struct model_cli *cli = p->opts;
	if (!cmd_parse_double(NAME, "--level", arg, &cli->o.level))
		return false;
	if (!(cli->o.level > 0 && cli->o.level < 1))
		return cmd_usage_error(NAME, "--level must be between 0 and 1, got '%s'", arg), false;
	return true;
}

static bool bootstrap_option(struct opt_parser *p, const char *arg)
{
	long v;
	if (!long_option(p, arg, 0, 100000, &v))
		return false;
	((struct model_cli *)p->opts)->o.bootstrap = (unsigned)v;
	return true;
}

static bool seed_option(struct opt_parser *p, const char *arg)
{
	long v;
	if (!long_option(p, arg, 0, 2147483647L, &v))
		return false;
	((struct model_cli *)p->opts)->o.seed = (unsigned long)v;
	return true;
}

static bool basic_option(struct opt_parser *p, const char *arg)
{
	struct model_cli *cli = p->opts;
	(void)arg;
	cli->o.basic = true;
	cli->o.aggregate = MODEL_AGG_MEAN;
	cli->o.relative_weights = false;
	cli->o.bootstrap = 0;
	return true;
}

static bool top_option(struct opt_parser *p, const char *arg)
{
	long v;
	if (!long_option(p, arg, 1, 1000000000L, &v))
		return false;
	((struct model_cli *)p->opts)->top = (size_t)v;
	return true;
}

static bool params_option(struct opt_parser *p, const char *arg)
{
	if (strcmp(arg, "p") && strcmp(arg, "p,n"))
		return cmd_usage_error(NAME, "--params expects p or p,n, got '%s'", arg), false;
	((struct model_cli *)p->opts)->params = arg;
	return true;
}

static bool reduce_option(struct opt_parser *p, const char *arg)
{
	if (!rank_reduction_parse(arg, &((struct model_cli *)p->opts)->reduce))
		return cmd_usage_error(NAME, "--reduce expects max, min, mean, median or sum, got '%s'", arg), false;
	return true;
}

static const struct opt model_options[] = {
	OPT_GROUP("Input:"),
	OPT_CALLBACK(0, "params", "p|p,n", params_option,
		     "model the rank count p (default), or p x the runs' problem size n"),
	OPT_CALLBACK(0, "reduce", "R", reduce_option, "over ranks: max (default), min, mean, median, sum"),
	OPT_STRING('i', "input", "FILE", struct model_cli, input,
		   "Extra-P input: the text format (PARAMETER, POINTS, REGION, METRIC, DATA) or JSON (current, "
		   "id-based, or JSON Lines), told apart by content"),
	OPT_GROUP("Model:"),
	OPT_STRING('t', "target", "P|p=P,n=N", struct model_cli, target_text,
		   "predict at rank count P (one parameter), or at these parameter values; default: the largest "
		   "measured point, and the ranking is by growth class first"),
	OPT_STRING('m', "metric", "M", struct model_cli, metric,
		   "the metric to rank by (default: time if present, else the first)"),
	OPT_CALLBACK('n', "terms", "N", terms_option, "at most N terms besides the constant (default 5, 1..8)"),
	OPT_CALLBACK('e', "exponents", "SPEC", exponents_option,
		     "candidate terms: default | strong | i=LIST;j=LIST | terms=I:J,..., joined with ';' (without -e: "
		     "'default;strong', the paper's terms and 1/p, log p / p, ... for strong scaling). See "
		     "'exponents' below."),
	OPT_CALLBACK(0, "cv", "loo|k=K", cv_option, "cross-validation: leave-one-out (default) or K-fold"),
	OPT_CALLBACK('a', "aggregate", "A", aggregate_option,
		     "per-point value from the repetitions: median (default), mean, min, max, midrange"),
	OPT_CALLBACK(0, "level", "L", level_option, "prediction interval level (default 0.95)"),
	OPT_CALLBACK(0, "bootstrap", "B", bootstrap_option,
		     "bootstrap replicates for the interval (default 200; 0: no interval)"),
	OPT_CALLBACK(0, "seed", "S", seed_option, "seed of the bootstrap (default fixed, so runs repeat exactly)"),
	OPT_DOUBLE(0, "noise-limit", "F", struct model_cli, o.noise_limit,
		   "call a series too noisy when the points do not differ significantly and repetitions spread by "
		   "more than F (default 0.25 = 25%)"),
	OPT_CALLBACK(0, "basic", NULL, basic_option,
		     "Extra-P's basic modeler instead (one term + constant, mean, no interval, the paper's exponents "
		     "unless -e says), for comparison"),
	OPT_GROUP("Output:"),
	OPT_CALLBACK('f', "format", "text|json", format_option, "the ranked table (default) or JSON with every model"),
	OPT_CALLBACK(0, "top", "N", top_option, "only the first N rows of the table"),
	OPT_FLAG(0, "advise", struct model_cli, advise,
		 "for each call path (the ranked metric; one parameter), the rung to measure next: where the "
		 "selected model and a rival that fits the ladder as well differ by 3 noise standard deviations, "
		 "and the rung short of the target that most narrows the prediction there"),
	OPT_CALLBACK(0, "export", "extra-p-json FILE", export_option,
		     "also write the measurements as Extra-P JSON input (Extra-P reads it with --json) with "
		     "ladder's models under the key \"ladder\""),
	OPT_END(),
};

/* -1 to go on, else the exit status */
static int parse_options(int argc, char **argv, struct model_cli *cli)
{
	int rc = cmd_parse_options(NAME, model_options, argc, argv, cli);
	if (rc >= 0)
		return rc;
	if (cli->o.basic && !cli->exponents_given)
		exponents_default(&cli->o.exponents);   /* Extra-P's modeler: no negative exponents unless asked */
	return -1;
}

static int cmd_model(int argc, char **argv)
{
	struct model_cli cli = {.format = "text", .params = "p", .reduce = REDUCE_MAX};
	model_options_init(&cli.o);
	cli.o.progress = true;
	int rc = parse_options(argc, argv, &cli);
	if (rc >= 0)
		return rc;
	if (optind < argc) {
		if (cli.input)
			return cmd_usage_error(NAME, "give either --input FILE or a campaign, not both");
		if (optind < argc - 1)
			return cmd_usage_error(NAME, "takes one campaign container");
		cli.campaign = cli.input = argv[optind];
	}
	if (!cli.input)
		return cmd_usage_error(NAME, "no input: give a campaign container or --input FILE");
	char why[400];
	if (cli.export_path && !output_not_input(cli.export_path, (char *const *)&cli.input, 1, why, sizeof why)) {
		log_error("%s", why);
		return EXIT_FAIL;
	}
	struct model_error err;
	struct experiment *e = cli.campaign ? experiment_from_campaign(cli.campaign, cli.params, cli.reduce, &err)
					    : extra_p_read(cli.input, &err);
	if (!e) {
		log_error("%s", err.msg);
		return EXIT_FAIL;
	}
	rc = run_model(&cli, e);
	experiment_free(e);
	return rc;
}

const struct command command_model = {
	NAME, "fit scaling models per call path and metric, predict and rank at a target scale", help, cmd_model, model_options, help_end,
};
