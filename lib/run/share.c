/*
 * share — count and displacement arrays by rule. See share.h.
 */
#include "run/share.h"

#include <stdio.h>
#include <string.h>

#include "mpi/signature.h"
#include "util/xalloc.h"

const char *const share_rule_names[SHARE_RULES] = {"to", "from", "even", "to-displs", "from-displs", "even-displs"};

int64_t share_count(int64_t total, int64_t n, int64_t from, int64_t to)
{
	int64_t turn = ((to - from) % n + n) % n;
	return total / n + (turn < total % n ? 1 : 0);
}

enum share_rule share_counts_rule(enum share_rule rule)
{
	return share_rule_is_displs(rule) ? (enum share_rule)(rule - SHARE_TO_DISPLS) : rule;
}

bool share_rule_is_displs(enum share_rule rule) { return rule >= SHARE_TO_DISPLS; }

static int64_t counts_element(int64_t n, int64_t total, enum share_rule rule, uint32_t me, int64_t k)
{
	switch (rule) {
	case SHARE_TO: return share_count(total, n, me, k);
	case SHARE_FROM: return share_count(total, n, k, me);
	default: return share_count(total, n, 0, k);
	}
}

int64_t share_element(int64_t n, int64_t total, enum share_rule rule, uint32_t me, int64_t k)
{
	if (!share_rule_is_displs(rule))
		return counts_element(n, total, rule, me, k);
	int64_t sum = 0;
	for (int64_t m = 0; m < k; m++)
		sum += counts_element(n, total, share_counts_rule(rule), me, m);
	return sum;
}

void share_fill(int64_t n, int64_t total, enum share_rule rule, uint32_t me, int64_t *out)
{
	enum share_rule counts = share_counts_rule(rule);
	int64_t sum = 0;
	for (int64_t k = 0; k < n; k++) {
		int64_t c = counts_element(n, total, counts, me, k);
		out[k] = share_rule_is_displs(rule) ? sum : c;
		sum += c;
	}
}

bool share_group_check(const int64_t *g, char *why, size_t whylen)
{
	if (g[0] != SV_SHARED)
		snprintf(why, whylen, "not a shared array");
	else if (g[1] < 1 || g[1] > INT32_MAX)
		snprintf(why, whylen, "a shared array of %lld elements (expected 1 to 2^31-1)", (long long)g[1]);
	else if (g[2] < 0 || g[2] > INT32_MAX)
		snprintf(why, whylen, "a shared array's total is %lld (expected 0 to 2^31-1)", (long long)g[2]);
	else if (g[3] < 0 || g[3] >= SHARE_RULES)
		snprintf(why, whylen, "a shared array's rule is %lld (expected 0 to %d)", (long long)g[3], SHARE_RULES - 1);
	else
		return true;
	return false;
}

static int64_t *room(int64_t **out, size_t *cap, size_t need)
{
	if (need > *cap) {
		*cap = need > 2 * *cap ? need : 2 * *cap;
		*out = xrealloc(*out, *cap * sizeof **out);
	}
	return *out;
}

uint32_t share_expand(const struct fn_desc *d, const int64_t *v, uint32_t nvals, uint32_t me, int64_t **out,
		      size_t *cap)
{
	uint32_t n = 0;
	PARAM_FOR (w, d, v, nvals) {
		const int64_t *g = w.v;
		if (w.width == 4 && g[0] == SV_SHARED) {
			room(out, cap, (size_t)n + 1 + (size_t)g[1]);
			(*out)[n] = g[1];
			share_fill(g[1], g[2], (enum share_rule)g[3], me, *out + n + 1);
			n += 1 + (uint32_t)g[1];
		} else {
			memcpy(room(out, cap, (size_t)n + w.width + 1) + n, g, w.width * sizeof *g);
			n += w.width;
		}
	}
	return n;
}
