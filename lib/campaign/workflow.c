/*
 * workflow — reading and checking a workflow file (what to run). See spec.h and
 * `ladder help workflow`.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/spec.h"
#include "campaign/statefile.h"
#include "campaign/yamlspec.h"
#include "util/path.h"
#include "util/xalloc.h"

const char *const placeholders_app[] = {"ranks", "nodes", "size", "rep", "outdir", "prefix",
	"workflow_dir", "campaign_dir", "scaling", "name", "ladder", NULL};
const char *const placeholders_build[] = {"prefix", "workflow_dir", "campaign_dir", "name", "scaling",
	"ladder", NULL};
const char *const placeholders_valid[] = {"ranks", "nodes", "size", "scaling", "prefix",
	"workflow_dir", "campaign_dir", "name", "ladder", NULL};
const char *const placeholders_stage[] = {"campaign", "campaign_dir", "outdir", "target", "targets", "target_max",
	"prefix", "workflow_dir", "acceptance", "runs", "ladder", "rungs", "repetitions", "name", "scaling", "history", NULL};

/* the stages ladder knows by name: their command, inputs and shape */
struct builtin_stage {
	const char *name, *command, *after;
	bool per_target, launch;
	long ranks;
	const char *needs; /* the stage whose output the command reads: it cannot run without it */
	bool after_truth;  /* also waits for the truth runs */
};
static const struct builtin_stage builtins[] = {
	{"merge", "ladder merge -o {campaign} {runs}", "", false, false, 1, NULL, false},
	{"model", "ladder model {campaign} --target {target_max}", "merge", false, false, 1, NULL, false},
	{"extrap", "ladder extrap {campaign} --target {target} -o {outdir}/trace.h5", "merge", true, false, 1, NULL, false},
	{"replay", "ladder-replay --json {outdir}/replay.json {campaign_dir}/extrap/p{target}/trace.h5", "extrap",
	 true, true, 0, "extrap", false},
	{"report", "ladder report {campaign} -o {outdir} --thresholds {acceptance} --history {history}", "*", false, false, 1, NULL, true},
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
};

static bool known(const char *name, void *arg)
{
	struct known_ctx *k = arg;
	if (!strcmp(name, "size") && !k->size_ok)
		return false;
	if (!strcmp(name, "target") && !k->target_ok)
		return false;
	for (const char *const *p = k->names; *p; p++)
		if (!strcmp(*p, name))
			return true;
	for (size_t i = 0; i < k->w->nvars; i++)
		if (!strcmp(k->w->vars[i].key, name))
			return true;
	return false;
}

/* read a command template from a string or a list of words, and check its placeholders */
static bool read_template(struct yspec *y, yaml_node_t *n, const char *field, struct tmpl *t,
			  struct known_ctx *k)
{
	char why[512];
	if (yspec_is_seq(n)) {
		char **words;
		size_t nw;
		if (!yspec_strings(y, n, field, &words, &nw))
			return false;
		tmpl_from_words(words, nw, t);
		strv_free(words);
	} else {
		const char *s;
		if (!yspec_scalar(y, n, field, &s))
			return false;
		if (!tmpl_parse(s, t, why, sizeof why))
			return yspec_fail(y, n, field, "%s", why);
	}
	if (tmpl_empty(t))
		return yspec_fail(y, n, field, "the command is empty");
	if (!tmpl_check(t, known, k, why, sizeof why)) {
		char list[512] = "";
		size_t off = 0;
		for (const char *const *p = k->names; *p && off < sizeof list - 40; p++) {
			if ((!strcmp(*p, "size") && !k->size_ok) || (!strcmp(*p, "target") && !k->target_ok))
				continue;
			off += (size_t)snprintf(list + off, sizeof list - off, "%s{%s}", off ? " " : "", *p);
		}
		const char *hint = "";
		if (strstr(why, "{size}") && !k->size_ok)
			hint = " ({size} needs the 'size' field)";
		else if (strstr(why, "{target}") && !k->target_ok)
			hint = " ({target} needs 'per-target: true' and the 'target' field)";
		tmpl_free(t);
		return yspec_fail(y, n, field, "%s%s; known here: %s%s", why, hint, list,
				  k->w->nvars ? " and the names under 'vars'" : "");
	}
	return true;
}

static bool read_longs(struct yspec *y, yaml_node_t *n, const char *field, long min, long **out, size_t *count)
{
	if (yspec_is_scalar(n)) {
		*out = xmalloc(sizeof **out);
		*count = 1;
		return yspec_long(y, n, field, min, LONG_MAX, *out);
	}
	if (!yspec_is_seq(n) || yspec_seq_len(n) == 0)
		return yspec_fail(y, n, field, "expected an integer or a non-empty list of integers");
	size_t len = yspec_seq_len(n);
	long *v = xcalloc(len, sizeof *v);
	for (size_t i = 0; i < len; i++) {
		char f[128];
		snprintf(f, sizeof f, "%s[%zu]", field, i);
		if (!yspec_long(y, yspec_seq_item(y, n, i), f, min, LONG_MAX, &v[i])) {
			free(v);
			return false;
		}
	}
	*out = v;
	*count = len;
	return true;
}

static bool read_ladder(struct yspec *y, yaml_node_t *n, struct workflow *w, struct known_ctx *k)
{
	w->ladder_line = yspec_line(n);
	if (yspec_is_seq(n) || yspec_is_scalar(n)) {
		w->gen = RUNGS_LIST;
		return read_longs(y, n, "ladder", 1, &w->list, &w->nlist);
	}
	static const char *const keys[] = {"ranks", "generate", "from", "to", "valid", NULL};
	if (!yspec_map(y, n, "ladder", keys))
		return false;
	yaml_node_t *ranks = yspec_get(y, n, "ranks"), *gen = yspec_get(y, n, "generate");
	if (ranks && gen)
		return yspec_fail(y, gen, "ladder.generate", "give either 'ranks' (a list) or 'generate', not both");
	if (ranks) {
		w->gen = RUNGS_LIST;
		if (yspec_get(y, n, "from") || yspec_get(y, n, "to"))
			return yspec_fail(y, n, "ladder", "'from' and 'to' go with 'generate', not with 'ranks'");
		if (!read_longs(y, ranks, "ladder.ranks", 1, &w->list, &w->nlist))
			return false;
	} else if (gen) {
		const char *g;
		if (!yspec_scalar(y, gen, "ladder.generate", &g))
			return false;
		if (!rungs_gen_parse(g, &w->gen) || w->gen == RUNGS_LIST)
			return yspec_fail(y, gen, "ladder.generate",
					  "expected powers-of-two, squares or cubes, got '%s'", g);
		yaml_node_t *from = yspec_get(y, n, "from"), *to = yspec_get(y, n, "to");
		if (!from || !to)
			return yspec_fail(y, n, "ladder", "'generate' needs both 'from' and 'to' (rank bounds, inclusive)");
		if (!yspec_long(y, from, "ladder.from", 1, 1L << 40, &w->from) ||
		    !yspec_long(y, to, "ladder.to", 1, 1L << 40, &w->to))
			return false;
		if (w->from > w->to)
			return yspec_fail(y, to, "ladder.to", "must not be below 'from' (%ld)", w->from);
	} else {
		return yspec_fail(y, n, "ladder", "needs 'ranks' (a list) or 'generate' with 'from' and 'to'");
	}
	yaml_node_t *valid = yspec_get(y, n, "valid");
	if (valid) {
		static const char *const vkeys[] = {"divides", "multiple-of", "command", NULL};
		if (!yspec_map(y, valid, "ladder.valid", vkeys))
			return false;
		yaml_node_t *v;
		if ((v = yspec_get(y, valid, "divides")) &&
		    !yspec_long(y, v, "ladder.valid.divides", 1, LONG_MAX, &w->filter.divides))
			return false;
		if ((v = yspec_get(y, valid, "multiple-of")) &&
		    !yspec_long(y, v, "ladder.valid.multiple-of", 1, LONG_MAX, &w->filter.multiple_of))
			return false;
		if ((v = yspec_get(y, valid, "command"))) {
			struct known_ctx kv = *k;
			kv.names = placeholders_valid;
			if (!read_template(y, v, "ladder.valid.command", &w->valid, &kv))
				return false;
		}
	}
	return true;
}

static bool read_size(struct yspec *y, yaml_node_t *n, struct workflow *w)
{
	w->has_size = true;
	w->size_line = yspec_line(n);
	if (yspec_is_scalar(n))
		return yspec_long(y, n, "size", 1, LONG_MAX, &w->size);
	if (!yspec_is_map(n))
		return yspec_fail(y, n, "size", "expected an integer, or a mapping from rank count to size");
	if (!yspec_map(y, n, "size", NULL))
		return false;
	size_t len = yspec_map_len(n);
	if (!len)
		return yspec_fail(y, n, "size", "the mapping is empty");
	w->size_rung = xcalloc(len, sizeof *w->size_rung);
	w->size_value = xcalloc(len, sizeof *w->size_value);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *key = yspec_map_key(y, n, i);
		char f[128];
		snprintf(f, sizeof f, "size.%s", yspec_is_scalar(key) ? (const char *)key->data.scalar.value : "?");
		if (!yspec_long(y, key, "size (a rank count as key)", 1, LONG_MAX, &w->size_rung[i]) ||
		    !yspec_long(y, yspec_map_value(y, n, i), f, 1, LONG_MAX, &w->size_value[i]))
			return false;
		w->nsizes++;
	}
	return true;
}

static bool read_trace(struct yspec *y, yaml_node_t *n, struct workflow *w)
{
	static const char *const keys[] = {"timestamps", "callsite-depth", "stream-after", NULL};
	if (!yspec_map(y, n, "trace", keys))
		return false;
	yaml_node_t *v;
	if ((v = yspec_get(y, n, "timestamps")) && !yspec_bool(y, v, "trace.timestamps", &w->timestamps))
		return false;
	if ((v = yspec_get(y, n, "callsite-depth")) &&
	    !yspec_long(y, v, "trace.callsite-depth", 1, 16, &w->callsite_depth))
		return false;
	if ((v = yspec_get(y, n, "stream-after")) &&
	    !yspec_long(y, v, "trace.stream-after", 0, 1 << 20, &w->stream_after))
		return false;
	return true;
}

static bool read_vars(struct yspec *y, yaml_node_t *n, struct workflow *w)
{
	if (!yspec_map(y, n, "vars", NULL))
		return false;
	size_t len = yspec_map_len(n);
	w->vars = xcalloc(len ? len : 1, sizeof *w->vars);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *k = yspec_map_key(y, n, i);
		const char *name = (const char *)k->data.scalar.value;
		char f[128];
		snprintf(f, sizeof f, "vars.%s", name);
		bool ok = *name && !(name[0] >= '0' && name[0] <= '9');
		for (const char *p = name; ok && *p; p++)
			ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_';
		if (!ok)
			return yspec_fail(y, k, f, "a variable name is letters, digits and '_', not starting with a digit");
		const char *const *lists[] = {placeholders_app, placeholders_stage, placeholders_build};
		for (size_t l = 0; l < 3; l++)
			for (const char *const *p = lists[l]; *p; p++)
				if (!strcmp(*p, name))
					return yspec_fail(y, k, f, "'%s' is a built-in placeholder; choose another name", name);
		if (!yspec_string(y, yspec_map_value(y, n, i), f, &w->vars[w->nvars].value))
			return false;
		w->vars[w->nvars++].key = xstrdup(name);
	}
	return true;
}

static bool read_acceptance(struct yspec *y, yaml_node_t *n, struct workflow *w)
{
	if (!yspec_map(y, n, "acceptance", NULL))
		return false;
	size_t len = yspec_map_len(n);
	w->acceptance = xcalloc(len ? len : 1, sizeof *w->acceptance);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *k = yspec_map_key(y, n, i);
		char *name;
		if (!yspec_name(y, k, "acceptance", &name))
			return false;
		char f[128];
		snprintf(f, sizeof f, "acceptance.%s", name);
		struct kvnum *a = &w->acceptance[w->nacceptance++];
		a->key = name;
		if (!yspec_double(y, yspec_map_value(y, n, i), f, -1e300, 1e300, &a->value))
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

/* one entry of `stages`: a name, or a mapping */
static bool read_stage(struct yspec *y, yaml_node_t *n, size_t idx, struct workflow *w, struct known_ctx *k)
{
	char field[64], f[128];
	snprintf(field, sizeof field, "stages[%zu]", idx);
	yaml_node_t *name_node = n, *cmd = NULL, *after = NULL, *pt = NULL, *ranks = NULL, *launch = NULL;
	if (yspec_is_map(n)) {
		static const char *const keys[] = {"name", "command", "after", "per-target", "ranks", "launch", NULL};
		if (!yspec_map(y, n, field, keys))
			return false;
		name_node = yspec_get(y, n, "name");
		if (!name_node)
			return yspec_fail(y, n, field, "a stage needs a 'name'");
		cmd = yspec_get(y, n, "command");
		after = yspec_get(y, n, "after");
		pt = yspec_get(y, n, "per-target");
		ranks = yspec_get(y, n, "ranks");
		launch = yspec_get(y, n, "launch");
	}
	snprintf(f, sizeof f, "%s.name", field);
	char *name;
	if (!yspec_name(y, name_node, yspec_is_map(n) ? f : field, &name))
		return false;
	if (!strcmp(name, "build") || !strcmp(name, "run") || !strcmp(name, "runs")) {
		free(name);
		return yspec_fail(y, name_node, field, "'%s' is reserved (the build step is app.build; runs come from the ladder)",
				  yspec_is_scalar(name_node) ? (const char *)name_node->data.scalar.value : "");
	}
	struct stage_spec *s = NULL;
	for (size_t i = 0; i < w->nstages; i++)
		if (!strcmp(w->stages[i].name, name)) {
			if (i > 0 || w->stages[0].line) {
				free(name);
				return yspec_fail(y, name_node, field, "stage '%s' is listed twice (first on line %d)",
						  w->stages[i].name, w->stages[i].line);
			}
			s = &w->stages[i]; /* overriding the implicit merge */
		}
	const struct builtin_stage *b = builtin(name);
	if (!s) {
		w->stages = xrealloc(w->stages, (w->nstages + 1) * sizeof *w->stages);
		s = &w->stages[w->nstages++];
		memset(s, 0, sizeof *s);
		s->name = name;
	} else {
		free(name);
		tmpl_free(&s->cmd);
	}
	s->line = yspec_line(n);
	s->ranks = b ? b->ranks : 1;
	s->per_target = b && b->per_target;
	s->launch = b && b->launch;
	if (pt && !yspec_bool(y, pt, (snprintf(f, sizeof f, "%s.per-target", field), f), &s->per_target))
		return false;
	if (launch && !yspec_bool(y, launch, (snprintf(f, sizeof f, "%s.launch", field), f), &s->launch))
		return false;
	if (ranks) {
		const char *rs;
		snprintf(f, sizeof f, "%s.ranks", field);
		if (!yspec_scalar(y, ranks, f, &rs))
			return false;
		if (!strcmp(rs, "target"))
			s->ranks = 0;
		else if (!yspec_long(y, ranks, f, 1, 1L << 30, &s->ranks))
			return false;
	}
	if (s->ranks == 0 && !s->per_target)
		return yspec_fail(y, ranks ? ranks : n, field, "'ranks: target' needs 'per-target: true'");
	if (s->per_target && !w->ntargets)
		return yspec_fail(y, n, field, "stage '%s' runs per target scale, but the workflow has no 'target'", s->name);
	struct known_ctx ks = *k;
	ks.names = placeholders_stage;
	ks.target_ok = s->per_target;
	snprintf(f, sizeof f, "%s.command", field);
	if (cmd) {
		if (!read_template(y, cmd, f, &s->cmd, &ks))
			return false;
	} else if (b) {
		char why[256];
		tmpl_parse(b->command, &s->cmd, why, sizeof why);
		s->needs = b->needs;
		s->after_truth = b->after_truth;
		if (s->needs && !workflow_stage(w, s->needs))
			return yspec_fail(y, n, field, "stage '%s' reads what stage '%s' writes: list '%s' above it, "
					  "or give '%s' a command", s->name, s->needs, s->needs, s->name);
	} else {
		return yspec_fail(y, n, field, "stage '%s' is not one ladder knows (merge, model, extrap, replay, "
				  "report); give its 'command'", s->name);
	}
	for (size_t i = 0; i < s->nafter; i++)
		free(s->after[i]);
	free(s->after);
	s->after = NULL;
	s->nafter = 0;
	if (after) {
		char **names;
		size_t nn;
		snprintf(f, sizeof f, "%s.after", field);
		if (!yspec_strings(y, after, f, &names, &nn))
			return false;
		for (size_t i = 0; i < nn; i++) {
			bool found = false;
			for (size_t j = 0; j < w->nstages; j++)
				if (&w->stages[j] != s && !strcmp(w->stages[j].name, names[i]))
					found = true;
			if (!found) {
				yspec_fail(y, after, f, "'%s' is not a stage listed before '%s' (stages may only "
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

static bool read_stages(struct yspec *y, yaml_node_t *n, struct workflow *w, struct known_ctx *k)
{
	if (yspec_is_scalar(n))
		return read_stage(y, n, 0, w, k);
	if (!yspec_is_seq(n))
		return yspec_fail(y, n, "stages", "expected a list of stage names or stage mappings");
	for (size_t i = 0; i < yspec_seq_len(n); i++)
		if (!read_stage(y, yspec_seq_item(y, n, i), i, w, k))
			return false;
	return true;
}

bool workflow_load(const char *path, struct workflow *w, struct cerr *e)
{
	memset(w, 0, sizeof *w);
	w->repetitions = 1;
	w->stream_after = -1;
	struct yspec y;
	if (!yspec_load(&y, path, e)) {
		yspec_free(&y);
		return false;
	}
	bool ok = false;
	yaml_node_t *root = yspec_root(&y), *n;
	static const char *const keys[] = {"name", "description", "app", "ladder", "scaling", "size",
		"repetitions", "target", "truth", "trace", "stages", "vars", "acceptance", NULL};
	if (!yspec_map(&y, root, "", keys))
		goto out;
	w->path = path_absolute(path);
	w->dir = xstrdup(w->path);
	char *slash = strrchr(w->dir, '/');
	if (slash)
		*(slash == w->dir ? slash + 1 : slash) = 0;
	if (!(n = yspec_get(&y, root, "name"))) {
		yspec_fail(&y, root, "name", "missing (the campaign's name: letters, digits, '_', '-', '.')");
		goto out;
	}
	if (!yspec_name(&y, n, "name", &w->name))
		goto out;
	if ((n = yspec_get(&y, root, "description")) && !yspec_string(&y, n, "description", &w->description))
		goto out;
	if ((n = yspec_get(&y, root, "vars")) && !read_vars(&y, n, w))
		goto out;
	if ((n = yspec_get(&y, root, "size")) && !read_size(&y, n, w))
		goto out;
	struct known_ctx k = {placeholders_app, w, w->has_size, false};
	if ((n = yspec_get(&y, root, "scaling"))) {
		const char *s;
		if (!yspec_scalar(&y, n, "scaling", &s))
			goto out;
		if (!strcmp(s, "strong"))
			w->scaling = SCALING_STRONG;
		else if (!strcmp(s, "weak"))
			w->scaling = SCALING_WEAK;
		else {
			yspec_fail(&y, n, "scaling", "expected strong or weak, got '%s'", s);
			goto out;
		}
	}
	if ((n = yspec_get(&y, root, "repetitions")) &&
	    !yspec_long(&y, n, "repetitions", 1, 1000, &w->repetitions))
		goto out;
	if ((n = yspec_get(&y, root, "target")) && !read_longs(&y, n, "target", 1, &w->targets, &w->ntargets))
		goto out;
	if ((n = yspec_get(&y, root, "truth"))) {
		w->truth_line = yspec_line(n);
		if (!read_longs(&y, n, "truth", 1, &w->truth, &w->ntruth))
			goto out;
	}
	if ((n = yspec_get(&y, root, "trace")) && !read_trace(&y, n, w))
		goto out;
	if ((n = yspec_get(&y, root, "acceptance")) && !read_acceptance(&y, n, w))
		goto out;
	yaml_node_t *app = yspec_get(&y, root, "app");
	if (!app) {
		yspec_fail(&y, root, "app", "missing (app.command: the application and its arguments)");
		goto out;
	}
	static const char *const app_keys[] = {"command", "build", NULL};
	if (!yspec_map(&y, app, "app", app_keys))
		goto out;
	if (!(n = yspec_get(&y, app, "command"))) {
		yspec_fail(&y, app, "app.command", "missing (the application and its arguments)");
		goto out;
	}
	if (!read_template(&y, n, "app.command", &w->command, &k))
		goto out;
	if ((n = yspec_get(&y, app, "build"))) {
		struct known_ctx kb = {placeholders_build, w, false, false};
		if (!read_template(&y, n, "app.build", &w->build, &kb))
			goto out;
	}
	if (!(n = yspec_get(&y, root, "ladder"))) {
		yspec_fail(&y, root, "ladder", "missing (a list of rank counts, or generate/from/to)");
		goto out;
	}
	if (!read_ladder(&y, n, w, &k))
		goto out;
	/* the implicit merge stage comes first */
	w->stages = xcalloc(1, sizeof *w->stages);
	w->nstages = 1;
	w->stages[0].name = xstrdup("merge");
	w->stages[0].ranks = 1;
	{
		char why[128];
		tmpl_parse(builtin("merge")->command, &w->stages[0].cmd, why, sizeof why);
	}
	if ((n = yspec_get(&y, root, "stages")) && !read_stages(&y, n, w, &k))
		goto out;
	ok = true;
out:
	yspec_free(&y);
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
		for (size_t k = 0; k < w->stages[i].nafter; k++)
			free(w->stages[i].after[k]);
		free(w->stages[i].after);
	}
	free(w->stages);
	for (size_t i = 0; i < w->nvars; i++) {
		free(w->vars[i].key);
		free(w->vars[i].value);
	}
	free(w->vars);
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
