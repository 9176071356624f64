/*
 * shquote — quoting values for shell scripts. See shquote.h.
 */
#include "campaign/shquote.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

bool sh_quotable(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

static bool plain(const char *s)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_@%+=:,./-", c)))
			return false;
	}
	return true;
}

static void single_quote(struct buf *b, const char *s)
{
	buf_put_u8(b, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			buf_put(b, "'\\''", 4);
		else
			buf_put_u8(b, (unsigned char)*p);
	}
	buf_put_u8(b, '\'');
}

void sh_quote(struct buf *b, const char *s)
{
	if (!sh_quotable(s))
		abort(); /* callers check first; writing such a value would be a bug */
	if (plain(s))
		buf_put(b, s, strlen(s));
	else
		single_quote(b, s);
}

void sh_quote_command(struct buf *b, const char *s)
{
	static const char *const reserved[] = {"if", "then", "else", "elif", "fi", "case", "esac", "for",
		"select", "while", "until", "do", "done", "in", "function", "time", "coproc", NULL};
	bool force = strchr(s, '=') != NULL;
	for (int i = 0; !force && reserved[i]; i++)
		force = !strcmp(s, reserved[i]);
	if (force && sh_quotable(s))
		single_quote(b, s);
	else
		sh_quote(b, s);
}

char *sh_quote_dup(const char *s)
{
	struct buf b;
	buf_init(&b);
	sh_quote(&b, s);
	buf_put_u8(&b, 0);
	char *r = xstrdup((char *)b.data);
	buf_free(&b);
	return r;
}

bool sh_var_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return false;
	for (const char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	return true;
}
