/*
 * workflow — reading and checking a workflow file (what to run). See spec.h and
 * `ladder help workflow`.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/spec.h"
#include "campaign/statefile.h"
#include "campaign/workflow_grid.h"
#include "campaign/yaml_spec.h"
#include "util/path.h"
#include "util/xalloc.h"

const char *const placeholders_app[] = {"ranks", "nodes", "size", "rep", "outdir", "prefix",
	"workflow_dir", "campaign_dir", "scaling", "name", "ladder", NULL};
const char *const placeholders_build[] = {"prefix", "workflow_dir", "campaign_dir", "name", "scaling",
	"ladder", NULL};
const char *const placeholders_valid[] = {"ranks", "nodes", "size", "scaling", "prefix",
	"workflow_dir", "campaign_dir", "name", "ladder", NULL};
const char *const placeholders_stage[] = {"campaign", "campaign_dir", "outdir", "target", "targets", "target_max",
	"prefix", "workflow_dir", "acceptance", "runs", "ladder", "rungs", "repetitions", "name", "scaling",
	"history", NULL};

/* the stages ladder knows by name: their command, inputs and shape */
struct builtin_stage {
	const char *name, *command, *after;
	const char *prepare;   /* run before the command, not launched; NULL none */
	bool per_target, launch;
	long ranks;
	const char *needs; /* the stage whose output the command reads: it cannot run without it */
	bool after_truth;  /* also waits for the truth runs */
};
static const struct builtin_stage builtins[] = {
	{"merge", "ladder merge -o {campaign} {runs}", "", NULL, false, false, 1, NULL, false},
	{"model", "ladder model {campaign} --target {target_max}", "merge", NULL, false, false, 1, NULL, false},
	/* extrap records its result in the campaign, as model does: after model when there is one, so
	 * that the two never write the campaign container at the same time */
	{"extrap", "ladder extrap {campaign} --target {target} -o {outdir}/trace.h5", "model", NULL, true, false, 1, NULL,
	 false},
	{"replay", "ladder-replay --json {outdir}/replay.json {campaign_dir}/extrap/p{target}/trace.h5", "extrap", NULL,
	 true, true, 0, "extrap", false},
	/* written and built on the job's first node, then run on the target's ranks like the replay */
	{"proxy", "{outdir}/proxy --json {outdir}/proxy.json", "extrap",
	 "ladder proxy {campaign_dir}/extrap/p{target}/trace.h5 -o {outdir} --build", true, true, 0, "extrap", false},
	{"report", "ladder report {campaign} -o {outdir} --thresholds {acceptance} --history {history}", "*", NULL, false,
	 false, 1, NULL, true},
};

static const struct builtin_stage *builtin(const char *name)
{
	for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

struct known_ctx {
	const char *const *names;
	const struct workflow *w;
	bool size_ok, target_ok;
	bool grid_ok;      /* the grid placeholders ({dims}, ...) of the job's rank count */
};

static bool known(const char *name, void *arg)
{
	struct known_ctx *k = arg;
	if (!strcmp(name, "size") && !k->size_ok)
		return false;
	if (!strcmp(name, "target") && !k->target_ok)
		return false;
	if (workflow_grid_like(name))
		return k->grid_ok && workflow_grid_placeholder(k->w, name);
	for (const char *const *p = k->names; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return template_vars_find(&k->w->vars, name) != NULL;
}

/* why a grid placeholder is unknown here */
static void grid_hint(const struct known_ctx *k, char *hint, size_t len)
{
	if (!k->grid_ok)
		snprintf(hint, len, " (the grid placeholders are for app.command and ladder.valid.command)");
	else if (!k->w->grid_ndims)
		snprintf(hint, len, " (the grid placeholders need the 'grid' field: the process grid's dimensions, "
			 "e.g. grid: 3)");
	else
		snprintf(hint, len, " (the grid has %d dimension%s: 'grid' on line %d)", k->w->grid_ndims,
			 k->w->grid_ndims == 1 ? "" : "s", k->w->grid_line);
}

/* read a command template from a string or a list of words, and check its placeholders */
static bool read_template(struct yaml_spec *y, yaml_node_t *n, const char *field, struct tmpl *t,
			  struct known_ctx *k)
{
	char why[512];
	if (yaml_spec_is_seq(n)) {
		char **words;
		size_t nw;
		if (!yaml_spec_strings(y, n, field, &words, &nw))
			return false;
		tmpl_from_words(words, nw, t);
		strv_free(words);
	} else {
		const char *s;
		if (!yaml_spec_scalar(y, n, field, &s))
			return false;
		if (!tmpl_parse(s, t, why, sizeof why))
			return yaml_spec_fail(y, n, field, "%s", why);
	}
	if (tmpl_empty(t))
		return yaml_spec_fail(y, n, field, "the command is empty");
	if (!tmpl_check(t, known, k, why, sizeof why)) {
		char list[512] = "";
		size_t off = 0;
		for (const char *const *p = k->names; *p && off < sizeof list - 40; p++) {
			if ((!strcmp(*p, "size") && !k->size_ok) || (!strcmp(*p, "target") && !k->target_ok))
				continue;
			off += (size_t)snprintf(list + off, sizeof list - off, "%s{%s}", off ? " " : "", *p);
		}
		if (k->grid_ok && k->w->grid_ndims && off < sizeof list - 1) {
			list[off++] = ' ';
			workflow_grid_names(k->w, list + off, sizeof list - off);
		}
		char hint[128] = "";
		if (strstr(why, "{size}") && !k->size_ok)
			snprintf(hint, sizeof hint, " ({size} needs the 'size' field)");
		else if (strstr(why, "{target}") && !k->target_ok)
			snprintf(hint, sizeof hint, " ({target} needs 'per-target: true' and the 'target' field)");
		else if (strstr(why, "{dims}") || strstr(why, "{dims."))
			grid_hint(k, hint, sizeof hint);
		tmpl_free(t);
		return yaml_spec_fail(y, n, field, "%s%s; known here: %s%s", why, hint, list,
				  k->w->vars.n ? " and the names under 'vars'" : "");
	}
	return true;
}

static bool read_longs(struct yaml_spec *y, yaml_node_t *n, const char *field, long min, long **out, size_t *count)
{
	if (yaml_spec_is_scalar(n)) {
		*out = xmalloc(sizeof **out);
		*count = 1;
		return yaml_spec_long(y, n, field, min, LONG_MAX, *out);
	}
	if (!yaml_spec_is_seq(n) || yaml_spec_seq_len(n) == 0)
		return yaml_spec_fail(y, n, field, "expected an integer or a non-empty list of integers");
	size_t len = yaml_spec_seq_len(n);
	long *v = xcalloc(len, sizeof *v);
	for (size_t i = 0; i < len; i++) {
		char f[128];
		snprintf(f, sizeof f, "%s[%zu]", field, i);
		if (!yaml_spec_long(y, yaml_spec_seq_item(y, n, i), f, min, LONG_MAX, &v[i])) {
			free(v);
			return false;
		}
	}
	*out = v;
	*count = len;
	return true;
}

static bool read_ladder(struct yaml_spec *y, yaml_node_t *n, struct workflow *w, struct known_ctx *k)
{
	w->ladder_line = yaml_spec_line(n);
	if (yaml_spec_is_seq(n) || yaml_spec_is_scalar(n)) {
		w->gen = RUNGS_LIST;
		return read_longs(y, n, "ladder", 1, &w->list, &w->nlist);
	}
	static const char *const keys[] = {"ranks", "generate", "from", "to", "valid", NULL};
	if (!yaml_spec_map(y, n, "ladder", keys))
		return false;
	yaml_node_t *ranks = yaml_spec_get(y, n, "ranks"), *gen = yaml_spec_get(y, n, "generate");
	if (ranks && gen)
		return yaml_spec_fail(y, gen, "ladder.generate", "give either 'ranks' (a list) or 'generate', not both");
	if (ranks) {
		w->gen = RUNGS_LIST;
		if (yaml_spec_get(y, n, "from") || yaml_spec_get(y, n, "to"))
			return yaml_spec_fail(y, n, "ladder", "'from' and 'to' go with 'generate', not with 'ranks'");
		if (!read_longs(y, ranks, "ladder.ranks", 1, &w->list, &w->nlist))
			return false;
	} else if (gen) {
		const char *g;
		if (!yaml_spec_scalar(y, gen, "ladder.generate", &g))
			return false;
		if (!rungs_gen_parse(g, &w->gen) || w->gen == RUNGS_LIST)
			return yaml_spec_fail(y, gen, "ladder.generate",
					  "expected powers-of-two, squares or cubes, got '%s'", g);
		yaml_node_t *from = yaml_spec_get(y, n, "from"), *to = yaml_spec_get(y, n, "to");
		if (!from || !to)
			return yaml_spec_fail(y, n, "ladder", "'generate' needs both 'from' and 'to' (rank bounds, inclusive)");
		if (!yaml_spec_long(y, from, "ladder.from", 1, 1L << 40, &w->from) ||
		    !yaml_spec_long(y, to, "ladder.to", 1, 1L << 40, &w->to))
			return false;
		if (w->from > w->to)
			return yaml_spec_fail(y, to, "ladder.to", "must not be below 'from' (%ld)", w->from);
	} else {
		return yaml_spec_fail(y, n, "ladder", "needs 'ranks' (a list) or 'generate' with 'from' and 'to'");
	}
	yaml_node_t *valid = yaml_spec_get(y, n, "valid");
	if (valid) {
		static const char *const vkeys[] = {"divides", "multiple-of", "command", NULL};
		if (!yaml_spec_map(y, valid, "ladder.valid", vkeys))
			return false;
		yaml_node_t *v;
		if ((v = yaml_spec_get(y, valid, "divides")) &&
		    !yaml_spec_long(y, v, "ladder.valid.divides", 1, LONG_MAX, &w->filter.divides))
			return false;
		if ((v = yaml_spec_get(y, valid, "multiple-of")) &&
		    !yaml_spec_long(y, v, "ladder.valid.multiple-of", 1, LONG_MAX, &w->filter.multiple_of))
			return false;
		if ((v = yaml_spec_get(y, valid, "command"))) {
			struct known_ctx kv = *k;
			kv.names = placeholders_valid;
			if (!read_template(y, v, "ladder.valid.command", &w->valid, &kv))
				return false;
		}
	}
	return true;
}

static bool read_size(struct yaml_spec *y, yaml_node_t *n, struct workflow *w)
{
	w->has_size = true;
	w->size_line = yaml_spec_line(n);
	if (yaml_spec_is_scalar(n))
		return yaml_spec_long(y, n, "size", 1, LONG_MAX, &w->size);
	if (!yaml_spec_is_map(n))
		return yaml_spec_fail(y, n, "size", "expected an integer, or a mapping from rank count to size");
	if (!yaml_spec_map(y, n, "size", NULL))
		return false;
	size_t len = yaml_spec_map_len(n);
	if (!len)
		return yaml_spec_fail(y, n, "size", "the mapping is empty");
	w->size_rung = xcalloc(len, sizeof *w->size_rung);
	w->size_value = xcalloc(len, sizeof *w->size_value);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *key = yaml_spec_map_key(y, n, i);
		char f[128];
		snprintf(f, sizeof f, "size.%s", yaml_spec_is_scalar(key) ? (const char *)key->data.scalar.value : "?");
		if (!yaml_spec_long(y, key, "size (a rank count as key)", 1, LONG_MAX, &w->size_rung[i]) ||
		    !yaml_spec_long(y, yaml_spec_map_value(y, n, i), f, 1, LONG_MAX, &w->size_value[i]))
			return false;
		w->nsizes++;
	}
	return true;
}

static bool read_trace(struct yaml_spec *y, yaml_node_t *n, struct workflow *w)
{
	static const char *const keys[] = {"timestamps", "callsite-depth", "stream-after", NULL};
	if (!yaml_spec_map(y, n, "trace", keys))
		return false;
	yaml_node_t *v;
	if ((v = yaml_spec_get(y, n, "timestamps")) && !yaml_spec_bool(y, v, "trace.timestamps", &w->timestamps))
		return false;
	if ((v = yaml_spec_get(y, n, "callsite-depth")) &&
	    !yaml_spec_long(y, v, "trace.callsite-depth", 1, 16, &w->callsite_depth))
		return false;
	if ((v = yaml_spec_get(y, n, "stream-after")) &&
	    !yaml_spec_long(y, v, "trace.stream-after", 0, 1 << 20, &w->stream_after))
		return false;
	return true;
}

static bool read_vars(struct yaml_spec *y, yaml_node_t *n, struct workflow *w)
{
	if (!yaml_spec_map(y, n, "vars", NULL))
		return false;
	size_t len = yaml_spec_map_len(n);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *k = yaml_spec_map_key(y, n, i);
		const char *name = (const char *)k->data.scalar.value;
		char f[128];
		snprintf(f, sizeof f, "vars.%s", name);
		bool ok = *name && !(name[0] >= '0' && name[0] <= '9');
		for (const char *p = name; ok && *p; p++)
			ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
		if (!ok)
			return yaml_spec_fail(y, k, f, "a variable name is letters, digits and '_', not starting with a digit");
		if (!strcmp(name, "dims"))
			return yaml_spec_fail(y, k, f, "'dims' is a built-in placeholder (the process grid, see 'grid'); "
					      "choose another name");
		const char *const *lists[] = {placeholders_app, placeholders_stage, placeholders_build};
		for (size_t l = 0; l < 3; l++)
			for (const char *const *p = lists[l]; *p; p++)
				if (!strcmp(*p, name))
					return yaml_spec_fail(y, k, f, "'%s' is a built-in placeholder; choose another name", name);
		char *value;
		if (!yaml_spec_string(y, yaml_spec_map_value(y, n, i), f, &value))
			return false;
		template_vars_set(&w->vars, name, value);
		free(value);
	}
	return true;
}

static bool read_acceptance(struct yaml_spec *y, yaml_node_t *n, struct workflow *w)
{
	if (!yaml_spec_map(y, n, "acceptance", NULL))
		return false;
	size_t len = yaml_spec_map_len(n);
	w->acceptance = xcalloc(len ? len : 1, sizeof *w->acceptance);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *k = yaml_spec_map_key(y, n, i);
		char *name;
		if (!yaml_spec_name(y, k, "acceptance", &name))
			return false;
		char f[128];
		snprintf(f, sizeof f, "acceptance.%s", name);
		struct kvnum *a = &w->acceptance[w->nacceptance++];
		a->key = name;
		yaml_node_t *v = yaml_spec_map_value(y, n, i);
		if (v && v->type == YAML_SCALAR_NODE && !strcmp((const char *)v->data.scalar.value, "none"))
			a->value = NAN;   /* the figure has no rule (ladder report: NAME=none) */
		else if (!yaml_spec_double(y, v, f, -1e300, 1e300, &a->value))
			return false;
	}
	return true;
}

static void add_after(struct stage_spec *s, const char *name)
{
	s->after = xrealloc(s->after, (s->nafter + 2) * sizeof *s->after);
	s->after[s->nafter++] = xstrdup(name);
	s->after[s->nafter] = NULL;
}

/* the parts of one entry of `stages` (a name, or a mapping); absent ones NULL */
struct stage_nodes {
	yaml_node_t *entry, *name, *cmd, *after, *per_target, *ranks, *launch;
	char field[64];              /* "stages[I]" */
};

static bool stage_nodes(struct yaml_spec *y, yaml_node_t *n, size_t idx, struct stage_nodes *sn)
{
	memset(sn, 0, sizeof *sn);
	sn->entry = sn->name = n;
	snprintf(sn->field, sizeof sn->field, "stages[%zu]", idx);
	if (!yaml_spec_is_map(n))
		return true;
	static const char *const keys[] = {"name", "command", "after", "per-target", "ranks", "launch", NULL};
	if (!yaml_spec_map(y, n, sn->field, keys))
		return false;
	sn->name = yaml_spec_get(y, n, "name");
	if (!sn->name)
		return yaml_spec_fail(y, n, sn->field, "a stage needs a 'name'");
	sn->cmd = yaml_spec_get(y, n, "command");
	sn->after = yaml_spec_get(y, n, "after");
	sn->per_target = yaml_spec_get(y, n, "per-target");
	sn->ranks = yaml_spec_get(y, n, "ranks");
	sn->launch = yaml_spec_get(y, n, "launch");
	return true;
}

/* the stage the entry names: a new one, or the implicit merge it overrides; NULL (error) for a
 * reserved or repeated name */
static struct stage_spec *stage_named(struct yaml_spec *y, const struct stage_nodes *sn, struct workflow *w)
{
	char f[128];
	snprintf(f, sizeof f, "%s.name", sn->field);
	char *name;
	if (!yaml_spec_name(y, sn->name, yaml_spec_is_map(sn->entry) ? f : sn->field, &name))
		return NULL;
	if (!strcmp(name, "build") || !strcmp(name, "run") || !strcmp(name, "runs")) {
		free(name);
		yaml_spec_fail(y, sn->name, sn->field, "'%s' is reserved (the build step is app.build; runs come from the "
			       "ladder)", yaml_spec_is_scalar(sn->name) ? (const char *)sn->name->data.scalar.value : "");
		return NULL;
	}
	for (size_t i = 0; i < w->nstages; i++) {
		if (strcmp(w->stages[i].name, name))
			continue;
		if (i > 0 || w->stages[0].line) {
			free(name);
			yaml_spec_fail(y, sn->name, sn->field, "stage '%s' is listed twice (first on line %d)", w->stages[i].name,
				       w->stages[i].line);
			return NULL;
		}
		free(name);
		tmpl_free(&w->stages[i].cmd);
		return &w->stages[i];   /* overriding the implicit merge */
	}
	w->stages = xrealloc(w->stages, (w->nstages + 1) * sizeof *w->stages);
	struct stage_spec *s = &w->stages[w->nstages++];
	memset(s, 0, sizeof *s);
	s->name = name;
	return s;
}

/* ranks, per-target and launch: the built-in stage's, or as given */
static bool stage_shape(struct yaml_spec *y, const struct stage_nodes *sn, const struct builtin_stage *b,
			const struct workflow *w, struct stage_spec *s)
{
	char f[128];
	s->ranks = b ? b->ranks : 1;
	s->per_target = b && b->per_target;
	s->launch = b && b->launch;
	if (sn->per_target &&
	    !yaml_spec_bool(y, sn->per_target, (snprintf(f, sizeof f, "%s.per-target", sn->field), f), &s->per_target))
		return false;
	if (sn->launch && !yaml_spec_bool(y, sn->launch, (snprintf(f, sizeof f, "%s.launch", sn->field), f), &s->launch))
		return false;
	if (sn->ranks) {
		const char *rs;
		snprintf(f, sizeof f, "%s.ranks", sn->field);
		if (!yaml_spec_scalar(y, sn->ranks, f, &rs))
			return false;
		if (!strcmp(rs, "target"))
			s->ranks = 0;
		else if (!yaml_spec_long(y, sn->ranks, f, 1, 1L << 30, &s->ranks))
			return false;
	}
	if (s->ranks == 0 && !s->per_target)
		return yaml_spec_fail(y, sn->ranks ? sn->ranks : sn->entry, sn->field,
				      "'ranks: target' needs 'per-target: true'");
	if (s->per_target && !w->ntargets)
		return yaml_spec_fail(y, sn->entry, sn->field, "stage '%s' runs per target scale, but the workflow has no "
				      "'target'", s->name);
	return true;
}

/* the command: as given, or the built-in stage's */
static bool stage_command(struct yaml_spec *y, const struct stage_nodes *sn, const struct builtin_stage *b,
			  const struct workflow *w, struct stage_spec *s, const struct known_ctx *k)
{
	char f[128];
	struct known_ctx ks = *k;
	ks.names = placeholders_stage;
	ks.target_ok = s->per_target;
	ks.grid_ok = false;
	snprintf(f, sizeof f, "%s.command", sn->field);
	if (sn->cmd)
		return read_template(y, sn->cmd, f, &s->cmd, &ks);
	if (!b)
		return yaml_spec_fail(y, sn->entry, sn->field, "stage '%s' is not one ladder knows (merge, model, extrap, "
				      "replay, proxy, report); give its 'command'", s->name);
	char why[256];
	tmpl_parse(b->command, &s->cmd, why, sizeof why);
	if (b->prepare)
		tmpl_parse(b->prepare, &s->prepare, why, sizeof why);
	s->needs = b->needs;
	s->after_truth = b->after_truth;
	if (s->needs && !workflow_stage(w, s->needs))
		return yaml_spec_fail(y, sn->entry, sn->field, "stage '%s' reads what stage '%s' writes: list '%s' above it, "
				      "or give '%s' a command", s->name, s->needs, s->needs, s->name);
	return true;
}

/* what the stage consumes: as given (stages listed before it), or the built-in stage's inputs,
 * or the merge */
static bool stage_after(struct yaml_spec *y, const struct stage_nodes *sn, const struct builtin_stage *b,
			const struct workflow *w, struct stage_spec *s)
{
	for (size_t i = 0; i < s->nafter; i++)
		free(s->after[i]);
	free(s->after);
	s->after = NULL;
	s->nafter = 0;
	if (sn->after) {
		char **names, f[128];
		size_t nn;
		snprintf(f, sizeof f, "%s.after", sn->field);
		if (!yaml_spec_strings(y, sn->after, f, &names, &nn))
			return false;
		for (size_t i = 0; i < nn; i++) {
			bool found = false;
			for (size_t j = 0; j < w->nstages; j++)
				if (&w->stages[j] != s && !strcmp(w->stages[j].name, names[i]))
					found = true;
			if (!found) {
				yaml_spec_fail(y, sn->after, f, "'%s' is not a stage listed before '%s' (stages may only "
					       "consume stages listed above them, or merge)", names[i], s->name);
				strv_free(names);
				return false;
			}
			add_after(s, names[i]);
		}
		strv_free(names);
	} else if (b && !strcmp(b->after, "*")) {
		for (size_t j = 0; j < w->nstages; j++)
			if (&w->stages[j] != s)
				add_after(s, w->stages[j].name);
	} else if (b && *b->after && workflow_stage(w, b->after)) {
		add_after(s, b->after);
	} else if (strcmp(s->name, "merge")) {
		add_after(s, "merge");
	}
	return true;
}

/* one entry of `stages`: a name, or a mapping */
static bool read_stage(struct yaml_spec *y, yaml_node_t *n, size_t idx, struct workflow *w, struct known_ctx *k)
{
	struct stage_nodes sn;
	if (!stage_nodes(y, n, idx, &sn))
		return false;
	struct stage_spec *s = stage_named(y, &sn, w);
	if (!s)
		return false;
	const struct builtin_stage *b = builtin(s->name);
	s->line = yaml_spec_line(n);
	return stage_shape(y, &sn, b, w, s) && stage_command(y, &sn, b, w, s, k) && stage_after(y, &sn, b, w, s);
}

static bool read_stages(struct yaml_spec *y, yaml_node_t *n, struct workflow *w, struct known_ctx *k)
{
	if (yaml_spec_is_scalar(n))
		return read_stage(y, n, 0, w, k);
	if (!yaml_spec_is_seq(n))
		return yaml_spec_fail(y, n, "stages", "expected a list of stage names or stage mappings");
	for (size_t i = 0; i < yaml_spec_seq_len(n); i++)
		if (!read_stage(y, yaml_spec_seq_item(y, n, i), i, w, k))
			return false;
	return true;
}

/* the placeholders of app.command and the ladder's valid.command (and, changed, of stages) */
static struct known_ctx app_known(const struct workflow *w)
{
	return (struct known_ctx){placeholders_app, w, w->has_size, false, true};
}

static bool read_vars_field(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	return read_vars(y, n, target);
}

static bool read_size_field(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	return read_size(y, n, target);
}

static bool read_scaling(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct workflow *w = target;
	const char *s;
	if (!yaml_spec_scalar(y, n, "scaling", &s))
		return false;
	if (!strcmp(s, "strong"))
		w->scaling = SCALING_STRONG;
	else if (!strcmp(s, "weak"))
		w->scaling = SCALING_WEAK;
	else
		return yaml_spec_fail(y, n, "scaling", "expected strong or weak, got '%s'", s);
	return true;
}

static bool read_grid_field(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	return workflow_grid_read(y, n, target);
}

static bool read_targets(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct workflow *w = target;
	return read_longs(y, n, "target", 1, &w->targets, &w->ntargets);
}

static bool read_truth(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct workflow *w = target;
	w->truth_line = yaml_spec_line(n);
	return read_longs(y, n, "truth", 1, &w->truth, &w->ntruth);
}

static bool read_trace_field(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	return read_trace(y, n, target);
}

static bool read_acceptance_field(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	return read_acceptance(y, n, target);
}

static bool read_app(struct yaml_spec *y, yaml_node_t *app, void *target)
{
	struct workflow *w = target;
	static const char *const app_keys[] = {"command", "build", NULL};
	if (!yaml_spec_map(y, app, "app", app_keys))
		return false;
	yaml_node_t *n = yaml_spec_get(y, app, "command");
	if (!n)
		return yaml_spec_fail(y, app, "app.command", "missing (the application and its arguments)");
	struct known_ctx k = app_known(w);
	if (!read_template(y, n, "app.command", &w->command, &k))
		return false;
	if ((n = yaml_spec_get(y, app, "build"))) {
		struct known_ctx kb = {placeholders_build, w, false, false, false};
		if (!read_template(y, n, "app.build", &w->build, &kb))
			return false;
	}
	return true;
}

static bool read_ladder_field(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct known_ctx k = app_known(target);
	return read_ladder(y, n, target, &k);
}

static bool read_stages_field(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct known_ctx k = app_known(target);
	return read_stages(y, n, target, &k);
}

/* the fields of a workflow file, in the order they are read: each after those it refers to
 * (templates check {size} and the names under vars; stages check target) */
#define AT(member) offsetof(struct workflow, member)
static const struct spec_field workflow_fields[] = {
	{"name", SPEC_NAME, AT(name), 0, 0, 0, NULL, "the campaign's name: letters, digits, '_', '-', '.'", false},
	{"description", SPEC_STRING, AT(description), 0, 0, 0, NULL, NULL, false},
	{"vars", SPEC_CUSTOM, 0, 0, 0, 0, read_vars_field, NULL, false},
	{"size", SPEC_CUSTOM, 0, 0, 0, 0, read_size_field, NULL, false},
	{"scaling", SPEC_CUSTOM, 0, 0, 0, 0, read_scaling, NULL, false},
	{"repetitions", SPEC_LONG, AT(repetitions), 0, 1, 1000, NULL, NULL, false},
	{"grid", SPEC_CUSTOM, 0, 0, 0, 0, read_grid_field, NULL, false},
	{"target", SPEC_CUSTOM, 0, 0, 0, 0, read_targets, NULL, false},
	{"truth", SPEC_CUSTOM, 0, 0, 0, 0, read_truth, NULL, false},
	{"trace", SPEC_CUSTOM, 0, 0, 0, 0, read_trace_field, NULL, false},
	{"acceptance", SPEC_CUSTOM, 0, 0, 0, 0, read_acceptance_field, NULL, false},
	{"app", SPEC_CUSTOM, 0, 0, 0, 0, read_app, "app.command: the application and its arguments", false},
	{"ladder", SPEC_CUSTOM, 0, 0, 0, 0, read_ladder_field, "a list of rank counts, or generate/from/to", false},
	{"stages", SPEC_CUSTOM, 0, 0, 0, 0, read_stages_field, NULL, false},
};
#undef AT

bool workflow_load(const char *path, struct workflow *w, struct campaign_error *e)
{
	memset(w, 0, sizeof *w);
	w->repetitions = 1;
	w->stream_after = -1;
	/* the implicit merge stage comes first */
	w->stages = xcalloc(1, sizeof *w->stages);
	w->nstages = 1;
	w->stages[0].name = xstrdup("merge");
	w->stages[0].ranks = 1;
	char why[128];
	tmpl_parse(builtin("merge")->command, &w->stages[0].cmd, why, sizeof why);
	struct yaml_spec y;
	bool ok = yaml_spec_load(&y, path, e);
	if (ok) {
		w->path = path_absolute(path);
		w->dir = xstrdup(w->path);
		char *slash = strrchr(w->dir, '/');
		if (slash)
			*(slash == w->dir ? slash + 1 : slash) = 0;
		ok = yaml_spec_read_fields(&y, yaml_spec_root(&y), "", workflow_fields,
					   sizeof workflow_fields / sizeof workflow_fields[0], w);
	}
	yaml_spec_free(&y);
	if (!ok)
		workflow_free(w);
	return ok;
}

void workflow_free(struct workflow *w)
{
	free(w->path);
	free(w->dir);
	free(w->name);
	free(w->description);
	tmpl_free(&w->command);
	tmpl_free(&w->build);
	tmpl_free(&w->valid);
	free(w->list);
	free(w->size_rung);
	free(w->size_value);
	free(w->targets);
	free(w->truth);
	for (size_t i = 0; i < w->nstages; i++) {
		free(w->stages[i].name);
		tmpl_free(&w->stages[i].cmd);
		tmpl_free(&w->stages[i].prepare);
		for (size_t k = 0; k < w->stages[i].nafter; k++)
			free(w->stages[i].after[k]);
		free(w->stages[i].after);
	}
	free(w->stages);
	template_vars_free(&w->vars);
	for (size_t i = 0; i < w->nacceptance; i++)
		free(w->acceptance[i].key);
	free(w->acceptance);
	memset(w, 0, sizeof *w);
}

bool workflow_size(const struct workflow *w, long p, long *size)
{
	if (!w->has_size)
		return false;
	if (!w->nsizes) {
		*size = w->size;
		return true;
	}
	for (size_t i = 0; i < w->nsizes; i++)
		if (w->size_rung[i] == p) {
			*size = w->size_value[i];
			return true;
		}
	return false;
}

const struct stage_spec *workflow_stage(const struct workflow *w, const char *name)
{
	for (size_t i = 0; i < w->nstages; i++)
		if (!strcmp(w->stages[i].name, name))
			return &w->stages[i];
	return NULL;
}
