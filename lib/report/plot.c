/*
 * plot — gnuplot to inline SVG. See plot.h.
 */
#include "report/plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "util/spawn.h"
#include "util/xalloc.h"

/* seconds one plot may take */
#define PLOT_TIMEOUT 60

bool plot_available(void)
{
	static int known = -1;
	if (known < 0)
		known = spawn_in_path("gnuplot");
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
	char *input = xasprintf("set terminal svg size %d,%d fixed font 'sans,11' background '#ffffff'\nset output\n%s",
				width, height, script);
	char *argv[] = {"gnuplot", NULL}, *out = NULL, *err = NULL;
	int status = spawn_capture(argv, NULL, input, &out, &err, PLOT_TIMEOUT);
	free(input);
	char *svg = out ? strstr(out, "<svg") : NULL;
	char *text = NULL;
	if (status != 0 || !svg || !strstr(svg, "</svg>")) {
		/* the first line of what gnuplot said (or why it did not run) */
		char *nl = err ? strchr(err, '\n') : NULL;
		if (nl)
			*nl = 0;
		log_warn("gnuplot failed (status %d): %s", status,
			 err && *err ? err : svg ? "its SVG output is cut short" : "no SVG output");
	} else {
		text = xstrdup(svg);
		clean_svg(text);
	}
	free(out);
	free(err);
	return text;
}
