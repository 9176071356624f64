/*
 * escape — the one way a string reaches each output of the report: HTML text and attribute values
 * (html_escape), Markdown (md_escape). Every string from a container or a file name is hostile:
 * after these it is inert text on one line of its own output, whatever its bytes.
 */
#ifndef LADDER_REPORT_ESCAPE_H
#define LADDER_REPORT_ESCAPE_H

#include <stdio.h>

/* s as HTML text or a quoted attribute value: < > & " ' as entities, control characters (newlines
 * included) and DEL as U+FFFD. NULL writes nothing. */
void html_escape(FILE *out, const char *s);

/* s as Markdown text (a paragraph, a list item or a table cell, never the start of a line):
 * < > & as entities (no raw HTML, whatever the renderer), every other character Markdown could read
 * as markup (\ ` * [ ] | # ~ and an _ that could open or close emphasis) escaped with a backslash
 * (with [ and ] escaped, no parenthesis can make a link), control characters (newlines
 * included) as U+FFFD, so that no string opens a new line, a table cell, a link or an HTML tag.
 * NULL writes nothing. */
void md_escape(FILE *out, const char *s);

#endif
