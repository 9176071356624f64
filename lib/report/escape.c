/*
 * escape — HTML and Markdown escaping of hostile strings. See escape.h.
 */
#include "report/escape.h"

#include <ctype.h>
#include <string.h>

#define REPLACEMENT "\xef\xbf\xbd"   /* U+FFFD, in UTF-8 */

static int is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

void html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			if (is_control(c))
				fputs(REPLACEMENT, out);
			else
				fputc(c, out);
		}
	}
}

void md_escape(FILE *out, const char *s)
{
	for (const char *p = s; p && *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (is_control(c)) {
			fputs(REPLACEMENT, out);
			continue;
		}
		if (c == '<' || c == '>' || c == '&') {   /* as entities: no tag, whatever the renderer */
			fputs(c == '<' ? "&lt;" : c == '>' ? "&gt;" : "&amp;", out);
			continue;
		}
		int escape = strchr("\\`*[]|#~", c) != NULL;
		if (c == '_') /* an underscore inside a word cannot open or close emphasis */
			escape = !(p > s && isalnum((unsigned char)p[-1]) && isalnum((unsigned char)p[1]));
		if (escape && c)
			fputc('\\', out);
		fputc(c, out);
	}
}
