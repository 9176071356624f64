/*
 * state_fields — the state file's field tables and the one writer and one reader that walk them.
 * See state_fields.h.
 */
#include "campaign/state_fields.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/jobgraph.h"
#include "util/escape.h"
#include "util/xalloc.h"

/* a path of state.json stays inside the campaign directory: relative, without '..' components */
static bool confined(const char *rel)
{
	if (!*rel || rel[0] == '/')
		return false;
	for (const char *p = rel; p; p = strchr(p, '/')) {
		if (*p == '/')
			p++;
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return false;
	}
	return true;
}

#define OUTSIDE "a path outside the campaign directory; expected a relative path inside it"

#define C(key, type, member, required) {key, type, offsetof(struct campaign, member), required, NULL, NULL}
#define J(key, type, member, required) {key, type, offsetof(struct campaign_job, member), required, NULL, NULL}
#define J_PATH(key, member, required) {key, SF_STRING, offsetof(struct campaign_job, member), required, confined, OUTSIDE}

static const struct state_field campaign_fields[] = {
	C("name", SF_STRING, name, true),
	C("id", SF_STRING, id, true),
	C("dir", SF_DIR, dir, false),
	C("scheduler", SF_SCHED, sched, true),
	C("workflow", SF_STRING, workflow_src, false),
	C("site", SF_STRING, site_src, false),
	C("created", SF_LLONG, created, true),
	C("updated", SF_LLONG, updated, true),
};

static const struct state_field site_fields[] = {
	C("partition", SF_STRING, partition, false),
	C("account", SF_STRING, account, false),
	C("qos", SF_STRING, qos, false),
	C("submit", SF_SUBMIT, use_sbatch, true),
	C("max_ranks", SF_LONG, max_ranks, true),
	C("poll_interval", SF_REAL, poll_min, true),
	C("poll_max", SF_REAL, poll_max, true),
	C("controller_timeout", SF_LONG, controller_timeout, true),
	C("jobcomp", SF_STRING, jobcomp, false),
	C("accounting", SF_FLAG, accounting, false),
};

static const struct state_field counter_fields[] = {
	C("queries", SF_LLONG, queries, true),
	C("query_errors", SF_LLONG, query_errors, true),
	C("jobcomp_reads", SF_LLONG, jobcomp_reads, true),
	C("acct_queries", SF_LLONG, acct_queries, true),
	C("submissions", SF_LLONG, submissions, true),
};

static const struct state_field job_fields[] = {
	J("name", SF_STRING, name, true),
	J("kind", SF_KIND, kind, true),
	J("stage", SF_STRING, stage, true),
	J("ranks", SF_LONG, ranks, true),
	J("nodes", SF_LONG, nodes, true),
	J("tasks_per_node", SF_LONG, tasks_per_node, true),
	J("rep", SF_LONG, rep, true),
	J("size", SF_LONG, size, true),
	J("target", SF_LONG, target, true),
	J("time_limit", SF_LONG, time_limit, true),
	J("deps", SF_DEPS, deps, true),
	J_PATH("script", script, true),
	J_PATH("log", log, true),
	J_PATH("output", output, false),
	J("hash", SF_HASH, hash, true),
	J("state", SF_STATE, state, true),
	J("id", SF_U32, id, true),
	J("pid", SF_LONG, pid, true),
	J("submitted", SF_LLONG, submitted, true),
	J("started", SF_LLONG, started, true),
	J("ended", SF_LLONG, ended, true),
	J("exit_code", SF_EXIT, exit_code, false),
	J("attempts", SF_INT, attempts, true),
	J("restarts", SF_INT, restarts, true),
	J("reason", SF_STRING, reason, false),
	J("history", SF_STRING, history, false),
};

#define TABLE(key, fields) {key, fields, sizeof fields / sizeof fields[0]}
const struct state_table state_campaign_table = TABLE("campaign", campaign_fields),
			 state_site_table = TABLE("site", site_fields),
			 state_counters_table = TABLE("counters", counter_fields),
			 state_job_table = TABLE("jobs[]", job_fields);

#define AT(type, base, f) ((type *)((char *)(base) + (f)->offset))
#define AT_CONST(type, base, f) ((const type *)((const char *)(base) + (f)->offset))

/* ---- writing ------------------------------------------------------------------------------ */

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *deps_json(const struct campaign_job *j)
{
	json_t *deps = json_array();
	for (size_t i = 0; i < j->ndeps; i++)
		json_array_append_new(deps, json_string(j->deps[i]));
	return deps;
}

static json_t *field_json(const struct state_field *f, const void *base)
{
	switch (f->type) {
	case SF_STRING:
	case SF_DIR:
		return string_or_null(*AT_CONST(char *, base, f));
	case SF_HASH:
		return json_string(AT_CONST(char, base, f));
	case SF_LONG:
		return json_integer(*AT_CONST(long, base, f));
	case SF_LLONG:
		return json_integer(*AT_CONST(long long, base, f));
	case SF_INT:
		return json_integer(*AT_CONST(int, base, f));
	case SF_U32:
		return json_integer(*AT_CONST(uint32_t, base, f));
	case SF_REAL:
		return json_real(*AT_CONST(double, base, f));
	case SF_FLAG:
		return json_boolean(*AT_CONST(bool, base, f));
	case SF_SCHED:
		return json_string(*AT_CONST(enum scheduler, base, f) == SCHED_SLURM ? "slurm" : "local");
	case SF_SUBMIT:
		return json_string(*AT_CONST(bool, base, f) ? "sbatch" : "libslurm");
	case SF_KIND:
		return json_string(job_kind_name(*AT_CONST(enum job_kind, base, f)));
	case SF_STATE:
		return json_string(job_state_name(*AT_CONST(enum job_state, base, f)));
	case SF_EXIT: {
		const struct campaign_job *j = base;
		return j->has_exit ? json_integer(j->exit_code) : json_null();
	}
	case SF_DEPS:
		return deps_json(base);
	}
	return json_null();
}

json_t *state_fields_write(const struct state_table *t, const void *base)
{
	json_t *o = json_object();
	for (size_t i = 0; i < t->nfields; i++)
		json_object_set_new(o, t->fields[i].key, field_json(&t->fields[i], base));
	return o;
}

/* ---- reading ------------------------------------------------------------------------------ */

struct field_reader {
	const char *path, *where;
	const struct state_field *f;
	struct campaign_error *e;
};

/* what a value of the field's type is, for "'key' is missing or not ..." */
static const char *type_expected(enum state_type t)
{
	switch (t) {
	case SF_STRING:
	case SF_HASH:
	case SF_DIR:
		return "a string";
	case SF_LONG:
	case SF_LLONG:
	case SF_INT:
	case SF_U32:
		return "an integer";
	case SF_REAL:
		return "a number";
	case SF_FLAG:
		return "true or false";
	case SF_SCHED:
	case SF_SUBMIT:
	case SF_KIND:
	case SF_STATE:
		return "a string";
	case SF_EXIT:
		return "an integer or null";
	case SF_DEPS:
		return "a list";
	}
	return "a value";
}

static bool wrong_type(const struct field_reader *r)
{
	return campaign_error_set(r->e, "%s: %s: '%s' is missing or not %s", r->path, r->where, r->f->key,
				  type_expected(r->f->type));
}

/* the value text (from the file) refused: "'key' is 'text', why" */
static bool refused(const struct field_reader *r, const char *text, const char *why)
{
	char *shown = term_escaped(text);
	campaign_error_set(r->e, "%s: %s: '%s' is '%s', %s", r->path, r->where, r->f->key, shown, why);
	free(shown);
	return false;
}

static bool read_deps(const struct field_reader *r, json_t *v, struct campaign_job *j)
{
	if (!json_is_array(v))
		return wrong_type(r);
	size_t i;
	json_t *d;
	json_array_foreach(v, i, d)
	{
		if (!json_is_string(d))
			return campaign_error_set(r->e, "%s: %s: 'deps' holds a non-string; expected a list of job names",
						  r->path, r->where);
		job_add_dep(j, json_string_value(d));
	}
	return true;
}

/* a string value of the field: its check, then its type's meaning */
static bool read_string(const struct field_reader *r, const char *s, void *base)
{
	const struct state_field *f = r->f;
	if (f->valid && !f->valid(s))
		return refused(r, s, f->expected);
	switch (f->type) {
	case SF_STRING: {
		char **slot = AT(char *, base, f);
		free(*slot);
		*slot = xstrdup(s);
		return true;
	}
	case SF_DIR: {
		struct campaign *c = base;
		if (strcmp(s, c->dir)) {
			free(c->moved_from);
			c->moved_from = xstrdup(s);
		}
		return true;
	}
	case SF_HASH:
		snprintf(AT(char, base, f), sizeof ((struct campaign_job *)0)->hash, "%s", s);
		return true;
	case SF_SCHED:
		*AT(enum scheduler, base, f) = !strcmp(s, "slurm") ? SCHED_SLURM : SCHED_LOCAL;
		return true;
	case SF_SUBMIT:
		*AT(bool, base, f) = !strcmp(s, "sbatch");
		return true;
	case SF_KIND:
		return job_kind_parse(s, AT(enum job_kind, base, f)) ||
		       refused(r, s, "not a job kind; expected build, run, merge or stage");
	case SF_STATE:
		return job_state_parse(s, AT(enum job_state, base, f)) ||
		       refused(r, s, "not a job state; expected WAITING, QUEUED, RUNNING, COMPLETED, FAILED, "
				     "CANCELLED or SKIPPED");
	default:
		return wrong_type(r);
	}
}

static bool read_field(const struct field_reader *r, json_t *v, void *base)
{
	const struct state_field *f = r->f;
	if (!v || json_is_null(v)) {
		if (f->type == SF_STRING && !f->required) {
			char **slot = AT(char *, base, f);
			free(*slot);
			*slot = NULL;
			return true;
		}
		if (!f->required)
			return true;
		return wrong_type(r);
	}
	switch (f->type) {
	case SF_LONG:
	case SF_LLONG:
	case SF_INT:
	case SF_U32: {
		if (!json_is_integer(v))
			return wrong_type(r);
		json_int_t x = json_integer_value(v);
		if (f->type == SF_LONG)
			*AT(long, base, f) = (long)x;
		else if (f->type == SF_LLONG)
			*AT(long long, base, f) = x;
		else if (f->type == SF_INT)
			*AT(int, base, f) = (int)x;
		else
			*AT(uint32_t, base, f) = (uint32_t)x;
		return true;
	}
	case SF_REAL:
		if (!json_is_number(v))
			return wrong_type(r);
		*AT(double, base, f) = json_number_value(v);
		return true;
	case SF_FLAG:
		*AT(bool, base, f) = json_is_true(v);
		return true;
	case SF_EXIT: {
		struct campaign_job *j = base;
		if (json_is_integer(v)) {
			j->has_exit = true;
			j->exit_code = (int)json_integer_value(v);
		}
		return true;
	}
	case SF_DEPS:
		return read_deps(r, v, base);
	default:
		if (!json_is_string(v))
			return wrong_type(r);
		return read_string(r, json_string_value(v), base);
	}
}

bool state_fields_read(const struct state_table *t, json_t *o, void *base, const char *path, const char *where,
		       struct campaign_error *e)
{
	if (!json_is_object(o))
		return campaign_error_set(e, "%s: %s is missing or not an object", path, where);
	for (size_t i = 0; i < t->nfields; i++) {
		struct field_reader r = {path, where, &t->fields[i], e};
		if (!read_field(&r, json_object_get(o, t->fields[i].key), base))
			return false;
	}
	return true;
}
