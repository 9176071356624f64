/*
 * schedule — crontab/scrontab entries for nightly campaigns. See schedule.h.
 */
#include "campaign/schedule.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/shquote.h"
#include "util/buf.h"
#include "util/file.h"
#include "util/path.h"
#include "util/spawn.h"
#include "util/xalloc.h"

bool schedule_parse_time(const char *s, int *hour, int *minute)
{
	int h, m;
	char tail;
	if (strlen(s) != 5 || s[2] != ':' || sscanf(s, "%2d:%2d%c", &h, &m, &tail) != 2)
		return false;
	if (h < 0 || h > 23 || m < 0 || m > 59)
		return false;
	*hour = h;
	*minute = m;
	return true;
}

char *schedule_marker(const char *name)
{
	return xasprintf("# ladder campaign %s: nightly run (managed by 'ladder campaign schedule')", name);
}

char *schedule_end_marker(const char *name)
{
	return xasprintf("# end of ladder campaign %s", name);
}

/* a quoted word for a cron command line: cron turns an unescaped % into a newline */
static void cron_word(struct buf *b, const char *s)
{
	char *q = sh_quote_dup(s);
	for (const char *p = q; *p; p++) {
		if (*p == '%')
			buf_put_u8(b, '\\');
		buf_put_u8(b, (unsigned char)*p);
	}
	free(q);
}

char *schedule_entry(const struct schedule_in *in)
{
	const char *vals[] = {in->name, in->ladder, in->workflow, in->site, in->base, in->cwd, in->path_env,
			      in->slurm_conf, in->partition, in->account, in->qos};
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
		if (vals[i] && !sh_quotable(vals[i]))
			return NULL;
	struct buf b;
	buf_init(&b);
	char *marker = schedule_marker(in->name);
	buf_put(&b, marker, strlen(marker));
	buf_put_u8(&b, '\n');
	free(marker);
	char line[512];
	if (in->slurm) {
		snprintf(line, sizeof line, "#SCRON --job-name=ladder-nightly-%s\n#SCRON --time=30\n", in->name);
		buf_put(&b, line, strlen(line));
		const char *opt[] = {"partition", "account", "qos"};
		const char *val[] = {in->partition, in->account, in->qos};
		for (int i = 0; i < 3; i++)
			if (val[i]) {
				snprintf(line, sizeof line, "#SCRON --%s=%s\n", opt[i], val[i]);
				buf_put(&b, line, strlen(line));
			}
	}
	snprintf(line, sizeof line, "%d %d * * * cd ", in->minute, in->hour);
	buf_put(&b, line, strlen(line));
	cron_word(&b, in->cwd);
	buf_put(&b, " && ", 4);
	if (in->path_env) {
		buf_put(&b, "PATH=", 5);
		cron_word(&b, in->path_env);
		buf_put_u8(&b, ' ');
	}
	if (in->slurm_conf) {
		buf_put(&b, "SLURM_CONF=", 11);
		cron_word(&b, in->slurm_conf);
		buf_put_u8(&b, ' ');
	}
	cron_word(&b, in->ladder);
	buf_put(&b, " --quiet campaign run ", 22);
	cron_word(&b, in->workflow);
	buf_put(&b, " --site ", 8);
	cron_word(&b, in->site);
	buf_put(&b, " --dated ", 9);
	cron_word(&b, in->base);
	if (in->slurm)
		buf_put(&b, " --no-wait", 10);
	buf_put(&b, " >> ", 4);
	char *log = xasprintf("%s/nightly.log", in->base);
	cron_word(&b, log);
	free(log);
	buf_put(&b, " 2>&1\n", 6);
	char *end_marker = schedule_end_marker(in->name);
	buf_put(&b, end_marker, strlen(end_marker));
	buf_put_u8(&b, '\n');
	free(end_marker);
	buf_put_u8(&b, 0);
	char *s = xstrdup((char *)b.data);
	buf_free(&b);
	return s;
}

/* is line [p, p+len) exactly text? */
static bool line_is(const char *p, size_t len, const char *text)
{
	return len == strlen(text) && !strncmp(p, text, len);
}

/* the end of the line at p and the start of the next */
static size_t line_len(const char *p, const char **next)
{
	const char *nl = strchr(p, '\n');
	size_t len = nl ? (size_t)(nl - p) : strlen(p);
	*next = nl ? nl + 1 : p + len;
	return len;
}

/* After a start marker at p: the text after the block ladder wrote, or NULL when the lines that
 * follow are not that block (the end marker is missing, or a line of the user's comes first). A
 * block written before end markers existed ends with its entry: a `campaign run --dated` line. */
static const char *block_end(const char *p, const char *end_marker)
{
	const char *next;
	line_len(p, &next);
	for (p = next; *p; p = next) {
		size_t len = line_len(p, &next);
		if (line_is(p, len, end_marker))
			return next;
		if (len >= 6 && !strncmp(p, "#SCRON", 6))
			continue;
		static const char run[] = " --quiet campaign run ", dated[] = " --dated ";
		bool entry = memmem(p, len, run, sizeof run - 1) && memmem(p, len, dated, sizeof dated - 1);
		if (!entry)
			return NULL;
		/* the entry line: the end marker follows, or (an older block) nothing of ours does */
		const char *after;
		size_t alen = line_len(next, &after);
		return *next && line_is(next, alen, end_marker) ? after : next;
	}
	return NULL;
}

char *schedule_merge(const char *existing, const char *name, const char *block)
{
	char *marker = schedule_marker(name), *end_marker = schedule_end_marker(name);
	struct buf b;
	buf_init(&b);
	const char *next;
	for (const char *p = existing ? existing : ""; *p; p = next) {
		size_t len = line_len(p, &next);
		const char *after = line_is(p, len, marker) ? block_end(p, end_marker) : NULL;
		if (after) {
			next = after; /* ladder's block: dropped, the new one is appended */
			continue;
		}
		buf_put(&b, p, len);
		buf_put_u8(&b, '\n');
	}
	buf_put(&b, block, strlen(block));
	buf_put_u8(&b, 0);
	char *s = xstrdup((char *)b.data);
	buf_free(&b);
	free(marker);
	free(end_marker);
	return s;
}

bool schedule_install(const char *tool, const char *name, const char *block, struct campaign_error *e)
{
	char *argv_list[] = {(char *)tool, "-l", NULL};
	char *current = NULL, *err = NULL;
	int listed = spawn_capture(argv_list, NULL, NULL, &current, &err, 60);
	if (listed < 0) {
		campaign_error_set(e, "cannot run %s: %s", tool, err ? err : "");
		free(current);
		free(err);
		return false;
	}
	if (listed != 0) {
		/* "no crontab for USER": start from an empty table */
		free(current);
		current = xstrdup("");
	}
	free(err);
	char *merged = schedule_merge(current, name, block);
	free(current);
	/* the table goes to the tool as a file in a directory made for it alone (mkdtemp: new, mode
	 * 0700), never at a name another user of the temporary directory could have planted */
	const char *tmpdir = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
	char *dir = xasprintf("%s/ladder-schedule.XXXXXX", tmpdir), *table = NULL;
	bool ok = mkdtemp(dir) != NULL;
	if (!ok)
		campaign_error_set(e, "cannot make a private directory in %s for the table: %s", tmpdir, strerror(errno));
	if (ok) {
		table = xasprintf("%s/table", dir);
		ok = write_file_atomic(table, merged, 0600, e->msg, sizeof e->msg);
	}
	free(merged);
	if (ok) {
		char *argv_install[] = {(char *)tool, table, NULL};
		err = NULL;
		int installed = spawn_capture(argv_install, NULL, NULL, NULL, &err, 60);
		if (installed != 0)
			ok = campaign_error_set(e, "%s could not install the entry (status %d): %s", tool, installed,
						err ? err : "");
		free(err);
	}
	if (table)
		unlink(table);
	rmdir(dir);
	free(table);
	free(dir);
	return ok;
}

char *schedule_entry_for(const struct workflow *w, const struct site *s, const char *ladder, const char *base,
			 int hour, int minute)
{
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		snprintf(cwd, sizeof cwd, "/");
	char *base_abs = path_absolute(base), *ladder_abs = path_absolute(ladder);
	bool slurm = s->scheduler == SCHED_SLURM;
	struct schedule_in in = {w->name, ladder_abs, w->path, s->path, base_abs, cwd, getenv("PATH"),
				 slurm ? getenv("SLURM_CONF") : NULL, hour, minute, slurm, s->partition, s->account,
				 s->qos};
	char *block = schedule_entry(&in);
	free(base_abs);
	free(ladder_abs);
	return block;
}
