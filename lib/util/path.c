/*
 * path — absolute forms of paths. See path.h.
 */
#define _DEFAULT_SOURCE
#include "util/path.h"

#include "util/xalloc.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *path_absolute(const char *path)
{
	char *r = realpath(path, NULL);
	if (r)
		return r;
	if (path[0] == '/')
		return xstrdup(path);
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

char *path_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xasprintf("%.*s", (int)(slash - path), path);
}
