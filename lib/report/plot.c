/*
 * plot — gnuplot to inline SVG. See plot.h.
 */
#include "report/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/log.h"
#include "util/xalloc.h"

bool plot_available(void)
{
	static int known = -1;
	if (known < 0)
		known = system("gnuplot --version > /dev/null 2>&1") == 0;
	return known == 1;
}

/* drop the XML prolog and the namespace declarations of the root element */
static void clean_svg(char *svg)
{
	static const char *const drop[] = {"<?xml", " xmlns=\"", " xmlns:xlink=\""};
	for (size_t k = 0; k < sizeof drop / sizeof drop[0]; k++) {
		char *at = strstr(svg, drop[k]);
		if (!at)
			continue;
		char *end = k == 0 ? strstr(at, "?>") : strchr(at + strlen(drop[k]), '"');
		if (!end)
			continue;
		end += k == 0 ? 2 : 1;
		memmove(at, end, strlen(end) + 1);
	}
}

char *plot_svg(const char *script, int width, int height)
{
	char path[] = "/tmp/ladder-plot.XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		log_warn("cannot create a gnuplot script under /tmp");
		return NULL;
	}
	FILE *f = fdopen(fd, "w");
	fprintf(f, "set terminal svg size %d,%d fixed font 'sans,11' background '#ffffff'\nset output\n", width, height);
	fputs(script, f);
	fclose(f);
	char *cmd = xasprintf("gnuplot %s 2>&1", path);
	FILE *p = popen(cmd, "r");
	free(cmd);
	struct buf b;
	buf_init(&b);
	char chunk[4096];
	size_t n;
	while (p && (n = fread(chunk, 1, sizeof chunk, p)) > 0)
		buf_put(&b, chunk, n);
	int status = p ? pclose(p) : -1;
	unlink(path);
	buf_put_u8(&b, 0);
	char *out = (char *)b.data;
	char *svg = strstr(out, "<svg");
	if (status != 0 || !svg) {
		char *nl = strchr(out, '\n');
		if (nl)
			*nl = 0;
		log_warn("gnuplot failed (status %d): %s", status, out);
		buf_free(&b);
		return NULL;
	}
	char *text = xstrdup(svg);
	buf_free(&b);
	clean_svg(text);
	return text;
}
