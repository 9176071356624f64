/*
 * log — how ladder talks to people: one-line errors on stderr prefixed with the program name,
 * warnings, optional debug output, and progress lines for long work.
 *
 * Errors name the thing that is wrong (file, field) and what was expected; the caller decides the
 * exit status (see util/exitcode.h).
 */
#ifndef LADDER_UTIL_LOG_H
#define LADDER_UTIL_LOG_H

#include <stdarg.h>
#include <stdbool.h>

void log_set_program(const char *name);
const char *log_program(void);
void log_set_debug(bool on);
bool log_debug_enabled(void);
void log_set_quiet(bool on);

void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_verror(const char *fmt, va_list ap);

/* Progress on long work: "what: done/total" rewritten in place on a terminal, one line per
 * ~10% otherwise. progress_end() finishes the line. */
void progress_update(const char *what, long done, long total);
void progress_end(void);

#endif
