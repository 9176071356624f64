/*
 * lcs — weighted LCS of grammars, and pruning to what they share. See lcs.h.
 */
#include "extrap/lcs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define UNKNOWN UINT64_MAX

static uint64_t sat_mul(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / 4 / b ? UINT64_MAX / 4 : a * b; }

/* two grammars being aligned: a (the reference's shape) and b, and the weight of every rule pair */
struct pairing {
	const struct grammar *a, *b;
	const struct run *ra, *rb;
	uint64_t *weight;   /* a->nrules x b->nrules, UNKNOWN until computed */
};

static bool same_call(const struct pairing *p, int64_t x, int64_t y)
{
	const struct run_signature *s = &p->ra->sigs[x], *t = &p->rb->sigs[y];
	return !strcmp(p->ra->fns[s->fn].name, p->rb->fns[t->fn].name) && s->callsite == t->callsite &&
	       s->flags == t->flags;
}

static uint64_t rule_weight(struct pairing *p, uint32_t x, uint32_t y);

/* calls two symbols have in common: a call's repetitions, or a rule pair's weight times theirs */
static uint64_t symbol_weight(struct pairing *p, struct gsymbol s, struct gsymbol t)
{
	uint64_t reps = s.exp < t.exp ? s.exp : t.exp;
	if (gsym_is_rule(s) != gsym_is_rule(t))
		return 0;
	if (!gsym_is_rule(s))
		return same_call(p, s.val, t.val) ? reps : 0;
	return sat_mul(rule_weight(p, gsym_rule(s), gsym_rule(t)), reps);
}

/* the LCS table of two rule bodies: dp[(i+1)*(m+1)+(j+1)] over prefixes */
static uint64_t *lcs_table(struct pairing *p, uint32_t x, uint32_t y, uint64_t *n_out, uint64_t *m_out)
{
	uint64_t n = grammar_rule_len(p->a, x), m = grammar_rule_len(p->b, y);
	const struct gsymbol *sa = grammar_rule_syms(p->a, x), *sb = grammar_rule_syms(p->b, y);
	uint64_t *dp = xcalloc((n + 1) * (m + 1), sizeof *dp);
	for (uint64_t i = 1; i <= n; i++)
		for (uint64_t j = 1; j <= m; j++) {
			uint64_t w = symbol_weight(p, sa[i - 1], sb[j - 1]), up = dp[(i - 1) * (m + 1) + j],
				 left = dp[i * (m + 1) + j - 1], best = up > left ? up : left;
			if (w && dp[(i - 1) * (m + 1) + j - 1] + w > best)
				best = dp[(i - 1) * (m + 1) + j - 1] + w;
			dp[i * (m + 1) + j] = best;
		}
	*n_out = n, *m_out = m;
	return dp;
}

static uint64_t rule_weight(struct pairing *p, uint32_t x, uint32_t y)
{
	uint64_t *w = &p->weight[(uint64_t)x * p->b->nrules + y];
	if (*w == UNKNOWN) {
		uint64_t n, m, *dp = lcs_table(p, x, y, &n, &m);
		*w = dp[n * (m + 1) + m];
		free(dp);
	}
	return *w;
}

/* a rule of the pruned grammars: which rules of a and b it keeps, and at which positions */
struct kept_rule {
	uint32_t x, y, n;
	uint64_t *pa, *pb;     /* positions kept in x's and y's bodies */
	int64_t *child;        /* per kept symbol: the kept rule it refers to, -1 for a call */
};

struct plan {
	struct kept_rule *rules;
	uint32_t n, cap;
};

static uint32_t plan_rule(struct plan *pl, uint32_t x, uint32_t y)
{
	for (uint32_t i = 0; i < pl->n; i++)
		if (pl->rules[i].x == x && pl->rules[i].y == y)
			return i;
	if (pl->n == pl->cap) {
		pl->cap = pl->cap ? 2 * pl->cap : 8;
		pl->rules = xrealloc(pl->rules, pl->cap * sizeof *pl->rules);
	}
	pl->rules[pl->n] = (struct kept_rule){x, y, 0, NULL, NULL, NULL};
	return pl->n++;
}

/* the matched positions of rule pair r, by tracing its LCS table back */
static void trace_back(struct pairing *p, struct plan *pl, uint32_t r)
{
	uint32_t x = pl->rules[r].x, y = pl->rules[r].y;
	uint64_t n, m, *dp = lcs_table(p, x, y, &n, &m), i = n, j = m, k;
	const struct gsymbol *sa = grammar_rule_syms(p->a, x), *sb = grammar_rule_syms(p->b, y);
	uint64_t cap = n < m ? n : m;
	uint64_t *pa = xmalloc((cap + 1) * sizeof *pa), *pb = xmalloc((cap + 1) * sizeof *pb);
	for (k = 0; i && j;) {
		uint64_t w = symbol_weight(p, sa[i - 1], sb[j - 1]);
		if (w && dp[i * (m + 1) + j] == dp[(i - 1) * (m + 1) + j - 1] + w)
			pa[k] = --i, pb[k++] = --j;
		else if (dp[(i - 1) * (m + 1) + j] >= dp[i * (m + 1) + j - 1])
			i--;
		else
			j--;
	}
	free(dp);
	int64_t *child = xmalloc((k + 1) * sizeof *child);
	for (uint64_t q = 0; q < k / 2; q++) {   /* found from the end: reverse */
		uint64_t t = pa[q]; pa[q] = pa[k - 1 - q], pa[k - 1 - q] = t;
		t = pb[q]; pb[q] = pb[k - 1 - q], pb[k - 1 - q] = t;
	}
	for (uint64_t q = 0; q < k; q++)
		child[q] = gsym_is_rule(sa[pa[q]]) ? (int64_t)plan_rule(pl, gsym_rule(sa[pa[q]]), gsym_rule(sb[pb[q]])) : -1;
	struct kept_rule *kr = &pl->rules[r];   /* plan_rule may have moved the array */
	kr->n = (uint32_t)k, kr->pa = pa, kr->pb = pb, kr->child = child;
}

static void plan_free(struct plan *pl)
{
	for (uint32_t i = 0; i < pl->n; i++) {
		free(pl->rules[i].pa);
		free(pl->rules[i].pb);
		free(pl->rules[i].child);
	}
	free(pl->rules);
}

/* a grammar of side `side`'s shape (0: a's, 1: b's) pruned by the plan */
static void apply(const struct plan *pl, const struct grammar *g, int side, struct grammar *out)
{
	grammar_init(out);
	for (uint32_t r = 0; r < pl->n; r++) {
		const struct kept_rule *kr = &pl->rules[r];
		const struct gsymbol *body = grammar_rule_syms(g, side ? kr->y : kr->x);
		grammar_begin_rule(out);
		for (uint32_t k = 0; k < kr->n; k++) {
			struct gsymbol s = body[side ? kr->pb[k] : kr->pa[k]];
			grammar_add_symbol(out, kr->child[k] >= 0 ? gsym_rule_val((uint32_t)kr->child[k]) : s.val, s.exp);
		}
	}
	grammar_end(out);
}

/* align b with a; false when their start rules share nothing */
static bool align_pair(const struct grammar *a, const struct run *ra, const struct grammar *b, const struct run *rb,
		       struct plan *pl)
{
	struct pairing p = {a, b, ra, rb, xmalloc(((size_t)a->nrules * b->nrules + 1) * sizeof(uint64_t))};
	for (size_t i = 0; i < (size_t)a->nrules * b->nrules; i++)
		p.weight[i] = UNKNOWN;
	memset(pl, 0, sizeof *pl);
	bool shared = a->nrules && b->nrules && rule_weight(&p, 0, 0) > 0;
	if (shared) {
		plan_rule(pl, 0, 0);
		for (uint32_t r = 0; r < pl->n; r++)   /* breadth first: trace_back adds the kept rule pairs */
			trace_back(&p, pl, r);
	}
	free(p.weight);
	return shared;
}

bool lcs_common(const struct lcs_input *in, size_t n, size_t ref, struct grammar *out, char *why, size_t whylen)
{
	bool *done = xcalloc(n + 1, sizeof *done), ok = true;
	struct grammar *flat = xcalloc(n + 1, sizeof *flat);
	for (size_t i = 0; i < n; i++)
		grammar_inline_once(in[i].g, LCS_INLINE_MAX, &flat[i]);
	grammar_copy(&out[ref], &flat[ref]);
	done[ref] = true;
	for (size_t i = 0; ok && i < n; i++) {
		if (done[i])
			continue;
		struct plan pl;
		ok = align_pair(&out[ref], in[ref].run, &flat[i], in[i].run, &pl);
		if (!ok)
			snprintf(why, whylen, "p%u and p%u have no call in common", in[ref].run->nranks, in[i].run->nranks);
		for (size_t j = 0; ok && j < n; j++) {
			if (!done[j])
				continue;
			struct grammar pruned;
			apply(&pl, &out[j], 0, &pruned);
			grammar_free(&out[j]);
			out[j] = pruned;
		}
		if (ok)
			apply(&pl, &flat[i], 1, &out[i]);
		done[i] = ok;
		plan_free(&pl);
	}
	for (size_t i = 0; !ok && i < n; i++)
		if (done[i])
			grammar_free(&out[i]);
	for (size_t i = 0; i < n; i++)
		grammar_free(&flat[i]);
	free(flat);
	free(done);
	return ok;
}
