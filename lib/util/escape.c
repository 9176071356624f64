/*
 * escape — C literals, C comments and terminal text from any bytes. See escape.h.
 */
#include "util/escape.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/xalloc.h"

static void put_hex(struct buf *b, uint8_t c)
{
	static const char hex[] = "0123456789abcdef";
	char t[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
	buf_put(b, t, 4);
}

void c_literal_put(struct buf *b, const void *bytes, size_t len)
{
	const uint8_t *s = bytes;
	buf_put_u8(b, '"');
	for (size_t i = 0; i < len; i++) {
		uint8_t c = s[i];
		if (c >= 32 && c < 127 && c != '"' && c != '\\' && c != '?') {
			buf_put_u8(b, c);
			continue;
		}
		char t[4] = {'\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)), (char)('0' + (c & 7))};
		buf_put(b, t, 4);
	}
	buf_put_u8(b, '"');
}

void c_comment_put(struct buf *b, const void *bytes, size_t len)
{
	const uint8_t *s = bytes;
	for (size_t i = 0; i < len; i++) {
		uint8_t c = s[i];
		if (c >= 32 && c < 127 && c != '*' && c != '\\' && c != '?')
			buf_put_u8(b, c);
		else
			put_hex(b, c);
	}
}

/* the length of a well-formed UTF-8 sequence of a printable character at s, 0 if none */
static size_t utf8_printable(const uint8_t *s, size_t left)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : 0;
	if (!n || n > left)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0)   /* U+0080..U+009F: the C1 controls */
		return 0;
	if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0)))
		return 0;   /* overlong, surrogates */
	if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90)))
		return 0;
	return n;
}

static void escape_for_terminal(struct buf *b, const uint8_t *s, size_t len, bool lines)
{
	for (size_t i = 0; i < len;) {
		uint8_t c = s[i];
		if ((c >= 32 && c < 127) || (lines && (c == '\n' || c == '\t'))) {
			buf_put_u8(b, c);
			i++;
			continue;
		}
		size_t n = c >= 0x80 ? utf8_printable(s + i, len - i) : 0;
		if (n) {
			buf_put(b, s + i, n);
			i += n;
		} else {
			put_hex(b, c);
			i++;
		}
	}
}

void term_escape_put(struct buf *b, const void *bytes, size_t len) { escape_for_terminal(b, bytes, len, false); }

void term_escape_lines_put(struct buf *b, const void *bytes, size_t len)
{
	escape_for_terminal(b, bytes, len, true);
}

char *term_escaped(const char *s)
{
	struct buf b;
	buf_init(&b);
	if (s)
		term_escape_put(&b, s, strlen(s));
	buf_put_u8(&b, 0);
	char *out = xstrdup((char *)b.data);
	buf_free(&b);
	return out;
}

int term_clean(const char *s)
{
	for (const uint8_t *c = (const uint8_t *)(s ? s : ""); *c; c++)
		if (*c < 32 || *c >= 127)
			goto slow;
	return 1;
slow:;
	char *e = term_escaped(s);
	int same = !strcmp(e, s);
	free(e);
	return same;
}

const char *term_safe(const char *s)
{
	static char *ring[8];
	static unsigned next;
	if (!s)
		return "";
	if (term_clean(s))
		return s;
	unsigned k = next++ % 8;
	free(ring[k]);
	ring[k] = term_escaped(s);
	return ring[k];
}
