/*
 * script — job scripts for every job of a campaign. See script.h.
 */
#include "campaign/script.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/shquote.h"
#include "util/buf.h"
#include "util/path.h"
#include "util/xalloc.h"

static void puts_buf(struct buf *b, const char *s)
{
	buf_put(b, s, strlen(s));
}

static void printf_buf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void printf_buf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	puts_buf(b, s);
	free(s);
}

static void quoted(struct buf *b, const char *s)
{
	sh_quote(b, s);
}

bool script_slurm_path_ok(const char *dir, char *bad)
{
	for (const char *p = dir; *p; p++)
		if (strchr(" \t\"'\\%", *p) || (unsigned char)*p < 0x20) {
			*bad = *p;
			return false;
		}
	return true;
}

/* every word must be quotable; report the first that is not */
static bool check_words(char **w, size_t n, const struct campaign_job *j, struct campaign_error *e)
{
	for (size_t i = 0; i < n; i++)
		if (!sh_quotable(w[i]))
			return campaign_error_set(e, "job %s: the value '%s' contains a control character; refused", j->name, w[i]);
	return true;
}

static void command_line(struct buf *b, char **w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_put_u8(b, ' ');
		if (i == 0)
			sh_quote_command(b, w[i]);
		else
			quoted(b, w[i]);
	}
}

static void header(struct buf *b, const struct script_in *in)
{
	const struct site *s = in->site;
	const struct campaign_job *j = in->job;
	printf_buf(b, "#SBATCH --job-name=%s.%s\n", in->c->name, j->name);
	printf_buf(b, "#SBATCH --output=%s/%s\n", in->c->dir, j->log);
	printf_buf(b, "#SBATCH --chdir=%s\n", in->c->dir);
	if (s->partition)
		printf_buf(b, "#SBATCH --partition=%s\n", s->partition);
	if (s->account)
		printf_buf(b, "#SBATCH --account=%s\n", s->account);
	if (s->qos)
		printf_buf(b, "#SBATCH --qos=%s\n", s->qos);
	printf_buf(b, "#SBATCH --nodes=%ld\n", j->nodes);
	printf_buf(b, "#SBATCH --ntasks=%ld\n", j->ranks);
	if (j->nodes > 1)
		printf_buf(b, "#SBATCH --ntasks-per-node=%ld\n", j->tasks_per_node);
	printf_buf(b, "#SBATCH --time=%ld\n", j->time_limit);
	for (size_t i = 0; i < s->nsbatch; i++)
		printf_buf(b, "#SBATCH %s\n", s->sbatch[i]);
}

/* refuse what cannot be written into a script: control characters in words and paths */
static bool check_input(const struct script_in *in, struct campaign_error *e)
{
	const struct campaign_job *j = in->job;
	if (!check_words(in->cmd, in->ncmd, j, e) || !check_words(in->launcher, in->nlauncher, j, e) ||
	    !check_words(in->prepare, in->nprepare, j, e))
		return false;
	const char *paths[] = {in->c->dir, in->workdir, in->tracer, in->ladder};
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
		if (paths[i] && !sh_quotable(paths[i]))
			return campaign_error_set(e, "the path '%s' contains a control character; refused", paths[i]);
	if (j->output) {
		char *out = xasprintf("%s/%s", in->c->dir, j->output);
		bool ok = sh_quotable(out);
		free(out);
		if (!ok)
			return campaign_error_set(e, "job %s: the output path contains a control character; refused", j->name);
	}
	return true;
}

/* the site's modules, environment and setup lines */
static void site_section(struct buf *b, const struct site *s)
{
	if (s->nmodules || s->nenv || s->nsetup) {
		puts_buf(b, "\n# site ");
		puts_buf(b, s->name);
		buf_put_u8(b, '\n');
	}
	for (size_t i = 0; i < s->nmodules; i++) {
		puts_buf(b, "module load ");
		quoted(b, s->modules[i]);
		buf_put_u8(b, '\n');
	}
	for (size_t i = 0; i < s->nenv; i++) {
		printf_buf(b, "export %s=", s->env[i].key);
		quoted(b, s->env[i].value);
		buf_put_u8(b, '\n');
	}
	for (size_t i = 0; i < s->nsetup; i++)
		printf_buf(b, "%s\n", s->setup[i]);
}

/* a truth run: the application at a target scale, traced and then timed untraced */
static bool is_truth(const struct campaign_job *j)
{
	return j->kind == JK_RUN && !strcmp(j->stage, "truth");
}

/* where a truth job writes the untraced run's time: time.json beside its trace */
static char *timed_output(const char *out)
{
	char *dir = path_dirname(out);
	char *timed = xasprintf("%s/time.json", dir);
	free(dir);
	return timed;
}

/* the job's variables, its working directory, and the removal of a stale output */
static void job_section(struct buf *b, const struct script_in *in, const char *out)
{
	const struct campaign_job *j = in->job;
	puts_buf(b, "\n# job\n");
	puts_buf(b, "export LADDER_CAMPAIGN_DIR=");
	quoted(b, in->c->dir);
	printf_buf(b, " LADDER_JOB=%s\n", j->name);
	puts_buf(b, "mkdir -p ");
	quoted(b, in->workdir);
	puts_buf(b, "\ncd ");
	quoted(b, in->workdir);
	buf_put_u8(b, '\n');
	if (out) {
		/* a stale output of an earlier attempt must not pass for this one's */
		puts_buf(b, "rm -f ");
		quoted(b, out);
		if (j->kind == JK_RUN) {
			char *raw = xasprintf("%s.raw", out);
			buf_put_u8(b, ' ');
			quoted(b, raw);
			free(raw);
		}
		if (is_truth(j)) {
			char *timed = timed_output(out);
			buf_put_u8(b, ' ');
			quoted(b, timed);
			free(timed);
		}
		buf_put_u8(b, '\n');
	}
}

/* run jobs: the tracer's variables, and the list mpirun forwards to other nodes */
static void tracer_section(struct buf *b, const struct script_in *in, const char *out)
{
	const struct workflow *w = in->wf;
	const struct campaign_job *j = in->job;
	puts_buf(b, "export LADDER_BIN=");
	quoted(b, in->ladder);
	puts_buf(b, "\nexport LADDER_TRACE_FILE=");
	quoted(b, out);
	char *attrs = w->has_size ? xasprintf("rung=%ld;repetition=%ld;size=%ld", j->ranks, j->rep, j->size)
				  : xasprintf("rung=%ld;repetition=%ld", j->ranks, j->rep);
	puts_buf(b, "\nexport LADDER_RUN_ATTRS=");
	quoted(b, attrs);
	free(attrs);
	buf_put_u8(b, '\n');
	struct buf fwd;
	buf_init(&fwd);
	puts_buf(&fwd, "LD_PRELOAD;LADDER_BIN;LADDER_TRACE_FILE;LADDER_RUN_ATTRS");
	if (w->timestamps) {
		puts_buf(b, "export LADDER_TRACE_TIMESTAMPS=1\n");
		puts_buf(&fwd, ";LADDER_TRACE_TIMESTAMPS");
	}
	if (w->callsite_depth > 0) {
		printf_buf(b, "export LADDER_TRACE_CALLSITE_DEPTH=%ld\n", w->callsite_depth);
		puts_buf(&fwd, ";LADDER_TRACE_CALLSITE_DEPTH");
	}
	if (w->stream_after >= 0) {
		printf_buf(b, "export LADDER_TRACE_STREAM_AFTER=%ld\n", w->stream_after);
		puts_buf(&fwd, ";LADDER_TRACE_STREAM_AFTER");
	}
	buf_put_u8(&fwd, 0);
	/* mpirun forwards these to processes on other nodes */
	printf_buf(b, "export OMPI_MCA_mca_base_env_list='%s'"
		      "${OMPI_MCA_mca_base_env_list:+\";$OMPI_MCA_mca_base_env_list\"}\n", (char *)fwd.data);
	buf_free(&fwd);
}

/* a command's status: the job ends with it when it failed */
static void status_check(struct buf *b, const struct campaign_job *j)
{
	printf_buf(b, "if [ \"$status\" -ne 0 ]; then\n"
		      "\techo \"ladder: job %s: the command exited with status $status\" >&2\n"
		      "\texit \"$status\"\n"
		      "fi\n", j->name);
}

/* the command behind the launcher, if any */
static void launched_command(struct buf *b, const struct script_in *in)
{
	if (in->nlauncher) {
		command_line(b, in->launcher, in->nlauncher);
		buf_put_u8(b, ' ');
		for (size_t i = 0; i < in->ncmd; i++) {
			if (i)
				buf_put_u8(b, ' ');
			quoted(b, in->cmd[i]);
		}
	} else {
		command_line(b, in->cmd, in->ncmd);
	}
}

/* the command (preloaded with the tracer for run jobs, behind the launcher) and its status; a
 * step before it first */
static void command_section(struct buf *b, const struct script_in *in)
{
	const struct campaign_job *j = in->job;
	puts_buf(b, "status=0\n");
	if (in->nprepare) {
		command_line(b, in->prepare, in->nprepare);
		puts_buf(b, " || status=$?\n");
		status_check(b, j);
	}
	if (j->kind == JK_RUN) {
		puts_buf(b, "LD_PRELOAD=");
		quoted(b, in->tracer);
		puts_buf(b, "${LD_PRELOAD:+\":$LD_PRELOAD\"} ");
	}
	launched_command(b, in);
	puts_buf(b, " || status=$?\n");
	status_check(b, j);
}

/* a truth job's second run: the application untraced, timed by `ladder time` (what replays and
 * proxies are measured against; the traced run is slower where ranks share cores) */
static void timed_section(struct buf *b, const struct script_in *in, const char *timed)
{
	puts_buf(b, "# the application's own time, untraced\n");
	quoted(b, in->ladder);
	puts_buf(b, " --quiet time -o ");
	quoted(b, timed);
	puts_buf(b, " -- ");
	launched_command(b, in);
	puts_buf(b, " || status=$?\n");
	status_check(b, in->job);
}

/* a job that names an output fails when the command did not write it */
static void output_check(struct buf *b, const struct campaign_job *j, const char *out)
{
	puts_buf(b, "if [ ! -s ");
	quoted(b, out);
	printf_buf(b, " ]; then\n"
		      "\techo \"ladder: job %s: the command did not write ", j->name);
	/* inside double quotes: the path is printed literally, so escape what is special there */
	for (const char *p = out; *p; p++) {
		if (strchr("\"\\$`", *p))
			buf_put_u8(b, '\\');
		buf_put_u8(b, (unsigned char)*p);
	}
	puts_buf(b, "\" >&2\n\texit 1\nfi\n");
}

char *script_render(const struct script_in *in, struct campaign_error *e)
{
	const struct site *s = in->site;
	const struct campaign_job *j = in->job;
	const struct campaign *c = in->c;
	if (!check_input(in, e))
		return NULL;
	struct buf b;
	buf_init(&b);
	printf_buf(&b, "#!%s\n", s->shell);
	if (s->scheduler == SCHED_SLURM)
		header(&b, in);
	printf_buf(&b, "# ladder campaign %s, job %s: %s\n", c->name, j->name, in->describe);
	puts_buf(&b, "set -e\n");
	printf_buf(&b, "echo \"ladder: job %s started on $(uname -n) at $(date '+%%Y-%%m-%%d %%H:%%M:%%S')\"\n", j->name);
	site_section(&b, s);
	char *out = j->output ? xasprintf("%s/%s", c->dir, j->output) : NULL;
	job_section(&b, in, out);
	if (j->kind == JK_RUN)
		tracer_section(&b, in, out);
	command_section(&b, in);
	if (out)
		output_check(&b, j, out);
	if (out && is_truth(j)) {
		char *timed = timed_output(out);
		timed_section(&b, in, timed);
		output_check(&b, j, timed);
		free(timed);
	}
	printf_buf(&b, "echo \"ladder: job %s finished at $(date '+%%Y-%%m-%%d %%H:%%M:%%S')\"\n", j->name);
	free(out);
	buf_put_u8(&b, 0);
	char *text = xstrdup((char *)b.data);
	buf_free(&b);
	return text;
}
