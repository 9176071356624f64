/*
 * file — make_dirs, read_file, write_file_atomic. See file.h.
 */
#include "util/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

bool write_file_atomic(const char *path, const char *text, int mode, char *why, size_t why_size)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
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
	if (rename(tmp, path)) {
		fail(why, why_size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	ok = true;
out:
	free(tmp);
	return ok;
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
