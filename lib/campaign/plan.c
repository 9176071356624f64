/*
 * plan — building a campaign's job graph and scripts from its specs. See plan.h.
 */
#include "campaign/plan.h"

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/spawn.h"
#include "campaign/script.h"
#include "campaign/workflow_grid.h"
#include "util/log.h"
#include "util/xalloc.h"

static void common_vars(struct template_vars *tv, const struct workflow *w, const struct plan_env *env)
{
	template_vars_set(tv, "prefix", env->prefix);
	template_vars_set(tv, "workflow_dir", w->dir);
	template_vars_set(tv, "campaign_dir", env->dir);
	template_vars_set(tv, "name", w->name);
	template_vars_set(tv, "scaling", w->scaling == SCALING_WEAK ? "weak" : "strong");
	template_vars_set(tv, "ladder", env->ladder);
	for (size_t i = 0; i < w->vars.n; i++)
		template_vars_set(tv, w->vars.v[i].name, w->vars.v[i].vals[0]);
}

static long nodes_for(const struct site *s, long ranks)
{
	if (s->scheduler == SCHED_LOCAL)
		return 1;
	return (ranks + s->ranks_per_node - 1) / s->ranks_per_node;
}

/* a job of this many ranks is more than a batch site allows (max-ranks or max-nodes); the local
 * executor runs such a job alone */
static bool beyond_batch_site(const struct site *s, long ranks)
{
	return s->scheduler != SCHED_LOCAL &&
	       ((s->max_ranks && ranks > s->max_ranks) || (s->max_nodes && nodes_for(s, ranks) > s->max_nodes));
}

/* the ladder as listed or generated, sorted and without duplicates (count in *n) */
static long *ladder_rungs(const struct workflow *w, size_t *count, struct campaign_error *e)
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
			campaign_error_set(e, "%s:%d: field 'ladder': %s from %ld to %ld gives %zu rungs; at most 4096", w->path,
				 w->ladder_line, rungs_gen_name(w->gen), w->from, w->to, n);
			return NULL;
		}
		v = xcalloc(n ? n : 1, sizeof *v);
		rungs_generate(w->gen, w->from, w->to, v, n);
	}
	*count = rungs_normalise(v, n);
	return v;
}

/* rung p within the site's limits, with a size; false (e) otherwise */
static bool rung_fits(const struct workflow *w, const struct site *s, long p, long *size, struct campaign_error *e)
{
	if (w->has_size && !workflow_size(w, p, size))
		return campaign_error_set(e, "%s:%d: field 'size': no size for rung %ld (give one for every rank count of the "
					  "ladder)", w->path, w->size_line, p);
	/* the local executor runs a rung larger than max-ranks alone, as it does the truth run */
	if (!beyond_batch_site(s, p))
		return true;
	if (s->max_ranks && p > s->max_ranks)
		return campaign_error_set(e, "%s:%d: field 'ladder': rung %ld needs %ld ranks, but site %s takes jobs of at "
					  "most %ld (max-ranks in %s): raise max-ranks there if the cluster runs larger "
					  "jobs, or leave the rung out of the ladder", w->path, w->ladder_line, p, p, s->name,
					  s->max_ranks, s->path);
	return campaign_error_set(e, "%s:%d: field 'ladder': rung %ld needs %ld nodes of %ld ranks, but site %s takes jobs "
				  "of at most %ld nodes (max-nodes in %s): raise max-nodes there if the cluster runs "
				  "larger jobs, or leave the rung out of the ladder", w->path, w->ladder_line, p,
				  nodes_for(s, p), s->ranks_per_node, s->name, s->max_nodes, s->path);
}

/* ladder.valid.command for rung p: 1 keep, 0 dropped (with a note), -1 error (e) */
static int rung_command_valid(const struct workflow *w, const struct site *s, const struct plan_env *env, long p,
			      long size, struct campaign_error *e)
{
	struct template_vars tv = {0};
	common_vars(&tv, w, env);
	template_vars_setf(&tv, "ranks", "%ld", p);
	template_vars_setf(&tv, "nodes", "%ld", nodes_for(s, p));
	workflow_grid_vars(w, p, &tv);
	if (w->has_size)
		template_vars_setf(&tv, "size", "%ld", size);
	char **argv;
	size_t argc;
	char why[512];
	bool ok = tmpl_expand(&w->valid, &tv, &argv, &argc, why, sizeof why);
	template_vars_free(&tv);
	if (!ok) {
		campaign_error_set(e, "%s: field 'ladder.valid.command': %s", w->path, why);
		return -1;
	}
	char *err = NULL;
	int rc = spawn_capture(argv, w->dir, NULL, NULL, &err, 30);
	strv_free(argv);
	if (rc == -1) {
		campaign_error_set(e, "%s: field 'ladder.valid.command': %s", w->path, err);
		free(err);
		return -1;
	}
	if (rc != 0) {
		char *nl = err ? strchr(err, '\n') : NULL;
		if (nl)
			*nl = 0;
		if (!env->quiet)
			log_info("note: rung %ld dropped by ladder.valid.command (exit status %d%s%s)", p, rc,
				 err && *err ? ": " : "", err ? err : "");
	}
	free(err);
	return rc == 0;
}

long *plan_rungs(const struct workflow *w, const struct site *s, const struct plan_env *env, size_t *count,
		 struct campaign_error *e)
{
	size_t n, m = 0;
	long *v = ladder_rungs(w, &n, e);
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		long p = v[i], size = 0;
		if (!rungs_keep(p, &w->filter)) {
			bool divides = w->filter.divides && w->filter.divides % p;
			if (!env->quiet)
				log_info("note: rung %ld dropped by ladder.valid (%s%ld)", p,
					 divides ? "does not divide " : "not a multiple of ",
					 divides ? w->filter.divides : w->filter.multiple_of);
			continue;
		}
		int keep = 1;
		if (!rung_fits(w, s, p, &size, e) || (!tmpl_empty(&w->valid) &&
						       (keep = rung_command_valid(w, s, env, p, size, e)) < 0)) {
			free(v);
			return NULL;
		}
		if (keep)
			v[m++] = p;
	}
	if (!m) {
		campaign_error_set(e, "%s:%d: field 'ladder': no rung is left after the validity filter", w->path, w->ladder_line);
		free(v);
		return NULL;
	}
	*count = m;
	return v;
}

static bool stage_available(const struct stage_spec *st, const struct template_vars *tv, const struct plan_env *env,
			    char *why, size_t whylen)
{
	/* a stage with a first step runs what that step makes (the proxy): the step must be available */
	const struct tmpl *cmd = tmpl_empty(&st->prepare) ? &st->cmd : &st->prepare;
	const char *first = cmd->words[0];
	if (!strcmp(first, "ladder")) {
		if (cmd->n < 2 || strchr(cmd->words[1], '{'))
			return true;
		if (env->have_subcommand && !env->have_subcommand(cmd->words[1])) {
			snprintf(why, whylen, "'ladder %s' is not part of this build", cmd->words[1]);
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
		ok = access(inprefix, X_OK) == 0 || spawn_in_path(exp);
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
static void add_stage_deps(struct campaign_job *j, const struct workflow *w, const struct stage_plan *sp,
			   const char *name, long t, int depth)
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
			job_add_dep(j, st->name);
			return;
		}
		for (size_t k = 0; k < w->ntargets; k++)
			if (!t || w->targets[k] == t) {
				char *dn = xasprintf("%s-t%ld", st->name, w->targets[k]);
				job_add_dep(j, dn);
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

/* ---- the plan ---------------------------------------------------------------------------- */

/* What plan_build works with. Invariant: scripts[i] is the script of c->jobs[i] (add_script). */
struct planner {
	const struct workflow *w;
	const struct site *s;
	const struct plan_env *env;
	struct campaign *c;
	struct campaign_error *e;
	struct template_vars tv;
	long *rungs;
	size_t nrungs;
	char **runs;                /* absolute paths of the run containers, for {runs} */
	size_t nruns;
	struct stage_plan *stages;  /* per workflow stage: planned or left out */
	char **scripts;
	size_t nscripts;
};

/* the script of the job added last */
static void add_script(struct planner *pl, const struct campaign_job *j, char *text)
{
	assert(pl->nscripts + 1 == pl->c->njobs && j == &pl->c->jobs[pl->nscripts]);
	pl->scripts = xrealloc(pl->scripts, (pl->nscripts + 1) * sizeof *pl->scripts);
	pl->scripts[pl->nscripts++] = text;
}

/* the command's words with `ladder` and programs of the ladder build called by their full path */
static void full_program_path(const struct plan_env *env, char **argv, size_t argc)
{
	if (!argc || strchr(argv[0], '/'))
		return;
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

/* render job j's script (prepare, when given, then cmd expanded, launched on j's ranks if launch)
 * and pair it with j */
static bool render(struct planner *pl, struct campaign_job *j, const struct tmpl *prepare, const struct tmpl *cmd,
		   bool launch, const char *workdir, const char *describe)
{
	char why[512];
	char **argv = NULL, **lw = NULL, **pw = NULL;
	size_t argc = 0, lc = 0, pc = 0;
	if (!tmpl_expand(cmd, &pl->tv, &argv, &argc, why, sizeof why) ||
	    (prepare && !tmpl_expand(prepare, &pl->tv, &pw, &pc, why, sizeof why))) {
		strv_free(argv);
		return campaign_error_set(pl->e, "job %s: %s", j->name, why);
	}
	full_program_path(pl->env, argv, argc);
	full_program_path(pl->env, pw, pc);
	if (launch) {
		struct template_vars lv = {0};
		template_vars_setf(&lv, "ranks", "%ld", j->ranks);
		template_vars_setf(&lv, "nodes", "%ld", j->nodes);
		template_vars_setf(&lv, "tasks_per_node", "%ld", j->tasks_per_node);
		bool ok = tmpl_expand(&pl->s->launcher, &lv, &lw, &lc, why, sizeof why);
		template_vars_free(&lv);
		if (!ok) {
			strv_free(argv);
			return campaign_error_set(pl->e, "%s: field 'launcher': %s", pl->s->path, why);
		}
	}
	char *tracer = xasprintf("%s/lib/libladder-trace.so", pl->env->prefix);
	struct script_in in = {pl->s, pl->w, pl->c, j, lw, lc, argv, argc, pw, pc, workdir, tracer, pl->env->ladder,
			       describe};
	char *text = script_render(&in, pl->e);
	free(tracer);
	strv_free(argv);
	strv_free(pw);
	strv_free(lw);
	if (text)
		add_script(pl, j, text);
	return text != NULL;
}

/* what the executors need from the site, and the campaign's identity */
static void campaign_settings(struct campaign *c, const struct workflow *w, const struct site *s,
			      const struct plan_env *env)
{
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
}

/* the job building the application (app.build), if any */
static bool plan_build_job(struct planner *pl)
{
	if (tmpl_empty(&pl->w->build))
		return true;
	struct campaign_job *j = campaign_add_job(pl->c, "build", JK_BUILD, "build");
	j->time_limit = site_time_limit(pl->s, "build");
	j->script = xstrdup("jobs/build.sh");
	j->log = xstrdup("logs/build.log");
	return render(pl, j, NULL, &pl->w->build, false, pl->w->dir, "build the application");
}

/* the traced run of rung p, repetition r */
static bool plan_run_job(struct planner *pl, long p, long r)
{
	const struct workflow *w = pl->w;
	const char *dir = pl->env->dir;
	long size = 0;
	if (w->has_size)
		workflow_size(w, p, &size);
	char *name = xasprintf("run-p%ld-r%ld", p, r);
	struct campaign_job *j = campaign_add_job(pl->c, name, JK_RUN, "run");
	free(name);
	j->ranks = p;
	j->nodes = nodes_for(pl->s, p);
	j->tasks_per_node = (p + j->nodes - 1) / j->nodes;
	j->rep = r;
	j->size = size;
	j->time_limit = site_time_limit(pl->s, "run");
	j->script = xasprintf("jobs/%s.sh", j->name);
	j->log = xasprintf("logs/%s.log", j->name);
	j->output = xasprintf("runs/p%ld/r%ld/trace.h5", p, r);
	if (!tmpl_empty(&w->build))
		job_add_dep(j, "build");
	char *outdir = xasprintf("%s/runs/p%ld/r%ld", dir, p, r);
	pl->runs[pl->nruns++] = xasprintf("%s/%s", dir, j->output);
	template_vars_setf(&pl->tv, "ranks", "%ld", p);
	template_vars_setf(&pl->tv, "nodes", "%ld", j->nodes);
	template_vars_setf(&pl->tv, "rep", "%ld", r);
	template_vars_set(&pl->tv, "outdir", outdir);
	workflow_grid_vars(w, p, &pl->tv);
	if (w->has_size)
		template_vars_setf(&pl->tv, "size", "%ld", size);
	const char *plural = p == 1 ? "" : "s";
	char *describe = w->has_size ? xasprintf("%ld rank%s, repetition %ld, size %ld", p, plural, r, size)
				     : xasprintf("%ld rank%s, repetition %ld", p, plural, r);
	bool ok = render(pl, j, NULL, &w->command, true, outdir, describe);
	free(describe);
	free(outdir);
	return ok;
}

/* the truth run at p ranks: the application traced like a rung, into truth/p<P>/trace.h5, not
 * merged into the ladder; left out with a note where a batch site cannot host it */
static bool plan_truth_job(struct planner *pl, long p)
{
	const struct workflow *w = pl->w;
	const struct site *s = pl->s;
	long size = 0;
	if (w->has_size && !workflow_size(w, p, &size))
		return campaign_error_set(pl->e, "%s:%d: field 'truth': no size for %ld ranks in field 'size' (give one for "
					  "every truth rank count)", w->path, w->truth_line, p);
	if (beyond_batch_site(s, p)) {
		/* the truth is optional: a target too big for the site is what ladder is for */
		if (!pl->env->quiet)
			log_info("note: truth run at %ld ranks dropped: it needs %ld nodes of %ld ranks; site %s allows %ld "
				 "ranks on %ld nodes (%s)", p, nodes_for(s, p), s->ranks_per_node, s->name, s->max_ranks,
				 s->max_nodes, s->path);
		return true;
	}
	char *name = xasprintf("truth-p%ld", p);
	struct campaign_job *j = campaign_add_job(pl->c, name, JK_RUN, "truth");
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
		job_add_dep(j, "build");
	char *outdir = xasprintf("%s/truth/p%ld", pl->env->dir, p);
	template_vars_setf(&pl->tv, "ranks", "%ld", p);
	template_vars_setf(&pl->tv, "nodes", "%ld", j->nodes);
	template_vars_setf(&pl->tv, "rep", "%ld", 1L);
	template_vars_set(&pl->tv, "outdir", outdir);
	workflow_grid_vars(w, p, &pl->tv);
	if (w->has_size)
		template_vars_setf(&pl->tv, "size", "%ld", size);
	char *describe = xasprintf("the real application at the target, %ld ranks (ground truth)", p);
	bool ok = render(pl, j, NULL, &w->command, true, outdir, describe);
	free(describe);
	free(outdir);
	return ok;
}

/* the variables of the merge and the stages: {runs}, {campaign}, {targets}, {history},
 * {target_max}, ... */
static void stage_vars(struct planner *pl)
{
	const struct workflow *w = pl->w;
	template_vars_set_list(&pl->tv, "runs", pl->runs, pl->nruns);
	char *campaign_file = xasprintf("%s/campaign.h5", pl->env->dir);
	template_vars_set(&pl->tv, "campaign", campaign_file);
	free(campaign_file);
	char *list = join_longs(w->targets, w->ntargets);
	template_vars_set(&pl->tv, "targets", list);
	free(list);
	char *history = pl->env->history ? xstrdup(pl->env->history) : xasprintf("%s/history.h5", pl->env->dir);
	template_vars_set(&pl->tv, "history", history);
	free(history);
	/* where stages that are not per target predict: the largest target, else the largest rung */
	long tmax = pl->nrungs ? pl->rungs[pl->nrungs - 1] : 1;
	if (w->ntargets) {
		tmax = w->targets[0];
		for (size_t k = 1; k < w->ntargets; k++)
			if (w->targets[k] > tmax)
				tmax = w->targets[k];
	}
	template_vars_setf(&pl->tv, "target_max", "%ld", tmax);
	list = join_longs(pl->rungs, pl->nrungs);
	template_vars_set(&pl->tv, "rungs", list);
	free(list);
	template_vars_setf(&pl->tv, "repetitions", "%ld", w->repetitions);
	char *acc = xstrdup("");
	for (size_t i = 0; i < w->nacceptance; i++) {
		double v = w->acceptance[i].value;
		char *t = isnan(v) ? xasprintf("%s%s%s=none", acc, i ? "," : "", w->acceptance[i].key)
				   : xasprintf("%s%s%s=%g", acc, i ? "," : "", w->acceptance[i].key, v);
		free(acc);
		acc = t;
	}
	template_vars_set(&pl->tv, "acceptance", acc);
	free(acc);
}

/* the job of stage si (si 0: the merge) for target t (0 unless per target) */
static bool plan_stage_job(struct planner *pl, size_t si, long t)
{
	const struct workflow *w = pl->w;
	const struct site *s = pl->s;
	const struct stage_spec *st = &w->stages[si];
	const char *dir = pl->env->dir;
	char *name = st->per_target ? xasprintf("%s-t%ld", st->name, t) : xstrdup(st->name);
	struct campaign_job *j = campaign_add_job(pl->c, name, si == 0 ? JK_MERGE : JK_STAGE, st->name);
	free(name);
	j->ranks = st->ranks ? st->ranks : t;
	if (s->max_ranks && j->ranks > s->max_ranks && s->scheduler != SCHED_LOCAL)
		return campaign_error_set(pl->e, "%s:%d: stage '%s' needs %ld ranks, but site %s takes jobs of at most %ld "
					  "(max-ranks in %s): raise max-ranks there if the cluster runs larger jobs, or give "
					  "the stage fewer ranks", w->path, st->line, st->name, j->ranks, s->name, s->max_ranks,
					  s->path);
	j->nodes = nodes_for(s, j->ranks);
	j->tasks_per_node = (j->ranks + j->nodes - 1) / j->nodes;
	j->target = t;
	j->time_limit = site_time_limit(s, st->name);
	j->script = xasprintf("jobs/%s.sh", j->name);
	j->log = xasprintf("logs/%s.log", j->name);
	char *outdir;
	if (si == 0) {
		j->output = xstrdup("campaign.h5");
		outdir = xstrdup(dir);
		for (size_t k = 0; k < pl->c->njobs; k++)
			if (pl->c->jobs[k].kind == JK_RUN && !strcmp(pl->c->jobs[k].stage, "run"))
				job_add_dep(j, pl->c->jobs[k].name);
	} else {
		outdir = st->per_target ? xasprintf("%s/%s/p%ld", dir, st->name, t) : xasprintf("%s/%s", dir, st->name);
		for (size_t k = 0; k < st->nafter; k++)
			add_stage_deps(j, w, pl->stages, st->after[k], st->per_target ? t : 0, 0);
		for (size_t k = 0; st->after_truth && k < pl->c->njobs; k++)
			if (!strcmp(pl->c->jobs[k].stage, "truth"))
				job_add_dep(j, pl->c->jobs[k].name);
	}
	template_vars_set(&pl->tv, "outdir", outdir);
	template_vars_setf(&pl->tv, "target", "%ld", t);
	char *describe = st->per_target ? xasprintf("stage %s, target %ld ranks", st->name, t)
					: xasprintf("stage %s", st->name);
	bool ok = render(pl, j, &st->prepare, &st->cmd, st->launch, outdir, describe);
	free(describe);
	free(outdir);
	return ok;
}

/* stage si: left out with a note when its command is not part of this build, what it reads is
 * left out, or (per target, on the targets' ranks) a target is beyond a batch site; else one job
 * (per target for per-target stages) */
static bool plan_stage(struct planner *pl, size_t si)
{
	const struct workflow *w = pl->w;
	const struct stage_spec *st = &w->stages[si];
	struct stage_plan *sp = pl->stages;
	sp[si].spec = st;
	char why[512] = "";
	template_vars_set(&pl->tv, "target", "0"); /* for the availability check only */
	if (si > 0 && st->needs) {
		for (size_t k = 0; k < si; k++)
			if (!strcmp(sp[k].spec->name, st->needs) && !sp[k].present)
				snprintf(why, sizeof why, "it reads what stage '%s' writes, which is skipped", st->needs);
	}
	/* a job at a target scale the site cannot host: the stage is left out, like the truth run */
	for (size_t k = 0; si > 0 && !*why && st->per_target && !st->ranks && k < w->ntargets; k++) {
		long t = w->targets[k];
		if (beyond_batch_site(pl->s, t))
			snprintf(why, sizeof why, "target %ld needs %ld nodes of %ld ranks; site %s allows %ld ranks on %ld "
				 "nodes (%s)", t, nodes_for(pl->s, t), pl->s->ranks_per_node, pl->s->name, pl->s->max_ranks,
				 pl->s->max_nodes, pl->s->path);
	}
	if (si > 0 && (*why || !stage_available(st, &pl->tv, pl->env, why, sizeof why))) {
		if (!pl->env->quiet)
			log_info("note: stage '%s' skipped: %s", st->name, why);
		return true;
	}
	sp[si].present = true;
	size_t nt = st->per_target ? w->ntargets : 1;
	for (size_t ti = 0; ti < nt; ti++)
		if (!plan_stage_job(pl, si, st->per_target ? w->targets[ti] : 0))
			return false;
	return true;
}

static bool plan_jobs(struct planner *pl)
{
	if (!plan_build_job(pl))
		return false;
	/* runs: repetition by repetition, so that repetitions are spread over time */
	for (long r = 1; r <= pl->w->repetitions; r++)
		for (size_t i = 0; i < pl->nrungs; i++)
			if (!plan_run_job(pl, pl->rungs[i], r))
				return false;
	/* the real application at target scales, as ground truth (not merged into the ladder) */
	for (size_t i = 0; i < pl->w->ntruth; i++)
		if (!plan_truth_job(pl, pl->w->truth[i]))
			return false;
	stage_vars(pl);
	for (size_t si = 0; si < pl->w->nstages; si++)
		if (!plan_stage(pl, si))
			return false;
	assert(pl->nscripts == pl->c->njobs);
	for (size_t i = 0; i < pl->c->njobs; i++)
		hash_text(pl->scripts[i], pl->c->jobs[i].hash);
	return campaign_link(pl->c, pl->e);
}

bool plan_build(const struct workflow *w, const struct site *s, const struct plan_env *env, struct campaign *c,
		char ***scripts_out, struct campaign_error *e)
{
	struct planner pl = {.w = w, .s = s, .env = env, .c = c, .e = e};
	pl.rungs = plan_rungs(w, s, env, &pl.nrungs, e);
	if (!pl.rungs)
		return false;
	char bad;
	if (s->scheduler == SCHED_SLURM && !script_slurm_path_ok(env->dir, &bad)) {
		free(pl.rungs);
		return campaign_error_set(e, "the campaign directory '%s' cannot be named in #SBATCH lines: it contains '%c' "
					  "(choose a directory without white space, quotes, backslashes or '%%')", env->dir, bad);
	}
	campaign_settings(c, w, s, env);
	common_vars(&pl.tv, w, env);
	pl.runs = xcalloc(pl.nrungs * (size_t)w->repetitions + 1, sizeof *pl.runs);
	pl.stages = xcalloc(w->nstages, sizeof *pl.stages);
	bool ok = plan_jobs(&pl);
	template_vars_free(&pl.tv);
	free(pl.rungs);
	for (size_t i = 0; i < pl.nruns; i++)
		free(pl.runs[i]);
	free(pl.runs);
	free(pl.stages);
	if (!ok) {
		for (size_t i = 0; i < pl.nscripts; i++)
			free(pl.scripts[i]);
		free(pl.scripts);
		return false;
	}
	*scripts_out = pl.scripts;
	return true;
}
