/*
 * fuzz_file — the input as a file, for readers that take a path. See fuzz.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix)
{
	static char path[4096];
	const char *dir = getenv("TMPDIR");
	snprintf(path, sizeof path, "%s/ladder-fuzz-%d%s", dir && *dir ? dir : "/tmp", (int)getpid(), suffix);
	FILE *f = fopen(path, "wb");
	if (!f)
		return NULL;
	size_t n = fwrite(data, 1, size, f);
	return fclose(f) == 0 && n == size ? path : NULL;
}
