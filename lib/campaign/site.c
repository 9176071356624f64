/*
 * site — reading and checking a site file (where and how jobs run). See spec.h and
 * `ladder help site`.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/shquote.h"
#include "campaign/spec.h"
#include "campaign/yaml_spec.h"
#include "util/xalloc.h"

const char *const placeholders_launcher[] = {"ranks", "nodes", "tasks_per_node", NULL};

bool parse_time_limit(const char *s, long *minutes)
{
	long d = 0, h = 0, m = 0, sec = 0;
	char tail;
	bool dash = strchr(s, '-') != NULL, colon = strchr(s, ':') != NULL;
	int n;
	if (s[0] == '-' || s[0] == '+')
		return false;
	if (dash && colon)
		n = sscanf(s, "%ld-%ld:%ld:%ld%c", &d, &h, &m, &sec, &tail) == 4;
	else if (dash)
		n = sscanf(s, "%ld-%ld%c", &d, &h, &tail) == 2;
	else if (colon)
		n = sscanf(s, "%ld:%ld:%ld%c", &h, &m, &sec, &tail) == 3;
	else
		n = sscanf(s, "%ld%c", &m, &tail) == 1;
	if (!n || d < 0 || h < 0 || m < 0 || sec < 0 || sec > 59 || (colon && (m > 59 || (dash && h > 23))) ||
	    d > 365 || h > 24 * 365 || m > 60L * 24 * 365)
		return false;
	long total = (d * 24 + h) * 60 + m + (sec > 0);
	if (total < 1)
		return false;
	*minutes = total;
	return true;
}

static bool simple_token(const char *s)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      strchr("_-.,+:", *p)))
			return false;
	return true;
}

static bool read_token(struct yaml_spec *y, yaml_node_t *n, const char *field, char **out)
{
	const char *s;
	if (!yaml_spec_scalar(y, n, field, &s))
		return false;
	if (!simple_token(s))
		return yaml_spec_fail(y, n, field, "'%s' is not a valid Slurm name (letters, digits, _ - . , + :)", s);
	*out = xstrdup(s);
	return true;
}

static bool known_launcher(const char *name, void *arg)
{
	(void)arg;
	for (const char *const *p = placeholders_launcher; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

static bool read_times(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct site *s = target;
	if (yaml_spec_is_scalar(n)) {
		const char *v;
		if (!yaml_spec_scalar(y, n, "time", &v))
			return false;
		if (!parse_time_limit(v, &s->time_default))
			return yaml_spec_fail(y, n, "time", "expected minutes, H:MM:SS or D-H:MM:SS, got '%s'", v);
		return true;
	}
	if (!yaml_spec_map(y, n, "time", NULL))
		return false;
	size_t len = yaml_spec_map_len(n);
	s->times = xcalloc(len ? len : 1, sizeof *s->times);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *k = yaml_spec_map_key(y, n, i);
		char *stage;
		if (!yaml_spec_name(y, k, "time", &stage))
			return false;
		char f[128];
		snprintf(f, sizeof f, "time.%s", stage);
		const char *v;
		long minutes;
		yaml_node_t *vn = yaml_spec_map_value(y, n, i);
		if (!yaml_spec_scalar(y, vn, f, &v)) {
			free(stage);
			return false;
		}
		if (!parse_time_limit(v, &minutes)) {
			free(stage);
			return yaml_spec_fail(y, vn, f, "expected minutes, H:MM:SS or D-H:MM:SS, got '%s'", v);
		}
		if (!strcmp(stage, "default")) {
			s->time_default = minutes;
			free(stage);
			continue;
		}
		s->times[s->ntimes].stage = stage;
		s->times[s->ntimes++].minutes = minutes;
	}
	return true;
}

static bool read_env(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct site *s = target;
	if (!yaml_spec_map(y, n, "env", NULL))
		return false;
	size_t len = yaml_spec_map_len(n);
	s->env = xcalloc(len ? len : 1, sizeof *s->env);
	for (size_t i = 0; i < len; i++) {
		yaml_node_t *k = yaml_spec_map_key(y, n, i);
		const char *name = (const char *)k->data.scalar.value;
		char f[160];
		snprintf(f, sizeof f, "env.%s", name);
		if (!sh_var_name(name))
			return yaml_spec_fail(y, k, f, "'%s' is not a valid environment variable name", name);
		if (!yaml_spec_string(y, yaml_spec_map_value(y, n, i), f, &s->env[s->nenv].value))
			return false;
		s->env[s->nenv++].key = xstrdup(name);
	}
	return true;
}

static bool read_poll(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct site *s = target;
	static const char *const keys[] = {"interval", "max", NULL};
	if (!yaml_spec_map(y, n, "poll", keys))
		return false;
	yaml_node_t *v;
	if ((v = yaml_spec_get(y, n, "interval")) && !yaml_spec_double(y, v, "poll.interval", 0.01, 3600, &s->poll_min))
		return false;
	if ((v = yaml_spec_get(y, n, "max")) && !yaml_spec_double(y, v, "poll.max", 0.01, 3600, &s->poll_max))
		return false;
	if (s->poll_max < s->poll_min)
		return yaml_spec_fail(y, n, "poll.max", "must not be below poll.interval (%g s)", s->poll_min);
	return true;
}

static bool read_scheduler(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct site *s = target;
	const char *sched;
	if (!yaml_spec_scalar(y, n, "scheduler", &sched))
		return false;
	if (!strcmp(sched, "local"))
		s->scheduler = SCHED_LOCAL;
	else if (!strcmp(sched, "slurm"))
		s->scheduler = SCHED_SLURM;
	else
		return yaml_spec_fail(y, n, "scheduler", "expected local or slurm, got '%s'", sched);
	return true;
}

static bool read_launcher(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct site *s = target;
	char why[512];
	if (yaml_spec_is_seq(n)) {
		char **words;
		size_t nw;
		if (!yaml_spec_strings(y, n, "launcher", &words, &nw))
			return false;
		tmpl_from_words(words, nw, &s->launcher);
		strv_free(words);
	} else {
		const char *t;
		if (!yaml_spec_scalar(y, n, "launcher", &t))
			return false;
		if (!tmpl_parse(t, &s->launcher, why, sizeof why))
			return yaml_spec_fail(y, n, "launcher", "%s", why);
	}
	if (tmpl_empty(&s->launcher))
		return yaml_spec_fail(y, n, "launcher", "the launcher is empty");
	if (!tmpl_check(&s->launcher, known_launcher, NULL, why, sizeof why))
		return yaml_spec_fail(y, n, "launcher", "%s; known here: {ranks} {nodes} {tasks_per_node}", why);
	return true;
}

static bool read_sbatch(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct site *s = target;
	if (!yaml_spec_strings(y, n, "sbatch", &s->sbatch, &s->nsbatch))
		return false;
	for (size_t i = 0; i < s->nsbatch; i++)
		if (s->sbatch[i][0] != '-')
			return yaml_spec_fail(y, n, "sbatch", "'%s' is not an sbatch option (it must start with '-')",
					      s->sbatch[i]);
	return true;
}

static bool read_shell(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct site *s = target;
	free(s->shell);
	s->shell = NULL;
	if (!yaml_spec_string(y, n, "shell", &s->shell))
		return false;
	if (s->shell[0] != '/')
		return yaml_spec_fail(y, n, "shell", "expected an absolute path such as /bin/bash, got '%s'", s->shell);
	return true;
}

static bool read_submit(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	struct site *s = target;
	const char *m;
	if (!yaml_spec_scalar(y, n, "submit", &m))
		return false;
	if (!strcmp(m, "auto"))
		s->submit = SUBMIT_AUTO;
	else if (!strcmp(m, "libslurm"))
		s->submit = SUBMIT_LIBSLURM;
	else if (!strcmp(m, "sbatch"))
		s->submit = SUBMIT_SBATCH;
	else
		return yaml_spec_fail(y, n, "submit", "expected auto, libslurm or sbatch, got '%s'", m);
	return true;
}

static bool read_partition(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	return read_token(y, n, "partition", &((struct site *)target)->partition);
}

static bool read_account(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	return read_token(y, n, "account", &((struct site *)target)->account);
}

static bool read_qos(struct yaml_spec *y, yaml_node_t *n, void *target)
{
	return read_token(y, n, "qos", &((struct site *)target)->qos);
}

static bool check_slurm_only(struct yaml_spec *y, yaml_node_t *root, void *target);
static bool check_ranks(struct yaml_spec *y, yaml_node_t *root, void *target);

/* the fields of a site file, in the order they are read and checked (mark: only for Slurm) */
#define AT(member) offsetof(struct site, member)
static const struct spec_field site_fields[] = {
	{"name", SPEC_NAME, AT(name), 0, 0, 0, NULL, "the site's name", false},
	{"scheduler", SPEC_CUSTOM, 0, 0, 0, 0, read_scheduler, "local or slurm", false},
	{NULL, SPEC_CHECK, 0, 0, 0, 0, check_slurm_only, NULL, false},
	{"partition", SPEC_CUSTOM, 0, 0, 0, 0, read_partition, NULL, true},
	{"account", SPEC_CUSTOM, 0, 0, 0, 0, read_account, NULL, true},
	{"qos", SPEC_CUSTOM, 0, 0, 0, 0, read_qos, NULL, true},
	{"ranks-per-node", SPEC_LONG, AT(ranks_per_node), 0, 1, 1L << 20, NULL, NULL, false},
	{"max-ranks", SPEC_LONG, AT(max_ranks), 0, 1, 1L << 30, NULL, NULL, false},
	{"max-nodes", SPEC_LONG, AT(max_nodes), 0, 1, 1L << 24, NULL, NULL, false},
	{NULL, SPEC_CHECK, 0, 0, 0, 0, check_ranks, NULL, false},
	{"launcher", SPEC_CUSTOM, 0, 0, 0, 0, read_launcher,
	 "e.g. \"srun --mpi=pmix -n {ranks}\" or \"mpirun -np {ranks}\"", false},
	{"time", SPEC_CUSTOM, 0, 0, 0, 0, read_times, NULL, false},
	{"modules", SPEC_STRINGS, AT(modules), AT(nmodules), 0, 0, NULL, NULL, false},
	{"env", SPEC_CUSTOM, 0, 0, 0, 0, read_env, NULL, false},
	{"setup", SPEC_STRINGS, AT(setup), AT(nsetup), 0, 0, NULL, NULL, false},
	{"sbatch", SPEC_CUSTOM, 0, 0, 0, 0, read_sbatch, NULL, true},
	{"shell", SPEC_CUSTOM, 0, 0, 0, 0, read_shell, NULL, false},
	{"submit", SPEC_CUSTOM, 0, 0, 0, 0, read_submit, NULL, true},
	{"poll", SPEC_CUSTOM, 0, 0, 0, 0, read_poll, NULL, false},
	{"jobcomp", SPEC_STRING, AT(jobcomp), 0, 0, 0, NULL, NULL, true},
	{"controller-timeout", SPEC_LONG, AT(controller_timeout), 0, 1, 7L * 24 * 3600, NULL, NULL, false},
};
#undef AT
#define NFIELDS (sizeof site_fields / sizeof site_fields[0])

/* the fields only a Slurm site may have, refused for a local one */
static bool check_slurm_only(struct yaml_spec *y, yaml_node_t *root, void *target)
{
	const struct site *s = target;
	yaml_node_t *n;
	for (size_t i = 0; i < NFIELDS && s->scheduler != SCHED_SLURM; i++)
		if (site_fields[i].mark && (n = yaml_spec_get(y, root, site_fields[i].key)))
			return yaml_spec_fail(y, n, site_fields[i].key, "only for 'scheduler: slurm'");
	return true;
}

static bool check_ranks(struct yaml_spec *y, yaml_node_t *root, void *target)
{
	struct site *s = target;
	bool slurm = s->scheduler == SCHED_SLURM;
	if (!s->max_ranks && !slurm)
		return yaml_spec_fail(y, root, "max-ranks", "missing (how many ranks the local executor may run at a time)");
	if (!s->ranks_per_node) {
		if (slurm)
			return yaml_spec_fail(y, root, "ranks-per-node", "missing (MPI ranks to place on one node)");
		s->ranks_per_node = s->max_ranks;
	}
	return true;
}

bool site_load(const char *path, struct site *s, struct campaign_error *e)
{
	memset(s, 0, sizeof *s);
	s->time_default = 60;
	s->poll_min = 1;
	s->poll_max = 30;
	s->controller_timeout = 3600;
	s->shell = xstrdup("/bin/bash");
	struct yaml_spec y;
	bool ok = yaml_spec_load(&y, path, e);
	if (ok) {
		s->path = realpath(path, NULL);
		if (!s->path)
			s->path = xstrdup(path);
		ok = yaml_spec_read_fields(&y, yaml_spec_root(&y), "", site_fields, NFIELDS, s);
	}
	yaml_spec_free(&y);
	if (!ok)
		site_free(s);
	return ok;
}

void site_free(struct site *s)
{
	free(s->path);
	free(s->name);
	free(s->partition);
	free(s->account);
	free(s->qos);
	tmpl_free(&s->launcher);
	for (size_t i = 0; i < s->ntimes; i++)
		free(s->times[i].stage);
	free(s->times);
	strv_free(s->modules);
	for (size_t i = 0; i < s->nenv; i++) {
		free(s->env[i].key);
		free(s->env[i].value);
	}
	free(s->env);
	strv_free(s->setup);
	strv_free(s->sbatch);
	free(s->shell);
	free(s->jobcomp);
	memset(s, 0, sizeof *s);
}

long site_time_limit(const struct site *s, const char *stage)
{
	for (size_t i = 0; i < s->ntimes; i++)
		if (!strcmp(s->times[i].stage, stage))
			return s->times[i].minutes;
	return s->time_default;
}

bool specs_load(const char *workflow_path, const char *site_path, struct workflow *w, struct site *s,
		struct campaign_error *e)
{
	if (!workflow_load(workflow_path, w, e))
		return false;
	if (site_load(site_path, s, e))
		return true;
	workflow_free(w);
	return false;
}
