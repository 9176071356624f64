/*
 * log — one-line messages on stderr, prefixed with the program name, control characters escaped
 * (util/escape.h: a file's strings in a message cannot drive the terminal). See log.h.
 */
#include "util/log.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util/buf.h"
#include "util/escape.h"

static const char *program = "ladder";
static bool debug_on;
static bool quiet_on;

void log_set_program(const char *name) { program = name; }
const char *log_program(void) { return program; }
void log_set_debug(bool on) { debug_on = on; }
bool log_debug_enabled(void) { return debug_on; }
void log_set_quiet(bool on) { quiet_on = on; }

/* the message, whose arguments may hold a file's strings, through the terminal escape */
static void put_message(const char *fmt, va_list ap)
{
	struct buf text, safe;
	buf_init(&text);
	buf_init(&safe);
	buf_vprintf(&text, fmt, ap);
	term_escape_lines_put(&safe, text.data, text.len);
	fwrite(safe.data, 1, safe.len, stderr);
	buf_free(&text);
	buf_free(&safe);
}

static void emit(const char *level, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: %s", program, level);
	put_message(fmt, ap);
	size_t n = strlen(fmt);
	if (n == 0 || fmt[n - 1] != '\n')
		fputc('\n', stderr);
}

void log_verror(const char *fmt, va_list ap) { emit("", fmt, ap); }

void log_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("", fmt, ap);
	va_end(ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	if (quiet_on)
		return;
	va_list ap;
	va_start(ap, fmt);
	put_message(fmt, ap);
	size_t n = strlen(fmt);
	if (n == 0 || fmt[n - 1] != '\n')
		fputc('\n', stderr);
	va_end(ap);
}

void log_debug(const char *fmt, ...)
{
	if (!debug_on)
		return;
	va_list ap;
	va_start(ap, fmt);
	emit("debug: ", fmt, ap);
	va_end(ap);
}

static int progress_last_tenth = -1;
static bool progress_open;

void progress_update(const char *what, long done, long total)
{
	if (quiet_on)
		return;
	if (isatty(STDERR_FILENO)) {
		if (total > 0)
			fprintf(stderr, "\r%s: %ld/%ld (%ld%%)", what, done, total, done * 100 / total);
		else
			fprintf(stderr, "\r%s: %ld", what, done);
		progress_open = true;
		fflush(stderr);
		return;
	}
	int tenth = total > 0 ? (int)(done * 10 / total) : -1;
	if (tenth != progress_last_tenth) {
		progress_last_tenth = tenth;
		if (total > 0)
			fprintf(stderr, "%s: %ld/%ld (%ld%%)\n", what, done, total, done * 100 / total);
	}
}

void progress_end(void)
{
	if (progress_open)
		fputc('\n', stderr);
	progress_open = false;
	progress_last_tenth = -1;
}
