/*
 * commands — the rungs' command lines compared word by word. See commands.h.
 */
#include "extrap/commands.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xalloc.h"

/* the words of s (blank-separated), copies in *words; their number */
static size_t split_words(const char *s, char ***words)
{
	size_t n = 0, cap = 0;
	*words = NULL;
	while (s && *s) {
		while (*s && isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		const char *w = s;
		while (*s && !isspace((unsigned char)*s))
			s++;
		XGROW(*words, cap, n + 1);
		char *copy = xmalloc((size_t)(s - w) + 1);
		memcpy(copy, w, (size_t)(s - w));
		copy[s - w] = 0;
		(*words)[n++] = copy;
	}
	return n;
}

static void free_words(char **words, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

/* a word for a message: at most 40 characters, control characters as '?' */
static void shown(const char *w, char *out, size_t outlen)
{
	size_t i = 0;
	for (; w[i] && i < 40 && i + 1 < outlen; i++)
		out[i] = iscntrl((unsigned char)w[i]) ? '?' : w[i];
	out[i] = 0;
	if (w[i] && i + 4 < outlen)
		strcpy(out + i, "...");
}

static bool is_count(const char *w, uint32_t ranks)
{
	char n[16];
	snprintf(n, sizeof n, "%u", ranks);
	return !strcmp(w, n);
}

bool commands_at_target(const char *const *cmds, const uint32_t *ranks, size_t n, uint64_t target, char **out,
			char *why, size_t whylen)
{
	*out = NULL;
	if (!n)
		return false;
	char ***words = xcalloc(n, sizeof *words);
	size_t *nwords = xcalloc(n, sizeof *nwords);
	for (size_t i = 0; i < n; i++)
		nwords[i] = split_words(cmds[i] ? cmds[i] : "", &words[i]);
	bool same = true;
	bool *scaled = xcalloc(nwords[0] + 1, sizeof *scaled);   /* word k is each rung's rank count */
	for (size_t k = 0; k < nwords[0]; k++) {
		scaled[k] = true;
		for (size_t i = 0; i < n; i++)
			scaled[k] = scaled[k] && nwords[i] == nwords[0] && is_count(words[i][k], ranks[i]);
	}
	for (size_t i = 1; same && i < n; i++) {
		if (nwords[i] != nwords[0]) {
			snprintf(why, whylen, "p%u runs a command of %zu words where p%u runs one of %zu", ranks[0], nwords[0],
				 ranks[i], nwords[i]);
			same = false;
		}
		for (size_t k = 0; same && k < nwords[0]; k++)
			if (!scaled[k] && strcmp(words[i][k], words[0][k])) {
				char a[48], b[48], before[48] = "";
				shown(words[0][k], a, sizeof a);
				shown(words[i][k], b, sizeof b);
				if (k)
					shown(words[0][k - 1], before, sizeof before);
				snprintf(why, whylen, "p%u runs '%s%s%s' where p%u runs '%s%s%s'", ranks[0], before,
					 k ? " " : "", a, ranks[i], before, k ? " " : "", b);
				same = false;
			}
	}
	if (same) {
		struct buf b;
		buf_init(&b);
		for (size_t k = 0; k < nwords[0]; k++) {
			char num[24];
			const char *w = words[0][k];
			if (scaled[k] && n > 1) {
				snprintf(num, sizeof num, "%llu", (unsigned long long)target);
				w = num;
			}
			if (k)
				buf_put(&b, " ", 1);
			buf_put(&b, w, strlen(w));
		}
		buf_put(&b, "", 1);
		*out = xstrdup((const char *)b.data);
		buf_free(&b);
	}
	for (size_t i = 0; i < n; i++)
		free_words(words[i], nwords[i]);
	free(words);
	free(nwords);
	free(scaled);
	return same;
}

char *commands_list(const char *const *cmds, const uint32_t *ranks, size_t n)
{
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < n; i++) {
		char head[32];
		int len = snprintf(head, sizeof head, "%sp%u: ", i ? "; " : "", ranks[i]);
		buf_put(&b, head, (size_t)len);
		const char *c = cmds[i] ? cmds[i] : "";
		buf_put(&b, c, strlen(c));
	}
	buf_put(&b, "", 1);
	char *out = xstrdup((const char *)b.data);
	buf_free(&b);
	return out;
}
