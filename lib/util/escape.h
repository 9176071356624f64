/*
 * escape — the one way a string that came from a file (a container, a raw trace) reaches text that
 * a compiler or a terminal later reads. Every byte sequence, whatever it holds (quotes, star, slash,
 * trigraphs, backslash-newline, NUL, control characters, bytes that are not UTF-8), comes out as:
 *
 *   c_literal_put   a C string literal "..." that means exactly those bytes: printable ASCII other
 *                   than `"`, `\` and `?` as is, every other byte as a three-digit octal escape
 *                   (never extended by a following digit, no trigraph can form, no line is spliced)
 *   c_comment_put   the text of a C block comment that cannot end or nest it: printable ASCII other
 *                   than `*`, `\` and `?` as is, every other byte as \xHH (so no comment opener or
 *                   closer, trigraph, newline or NUL appears, nor a backslash but before xHH)
 *   term_escape_put text for a terminal or a log line: control characters (C0, DEL and the C1
 *                   range, as bytes or as UTF-8) and bytes that are not well-formed UTF-8 as
 *                   \xHH; printable ASCII and UTF-8 of other characters kept
 */
#ifndef LADDER_UTIL_ESCAPE_H
#define LADDER_UTIL_ESCAPE_H

#include <stddef.h>

#include "util/buf.h"

void c_literal_put(struct buf *b, const void *bytes, size_t len);
void c_comment_put(struct buf *b, const void *bytes, size_t len);
void term_escape_put(struct buf *b, const void *bytes, size_t len);
/* the same for a text of lines: newlines and tabs kept, every other control character escaped */
void term_escape_lines_put(struct buf *b, const void *bytes, size_t len);

/* term_escape_put of a NUL-terminated string as a fresh NUL-terminated string ("" for NULL) */
char *term_escaped(const char *s);
/* true when term_escape_put would change nothing */
int term_clean(const char *s);
/* s for a printf to a terminal: s itself when clean, else its term_escape_put text, kept until
 * eight later calls ("" for NULL). Lets a printf of file strings escape each in place. */
const char *term_safe(const char *s);

#endif
