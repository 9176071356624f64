/*
 * site — reading and checking a site file (where and how jobs run). See spec.h and
 * `ladder help site`.
 */
#include <limits.h>
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

static bool read_times(struct yaml_spec *y, yaml_node_t *n, struct site *s)
{
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

static bool read_env(struct yaml_spec *y, yaml_node_t *n, struct site *s)
{
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

static bool read_poll(struct yaml_spec *y, yaml_node_t *n, struct site *s)
{
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

bool site_load(const char *path, struct site *s, struct campaign_error *e)
{
	memset(s, 0, sizeof *s);
	s->time_default = 60;
	s->poll_min = 1;
	s->poll_max = 30;
	s->controller_timeout = 3600;
	struct yaml_spec y;
	if (!yaml_spec_load(&y, path, e)) {
		yaml_spec_free(&y);
		return false;
	}
	bool ok = false;
	yaml_node_t *root = yaml_spec_root(&y), *n;
	static const char *const keys[] = {"name", "scheduler", "partition", "account", "qos",
		"ranks-per-node", "max-ranks", "max-nodes", "launcher", "time", "modules", "env", "setup",
		"sbatch", "shell", "submit", "poll", "jobcomp", "controller-timeout", NULL};
	if (!yaml_spec_map(&y, root, "", keys))
		goto out;
	s->path = realpath(path, NULL);
	if (!s->path)
		s->path = xstrdup(path);
	if (!(n = yaml_spec_get(&y, root, "name"))) {
		yaml_spec_fail(&y, root, "name", "missing (the site's name)");
		goto out;
	}
	if (!yaml_spec_name(&y, n, "name", &s->name))
		goto out;
	if (!(n = yaml_spec_get(&y, root, "scheduler"))) {
		yaml_spec_fail(&y, root, "scheduler", "missing (local or slurm)");
		goto out;
	}
	const char *sched;
	if (!yaml_spec_scalar(&y, n, "scheduler", &sched))
		goto out;
	if (!strcmp(sched, "local"))
		s->scheduler = SCHED_LOCAL;
	else if (!strcmp(sched, "slurm"))
		s->scheduler = SCHED_SLURM;
	else {
		yaml_spec_fail(&y, n, "scheduler", "expected local or slurm, got '%s'", sched);
		goto out;
	}
	bool slurm = s->scheduler == SCHED_SLURM;
	static const char *const slurm_only[] = {"partition", "account", "qos", "sbatch", "submit", "jobcomp", NULL};
	for (const char *const *k = slurm_only; *k && !slurm; k++)
		if ((n = yaml_spec_get(&y, root, *k))) {
			yaml_spec_fail(&y, n, *k, "only for 'scheduler: slurm'");
			goto out;
		}
	if ((n = yaml_spec_get(&y, root, "partition")) && !read_token(&y, n, "partition", &s->partition))
		goto out;
	if ((n = yaml_spec_get(&y, root, "account")) && !read_token(&y, n, "account", &s->account))
		goto out;
	if ((n = yaml_spec_get(&y, root, "qos")) && !read_token(&y, n, "qos", &s->qos))
		goto out;
	if ((n = yaml_spec_get(&y, root, "max-ranks")) && !yaml_spec_long(&y, n, "max-ranks", 1, 1L << 30, &s->max_ranks))
		goto out;
	if ((n = yaml_spec_get(&y, root, "max-nodes")) && !yaml_spec_long(&y, n, "max-nodes", 1, 1L << 24, &s->max_nodes))
		goto out;
	if ((n = yaml_spec_get(&y, root, "ranks-per-node")) &&
	    !yaml_spec_long(&y, n, "ranks-per-node", 1, 1L << 20, &s->ranks_per_node))
		goto out;
	if (!s->max_ranks && !slurm) {
		yaml_spec_fail(&y, root, "max-ranks", "missing (how many ranks the local executor may run at a time)");
		goto out;
	}
	if (!s->ranks_per_node) {
		if (slurm) {
			yaml_spec_fail(&y, root, "ranks-per-node", "missing (MPI ranks to place on one node)");
			goto out;
		}
		s->ranks_per_node = s->max_ranks;
	}
	if (!(n = yaml_spec_get(&y, root, "launcher"))) {
		yaml_spec_fail(&y, root, "launcher", "missing (e.g. \"srun --mpi=pmix -n {ranks}\" or \"mpirun -np {ranks}\")");
		goto out;
	}
	{
		char why[512];
		if (yaml_spec_is_seq(n)) {
			char **words;
			size_t nw;
			if (!yaml_spec_strings(&y, n, "launcher", &words, &nw))
				goto out;
			tmpl_from_words(words, nw, &s->launcher);
			strv_free(words);
		} else {
			const char *t;
			if (!yaml_spec_scalar(&y, n, "launcher", &t))
				goto out;
			if (!tmpl_parse(t, &s->launcher, why, sizeof why)) {
				yaml_spec_fail(&y, n, "launcher", "%s", why);
				goto out;
			}
		}
		if (tmpl_empty(&s->launcher)) {
			yaml_spec_fail(&y, n, "launcher", "the launcher is empty");
			goto out;
		}
		if (!tmpl_check(&s->launcher, known_launcher, NULL, why, sizeof why)) {
			yaml_spec_fail(&y, n, "launcher", "%s; known here: {ranks} {nodes} {tasks_per_node}", why);
			goto out;
		}
	}
	if ((n = yaml_spec_get(&y, root, "time")) && !read_times(&y, n, s))
		goto out;
	if ((n = yaml_spec_get(&y, root, "modules")) && !yaml_spec_strings(&y, n, "modules", &s->modules, &s->nmodules))
		goto out;
	if ((n = yaml_spec_get(&y, root, "env")) && !read_env(&y, n, s))
		goto out;
	if ((n = yaml_spec_get(&y, root, "setup")) && !yaml_spec_strings(&y, n, "setup", &s->setup, &s->nsetup))
		goto out;
	if ((n = yaml_spec_get(&y, root, "sbatch"))) {
		if (!yaml_spec_strings(&y, n, "sbatch", &s->sbatch, &s->nsbatch))
			goto out;
		for (size_t i = 0; i < s->nsbatch; i++)
			if (s->sbatch[i][0] != '-') {
				yaml_spec_fail(&y, n, "sbatch", "'%s' is not an sbatch option (it must start with '-')", s->sbatch[i]);
				goto out;
			}
	}
	if ((n = yaml_spec_get(&y, root, "shell"))) {
		if (!yaml_spec_string(&y, n, "shell", &s->shell))
			goto out;
		if (s->shell[0] != '/') {
			yaml_spec_fail(&y, n, "shell", "expected an absolute path such as /bin/bash, got '%s'", s->shell);
			goto out;
		}
	} else {
		s->shell = xstrdup("/bin/bash");
	}
	if ((n = yaml_spec_get(&y, root, "submit"))) {
		const char *m;
		if (!yaml_spec_scalar(&y, n, "submit", &m))
			goto out;
		if (!strcmp(m, "auto"))
			s->submit = SUBMIT_AUTO;
		else if (!strcmp(m, "libslurm"))
			s->submit = SUBMIT_LIBSLURM;
		else if (!strcmp(m, "sbatch"))
			s->submit = SUBMIT_SBATCH;
		else {
			yaml_spec_fail(&y, n, "submit", "expected auto, libslurm or sbatch, got '%s'", m);
			goto out;
		}
	}
	if ((n = yaml_spec_get(&y, root, "poll")) && !read_poll(&y, n, s))
		goto out;
	if ((n = yaml_spec_get(&y, root, "jobcomp")) && !yaml_spec_string(&y, n, "jobcomp", &s->jobcomp))
		goto out;
	if ((n = yaml_spec_get(&y, root, "controller-timeout")) &&
	    !yaml_spec_long(&y, n, "controller-timeout", 1, 7L * 24 * 3600, &s->controller_timeout))
		goto out;
	ok = true;
out:
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
