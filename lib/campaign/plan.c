/*
 * plan — building a campaign's job graph and scripts from its specs. See plan.h.
 */
#include "campaign/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/proc.h"
#include "campaign/script.h"
#include "util/log.h"
#include "util/xalloc.h"

static void common_vars(struct tvars *tv, const struct workflow *w, const struct plan_env *env)
{
	tvars_set(tv, "prefix", env->prefix);
	tvars_set(tv, "workflow_dir", w->dir);
	tvars_set(tv, "campaign_dir", env->dir);
	tvars_set(tv, "name", w->name);
	tvars_set(tv, "scaling", w->scaling == SCALING_WEAK ? "weak" : "strong");
	tvars_set(tv, "ladder", env->ladder);
	for (size_t i = 0; i < w->nvars; i++)
		tvars_set(tv, w->vars[i].key, w->vars[i].value);
}

static long nodes_for(const struct site *s, long ranks)
{
	if (s->scheduler == SCHED_LOCAL)
		return 1;
	return (ranks + s->ranks_per_node - 1) / s->ranks_per_node;
}

long *plan_rungs(const struct workflow *w, const struct site *s, const struct plan_env *env, size_t *count,
		 struct cerr *e)
{
	long *v;
	size_t n;
	if (w->gen == RUNGS_LIST) {
		v = xcalloc(w->nlist, sizeof *v);
		memcpy(v, w->list, w->nlist * sizeof *v);
		n = w->nlist;
	} else {
		n = rungs_generate(w->gen, w->from, w->to, NULL, 0);
		if (n > 4096) {
			cerr_set(e, "%s:%d: field 'ladder': %s from %ld to %ld gives %zu rungs; at most 4096", w->path,
				 w->ladder_line, rungs_gen_name(w->gen), w->from, w->to, n);
			return NULL;
		}
		v = xcalloc(n ? n : 1, sizeof *v);
		rungs_generate(w->gen, w->from, w->to, v, n);
	}
	n = rungs_normalise(v, n);
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		long p = v[i];
		if (!rungs_keep(p, &w->filter)) {
			if (!env->quiet)
				log_info("note: rung %ld dropped by ladder.valid (%s%ld)", p,
					 w->filter.divides && w->filter.divides % p ? "does not divide " : "not a multiple of ",
					 w->filter.divides && w->filter.divides % p ? w->filter.divides : w->filter.multiple_of);
			continue;
		}
		long size = 0;
		if (w->has_size && !workflow_size(w, p, &size)) {
			cerr_set(e, "%s:%d: field 'size': no size for rung %ld (give one for every rank count of the ladder)",
				 w->path, w->size_line, p);
			free(v);
			return NULL;
		}
		if (s->max_ranks && p > s->max_ranks) {
			cerr_set(e, "%s:%d: field 'ladder': rung %ld needs %ld ranks, but site %s allows %ld (max-ranks in %s)",
				 w->path, w->ladder_line, p, p, s->name, s->max_ranks, s->path);
			free(v);
			return NULL;
		}
		if (s->max_nodes && nodes_for(s, p) > s->max_nodes) {
			cerr_set(e, "%s:%d: field 'ladder': rung %ld needs %ld nodes of %ld ranks, but site %s allows %ld "
				 "(max-nodes in %s)", w->path, w->ladder_line, p, nodes_for(s, p), s->ranks_per_node,
				 s->name, s->max_nodes, s->path);
			free(v);
			return NULL;
		}
		if (!tmpl_empty(&w->valid)) {
			struct tvars tv = {0};
			common_vars(&tv, w, env);
			tvars_setf(&tv, "ranks", "%ld", p);
			tvars_setf(&tv, "nodes", "%ld", nodes_for(s, p));
			if (w->has_size)
				tvars_setf(&tv, "size", "%ld", size);
			char **argv;
			size_t argc;
			char why[512];
			bool ok = tmpl_expand(&w->valid, &tv, &argv, &argc, why, sizeof why);
			tvars_free(&tv);
			if (!ok) {
				cerr_set(e, "%s: field 'ladder.valid.command': %s", w->path, why);
				free(v);
				return NULL;
			}
			char *err = NULL;
			int rc = proc_run(argv, w->dir, NULL, NULL, &err, 30);
			if (rc == -1) {
				cerr_set(e, "%s: field 'ladder.valid.command': %s", w->path, err);
				free(err);
				strv_free(argv);
				free(v);
				return NULL;
			}
			strv_free(argv);
			if (rc != 0) {
				char *nl = err ? strchr(err, '\n') : NULL;
				if (nl)
					*nl = 0;
				if (!env->quiet)
					log_info("note: rung %ld dropped by ladder.valid.command (exit status %d%s%s)", p, rc,
						 err && *err ? ": " : "", err ? err : "");
				free(err);
				continue;
			}
			free(err);
		}
		v[m++] = p;
	}
	if (!m) {
		cerr_set(e, "%s:%d: field 'ladder': no rung is left after the validity filter", w->path, w->ladder_line);
		free(v);
		return NULL;
	}
	*count = m;
	return v;
}

/* ---- stages ------------------------------------------------------------------------------ */

/* is the stage's program there? why receives the reason when not */
static bool stage_available(const struct stage_spec *st, const struct tvars *tv, const struct plan_env *env,
			    char *why, size_t whylen)
{
	const char *first = st->cmd.words[0];
	if (!strcmp(first, "ladder")) {
		if (st->cmd.n < 2 || strchr(st->cmd.words[1], '{'))
			return true;
		if (env->have_subcommand && !env->have_subcommand(st->cmd.words[1], env->arg)) {
			snprintf(why, whylen, "'ladder %s' is not part of this build", st->cmd.words[1]);
			return false;
		}
		return true;
	}
	char tmp[512];
	char *exp = tmpl_expand_word(first, tv, tmp, sizeof tmp);
	if (!exp)
		return true;
	bool ok;
	if (!strchr(exp, '/')) {
		char *inprefix = xasprintf("%s/bin/%s", env->prefix, exp);
		ok = access(inprefix, X_OK) == 0 || proc_in_path(exp);
		free(inprefix);
	} else {
		ok = access(exp, X_OK) == 0;
	}
	if (!ok)
		snprintf(why, whylen, "'%s' is not part of this build", exp);
	free(exp);
	return ok;
}

struct stage_plan {
	const struct stage_spec *spec;
	bool present;
};

/* job names stage `name` stands for, for target t (0: every target), into deps of j */
static void add_stage_deps(struct cjob *j, const struct workflow *w, const struct stage_plan *sp, const char *name,
			   long t, int depth)
{
	if (depth > 64)
		return;
	for (size_t i = 0; i < w->nstages; i++) {
		if (strcmp(sp[i].spec->name, name))
			continue;
		const struct stage_spec *st = sp[i].spec;
		if (!sp[i].present) {
			for (size_t k = 0; k < st->nafter; k++)
				add_stage_deps(j, w, sp, st->after[k], st->per_target ? t : 0, depth + 1);
			return;
		}
		if (!st->per_target) {
			cjob_add_dep(j, st->name);
			return;
		}
		for (size_t k = 0; k < w->ntargets; k++)
			if (!t || w->targets[k] == t) {
				char *dn = xasprintf("%s-t%ld", st->name, w->targets[k]);
				cjob_add_dep(j, dn);
				free(dn);
			}
		return;
	}
}

static char *join_longs(const long *v, size_t n)
{
	char *s = xstrdup("");
	for (size_t i = 0; i < n; i++) {
		char *t = xasprintf("%s%s%ld", s, i ? "," : "", v[i]);
		free(s);
		s = t;
	}
	return s;
}

/* ---- scripts ----------------------------------------------------------------------------- */

static bool render(const struct workflow *w, const struct site *s, const struct plan_env *env, struct campaign *c,
		   struct cjob *j, const struct tmpl *cmd, const struct tvars *tv, bool launch, const char *workdir,
		   const char *describe, char **text, struct cerr *e)
{
	char why[512];
	char **argv = NULL, **lw = NULL;
	size_t argc = 0, lc = 0;
	if (!tmpl_expand(cmd, tv, &argv, &argc, why, sizeof why))
		return cerr_set(e, "job %s: %s", j->name, why);
	/* `ladder` and programs of the ladder build are called by their full path */
	if (argc && !strchr(argv[0], '/')) {
		char *inprefix = xasprintf("%s/bin/%s", env->prefix, argv[0]);
		if (!strcmp(argv[0], "ladder")) {
			free(argv[0]);
			argv[0] = xstrdup(env->ladder);
		} else if (access(inprefix, X_OK) == 0) {
			free(argv[0]);
			argv[0] = xstrdup(inprefix);
		}
		free(inprefix);
	}
	if (launch) {
		struct tvars lv = {0};
		tvars_setf(&lv, "ranks", "%ld", j->ranks);
		tvars_setf(&lv, "nodes", "%ld", j->nodes);
		tvars_setf(&lv, "tasks_per_node", "%ld", j->tasks_per_node);
		bool ok = tmpl_expand(&s->launcher, &lv, &lw, &lc, why, sizeof why);
		tvars_free(&lv);
		if (!ok) {
			strv_free(argv);
			return cerr_set(e, "%s: field 'launcher': %s", s->path, why);
		}
	}
	char *tracer = xasprintf("%s/lib/libladder-trace.so", env->prefix);
	struct script_in in = {s, w, c, j, lw, lc, argv, argc, workdir, tracer, env->ladder, describe};
	*text = script_render(&in, e);
	free(tracer);
	strv_free(argv);
	strv_free(lw);
	return *text != NULL;
}

/* the truth run at p ranks: the application traced like a rung, into truth/p<P>/trace.h5; on
 * the local executor a job larger than max-ranks runs alone */
static bool add_truth_job(const struct workflow *w, const struct site *s, const struct plan_env *env,
			  struct campaign *c, struct tvars *tv, long p, char ***scripts, size_t *nscripts, struct cerr *e)
{
	long size = 0;
	if (w->has_size && !workflow_size(w, p, &size))
		return cerr_set(e, "%s:%d: field 'truth': no size for %ld ranks in field 'size' (give one for every "
				"truth rank count)", w->path, w->truth_line, p);
	if (s->scheduler != SCHED_LOCAL && ((s->max_ranks && p > s->max_ranks) ||
					    (s->max_nodes && nodes_for(s, p) > s->max_nodes))) {
		/* the truth is optional: a target too big for the site is what ladder is for */
		if (!env->quiet)
			log_info("note: truth run at %ld ranks dropped: it needs %ld nodes of %ld ranks; site %s allows %ld "
				 "ranks on %ld nodes (%s)", p, nodes_for(s, p), s->ranks_per_node, s->name, s->max_ranks,
				 s->max_nodes, s->path);
		return true;
	}
	char *name = xasprintf("truth-p%ld", p);
	struct cjob *j = campaign_add_job(c, name, JK_RUN, "truth");
	free(name);
	j->ranks = p;
	j->nodes = nodes_for(s, p);
	j->tasks_per_node = (p + j->nodes - 1) / j->nodes;
	j->rep = 1;
	j->size = size;
	j->time_limit = site_time_limit(s, "run");
	j->script = xasprintf("jobs/%s.sh", j->name);
	j->log = xasprintf("logs/%s.log", j->name);
	j->output = xasprintf("truth/p%ld/trace.h5", p);
	if (!tmpl_empty(&w->build))
		cjob_add_dep(j, "build");
	char *outdir = xasprintf("%s/truth/p%ld", env->dir, p);
	tvars_setf(tv, "ranks", "%ld", p);
	tvars_setf(tv, "nodes", "%ld", j->nodes);
	tvars_setf(tv, "rep", "%ld", 1L);
	tvars_set(tv, "outdir", outdir);
	if (w->has_size)
		tvars_setf(tv, "size", "%ld", size);
	char *describe = xasprintf("the real application at the target, %ld ranks (ground truth)", p);
	char *text;
	bool ok = render(w, s, env, c, j, &w->command, tv, true, outdir, describe, &text, e);
	free(describe);
	free(outdir);
	if (ok) {
		*scripts = xrealloc(*scripts, (*nscripts + 1) * sizeof **scripts);
		(*scripts)[(*nscripts)++] = text;
	}
	return ok;
}

bool plan_build(const struct workflow *w, const struct site *s, const struct plan_env *env, struct campaign *c,
		char ***scripts_out, struct cerr *e)
{
	size_t nr;
	long *rungs = plan_rungs(w, s, env, &nr, e);
	if (!rungs)
		return false;
	if (s->scheduler == SCHED_SLURM) {
		char bad;
		if (!script_slurm_path_ok(env->dir, &bad)) {
			free(rungs);
			return cerr_set(e, "the campaign directory '%s' cannot be named in #SBATCH lines: it contains '%c' "
					"(choose a directory without white space, quotes, backslashes or '%%')", env->dir, bad);
		}
	}
	c->dir = xstrdup(env->dir);
	c->name = xstrdup(w->name);
	c->sched = s->scheduler;
	c->workflow_src = xstrdup(w->path);
	c->site_src = xstrdup(s->path);
	c->partition = s->partition ? xstrdup(s->partition) : NULL;
	c->account = s->account ? xstrdup(s->account) : NULL;
	c->qos = s->qos ? xstrdup(s->qos) : NULL;
	c->use_sbatch = s->submit == SUBMIT_SBATCH || (s->submit == SUBMIT_AUTO && s->nsbatch > 0);
	c->max_ranks = s->max_ranks;
	c->poll_min = s->poll_min;
	c->poll_max = s->poll_max;
	c->controller_timeout = s->controller_timeout;
	c->jobcomp = s->jobcomp ? xstrdup(s->jobcomp) : NULL;

	char **scripts = NULL;
	size_t nscripts = 0;
	bool ok = false;
	struct tvars tv = {0};
	common_vars(&tv, w, env);
	char *rung_list = join_longs(rungs, nr);
	char *target_list = join_longs(w->targets, w->ntargets);
	char **runs = xcalloc(nr * (size_t)w->repetitions + 1, sizeof *runs);
	size_t nruns = 0;
	struct stage_plan *sp = xcalloc(w->nstages, sizeof *sp);
#define ADD_SCRIPT(text)                                                   \
	do {                                                               \
		scripts = xrealloc(scripts, (nscripts + 1) * sizeof *scripts); \
		scripts[nscripts++] = (text);                              \
	} while (0)

	/* build */
	if (!tmpl_empty(&w->build)) {
		struct cjob *j = campaign_add_job(c, "build", JK_BUILD, "build");
		j->time_limit = site_time_limit(s, "build");
		j->script = xstrdup("jobs/build.sh");
		j->log = xstrdup("logs/build.log");
		char *text;
		if (!render(w, s, env, c, j, &w->build, &tv, false, w->dir, "build the application", &text, e))
			goto out;
		ADD_SCRIPT(text);
	}
	/* runs: repetition by repetition, so that repetitions are spread over time */
	for (long r = 1; r <= w->repetitions; r++) {
		for (size_t i = 0; i < nr; i++) {
			long p = rungs[i], size = 0;
			if (w->has_size)
				workflow_size(w, p, &size);
			char *name = xasprintf("run-p%ld-r%ld", p, r);
			struct cjob *j = campaign_add_job(c, name, JK_RUN, "run");
			free(name);
			j->ranks = p;
			j->nodes = nodes_for(s, p);
			j->tasks_per_node = (p + j->nodes - 1) / j->nodes;
			j->rep = r;
			j->size = size;
			j->time_limit = site_time_limit(s, "run");
			j->script = xasprintf("jobs/%s.sh", j->name);
			j->log = xasprintf("logs/%s.log", j->name);
			j->output = xasprintf("runs/p%ld/r%ld/trace.h5", p, r);
			if (!tmpl_empty(&w->build))
				cjob_add_dep(j, "build");
			char *outdir = xasprintf("%s/runs/p%ld/r%ld", env->dir, p, r);
			runs[nruns++] = xasprintf("%s/%s", env->dir, j->output);
			tvars_setf(&tv, "ranks", "%ld", p);
			tvars_setf(&tv, "nodes", "%ld", j->nodes);
			tvars_setf(&tv, "rep", "%ld", r);
			tvars_set(&tv, "outdir", outdir);
			if (w->has_size)
				tvars_setf(&tv, "size", "%ld", size);
			char *describe = w->has_size ? xasprintf("%ld rank%s, repetition %ld, size %ld", p, p == 1 ? "" : "s", r, size)
						     : xasprintf("%ld rank%s, repetition %ld", p, p == 1 ? "" : "s", r);
			char *text;
			bool rok = render(w, s, env, c, j, &w->command, &tv, true, outdir, describe, &text, e);
			free(describe);
			free(outdir);
			if (!rok)
				goto out;
			ADD_SCRIPT(text);
		}
	}
	/* the real application at target scales, as ground truth (not merged into the ladder) */
	for (size_t i = 0; i < w->ntruth; i++)
		if (!add_truth_job(w, s, env, c, &tv, w->truth[i], &scripts, &nscripts, e))
			goto out;
	/* merge and the stages */
	tvars_set_list(&tv, "runs", runs, nruns);
	char *campaign_file = xasprintf("%s/campaign.h5", env->dir);
	tvars_set(&tv, "campaign", campaign_file);
	free(campaign_file);
	tvars_set(&tv, "targets", target_list);
	{
		char *history = env->history ? xstrdup(env->history) : xasprintf("%s/history.h5", env->dir);
		tvars_set(&tv, "history", history);
		free(history);
	}
	/* where stages that are not per target predict: the largest target, else the largest rung */
	{
		long tmax = nr ? rungs[nr - 1] : 1;
		if (w->ntargets) {
			tmax = w->targets[0];
			for (size_t k = 1; k < w->ntargets; k++)
				if (w->targets[k] > tmax)
					tmax = w->targets[k];
		}
		tvars_setf(&tv, "target_max", "%ld", tmax);
	}
	tvars_set(&tv, "rungs", rung_list);
	tvars_setf(&tv, "repetitions", "%ld", w->repetitions);
	{
		char *acc = xstrdup("");
		for (size_t i = 0; i < w->nacceptance; i++) {
			char *t = xasprintf("%s%s%s=%g", acc, i ? "," : "", w->acceptance[i].key, w->acceptance[i].value);
			free(acc);
			acc = t;
		}
		tvars_set(&tv, "acceptance", acc);
		free(acc);
	}
	for (size_t si = 0; si < w->nstages; si++) {
		const struct stage_spec *st = &w->stages[si];
		sp[si].spec = st;
		char why[512] = "";
		tvars_set(&tv, "target", "0"); /* for the availability check only */
		if (si > 0 && st->needs) {
			for (size_t k = 0; k < si; k++)
				if (!strcmp(sp[k].spec->name, st->needs) && !sp[k].present)
					snprintf(why, sizeof why, "it reads what stage '%s' writes, which is skipped", st->needs);
		}
		/* a job at a target scale the site cannot host: the stage is left out, like the truth run */
		for (size_t k = 0; si > 0 && !*why && st->per_target && !st->ranks && s->scheduler != SCHED_LOCAL &&
				   k < w->ntargets; k++)
			if ((s->max_ranks && w->targets[k] > s->max_ranks) ||
			    (s->max_nodes && nodes_for(s, w->targets[k]) > s->max_nodes))
				snprintf(why, sizeof why, "target %ld needs %ld nodes of %ld ranks; site %s allows %ld ranks on "
					 "%ld nodes (%s)", w->targets[k], nodes_for(s, w->targets[k]), s->ranks_per_node,
					 s->name, s->max_ranks, s->max_nodes, s->path);
		if (si > 0 && (*why || !stage_available(st, &tv, env, why, sizeof why))) {
			if (!env->quiet)
				log_info("note: stage '%s' skipped: %s", st->name, why);
			continue;
		}
		sp[si].present = true;
		size_t nt = st->per_target ? w->ntargets : 1;
		for (size_t ti = 0; ti < nt; ti++) {
			long t = st->per_target ? w->targets[ti] : 0;
			char *name = st->per_target ? xasprintf("%s-t%ld", st->name, t) : xstrdup(st->name);
			struct cjob *j = campaign_add_job(c, name, si == 0 ? JK_MERGE : JK_STAGE, st->name);
			free(name);
			j->ranks = st->ranks ? st->ranks : t;
			if (s->max_ranks && j->ranks > s->max_ranks && s->scheduler != SCHED_LOCAL) {
				cerr_set(e, "%s:%d: stage '%s' needs %ld ranks, but site %s allows %ld (max-ranks in %s)",
					 w->path, st->line, st->name, j->ranks, s->name, s->max_ranks, s->path);
				goto out;
			}
			j->nodes = nodes_for(s, j->ranks);
			j->tasks_per_node = (j->ranks + j->nodes - 1) / j->nodes;
			j->target = t;
			j->time_limit = site_time_limit(s, st->name);
			j->script = xasprintf("jobs/%s.sh", j->name);
			j->log = xasprintf("logs/%s.log", j->name);
			char *outdir;
			if (si == 0) {
				j->output = xstrdup("campaign.h5");
				outdir = xstrdup(env->dir);
				for (size_t k = 0; k < c->njobs; k++)
					if (c->jobs[k].kind == JK_RUN && !strcmp(c->jobs[k].stage, "run"))
						cjob_add_dep(j, c->jobs[k].name);
			} else {
				outdir = st->per_target ? xasprintf("%s/%s/p%ld", env->dir, st->name, t)
							: xasprintf("%s/%s", env->dir, st->name);
				for (size_t k = 0; k < st->nafter; k++)
					add_stage_deps(j, w, sp, st->after[k], st->per_target ? t : 0, 0);
				for (size_t k = 0; st->after_truth && k < c->njobs; k++)
					if (!strcmp(c->jobs[k].stage, "truth"))
						cjob_add_dep(j, c->jobs[k].name);
			}
			tvars_set(&tv, "outdir", outdir);
			tvars_setf(&tv, "target", "%ld", t);
			char *describe = st->per_target ? xasprintf("stage %s, target %ld ranks", st->name, t)
							: xasprintf("stage %s", st->name);
			char *text;
			bool rok = render(w, s, env, c, j, &st->cmd, &tv, st->launch, outdir, describe, &text, e);
			free(describe);
			free(outdir);
			if (!rok)
				goto out;
			ADD_SCRIPT(text);
		}
	}
	for (size_t i = 0; i < c->njobs; i++)
		hash_text(scripts[i], c->jobs[i].hash);
	if (!campaign_link(c, e))
		goto out;
	ok = true;
out:
	tvars_free(&tv);
	free(rungs);
	free(rung_list);
	free(target_list);
	for (size_t i = 0; i < nruns; i++)
		free(runs[i]);
	free(runs);
	free(sp);
	if (!ok) {
		for (size_t i = 0; i < nscripts; i++)
			free(scripts[i]);
		free(scripts);
		return false;
	}
	*scripts_out = scripts;
	return true;
#undef ADD_SCRIPT
}
