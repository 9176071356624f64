/*
 * plot — SVG plots made by gnuplot, cleaned for inlining into an HTML page: a gnuplot script
 * (data given inline as $blocks) in, the <svg> element out, without the XML prolog and namespace
 * declarations (an HTML parser supplies them), so the page references nothing outside itself.
 */
#ifndef LADDER_REPORT_PLOT_H
#define LADDER_REPORT_PLOT_H

#include <stdbool.h>

/* Is gnuplot there (once per process)? */
bool plot_available(void);
/* Run gnuplot on script (the terminal is set here); the cleaned SVG (fresh), or NULL with a
 * warning naming what failed. */
char *plot_svg(const char *script, int width, int height);

#endif
