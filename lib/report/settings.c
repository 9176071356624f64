/*
 * settings — values of the model settings string. See settings.h.
 */
#include "report/settings.h"

#include <string.h>

#include "util/xalloc.h"

char *settings_value(const char *settings, const char *key)
{
	size_t klen = strlen(key);
	for (const char *p = settings; p && *p;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len > klen && !strncmp(p, key, klen) && p[klen] == '=')
			return xasprintf("%.*s", (int)(len - klen - 1), p + klen + 1);
		p = end ? end + 1 : NULL;
	}
	return NULL;
}
