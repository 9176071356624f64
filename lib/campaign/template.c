/*
 * template — argument-vector templates with {placeholders}. See template.h.
 */
#include "campaign/template.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "util/buf.h"
#include "util/xalloc.h"

static void push_word(char ***w, size_t *n, size_t *cap, struct buf *b)
{
	XGROW(*w, *cap, *n + 2);
	buf_put_u8(b, 0);
	(*w)[(*n)++] = xstrdup((char *)b->data);
	(*w)[*n] = NULL;
	buf_reset(b);
}

bool tmpl_parse(const char *text, struct tmpl *t, char *why, size_t whylen)
{
	char **w = NULL;
	size_t n = 0, cap = 0;
	struct buf b;
	buf_init(&b);
	bool in_word = false;
	const char *p = text;
	while (*p) {
		char c = *p;
		if (c == ' ' || c == '\t') {
			if (in_word)
				push_word(&w, &n, &cap, &b);
			in_word = false;
			p++;
			continue;
		}
		in_word = true;
		if (c == '\'') {
			const char *q = strchr(p + 1, '\'');
			if (!q) {
				snprintf(why, whylen, "unbalanced single quote");
				goto fail;
			}
			buf_put(&b, p + 1, (size_t)(q - p - 1));
			p = q + 1;
		} else if (c == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				buf_put_u8(&b, (unsigned char)*p++);
			}
			if (*p != '"') {
				snprintf(why, whylen, "unbalanced double quote");
				goto fail;
			}
			p++;
		} else if (c == '\\') {
			if (!p[1]) {
				snprintf(why, whylen, "a backslash at the end");
				goto fail;
			}
			buf_put_u8(&b, (unsigned char)p[1]);
			p += 2;
		} else {
			buf_put_u8(&b, (unsigned char)c);
			p++;
		}
	}
	if (in_word)
		push_word(&w, &n, &cap, &b);
	buf_free(&b);
	if (!w)
		w = xcalloc(1, sizeof *w);
	t->words = w;
	t->n = n;
	return true;
fail:
	buf_free(&b);
	for (size_t i = 0; i < n; i++)
		free(w[i]);
	free(w);
	return false;
}

void tmpl_from_words(char *const *words, size_t n, struct tmpl *t)
{
	t->words = xcalloc(n + 1, sizeof *t->words);
	for (size_t i = 0; i < n; i++)
		t->words[i] = xstrdup(words[i]);
	t->n = n;
}

void tmpl_copy(struct tmpl *dst, const struct tmpl *src)
{
	tmpl_from_words(src->words, src->n, dst);
}

void tmpl_free(struct tmpl *t)
{
	if (t->words)
		for (size_t i = 0; i < t->n; i++)
			free(t->words[i]);
	free(t->words);
	t->words = NULL;
	t->n = 0;
}

bool tmpl_empty(const struct tmpl *t)
{
	return !t->words || t->n == 0;
}

/* a placeholder name: letters, digits, '_' and '.' (dims.x), not starting with a digit or '.' */
static bool name_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && ((c >= '0' && c <= '9') || c == '.'));
}

/* Walk the pieces of a word: literal text and placeholder names. cb returns false to stop. */
typedef bool (*piece_fn)(bool is_name, const char *s, size_t len, void *arg);

static bool walk_word(const char *w, piece_fn cb, void *arg, char *why, size_t whylen)
{
	const char *p = w;
	while (*p) {
		if (p[0] == '{' && p[1] == '{') {
			if (!cb(false, "{", 1, arg))
				return false;
			p += 2;
		} else if (p[0] == '}' && p[1] == '}') {
			if (!cb(false, "}", 1, arg))
				return false;
			p += 2;
		} else if (p[0] == '{') {
			const char *q = p + 1;
			if (!name_char(*q, true)) {
				snprintf(why, whylen, "'{' in '%s' does not start a placeholder {name} (write {{ for a brace)", w);
				return false;
			}
			while (name_char(*q, false))
				q++;
			if (*q != '}') {
				snprintf(why, whylen, "unterminated placeholder in '%s' (write {{ for a brace)", w);
				return false;
			}
			if (!cb(true, p + 1, (size_t)(q - p - 1), arg))
				return false;
			p = q + 1;
		} else if (p[0] == '}') {
			snprintf(why, whylen, "unmatched '}' in '%s' (write }} for a brace)", w);
			return false;
		} else {
			const char *q = p;
			while (*q && *q != '{' && *q != '}')
				q++;
			if (!cb(false, p, (size_t)(q - p), arg))
				return false;
			p = q;
		}
	}
	return true;
}

struct check_ctx {
	bool (*known)(const char *, void *);
	void *arg;
	char *why;
	size_t whylen;
	const char *word;
};

static bool check_piece(bool is_name, const char *s, size_t len, void *arg)
{
	struct check_ctx *c = arg;
	if (!is_name)
		return true;
	char name[128];
	snprintf(name, sizeof name, "%.*s", (int)len, s);
	if (!c->known(name, c->arg)) {
		snprintf(c->why, c->whylen, "unknown placeholder {%s}", name);
		return false;
	}
	return true;
}

bool tmpl_check(const struct tmpl *t, bool (*known)(const char *, void *), void *arg, char *why, size_t whylen)
{
	struct check_ctx c = {known, arg, why, whylen, NULL};
	for (size_t i = 0; i < t->n; i++) {
		c.word = t->words[i];
		why[0] = 0;
		if (!walk_word(t->words[i], check_piece, &c, why, whylen))
			return false;
	}
	return true;
}

/* ---- values ------------------------------------------------------------------------------ */

struct template_var_slot {
	const char *name;      /* the variable's own name (tv->v[at].name) */
	size_t at;
	UT_hash_handle hh;
};

static struct template_var_slot *find_slot(const struct template_vars *tv, const char *name)
{
	struct template_var_slot *s;
	HASH_FIND_STR(tv->index, name, s);
	return s;
}

/* the variable named name, its old values freed, or a new one */
static struct template_var *template_var_slot(struct template_vars *tv, const char *name)
{
	struct template_var_slot *s = find_slot(tv, name);
	if (s) {
		struct template_var *v = &tv->v[s->at];
		for (size_t k = 0; k < v->n; k++)
			free(v->vals[k]);
		free(v->vals);
		return v;
	}
	XGROW(tv->v, tv->cap, tv->n + 1);
	struct template_var *v = &tv->v[tv->n];
	v->name = xstrdup(name);
	s = xcalloc(1, sizeof *s);
	s->name = v->name;
	s->at = tv->n++;
	HASH_ADD_KEYPTR(hh, tv->index, s->name, strlen(s->name), s);
	return v;
}

void template_vars_set(struct template_vars *tv, const char *name, const char *value)
{
	struct template_var *v = template_var_slot(tv, name);
	v->vals = xcalloc(1, sizeof *v->vals);
	v->vals[0] = xstrdup(value);
	v->n = 1;
	v->list = false;
}

void template_vars_setf(struct template_vars *tv, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *s = xvasprintf(fmt, ap);
	va_end(ap);
	template_vars_set(tv, name, s);
	free(s);
}

void template_vars_set_list(struct template_vars *tv, const char *name, char *const *vals, size_t n)
{
	struct template_var *v = template_var_slot(tv, name);
	v->vals = xcalloc(n ? n : 1, sizeof *v->vals);
	for (size_t i = 0; i < n; i++)
		v->vals[i] = xstrdup(vals[i]);
	v->n = n;
	v->list = true;
}

const struct template_var *template_vars_find(const struct template_vars *tv, const char *name)
{
	struct template_var_slot *s = find_slot(tv, name);
	return s ? &tv->v[s->at] : NULL;
}

void template_vars_free(struct template_vars *tv)
{
	struct template_var_slot *s, *tmp;
	HASH_ITER(hh, tv->index, s, tmp) {
		HASH_DEL(tv->index, s);
		free(s);
	}
	for (size_t i = 0; i < tv->n; i++) {
		free(tv->v[i].name);
		for (size_t k = 0; k < tv->v[i].n; k++)
			free(tv->v[i].vals[k]);
		free(tv->v[i].vals);
	}
	free(tv->v);
	memset(tv, 0, sizeof *tv);
}

/* ---- expansion --------------------------------------------------------------------------- */

struct expand_ctx {
	const struct template_vars *tv;
	struct buf out;
	char *why;
	size_t whylen;
	const char *word;
};

static bool expand_piece(bool is_name, const char *s, size_t len, void *arg)
{
	struct expand_ctx *c = arg;
	if (!is_name) {
		buf_put(&c->out, s, len);
		return true;
	}
	char name[128];
	snprintf(name, sizeof name, "%.*s", (int)len, s);
	const struct template_var *v = template_vars_find(c->tv, name);
	if (!v) {
		snprintf(c->why, c->whylen, "unknown placeholder {%s}", name);
		return false;
	}
	if (v->list) {
		snprintf(c->why, c->whylen, "{%s} stands for several words and must be a word of its own", name);
		return false;
	}
	buf_put(&c->out, v->vals[0], strlen(v->vals[0]));
	return true;
}

char *tmpl_expand_word(const char *word, const struct template_vars *tv, char *why, size_t whylen)
{
	struct expand_ctx c = {tv, {0}, why, whylen, word};
	buf_init(&c.out);
	if (!walk_word(word, expand_piece, &c, why, whylen)) {
		buf_free(&c.out);
		return NULL;
	}
	buf_put_u8(&c.out, 0);
	char *s = xstrdup((char *)c.out.data);
	buf_free(&c.out);
	return s;
}

bool tmpl_expand(const struct tmpl *t, const struct template_vars *tv, char ***argv, size_t *argc, char *why,
		 size_t whylen)
{
	char **w = xcalloc(1, sizeof *w);
	size_t n = 0, cap = 1;
	for (size_t i = 0; i < t->n; i++) {
		const char *word = t->words[i];
		size_t len = strlen(word);
		/* a whole-word list placeholder */
		if (len > 2 && word[0] == '{' && word[1] != '{' && word[len - 1] == '}') {
			char name[128];
			snprintf(name, sizeof name, "%.*s", (int)(len - 2), word + 1);
			const struct template_var *v = template_vars_find(tv, name);
			if (v && v->list) {
				for (size_t k = 0; k < v->n; k++) {
					XGROW(w, cap, n + 2);
					w[n++] = xstrdup(v->vals[k]);
				}
				w[n] = NULL;
				continue;
			}
		}
		char *e = tmpl_expand_word(word, tv, why, whylen);
		if (!e) {
			for (size_t k = 0; k < n; k++)
				free(w[k]);
			free(w);
			return false;
		}
		XGROW(w, cap, n + 2);
		w[n++] = e;
		w[n] = NULL;
	}
	*argv = w;
	*argc = n;
	return true;
}

char *tmpl_text(const struct tmpl *t)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < t->n; i++) {
		if (i)
			buf_put_u8(&b, ' ');
		buf_put(&b, t->words[i], strlen(t->words[i]));
	}
	buf_put_u8(&b, 0);
	char *s = xstrdup((char *)b.data);
	buf_free(&b);
	return s;
}

void strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}
