/*
 * jobcomp — Slurm's job completion file, read incrementally. See jobcomp.h.
 */
#include "campaign/jobcomp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

long long slurm_time_parse(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	int y, mo, d, h, mi, se;
	char tail;
	if (sscanf(s, "%d-%d-%dT%d:%d:%d%c", &y, &mo, &d, &h, &mi, &se, &tail) != 6)
		return 0;
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	tm.tm_isdst = -1;
	time_t t = mktime(&tm);
	return t < 0 ? 0 : (long long)t;
}

int slurm_exit_parse(const char *s)
{
	int a = 0, b = 0;
	if (sscanf(s, "%d:%d", &a, &b) < 1)
		return 255;
	return b ? 128 + b : a;
}

/* the value of " KEY=" in line, up to the next space, into out */
static bool field(const char *line, const char *key, char *out, size_t outlen)
{
	size_t kl = strlen(key);
	for (const char *p = line; (p = strstr(p, key)); p += kl) {
		if ((p != line && p[-1] != ' ') || p[kl] != '=')
			continue;
		const char *v = p + kl + 1, *end = strchr(v, ' ');
		size_t len = end ? (size_t)(end - v) : strlen(v);
		while (len && (v[len - 1] == '\n' || v[len - 1] == '\r'))
			len--;
		if (len >= outlen)
			len = outlen - 1;
		memcpy(out, v, len);
		out[len] = 0;
		return true;
	}
	return false;
}

bool jobcomp_parse_line(const char *line, struct jobcomp_rec *r)
{
	memset(r, 0, sizeof *r);
	char buf[64];
	if (strncmp(line, "JobId=", 6))
		return false;
	char *end;
	unsigned long id = strtoul(line + 6, &end, 10);
	if (end == line + 6 || id == 0 || id > UINT32_MAX)
		return false;
	r->id = (uint32_t)id;
	if (!field(line, "JobState", r->state, sizeof r->state))
		return false;
	field(line, "Name", r->name, sizeof r->name);
	r->exit_code = field(line, "ExitCode", buf, sizeof buf) ? slurm_exit_parse(buf) : 255;
	if (field(line, "StartTime", buf, sizeof buf))
		r->start = slurm_time_parse(buf);
	if (field(line, "EndTime", buf, sizeof buf))
		r->end = slurm_time_parse(buf);
	return true;
}

int jobcomp_scan(const char *path, long *offset, void (*cb)(const struct jobcomp_rec *, void *), void *arg)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && st.st_size < *offset)
		*offset = 0; /* rotated or truncated */
	if (fseek(f, *offset, SEEK_SET)) {
		fclose(f);
		return -1;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int n = 0;
	long pos = *offset;
	while ((len = getline(&line, &cap, f)) > 0) {
		if (line[len - 1] != '\n')
			break; /* a line still being written: read it next time */
		pos += (long)len;
		struct jobcomp_rec r;
		if (jobcomp_parse_line(line, &r)) {
			cb(&r, arg);
			n++;
		}
	}
	free(line);
	fclose(f);
	*offset = pos;
	return n;
}
