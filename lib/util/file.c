/*
 * file — make_dirs, read_file, write_file_atomic and the output-path checks. See file.h.
 */
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

/* fill why (if given) and return false; errno is kept for the caller */
static bool fail(char *why, size_t why_size, const char *fmt, ...)
{
	int saved = errno;
	if (why && why_size) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, why_size, fmt, ap);
		va_end(ap);
	}
	errno = saved;
	return false;
}

bool make_dirs(const char *path, char *why, size_t why_size)
{
	char *p = xstrdup(path);
	for (char *s = p + 1;; s++) {
		if (*s == '/' || !*s) {
			char c = *s;
			*s = 0;
			if (mkdir(p, 0755) && errno != EEXIST) {
				fail(why, why_size, "cannot create directory %s: %s", p, strerror(errno));
				free(p);
				return false;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return true;
}

/* write all of text to fd, retrying after interruptions */
static bool write_all(int fd, const char *text, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t k = write(fd, text + off, len - off);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return false;
		off += (size_t)k;
	}
	return true;
}

enum output_kind output_kind(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return OUTPUT_ABSENT;
	if (S_ISREG(st.st_mode))
		return OUTPUT_REGULAR;
	if (S_ISDIR(st.st_mode))
		return OUTPUT_DIRECTORY;
	return OUTPUT_SPECIAL;
}

static const char *kind_name(const char *path)
{
	struct stat st;
	if (stat(path, &st))
		return "missing";
	if (S_ISCHR(st.st_mode))
		return "a character device";
	if (S_ISBLK(st.st_mode))
		return "a block device";
	if (S_ISFIFO(st.st_mode))
		return "a FIFO";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	if (S_ISDIR(st.st_mode))
		return "a directory";
	return "not a regular file";
}

bool output_replaceable(const char *path, char *why, size_t why_size)
{
	enum output_kind k = output_kind(path);
	if (k == OUTPUT_ABSENT || k == OUTPUT_REGULAR)
		return true;
	errno = k == OUTPUT_DIRECTORY ? EISDIR : EINVAL;
	return fail(why, why_size, "%s: is %s, not a regular file; the output must be a regular file", path,
		    kind_name(path));
}

bool output_commit(const char *tmp, const char *path, char *why, size_t why_size)
{
	if (!output_replaceable(path, why, why_size)) {
		unlink(tmp);
		return false;
	}
	if (rename(tmp, path)) {
		fail(why, why_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		unlink(tmp);
		return false;
	}
	return true;
}

bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool output_not_input(const char *output, char *const *inputs, int ninputs, char *why, size_t why_size)
{
	for (int i = 0; i < ninputs; i++)
		if (same_file(output, inputs[i])) {
			errno = EINVAL;
			return fail(why, why_size, "%s: is also an input (%s); write the output to another file", output,
				    inputs[i]);
		}
	return true;
}

bool write_file_atomic(const char *path, const char *text, int mode, char *why, size_t why_size)
{
	if (!output_replaceable(path, why, why_size))
		return false;
	/* a fresh name made with O_CREAT|O_EXCL: a file, link or FIFO planted there makes it pick another */
	char *tmp = xasprintf("%s.tmp.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC);
	bool ok = false;
	if (fd < 0) {
		fail(why, why_size, "cannot write %s: %s", tmp, strerror(errno));
		goto out;
	}
	if (!write_all(fd, text, strlen(text))) {
		fail(why, why_size, "cannot write %s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		goto out;
	}
	fchmod(fd, (mode_t)mode);
	if (fsync(fd) || close(fd)) {
		fail(why, why_size, "cannot write %s: %s", tmp, strerror(errno));
		unlink(tmp);
		goto out;
	}
	ok = output_commit(tmp, path, why, why_size);
out:
	free(tmp);
	return ok;
}

bool duplicate_file(const char *from, const char *to, char *why, size_t why_size)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return fail(why, why_size, "cannot read %s: %s", from, strerror(errno));
	int out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		fail(why, why_size, "cannot write %s: %s", to, strerror(errno));
		close(in);
		return false;
	}
	char block[1 << 16];
	ssize_t k;
	bool ok = true;
	while (ok && (k = read(in, block, sizeof block)) != 0) {
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			ok = fail(why, why_size, "cannot read %s: %s", from, strerror(errno));
		else if (!write_all(out, block, (size_t)k))
			ok = fail(why, why_size, "cannot write %s: %s", to, strerror(errno ? errno : EIO));
	}
	if (ok && (fsync(out) || close(out)))
		ok = fail(why, why_size, "cannot write %s: %s", to, strerror(errno));
	else if (!ok)
		close(out);
	close(in);
	if (!ok)
		unlink(to);
	return ok;
}

bool sync_file(const char *path, char *why, size_t why_size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fsync(fd)) {
		fail(why, why_size, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return false;
	}
	close(fd);
	return true;
}

char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *s = xmalloc(cap);
	size_t k;
	while ((k = fread(s + len, 1, cap - len - 1, f)) > 0) {
		len += k;
		if (cap - len < 2)
			s = xrealloc(s, cap *= 2);
	}
	fclose(f);
	s[len] = 0;
	return s;
}

ssize_t file_read_line(FILE *f, char **line, size_t *cap, size_t max)
{
	size_t len = 0;
	int c;
	while ((c = getc(f)) != EOF) {
		if (c == 0 || len >= max)
			return FILE_LINE_TOO_LONG;
		if (len + 2 > *cap) {
			*cap = *cap ? 2 * *cap : 256;
			*line = xrealloc(*line, *cap);
		}
		(*line)[len++] = (char)c;
		if (c == '\n')
			break;
	}
	if (!len)
		return -1;
	(*line)[len] = 0;
	return (ssize_t)len;
}

/* Files that compress or deduplicate store somewhat less than their size; one that stores less
 * than a thousandth of it is made of holes (truncate -s 1T) */
#define MAX_HOLES 1000
#define SMALL_FILE (1 << 20)

bool file_map_open(const char *path, struct file_map *m, char *why, size_t why_size)
{
	memset(m, 0, sizeof *m);
	int fd = open(path, O_RDONLY | O_NONBLOCK);   /* a FIFO without a writer does not block */
	struct stat st;
	if (fd < 0 || fstat(fd, &st)) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return fail(why, why_size, "%s: %s", path, strerror(e));
	}
	bool ok = false;
	if (!S_ISREG(st.st_mode))
		fail(why, why_size, "%s: is %s, not a regular file", path, kind_name(path));
	else if (st.st_size > SMALL_FILE && (uint64_t)st.st_size / MAX_HOLES > (uint64_t)st.st_blocks * 512)
		fail(why, why_size, "%s: is a sparse file: it stores %llu bytes of its %llu", path,
		     (unsigned long long)st.st_blocks * 512, (unsigned long long)st.st_size);
	else
		ok = true;
	void *p = ok && st.st_size ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (p == MAP_FAILED) {
		fail(why, why_size, "%s: cannot be mapped (%s)", path, strerror(errno));
		ok = false;
	} else if (ok) {
		*m = (struct file_map){p, (size_t)st.st_size};
	}
	close(fd);
	if (!ok)
		errno = EINVAL;
	return ok;
}

void file_map_close(struct file_map *m)
{
	if (m->data)
		munmap((void *)m->data, m->len);
	memset(m, 0, sizeof *m);
}
