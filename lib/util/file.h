/*
 * file — whole-file helpers: create a directory with its parents, read a file into a string,
 * replace a file atomically, and the checks every writer makes on its output path; and reading
 * what users give in bounded memory: a line at a time with a length limit, or a regular file mapped
 * (a FIFO or device, which can be endless, is refused).
 *
 * An output path is replaced by renaming a finished temporary file over it only when it is a
 * regular file or absent. A device node, FIFO or socket is refused: never renamed over, never
 * written through (a FIFO would block the writer or hand the text to whoever reads it).
 *
 * On failure the functions that can fail return false with errno set and, when `why` is not
 * NULL, a one-line message naming the path and the reason in why[0..why_size).
 */
#ifndef LADDER_UTIL_FILE_H
#define LADDER_UTIL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* mkdir -p path (mode 0755) */
bool make_dirs(const char *path, char *why, size_t why_size);

/* the whole file as a fresh NUL-terminated string, or NULL (errno set) */
char *read_file(const char *path);

/* Replace path by text: written to a new file of a unique name (PATH.tmp.XXXXXX, created with
 * O_EXCL, so nothing planted there is followed or written through) in the same directory with the
 * given mode, flushed to disk, then renamed over path, so a reader sees the old or the new file,
 * never half; a symbolic link at path is replaced, not followed. A path that is a device node, FIFO,
 * socket or directory is refused (never written through, never renamed over). */
bool write_file_atomic(const char *path, const char *text, int mode, char *why, size_t why_size);

/* Copy the regular file from to a new file to (mode 0644, replaced if there), flushed to disk. */
bool duplicate_file(const char *from, const char *to, char *why, size_t why_size);

/* flush a written file to disk: false (why filled) when the disk refuses it, e.g. when full */
bool sync_file(const char *path, char *why, size_t why_size);

/* what an output path names now (symbolic links followed) */
enum output_kind {
	OUTPUT_ABSENT,    /* nothing there yet */
	OUTPUT_REGULAR,   /* a regular file: may be replaced */
	OUTPUT_SPECIAL,   /* a device node, FIFO or socket: refused */
	OUTPUT_DIRECTORY, /* a directory: refused */
};
enum output_kind output_kind(const char *path);

/* true when path may be replaced by renaming a temporary file over it: absent or a regular file.
 * Otherwise false with "PATH: is a character device, not a regular file; ..." in why. */
bool output_replaceable(const char *path, char *why, size_t why_size);

/* Rename the finished temporary file tmp over path, after checking again that path is
 * replaceable; tmp is removed when that fails. */
bool output_commit(const char *tmp, const char *path, char *why, size_t why_size);

/* true when both paths name the same existing file (same device and inode, whatever the names) */
bool same_file(const char *a, const char *b);

/* Refuse writing output over one of the inputs: false with "OUTPUT: is also an input (INPUT);
 * ..." in why when output names the same file as inputs[i]. */
bool output_not_input(const char *output, char *const *inputs, int ninputs, char *why, size_t why_size);

/* The next line of f into *line (grown as needed, NUL-terminated, the newline kept): its length,
 * -1 at the end of the file, or FILE_LINE_TOO_LONG for a line of more than max bytes or holding
 * a NUL byte (stops reading there: an endless line costs max bytes, not all memory). */
#define FILE_LINE_TOO_LONG (-2)
ssize_t file_read_line(FILE *f, char **line, size_t *cap, size_t max);

/* A regular file mapped read-only, so that memory follows what is read of it, not its size. */
struct file_map {
	const uint8_t *data;
	size_t len;
};
/* false, with "PATH: is a FIFO, not a regular file" or the like in why, for anything but a regular
 * file, and for a file that stores far less than its size (a sparse file of holes) */
bool file_map_open(const char *path, struct file_map *m, char *why, size_t why_size);
void file_map_close(struct file_map *m);

#endif
