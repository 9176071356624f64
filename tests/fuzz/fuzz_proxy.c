/*
 * fuzz_proxy — libFuzzer target for the proxy generator: any container the reader accepts yields
 * either a refusal or a proxy.c that
 *   - holds no string of the container (its command line, call-site symbols and modules, recorded
 *     strings, labels, four bytes or longer and not a bare identifier) outside a comment or a
 *     string literal;
 *   - compiles with `mpicc -std=c11 -trigraphs -Wall -Wextra -Werror` into a program whose symbols
 *     are only ladder's: every defined symbol, digits dropped, is one of those the program of a
 *     real trace defines (FUZZ_PROXY_SYMBOLS, a file of names made by tests/fuzz/run), every
 *     undefined one an MPI or C library symbol of that program too.
 * A breach aborts, so libFuzzer keeps the input. Compiling is slow: inputs that generate are few.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "proxy/proxy.h"
#include "run/events.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/file.h"

/* where proxy.c's text is code (0), a comment (1) or a literal (2), byte by byte */
static char *classify(const char *t, size_t n)
{
	char *k = calloc(n + 1, 1);
	for (size_t i = 0; i < n;) {
		if (t[i] == '/' && i + 1 < n && t[i + 1] == '*') {
			const char *end = strstr(t + i + 2, "*/");
			size_t stop = end ? (size_t)(end - t) + 2 : n;
			memset(k + i, 1, stop - i);
			i = stop;
		} else if (t[i] == '"' || t[i] == '\'') {
			size_t j = i + 1;
			while (j < n && t[j] != t[i])
				j += t[j] == '\\' ? 2 : 1;
			size_t stop = j < n ? j + 1 : n;
			memset(k + i, 2, stop - i);
			i = stop;
		} else if (t[i] == '/' && i + 1 < n && t[i + 1] == '/') {
			while (i < n && t[i] != '\n')
				k[i++] = 1;
		} else
			i++;
	}
	return k;
}

/* abort when s (4 bytes or more, holding a byte that is not part of an identifier: what could
 * carry syntax; identifiers are held to ladder's by the symbol check) occurs in code */
static void only_inert(const char *t, const char *kind, const char *s)
{
	if (!s || strlen(s) < 4 || strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(s))
		return;
	for (const char *at = strstr(t, s); at; at = strstr(at + 1, s))
		for (size_t i = 0; i < strlen(s); i++)
			if (!kind[at - t + (ptrdiff_t)i]) {
				fprintf(stderr, "fuzz_proxy: the container's string '%s' reaches code\n", s);
				abort();
			}
}

static char *allowed;   /* the names of FUZZ_PROXY_SYMBOLS, "\nname\n...": digits dropped */

static void symbols_only_ladders(const char *dir)
{
	char *cmd = malloc(strlen(dir) * 2 + 512);
	sprintf(cmd, "nm -P '%s/proxy' | awk '{gsub(/[0-9]+/, \"\", $1); print $1}' | sort -u > '%s/names'", dir, dir);
	if (system(cmd) != 0)
		abort();
	sprintf(cmd, "%s/names", dir);
	FILE *f = fopen(cmd, "r");
	char line[512];
	while (f && fgets(line, sizeof line, f)) {
		char key[520];
		line[strcspn(line, "\n")] = 0;
		snprintf(key, sizeof key, "\n%s\n", line);
		if (allowed && !strstr(allowed, key)) {
			fprintf(stderr, "fuzz_proxy: the program defines or needs '%s', not one of ladder's\n", line);
			abort();
		}
	}
	if (f)
		fclose(f);
	free(cmd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!allowed && getenv("FUZZ_PROXY_SYMBOLS")) {
		char *names = read_file(getenv("FUZZ_PROXY_SYMBOLS"));
		if (names) {
			allowed = malloc(strlen(names) + 3);
			sprintf(allowed, "\n%s\n", names);
			free(names);
		}
	}
	const char *path = fuzz_file(data, size, ".h5");
	if (!path)
		return 0;
	event_set_max_calls(FUZZ_MAX_CALLS);
	struct run r;
	struct h5_err e;
	if (!store_read_run(path, &r, &e))
		return 0;
	char dir[4096], why[512];
	snprintf(dir, sizeof dir, "%s.proxy", path);
	struct proxy_options o = {.source = path};
	bool made = proxy_generate(&r, &o, dir, why, sizeof why);
	if (made) {
		char pc[4200];
		snprintf(pc, sizeof pc, "%s/proxy.c", dir);
		char *text = read_file(pc);
		if (!text)
			abort();
		char *kind = classify(text, strlen(text));
		only_inert(text, kind, r.command);
		for (uint32_t i = 0; i < r.ncallsites; i++)
			for (uint32_t k = 0; k < r.callsites[i].nframes; k++) {
				only_inert(text, kind, r.callsites[i].frames[k].symbol);
				only_inert(text, kind, r.callsites[i].frames[k].module);
			}
		for (uint32_t i = 0; i < r.nstrings; i++)
			only_inert(text, kind, r.strings[i]);
		for (uint32_t i = 0; i < r.nlabels; i++)
			only_inert(text, kind, r.labels[i].value);
		free(kind);
		free(text);
		char cmd[9000];
		snprintf(cmd, sizeof cmd, "cd '%s' && mpicc -std=c11 -trigraphs -O0 -Wall -Wextra -Werror -o proxy proxy.c "
			 "> build.log 2>&1", dir);
		if (system(cmd) != 0) {
			fprintf(stderr, "fuzz_proxy: the generated program does not compile (%s/build.log)\n", dir);
			abort();
		}
		symbols_only_ladders(dir);
	}
	run_free(&r);
	return 0;
}
