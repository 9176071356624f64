/*
 * shquote — strict quoting of values written into POSIX shell scripts. A word made only of
 * characters that are never special to the shell (letters, digits and _ @ % + = : , . / -) is
 * written as is; anything else is single-quoted, with embedded single quotes written as '\''.
 * Control characters (below 0x20, and DEL) are refused outright: there is no quoting that keeps
 * a newline or NUL harmless in every context, and no legitimate value needs one.
 */
#ifndef LADDER_CAMPAIGN_SHQUOTE_H
#define LADDER_CAMPAIGN_SHQUOTE_H

#include <stdbool.h>

#include "util/buf.h"

/* true when s can be quoted (no control characters) */
bool sh_quotable(const char *s);
/* append s as one shell word; s must be quotable */
void sh_quote(struct buf *b, const char *s);
/* append s as the command word of a simple command: also quoted when it holds '=' (it would
 * be taken for a variable assignment) or is a reserved word (if, then, time, ...) */
void sh_quote_command(struct buf *b, const char *s);
/* a freshly allocated quoted word */
char *sh_quote_dup(const char *s);
/* true for a valid environment variable name: [A-Za-z_][A-Za-z0-9_]* */
bool sh_var_name(const char *s);

#endif
