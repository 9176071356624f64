/*
 * xalloc — allocation that never returns NULL: on exhaustion it reports and aborts.
 */
#ifndef LADDER_UTIL_XALLOC_H
#define LADDER_UTIL_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Grow *arr (of *cap elements of size elem) so that it holds at least need elements. */
void xgrow(void **arr, size_t *cap, size_t need, size_t elem);
#define XGROW(arr, cap, need) xgrow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

#endif
