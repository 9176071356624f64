/*
 * campaign_h5 — the campaign container on disk. See campaign_h5.h.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/campaign_h5.h"
#include "store/store.h"
#include "util/file.h"
#include "util/xalloc.h"

static const struct h5_field run_fields[] = {
	FIELD(struct campaign_run, ranks, F_U32), FIELD(struct campaign_run, repetition, F_U32),
	FIELD(struct campaign_run, size, F_STR), FIELD(struct campaign_run, path, F_STR),
	FIELD(struct campaign_run, command, F_STR), FIELD(struct campaign_run, created, F_STR),
	FIELD(struct campaign_run, link, F_STR)};
static const struct h5_table run_table = {"runs", sizeof(struct campaign_run), run_fields, 7};

/* the executable of a command line: basename of its first word */
static char *app_of(const char *command)
{
	char *copy = xstrdup(command ? command : "");
	char *sp = strchr(copy, ' ');
	if (sp)
		*sp = 0;
	char *slash = strrchr(copy, '/');
	char *app = xstrdup(slash ? slash + 1 : copy);
	free(copy);
	return app;
}

/* path of `target` relative to the directory of `from` (both made absolute first) */
static char *relative_to(const char *from, const char *target)
{
	char a[PATH_MAX], b[PATH_MAX];
	if (!realpath(target, b))
		return xstrdup(target);
	char *fromcopy = xstrdup(from);
	char *dir = dirname(fromcopy);
	if (!realpath(dir, a)) {
		free(fromcopy);
		return xstrdup(b);
	}
	free(fromcopy);
	/* common prefix by path components */
	size_t i = 0, last = 0;
	while (a[i] && b[i] && a[i] == b[i]) {
		if (a[i] == '/')
			last = i;
		i++;
	}
	if (!a[i] && b[i] == '/')
		last = i;
	else if (!a[i] && !b[i])
		last = i;
	struct buf out;
	buf_init(&out);
	for (const char *p = a + last; *p; p++)
		if (*p == '/')
			buf_put(&out, "../", 3);
	const char *rest = b + last + (b[last] == '/' ? 1 : 0);
	buf_put(&out, rest, strlen(rest));
	buf_put_u8(&out, 0);
	char *s = xstrdup((char *)out.data);
	buf_free(&out);
	return s;
}

struct input {
	char *path;
	struct campaign_run r;
	char *app;
	uint32_t rung_label;   /* 0: none */
	uint32_t rep_label;
};

static int cmp_input(const void *a, const void *b)
{
	const struct input *x = a, *y = b;
	if (x->r.ranks != y->r.ranks)
		return x->r.ranks < y->r.ranks ? -1 : 1;
	return (x->r.repetition > y->r.repetition) - (x->r.repetition < y->r.repetition);
}

static uint32_t label_u32(hid_t labels, const char *key)
{
	char *v = labels >= 0 ? h5_get_attr_str(labels, key) : NULL;
	uint32_t x = v ? (uint32_t)strtoul(v, NULL, 10) : 0;
	free(v);
	return x;
}

/* a run's attributes and labels; false when it is not a run container */
static bool read_input(const char *path, struct input *in, struct h5_err *e)
{
	struct store_identity id;
	if (!store_identify(path, &id, e) || !store_expect(path, &id, "run", e))
		return false;
	hid_t f = h5_open(path, false, e);
	if (f < 0)
		return false;
	in->path = (char *)path;
	h5_get_attr_u32(f, "ranks", &in->r.ranks);
	in->r.command = h5_get_attr_str(f, "command");
	in->r.created = h5_get_attr_str(f, "created");
	if (h5_exists(f, "labels") && !h5_hard_links_only(f, "labels")) {
		h5_fail(e, path, "labels is a soft or external link; ladder reads data only from the container itself");
		H5Fclose(f);
		return false;
	}
	hid_t labels = h5_exists(f, "labels") ? H5Gopen2(f, "labels", H5P_DEFAULT) : -1;
	in->rung_label = label_u32(labels, "rung");
	in->rep_label = label_u32(labels, "repetition");
	char *size = labels >= 0 ? h5_get_attr_str(labels, "size") : NULL;
	in->r.size = size ? size : xstrdup("");
	if (labels >= 0)
		H5Gclose(labels);
	H5Fclose(f);
	if (!in->r.command)
		in->r.command = xstrdup("");
	if (!in->r.created)
		in->r.created = xstrdup("");
	in->app = app_of(in->r.command);
	return true;
}

/* every run: readable, its rung label true, the same application as the first */
static bool read_inputs(struct input *in, int *nin, char *const *runs, int nruns, struct h5_err *e)
{
	for (*nin = 0; *nin < nruns; ++*nin) {
		int i = *nin;
		if (!read_input(runs[i], &in[i], e))
			return false;
		if (in[i].rung_label && in[i].rung_label != in[i].r.ranks) {
			h5_fail(e, runs[i], "is labelled rung %u but recorded %u ranks", in[i].rung_label, in[i].r.ranks);
			return false;
		}
		if (strcmp(in[i].app, in[0].app)) {
			h5_fail(e, runs[i], "traced application '%s', but %s traced '%s': a campaign holds one application",
				in[i].app, runs[0], in[0].app);
			return false;
		}
	}
	return true;
}

/* repetitions from labels, else numbered in the order given; then sorted by rung and
 * repetition, each pair once, one problem size per rung */
static bool order_inputs(struct input *in, int nin, struct h5_err *e)
{
	for (int i = 0; i < nin; i++) {
		if (in[i].rep_label) {
			in[i].r.repetition = in[i].rep_label;
			continue;
		}
		uint32_t k = 1;
		for (int j = 0; j < i; j++)
			k += in[j].r.ranks == in[i].r.ranks && !in[j].rep_label;
		in[i].r.repetition = k;
	}
	qsort(in, (size_t)nin, sizeof *in, cmp_input);
	for (int i = 1; i < nin; i++) {
		if (in[i].r.ranks == in[i - 1].r.ranks && in[i].r.repetition == in[i - 1].r.repetition) {
			h5_fail(e, in[i].path, "is repetition %u of the %u-rank rung, like %s", in[i].r.repetition,
				in[i].r.ranks, in[i - 1].path);
			return false;
		}
		if (in[i].r.ranks == in[i - 1].r.ranks && strcmp(in[i].r.size, in[i - 1].r.size)) {
			h5_fail(e, in[i].path, "has problem size '%s' but %s, of the same %u-rank rung, has '%s'",
				in[i].r.size, in[i - 1].path, in[i].r.ranks, in[i - 1].r.size);
			return false;
		}
	}
	return true;
}

static bool write_root_attributes(hid_t f, const struct input *in, int nin)
{
	char version[16], when[64];
	snprintf(version, sizeof version, "%d.%d", CAMPAIGN_SCHEMA_MAJOR, CAMPAIGN_SCHEMA_MINOR);
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	uint32_t *rungs = xcalloc((size_t)nin, sizeof *rungs);
	size_t nrungs = 0;
	for (int i = 0; i < nin; i++)
		if (!nrungs || rungs[nrungs - 1] != in[i].r.ranks)
			rungs[nrungs++] = in[i].r.ranks;
	char host[256] = "";
	gethostname(host, sizeof host - 1);
	const char *job = getenv("SLURM_JOB_ID");
	bool ok = h5_attr_str(f, "schema", CAMPAIGN_SCHEMA) && h5_attr_str(f, "schema_version", version) &&
		  h5_attr_str(f, "tool_version", LADDER_VERSION) && h5_attr_str(f, "created", when) &&
		  h5_attr_u32s(f, "ranks", rungs, nrungs) && h5_attr_str(f, "command", in[0].r.command) &&
		  h5_attr_str(f, "application", in[0].app) && h5_attr_str(f, "host", host) &&
		  h5_attr_str(f, "slurm_job_id", job ? job : "");
	free(rungs);
	return ok;
}

/* /runs/p<ranks>/r<rep>: an external link to the run (or a copy of it), and the index */
static bool write_runs(hid_t f, const char *out, const struct input *in, int nin, bool copy, struct h5_err *e)
{
	hid_t runs = h5_group(f, "runs");
	struct campaign_run *rows = xcalloc((size_t)nin, sizeof *rows);
	bool ok = true;
	for (int i = 0; i < nin && ok; i++) {
		char rung[32], rep[32];
		snprintf(rung, sizeof rung, "p%u", in[i].r.ranks);
		snprintf(rep, sizeof rep, "r%u", in[i].r.repetition);
		hid_t pg = h5_group(runs, rung);
		rows[i] = in[i].r;
		rows[i].path = relative_to(out, in[i].path);
		rows[i].link = xasprintf("runs/%s/%s", rung, rep);
		if (copy) {
			hid_t src = H5Fopen(in[i].path, H5F_ACC_RDONLY, H5P_DEFAULT);
			ok = src >= 0 && H5Ocopy(src, "/", pg, rep, H5P_DEFAULT, H5P_DEFAULT) >= 0;
			if (src >= 0)
				H5Fclose(src);
		} else {
			ok = H5Lcreate_external(rows[i].path, "/", pg, rep, H5P_DEFAULT, H5P_DEFAULT) >= 0;
		}
		H5Gclose(pg);
		if (!ok)
			h5_fail(e, out, "cannot %s %s into the campaign", copy ? "copy" : "link", in[i].path);
	}
	if (ok)
		ok = h5_write_table(runs, "index", &run_table, rows, (size_t)nin);
	for (int i = 0; i < nin; i++) {
		free(rows[i].path);
		free(rows[i].link);
	}
	free(rows);
	H5Gclose(runs);
	return ok;
}

/* the campaign container, written to OUT.part and renamed over OUT when complete */
static bool write_campaign(const char *out, const struct input *in, int nin, bool copy, struct h5_err *e)
{
	char *part = xasprintf("%s.part", out);
	hid_t f = h5_create(part, e);
	if (f < 0) {
		free(part);
		return false;
	}
	bool ok = write_root_attributes(f, in, nin) && write_runs(f, out, in, nin, copy, e);
	H5Gclose(h5_group(f, "models"));
	if (!h5_finish(f) && ok) {
		h5_fail(e, out, "cannot finish writing %s (disk full?)", part);
		ok = false;
	}
	char why[400];
	if (ok && (!sync_file(part, why, sizeof why) || !output_commit(part, out, why, sizeof why))) {
		snprintf(e->msg, sizeof e->msg, "%s", why);
		ok = false;
	}
	if (!ok) {
		if (!e->msg[0])
			h5_fail(e, out, "cannot write the campaign container");
		remove(part);
	}
	free(part);
	return ok;
}

bool campaign_merge(const char *out, char *const *runs, int nruns, bool copy, struct h5_err *e)
{
	if (nruns < 1) {
		h5_fail(e, out, "no run containers to merge");
		return false;
	}
	char why[400];
	if (!output_replaceable(out, why, sizeof why) || !output_not_input(out, runs, nruns, why, sizeof why)) {
		snprintf(e->msg, sizeof e->msg, "%s", why);
		return false;
	}
	struct input *in = xcalloc((size_t)nruns, sizeof *in);
	int nin = 0;
	bool ok = read_inputs(in, &nin, runs, nruns, e) && order_inputs(in, nin, e) &&
		  write_campaign(out, in, nin, copy, e);
	if (nin < nruns)
		nin++;   /* the run that failed may hold allocations */
	for (int i = 0; i < nin; i++) {
		free(in[i].r.size);
		free(in[i].r.command);
		free(in[i].r.created);
		free(in[i].app);
	}
	free(in);
	return ok;
}

bool campaign_read_runs(const char *path, struct campaign_run **runs, uint32_t *n, struct h5_err *e)
{
	struct store_identity id;
	if (!store_identify(path, &id, e) || !store_expect(path, &id, "campaign", e))
		return false;
	hid_t f = h5_open(path, false, e);
	if (f < 0)
		return false;
	size_t k = 0;
	*runs = h5_read_table(f, "runs/index", &run_table, &k, path, e);
	H5Fclose(f);
	*n = (uint32_t)k;
	return *runs != NULL;
}

void campaign_runs_free(struct campaign_run *runs, uint32_t n) { h5_free_table(&run_table, runs, n); }

char *campaign_member_path(const char *campaign, const char *rel)
{
	if (rel[0] == '/')
		return xstrdup(rel);
	char *copy = xstrdup(campaign);
	char *p = xasprintf("%s/%s", dirname(copy), rel);
	free(copy);
	return p;
}

char *campaign_run_path(const char *campaign, const struct campaign_run *run)
{
	return campaign_member_path(campaign, run->path);
}

bool campaign_read_summary(const char *path, struct campaign_summary *s, struct h5_err *e)
{
	memset(s, 0, sizeof *s);
	if (!campaign_read_runs(path, &s->runs, &s->nruns, e))
		return false;
	hid_t f = h5_open(path, false, e);
	if (f < 0) {
		campaign_runs_free(s->runs, s->nruns);
		return false;
	}
	s->application = h5_get_attr_str(f, "application");
	s->created = h5_get_attr_str(f, "created");
	s->models = h5_exists(f, "models/callpaths");
	H5Fclose(f);
	return true;
}

void campaign_summary_free(struct campaign_summary *s)
{
	free(s->application);
	free(s->created);
	campaign_runs_free(s->runs, s->nruns);
	memset(s, 0, sizeof *s);
}

static const struct h5_field model_fields[] = {
	FIELD(struct campaign_model, callpath, F_STR), FIELD(struct campaign_model, metric, F_STR),
	FIELD(struct campaign_model, status, F_STR), FIELD(struct campaign_model, model, F_STR),
	FIELD(struct campaign_model, growth, F_STR), FIELD(struct campaign_model, note, F_STR),
	FIELD(struct campaign_model, target, F_STR), FIELD(struct campaign_model, points, F_U32),
	FIELD(struct campaign_model, ar2, F_F64), FIELD(struct campaign_model, smape, F_F64),
	FIELD(struct campaign_model, rss, F_F64), FIELD(struct campaign_model, cv_error, F_F64),
	FIELD(struct campaign_model, prediction, F_F64), FIELD(struct campaign_model, lower, F_F64),
	FIELD(struct campaign_model, upper, F_F64), FIELD(struct campaign_model, level, F_F64),
	FIELD(struct campaign_model, wait_state, F_U8), FIELD(struct campaign_model, supported, F_U8)};
static const struct h5_table model_table = {"models", sizeof(struct campaign_model), model_fields,
					    sizeof model_fields / sizeof model_fields[0]};
/* a table written before 'supported' (the last field) existed: read without it, taken as 0 */
static const struct h5_table model_table_unjudged = {"models", sizeof(struct campaign_model), model_fields,
						     sizeof model_fields / sizeof model_fields[0] - 1};

/* the table to read /models/callpaths of file f with: the unjudged one where it lacks 'supported' */
static const struct h5_table *model_table_of(hid_t f)
{
	hid_t d = H5Dopen2(f, "/models/callpaths", H5P_DEFAULT);
	if (d < 0)
		return &model_table;
	hid_t t = H5Dget_type(d);
	bool judged = H5Tget_class(t) != H5T_COMPOUND || H5Tget_member_index(t, "supported") >= 0;
	H5Tclose(t);
	H5Dclose(d);
	return judged ? &model_table : &model_table_unjudged;
}

/* the new /models into the copy part of the campaign container; false (e filled) on any failure */
static bool write_models_into(const char *part, const struct campaign_model *m, uint32_t n, const char *settings,
			      struct h5_err *e)
{
	hid_t f = h5_open(part, true, e);
	if (f < 0)
		return false;
	h5_mark_partial(part);
	hid_t g = h5_group(f, "models");
	if (h5_exists(g, "callpaths"))
		H5Ldelete(g, "callpaths", H5P_DEFAULT);
	char when[64];
	time_t now = time(NULL);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	bool ok = h5_write_table(g, "callpaths", &model_table, m, n) && h5_attr_str(g, "settings", settings) &&
		  h5_attr_str(g, "created", when) && h5_attr_str(g, "tool_version", LADDER_VERSION);
	H5Gclose(g);
	return h5_finish(f) && ok;
}

/* The models are written into a copy (CAMPAIGN.part) renamed over the campaign when complete:
 * a failed write (full disk) leaves the campaign as it was. */
bool campaign_read_models(const char *campaign, struct campaign_model **models, size_t *n, char **settings,
			  struct h5_err *e)
{
	*models = NULL;
	*n = 0;
	*settings = xstrdup("");
	hid_t f = h5_open(campaign, false, e);
	if (f < 0)
		return false;
	bool ok = true;
	if (h5_exists(f, "/models")) {
		hid_t g = H5Gopen2(f, "/models", H5P_DEFAULT);
		char *s = g >= 0 ? h5_get_attr_str(g, "settings") : NULL;
		if (s) {
			free(*settings);
			*settings = s;
		}
		if (g >= 0)
			H5Gclose(g);
	}
	if (h5_exists(f, "/models/callpaths")) {
		*models = h5_read_table(f, "/models/callpaths", model_table_of(f), n, campaign, e);
		ok = *models != NULL || *n == 0;
	}
	H5Fclose(f);
	return ok;
}

void campaign_models_free(struct campaign_model *models, size_t n)
{
	if (models)
		h5_free_table(&model_table, models, n);
}

bool campaign_write_models(const char *path, const struct campaign_model *m, uint32_t n, const char *settings,
			   struct h5_err *e)
{
	struct store_identity id;
	if (!store_identify(path, &id, e) || !store_expect(path, &id, "campaign", e))
		return false;
	char why[400];
	char *part = xasprintf("%s.part", path);
	e->msg[0] = 0;
	bool ok = output_replaceable(path, why, sizeof why) && duplicate_file(path, part, why, sizeof why);
	if (ok && !write_models_into(part, m, n, settings, e)) {
		ok = false;
		snprintf(why, sizeof why, "%s: cannot write the models into the campaign container (disk full?); "
			 "the campaign is unchanged", path);
	}
	ok = ok && sync_file(part, why, sizeof why) && output_commit(part, path, why, sizeof why);
	if (!ok) {
		snprintf(e->msg, sizeof e->msg, "%s", why);
		unlink(part);
	}
	free(part);
	return ok;
}

char *campaign_relative_path(const char *campaign, const char *target) { return relative_to(campaign, target); }
