/*
 * grammar — the finished grammar: building, checking, serializing and walking. See grammar.h.
 */
#include "grammar/grammar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/xalloc.h"

void grammar_init(struct grammar *g) { memset(g, 0, sizeof *g); }

void grammar_free(struct grammar *g)
{
	free(g->rule_start);
	free(g->syms);
	grammar_init(g);
}

void grammar_copy(struct grammar *dst, const struct grammar *src)
{
	dst->nrules = src->nrules;
	dst->nsyms = src->nsyms;
	dst->rule_start = xmalloc((src->nrules + 1) * sizeof *dst->rule_start);
	memcpy(dst->rule_start, src->rule_start, (src->nrules + 1) * sizeof *dst->rule_start);
	uint64_t cap = 1;   /* grammar_add_symbol grows at powers of two */
	while (cap < src->nsyms)
		cap *= 2;
	dst->syms = xmalloc(cap * sizeof *dst->syms);
	if (src->nsyms)
		memcpy(dst->syms, src->syms, src->nsyms * sizeof *dst->syms);
}

bool grammar_equal(const struct grammar *a, const struct grammar *b)
{
	if (a->nrules != b->nrules || a->nsyms != b->nsyms)
		return false;
	if (memcmp(a->rule_start, b->rule_start, (a->nrules + 1) * sizeof *a->rule_start))
		return false;
	for (uint64_t i = 0; i < a->nsyms; i++)
		if (a->syms[i].val != b->syms[i].val || a->syms[i].exp != b->syms[i].exp)
			return false;
	return true;
}

uint64_t grammar_hash(const struct grammar *g)
{
	uint64_t h = hash_mix64(g->nrules);
	for (uint32_t r = 0; r <= g->nrules; r++)
		h = hash_combine(h, g->rule_start[r]);
	for (uint64_t i = 0; i < g->nsyms; i++) {
		h = hash_combine(h, (uint64_t)g->syms[i].val);
		h = hash_combine(h, g->syms[i].exp);
	}
	return h;
}

/* While building, rule_start holds nrules+1 entries with the last one "open"; capacity is
 * tracked implicitly by powers of two through xrealloc in small steps. */
void grammar_begin_rule(struct grammar *g)
{
	g->rule_start = xrealloc(g->rule_start, (g->nrules + 2) * sizeof *g->rule_start);
	g->rule_start[g->nrules] = g->nsyms;
	g->nrules++;
	g->rule_start[g->nrules] = g->nsyms;
}

void grammar_add_symbol(struct grammar *g, int64_t val, uint64_t exp)
{
	/* grow syms geometrically: capacity is the next power of two >= nsyms */
	uint64_t n = g->nsyms;
	if ((n & (n - 1)) == 0)
		g->syms = xrealloc(g->syms, (n ? 2 * n : 1) * sizeof *g->syms);
	g->syms[n].val = val;
	g->syms[n].exp = exp;
	g->nsyms = n + 1;
	g->rule_start[g->nrules] = g->nsyms;
}

void grammar_end(struct grammar *g)
{
	if (!g->rule_start) {
		g->rule_start = xcalloc(1, sizeof *g->rule_start);
		return;
	}
	g->rule_start[g->nrules] = g->nsyms;
}

bool grammar_check(const struct grammar *g, uint64_t nterminals, char *why, size_t whylen)
{
	if (g->nrules == 0) {
		snprintf(why, whylen, "grammar has no start rule");
		return false;
	}
	for (uint32_t r = 0; r < g->nrules; r++) {
		if (g->rule_start[r] > g->rule_start[r + 1] || g->rule_start[r + 1] > g->nsyms) {
			snprintf(why, whylen, "rule %u has a bad symbol range", r);
			return false;
		}
		if (r && g->rule_start[r] == g->rule_start[r + 1]) {
			snprintf(why, whylen, "rule %u is empty", r);
			return false;
		}
	}
	if (g->rule_start[g->nrules] != g->nsyms) {
		snprintf(why, whylen, "rule table does not cover all %llu symbols",
			 (unsigned long long)g->nsyms);
		return false;
	}
	/* references in range, exps >= 1; rules may only refer to higher-numbered rules? No:
	 * readers accept any acyclic order, checked by a DFS with colours. */
	uint8_t *colour = xcalloc(g->nrules, 1);
	uint32_t *stack = xmalloc(g->nrules * sizeof *stack);
	uint64_t *pos = xmalloc(g->nrules * sizeof *pos);
	bool ok = true;
	for (uint64_t i = 0; i < g->nsyms && ok; i++) {
		struct gsymbol s = g->syms[i];
		if (s.exp == 0) {
			snprintf(why, whylen, "symbol %llu has repetition count 0", (unsigned long long)i);
			ok = false;
		} else if (gsym_is_rule(s) && (s.val == INT64_MIN || gsym_rule(s) >= g->nrules)) {
			snprintf(why, whylen, "symbol %llu refers to rule %lld, but there are %u rules",
				 (unsigned long long)i, (long long)(-s.val - 1), g->nrules);
			ok = false;
		} else if (!gsym_is_rule(s) && (uint64_t)s.val >= nterminals) {
			snprintf(why, whylen, "symbol %llu is terminal %lld, but there are %llu signatures",
				 (unsigned long long)i, (long long)s.val, (unsigned long long)nterminals);
			ok = false;
		}
	}
	if (ok) {
		size_t sp = 0;
		stack[sp] = 0;
		pos[sp] = g->rule_start[0];
		colour[0] = 1;
		sp = 1;
		while (sp && ok) {
			uint32_t r = stack[sp - 1];
			if (pos[sp - 1] == g->rule_start[r + 1]) {
				colour[r] = 2;
				sp--;
				continue;
			}
			struct gsymbol s = g->syms[pos[sp - 1]++];
			if (!gsym_is_rule(s))
				continue;
			uint32_t c = gsym_rule(s);
			if (colour[c] == 1) {
				snprintf(why, whylen, "rule %u refers to itself through rule %u", c, r);
				ok = false;
			} else if (colour[c] == 0) {
				colour[c] = 1;
				stack[sp] = c;
				pos[sp] = g->rule_start[c];
				sp++;
			}
		}
		for (uint32_t r = 0; r < g->nrules && ok; r++)
			if (colour[r] != 2) {
				snprintf(why, whylen, "rule %u is not reachable from the start rule", r);
				ok = false;
			}
	}
	free(colour);
	free(stack);
	free(pos);
	return ok;
}

static uint64_t sat_add(uint64_t a, uint64_t b) { return a + b < a ? UINT64_MAX : a + b; }
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	if (a && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

/* The grammar must have passed grammar_check (no cycles). */
void grammar_terminal_counts(const struct grammar *g, uint64_t *counts, uint64_t nterminals)
{
	if (!g->nrules)
		return;
	/* how often each rule is expanded, parents before children (Kahn's order on references) */
	uint64_t *mult = xcalloc(g->nrules, sizeof *mult), *refs = xcalloc(g->nrules, sizeof *refs);
	uint32_t *ready = xmalloc(g->nrules * sizeof *ready), n = 0;
	for (uint64_t i = 0; i < g->nsyms; i++)
		if (gsym_is_rule(g->syms[i]))
			refs[gsym_rule(g->syms[i])]++;
	mult[0] = 1;
	ready[n++] = 0;
	while (n) {
		uint32_t r = ready[--n];
		for (uint64_t i = g->rule_start[r]; i < g->rule_start[r + 1]; i++) {
			struct gsymbol s = g->syms[i];
			uint64_t times = sat_mul(mult[r], s.exp);
			if (!gsym_is_rule(s)) {
				if ((uint64_t)s.val < nterminals)
					counts[s.val] = sat_add(counts[s.val], times);
				continue;
			}
			mult[gsym_rule(s)] = sat_add(mult[gsym_rule(s)], times);
			if (--refs[gsym_rule(s)] == 0)
				ready[n++] = gsym_rule(s);
		}
	}
	free(mult);
	free(refs);
	free(ready);
}

struct pruning {
	const struct grammar *g;
	bool (*keep)(const struct grammar *g, uint64_t sym, void *arg);
	void *arg;
	uint8_t *state;   /* per rule: 0 not yet known, 1 empty, 2 keeps something */
	bool *reached;
};

static bool prune_empty(struct pruning *p, uint32_t r)
{
	if (!p->state[r]) {
		bool empty = true;
		for (uint64_t i = p->g->rule_start[r]; empty && i < p->g->rule_start[r + 1]; i++) {
			struct gsymbol s = p->g->syms[i];
			empty = !p->keep(p->g, i, p->arg) || (gsym_is_rule(s) && prune_empty(p, gsym_rule(s)));
		}
		p->state[r] = empty ? 1 : 2;
	}
	return p->state[r] == 1;
}

static void prune_reach(struct pruning *p, uint32_t r)
{
	if (p->reached[r] || prune_empty(p, r))
		return;
	p->reached[r] = true;
	for (uint64_t i = p->g->rule_start[r]; i < p->g->rule_start[r + 1]; i++)
		if (gsym_is_rule(p->g->syms[i]) && p->keep(p->g, i, p->arg))
			prune_reach(p, gsym_rule(p->g->syms[i]));
}

bool grammar_prune(const struct grammar *g, bool (*keep)(const struct grammar *g, uint64_t sym, void *arg), void *arg,
		   struct grammar *out)
{
	struct pruning p = {g, keep, arg, xcalloc(g->nrules + 1, 1), xcalloc(g->nrules + 1, sizeof(bool))};
	uint32_t *number = xcalloc(g->nrules + 1, sizeof *number), n = 0;
	if (g->nrules)
		prune_reach(&p, 0);
	for (uint32_t r = 0; r < g->nrules; r++)
		number[r] = p.reached[r] ? n++ : UINT32_MAX;
	grammar_init(out);
	for (uint32_t r = 0; r < g->nrules; r++) {
		if (!p.reached[r])
			continue;
		grammar_begin_rule(out);
		for (uint64_t i = g->rule_start[r]; i < g->rule_start[r + 1]; i++) {
			struct gsymbol s = g->syms[i];
			if (!keep(g, i, arg) || (gsym_is_rule(s) && !p.reached[gsym_rule(s)]))
				continue;
			grammar_add_symbol(out, gsym_is_rule(s) ? gsym_rule_val(number[gsym_rule(s)]) : s.val, s.exp);
		}
	}
	grammar_end(out);
	bool any = g->nrules && p.reached[0];
	free(p.state);
	free(p.reached);
	free(number);
	return any;
}

/* A depth-first pass that finishes each rule once: a rule's length is summed symbol by symbol,
 * a frame resuming where it left off after a child rule is done (linear in the grammar's size,
 * however wide its rules). A cycle, which grammar_check refuses, counts as endless. */
uint64_t grammar_expanded_length(const struct grammar *g)
{
	if (!g->nrules)
		return 0;
	uint64_t *len = xcalloc(g->nrules, sizeof *len), *pos = xmalloc(g->nrules * sizeof *pos);
	uint8_t *state = xcalloc(g->nrules, 1);   /* 0 not seen, 1 on the stack, 2 done */
	uint32_t *stack = xmalloc(g->nrules * sizeof *stack);
	size_t sp = 0;
	bool cycle = false;
	stack[sp++] = 0;
	pos[0] = g->rule_start[0];
	state[0] = 1;
	while (sp && !cycle) {
		uint32_t r = stack[sp - 1];
		if (pos[r] == g->rule_start[r + 1]) {
			state[r] = 2;
			sp--;
			continue;
		}
		struct gsymbol s = g->syms[pos[r]];
		uint32_t c = gsym_is_rule(s) ? gsym_rule(s) : 0;
		if (gsym_is_rule(s) && state[c] == 1) {
			cycle = true;
		} else if (gsym_is_rule(s) && state[c] == 0) {
			stack[sp++] = c;
			pos[c] = g->rule_start[c];
			state[c] = 1;
			continue;
		}
		len[r] = sat_add(len[r], sat_mul(gsym_is_rule(s) ? len[c] : 1, s.exp));
		pos[r]++;
	}
	uint64_t total = cycle ? UINT64_MAX : len[0];
	free(len);
	free(pos);
	free(state);
	free(stack);
	return total;
}

struct inlining {
	const struct grammar *g;
	uint64_t max;
	uint64_t *len;   /* per rule: its body's length once inlined; 0 not yet known */
};

static uint64_t inlined_len(struct inlining *in, uint32_t r);

/* whether symbol s, met after `used` symbols of the body being built, is inlined there */
static bool inlined_here(struct inlining *in, struct gsymbol s, uint64_t used)
{
	if (!gsym_is_rule(s) || s.exp != 1)
		return false;
	uint64_t len = inlined_len(in, gsym_rule(s));
	return len <= in->max && used <= in->max - len;
}

static uint64_t inlined_len(struct inlining *in, uint32_t r)
{
	if (!in->len[r]) {
		in->len[r] = UINT64_MAX;   /* while it is being measured */
		uint64_t n = 0;
		for (uint64_t i = in->g->rule_start[r]; i < in->g->rule_start[r + 1]; i++) {
			struct gsymbol s = in->g->syms[i];
			n += inlined_here(in, s, n) ? in->len[gsym_rule(s)] : 1;
		}
		in->len[r] = n;
	}
	return in->len[r];
}

static void emit_inlined(struct inlining *in, uint32_t r, struct grammar *out)
{
	uint64_t n = 0;
	for (uint64_t i = in->g->rule_start[r]; i < in->g->rule_start[r + 1]; i++) {
		struct gsymbol s = in->g->syms[i];
		if (inlined_here(in, s, n)) {
			n += in->len[gsym_rule(s)];
			emit_inlined(in, gsym_rule(s), out);
		} else {
			grammar_add_symbol(out, s.val, s.exp);
			n++;
		}
	}
}

void grammar_inline_once(const struct grammar *g, uint64_t max_len, struct grammar *out)
{
	struct inlining in = {g, max_len, xcalloc(g->nrules + 1, sizeof *in.len)};
	grammar_init(out);
	for (uint32_t r = 0; r < g->nrules; r++) {
		grammar_begin_rule(out);
		inlined_len(&in, r);
		emit_inlined(&in, r, out);
	}
	grammar_end(out);
	free(in.len);
}

void grammar_map_terminals(struct grammar *g, const uint32_t *map, uint64_t nmap)
{
	for (uint64_t i = 0; i < g->nsyms; i++)
		if (!gsym_is_rule(g->syms[i]) && (uint64_t)g->syms[i].val < nmap)
			g->syms[i].val = map[g->syms[i].val];
}

void grammar_serialize(const struct grammar *g, struct buf *b)
{
	buf_put_uv(b, g->nrules);
	for (uint32_t r = 0; r < g->nrules; r++) {
		uint64_t n = grammar_rule_len(g, r);
		buf_put_uv(b, n);
		const struct gsymbol *s = grammar_rule_syms(g, r);
		for (uint64_t i = 0; i < n; i++) {
			buf_put_sv(b, s[i].val);
			buf_put_uv(b, s[i].exp);
		}
	}
}

bool grammar_parse(struct grammar *g, struct reader *r)
{
	grammar_init(g);
	uint64_t nrules = get_count(r, reader_left(r));
	for (uint64_t k = 0; k < nrules && !r->bad; k++) {
		grammar_begin_rule(g);
		uint64_t n = get_count(r, reader_left(r) / 2);
		for (uint64_t i = 0; i < n && !r->bad; i++) {
			int64_t val = get_sv(r);
			uint64_t exp = get_uv(r);
			grammar_add_symbol(g, val, exp);
		}
	}
	grammar_end(g);
	if (r->bad) {
		grammar_free(g);
		return false;
	}
	return true;
}

/* ---- walking --------------------------------------------------------------------------------- */

static void gwalk_push(struct gwalk *w, uint32_t rule, uint64_t reps)
{
	XGROW(w->stack, w->cap, w->depth + 1);
	w->stack[w->depth].rule = rule;
	w->stack[w->depth].pos = w->g->rule_start[rule];
	w->stack[w->depth].reps_left = reps;
	w->depth++;
}

void gwalk_init(struct gwalk *w, const struct grammar *g)
{
	memset(w, 0, sizeof *w);
	w->g = g;
	if (g->nrules)
		gwalk_push(w, 0, 0);
}

void gwalk_free(struct gwalk *w)
{
	free(w->stack);
	memset(w, 0, sizeof *w);
}

/*
 * Each frame walks one rule body once; reps_left counts the further passes over the same body
 * (a rule referenced as R^k is pushed once with reps_left = k - 1).
 */
bool gwalk_next_run(struct gwalk *w, uint32_t *terminal, uint64_t *count)
{
	const struct grammar *g = w->g;
	while (w->depth) {
		struct gwalk_frame *f = &w->stack[w->depth - 1];
		if (f->pos == g->rule_start[f->rule + 1]) {
			if (f->reps_left && g->rule_start[f->rule] < f->pos) {
				f->reps_left--;
				f->pos = g->rule_start[f->rule];
				continue;
			}
			w->depth--;
			continue;
		}
		struct gsymbol s = g->syms[f->pos++];
		if (gsym_is_rule(s)) {
			gwalk_push(w, gsym_rule(s), s.exp - 1);
			continue;
		}
		*terminal = (uint32_t)s.val;
		*count = s.exp;
		return true;
	}
	return false;
}

bool gwalk_next(struct gwalk *w, uint32_t *terminal)
{
	if (w->term_reps) {
		w->term_reps--;
		*terminal = (uint32_t)w->term;
		return true;
	}
	uint64_t n;
	uint32_t t;
	if (!gwalk_next_run(w, &t, &n))
		return false;
	w->term = t;
	w->term_reps = n - 1;
	*terminal = t;
	return true;
}

void grammar_print(const struct grammar *g, void *file)
{
	FILE *f = file;
	for (uint32_t r = 0; r < g->nrules; r++) {
		fprintf(f, "R%u ->", r);
		const struct gsymbol *s = grammar_rule_syms(g, r);
		for (uint64_t i = 0; i < grammar_rule_len(g, r); i++) {
			if (gsym_is_rule(s[i]))
				fprintf(f, " R%u", gsym_rule(s[i]));
			else
				fprintf(f, " %lld", (long long)s[i].val);
			if (s[i].exp > 1)
				fprintf(f, "^%llu", (unsigned long long)s[i].exp);
		}
		fputc('\n', f);
	}
}
