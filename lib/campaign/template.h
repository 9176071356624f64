/*
 * template — command templates with {placeholders}. A template is a list of words (an argument
 * vector, never shell text): written in YAML as a list, or as one string split at white space
 * where '...' and "..." group words and a backslash escapes the next character. Each word may
 * hold placeholders {name} (letters, digits, '_' and '.', as in {dims.x}; not starting with a
 * digit or '.'); {{ and }} stand for literal braces. Expansion replaces placeholders
 * by values and never re-splits a word, so a value can never become two arguments or shell
 * syntax: the script writer quotes every expanded word (campaign/shquote.h).
 *
 * A placeholder that stands alone as a whole word may expand to a list of words ({runs}).
 */
#ifndef LADDER_CAMPAIGN_TEMPLATE_H
#define LADDER_CAMPAIGN_TEMPLATE_H

#include <stdbool.h>
#include <stddef.h>

struct tmpl {
	char **words;  /* NULL-terminated */
	size_t n;
};

/* Split text into words. On failure (unbalanced quote, trailing backslash) writes why. */
bool tmpl_parse(const char *text, struct tmpl *t, char *why, size_t whylen);
/* A template from words given one by one (copied). */
void tmpl_from_words(char *const *words, size_t n, struct tmpl *t);
void tmpl_copy(struct tmpl *dst, const struct tmpl *src);
void tmpl_free(struct tmpl *t);
bool tmpl_empty(const struct tmpl *t);

/* Check placeholder syntax, and that every name is accepted by known(name, arg). */
bool tmpl_check(const struct tmpl *t, bool (*known)(const char *name, void *arg), void *arg,
		char *why, size_t whylen);

/* Placeholder values: each name has one value, or a list for whole-word placeholders. */
struct template_var {
	char *name;
	char **vals;
	size_t n;
	bool list;
};
struct template_var_slot;
struct template_vars {
	struct template_var *v;
	size_t n, cap;
	struct template_var_slot *index;   /* name -> position in v (a hash: setting and finding
					      are O(1), so N names cost O(N), not O(N^2)) */
};

void template_vars_set(struct template_vars *tv, const char *name, const char *value);
void template_vars_setf(struct template_vars *tv, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void template_vars_set_list(struct template_vars *tv, const char *name, char *const *vals, size_t n);
const struct template_var *template_vars_find(const struct template_vars *tv, const char *name);
void template_vars_free(struct template_vars *tv);

/* Expand t into a fresh NULL-terminated argument vector. Fails (why) on an unknown name or a
 * list placeholder inside a longer word. */
bool tmpl_expand(const struct tmpl *t, const struct template_vars *tv, char ***argv, size_t *argc,
		 char *why, size_t whylen);
/* Expand one word (no lists). Returns a fresh string or NULL (why). */
char *tmpl_expand_word(const char *word, const struct template_vars *tv, char *why, size_t whylen);

/* free a NULL-terminated string array (argument vectors) */
void strv_free(char **v);

/* The template as text, words separated by single spaces (for messages and notes). */
char *tmpl_text(const struct tmpl *t);

#endif
