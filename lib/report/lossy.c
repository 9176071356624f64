/*
 * lossy — the kept share of a lossy extrapolation from its labels. See lossy.h.
 */
#include "report/lossy.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static const char *label(const struct run_label *labels, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (labels[i].key && !strcmp(labels[i].key, key))
			return labels[i].value;
	return NULL;
}

/* a decimal integer of digits only (no sign, no space), [begin, end) */
static bool parse_count(const char *begin, const char *end, uint64_t *v)
{
	if (begin == end || end - begin > 20)
		return false;
	uint64_t x = 0;
	for (const char *p = begin; p < end; p++) {
		if (!isdigit((unsigned char)*p))
			return false;
		unsigned d = (unsigned)(*p - '0');
		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	return true;
}

static bool parse_share(const char *s, double *v)
{
	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	if (*end || errno || !isfinite(x) || x < 0 || x > 1)
		return false;
	*v = x;
	return true;
}

/* one "NAME kept_calls expected_calls kept_bytes expected_bytes" entry, [begin, end) */
static bool parse_function(const char *begin, const char *end, struct lossy_function *f)
{
	const char *at[6];
	size_t k = 0;
	at[k++] = begin;
	for (const char *p = begin; p < end && k < 6; p++)
		if (*p == ' ')
			at[k++] = p + 1;
	if (k != 5)
		return false;
	size_t len = (size_t)(at[1] - 1 - at[0]);
	if (!len || len > 128)
		return false;
	for (const char *p = at[0]; p < at[1] - 1; p++)
		if ((unsigned char)*p < 0x21 || *p == 0x7f)
			return false;
	uint64_t v[4];
	for (size_t i = 0; i < 4; i++)
		if (!parse_count(at[i + 1], i == 3 ? end : at[i + 2] - 1, &v[i]))
			return false;
	if (v[0] > v[1] || v[2] > v[3])
		return false;
	f->name = xasprintf("%.*s", (int)len, at[0]);
	f->kept_calls = v[0];
	f->expected_calls = v[1];
	f->kept_bytes = v[2];
	f->expected_bytes = v[3];
	return true;
}

static bool parse_functions(const char *s, struct lossy *l)
{
	if (!*s)
		return true;
	for (const char *p = s;;) {
		const char *end = strchr(p, ';');
		if (!end)
			end = p + strlen(p);
		if (l->nfns == LOSSY_MAX_FUNCTIONS)
			return false;
		l->fns = xrealloc(l->fns, (l->nfns + 1) * sizeof *l->fns);
		if (!parse_function(p, end, &l->fns[l->nfns]))
			return false;
		l->nfns++;
		if (!*end)
			return true;
		p = end + 1;
	}
}

static void set_problem(struct lossy *l, const char *key)
{
	if (!l->problem)
		l->problem = xasprintf("label '%s' is missing or malformed", key);
}

void lossy_from_labels(const struct run_label *labels, size_t n, struct lossy *l)
{
	memset(l, 0, sizeof *l);
	for (size_t i = 0; i < n && !l->lossy; i++)
		l->lossy = labels[i].key && !strncmp(labels[i].key, "lossy_", 6);
	if (!l->lossy)
		return;
	const char *ec = label(labels, n, "lossy_expected_calls"), *eb = label(labels, n, "lossy_expected_bytes");
	const char *kc = label(labels, n, "lossy_kept_calls_share"), *kb = label(labels, n, "lossy_kept_bytes_share");
	const char *fn = label(labels, n, "lossy_kept_by_function");
	if (!ec || !parse_count(ec, ec + strlen(ec), &l->expected_calls))
		set_problem(l, "lossy_expected_calls");
	if (!eb || !parse_count(eb, eb + strlen(eb), &l->expected_bytes))
		set_problem(l, "lossy_expected_bytes");
	if (!parse_share(kc, &l->kept_calls_share))
		set_problem(l, "lossy_kept_calls_share");
	if (!parse_share(kb, &l->kept_bytes_share))
		set_problem(l, "lossy_kept_bytes_share");
	if (!fn || !parse_functions(fn, l))
		set_problem(l, "lossy_kept_by_function");
	l->has_share = !l->problem;
	if (!l->has_share) {
		for (size_t i = 0; i < l->nfns; i++)
			free(l->fns[i].name);
		free(l->fns);
		l->fns = NULL;
		l->nfns = 0;
	}
}

void lossy_free(struct lossy *l)
{
	for (size_t i = 0; i < l->nfns; i++)
		free(l->fns[i].name);
	free(l->fns);
	free(l->problem);
	memset(l, 0, sizeof *l);
}
