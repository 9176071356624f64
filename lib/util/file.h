/*
 * file — whole-file helpers: create a directory with its parents, read a file into a string,
 * replace a file atomically.
 *
 * On failure the functions that can fail return false with errno set and, when `why` is not
 * NULL, a one-line message naming the path and the reason in why[0..why_size).
 */
#ifndef LADDER_UTIL_FILE_H
#define LADDER_UTIL_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* mkdir -p path (mode 0755) */
bool make_dirs(const char *path, char *why, size_t why_size);

/* the whole file as a fresh NUL-terminated string, or NULL (errno set) */
char *read_file(const char *path);

/* Replace path by text: written to PATH.tmp.PID in the same directory with the given mode,
 * flushed to disk, then renamed over path, so a reader sees the old or the new file, never half. */
bool write_file_atomic(const char *path, const char *text, int mode, char *why, size_t why_size);

#endif
