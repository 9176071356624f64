/*
 * sequitur — online Sequitur with repetition counts. See sequitur.h.
 *
 * Symbols live in doubly-linked rule bodies closed by a guard node. Nonterminals are linked into
 * their rule's list of references, so a rule used once can be found and inlined. The digram index
 * is an open-addressing table of pointers to the first symbol of each digram occurrence; a digram
 * key is (symbol, exponent, next symbol, its exponent) and is recomputed from the symbols, so an
 * entry must be removed before either symbol's identity, exponent or adjacency changes ("unindex").
 *
 * Equal adjacent symbols are always merged, so digrams never overlap (no "x x x"). Symbols and
 * rules freed while one append is being processed are only recycled when it is finished: a
 * cascade of substitutions may delete a symbol the caller still holds, and the caller checks the
 * `dead` flag instead of touching freed memory.
 *
 * Loops take a fast path. While the start rule ends with R^k (k >= 2), each new terminal is
 * compared with the next terminal of one more repetition of R (a cursor walks R's expansion; the
 * grammar is not touched meanwhile). A completed repetition becomes R^(k+1) in O(1); a mismatch
 * feeds the terminals matched so far, then the new one, to the algorithm above. Only the count of
 * matched terminals is kept, so a loop costs a comparison per terminal and constant memory.
 */
#include "grammar/sequitur.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/xalloc.h"

struct rule;

struct sym {
	struct sym *prev, *next;
	struct rule *rule;          /* nonterminal: rule referenced; guard: owning rule; else NULL */
	struct sym *ref_prev, *ref_next;  /* nonterminals: rule's reference list; dead: graveyard */
	uint64_t exp;
	uint32_t term;
	uint8_t guard, dead;
};

struct rule {
	struct sym guard;
	struct sym *refs;
	uint32_t nrefs;
	uint8_t dead, pending, mark;
	struct rule *next_pending;     /* pending list; dead: graveyard */
	uint32_t export_id;
};

#define TOMB ((struct sym *)1)

struct cursor_frame {
	struct rule *r;
	struct sym *pos;        /* next symbol of r's body to expand */
	uint64_t reps_left;     /* further passes over r's body */
};

struct fastpath {
	bool armed;
	struct rule *loop;      /* the start rule ends with loop^k, k >= 2 */
	uint64_t matched;       /* terminals of the next repetition seen so far */
	struct cursor_frame *stack;
	size_t depth, cap;
	uint32_t term;          /* the expected terminal and its remaining copies */
	uint64_t term_left;
	bool have_term;
};

struct sequitur {
	struct rule *start;
	struct fastpath fp;
	struct sym **tab;           /* digram index */
	size_t tabcap, tabused, tabtomb;
	struct sym *free_syms, *dead_syms;
	struct rule *pending, *dead_rules;
	uint64_t length;
	size_t nsyms, nrules;
};

/* ---- symbols ---------------------------------------------------------------------------------- */

static inline uint64_t skey(const struct sym *s)
{
	return s->rule ? ((uint64_t)(uintptr_t)s->rule | (1ULL << 63)) : s->term;
}

static inline bool same(const struct sym *a, const struct sym *b)
{
	return !a->guard && !b->guard && skey(a) == skey(b);
}

static struct sym *sym_alloc(struct sequitur *q)
{
	struct sym *s = q->free_syms;
	if (s)
		q->free_syms = s->next;
	else
		s = xmalloc(sizeof *s);
	memset(s, 0, sizeof *s);
	q->nsyms++;
	return s;
}

static void ref_add(struct rule *r, struct sym *s)
{
	s->ref_prev = NULL;
	s->ref_next = r->refs;
	if (r->refs)
		r->refs->ref_prev = s;
	r->refs = s;
	r->nrefs++;
}

static void pending_push(struct sequitur *q, struct rule *r)
{
	if (r->pending || r->dead)
		return;
	r->pending = 1;
	r->next_pending = q->pending;
	q->pending = r;
}

static void ref_remove(struct sequitur *q, struct sym *s)
{
	struct rule *r = s->rule;
	if (s->ref_prev)
		s->ref_prev->ref_next = s->ref_next;
	else
		r->refs = s->ref_next;
	if (s->ref_next)
		s->ref_next->ref_prev = s->ref_prev;
	r->nrefs--;
	if (r->nrefs <= 1)
		pending_push(q, r);
}

static struct sym *sym_new(struct sequitur *q, const struct sym *like, uint64_t exp)
{
	struct sym *s = sym_alloc(q);
	s->exp = exp;
	if (like->rule) {
		s->rule = like->rule;
		ref_add(s->rule, s);
	} else {
		s->term = like->term;
	}
	return s;
}

/* Unlink s from its body and bury it (recycled after the current append). */
static void sym_delete(struct sequitur *q, struct sym *s)
{
	s->prev->next = s->next;
	s->next->prev = s->prev;
	if (s->rule)
		ref_remove(q, s);
	s->dead = 1;
	s->ref_next = q->dead_syms;
	q->dead_syms = s;
	q->nsyms--;
}

static void link_after(struct sym *p, struct sym *s)
{
	s->prev = p;
	s->next = p->next;
	p->next->prev = s;
	p->next = s;
}

/* ---- rules ------------------------------------------------------------------------------------ */

static struct rule *rule_new(struct sequitur *q)
{
	struct rule *r = xcalloc(1, sizeof *r);
	r->guard.guard = 1;
	r->guard.rule = r;
	r->guard.next = r->guard.prev = &r->guard;
	q->nrules++;
	return r;
}

static void rule_kill(struct sequitur *q, struct rule *r)
{
	r->dead = 1;
	r->next_pending = q->dead_rules;
	q->dead_rules = r;
	q->nrules--;
}

/* ---- digram index ----------------------------------------------------------------------------- */

static inline uint64_t digram_hash(const struct sym *s)
{
	uint64_t h = hash_mix64(skey(s));
	h = hash_combine(h, s->exp);
	h = hash_combine(h, skey(s->next));
	return hash_combine(h, s->next->exp);
}

static inline bool digram_eq(const struct sym *a, const struct sym *b)
{
	return skey(a) == skey(b) && a->exp == b->exp && skey(a->next) == skey(b->next) &&
	       a->next->exp == b->next->exp;
}

static void tab_rehash(struct sequitur *q, size_t cap)
{
	struct sym **old = q->tab;
	size_t oldcap = q->tabcap;
	q->tab = xcalloc(cap, sizeof *q->tab);
	q->tabcap = cap;
	q->tabused = q->tabtomb = 0;
	for (size_t i = 0; i < oldcap; i++) {
		struct sym *s = old[i];
		if (!s || s == TOMB)
			continue;
		size_t k = digram_hash(s) & (cap - 1);
		while (q->tab[k])
			k = (k + 1) & (cap - 1);
		q->tab[k] = s;
		q->tabused++;
	}
	free(old);
}

static struct sym *tab_find(struct sequitur *q, const struct sym *s)
{
	size_t mask = q->tabcap - 1;
	for (size_t k = digram_hash(s) & mask;; k = (k + 1) & mask) {
		struct sym *e = q->tab[k];
		if (!e)
			return NULL;
		if (e != TOMB && digram_eq(e, s))
			return e;
	}
}

static void tab_insert(struct sequitur *q, struct sym *s)
{
	if ((q->tabused + q->tabtomb + 1) * 10 > q->tabcap * 7)
		tab_rehash(q, q->tabused * 10 > q->tabcap * 3 ? q->tabcap * 2 : q->tabcap);
	size_t mask = q->tabcap - 1;
	size_t k = digram_hash(s) & mask;
	while (q->tab[k] && q->tab[k] != TOMB)
		k = (k + 1) & mask;
	if (q->tab[k] == TOMB)
		q->tabtomb--;
	q->tab[k] = s;
	q->tabused++;
}

/* Remove the index entry of digram (s, s->next) if it points at this occurrence. */
static void unindex(struct sequitur *q, struct sym *s)
{
	if (s->guard || s->next->guard)
		return;
	size_t mask = q->tabcap - 1;
	for (size_t k = digram_hash(s) & mask;; k = (k + 1) & mask) {
		struct sym *e = q->tab[k];
		if (!e)
			return;
		if (e == s) {
			q->tab[k] = TOMB;
			q->tabused--;
			q->tabtomb++;
			return;
		}
	}
}

/*
 * The index's invariant (a debug check): every entry is the first symbol of a live digram inside
 * a rule body, no two entries hold equal digrams, and the counts of used entries and tombstones
 * are exact. O(table size): run after appends number 1, 2, 4, 8 ... and before an export, so it
 * costs O(log n) passes over a trace of n calls; compiled out under NDEBUG.
 */
#ifndef NDEBUG
static bool index_consistent(struct sequitur *q)
{
	size_t used = 0, tombs = 0;
	for (size_t k = 0; k < q->tabcap; k++) {
		struct sym *e = q->tab[k];
		if (e == TOMB) {
			tombs++;
			continue;
		}
		if (!e)
			continue;
		used++;
		if (e->dead || e->guard || e->next->guard || e->next->prev != e || tab_find(q, e) != e)
			return false;
	}
	return used == q->tabused && tombs == q->tabtomb;
}
#endif

/* ---- the algorithm ---------------------------------------------------------------------------- */

static bool check(struct sequitur *q, struct sym *s);

/* n was just placed, or its exponent changed: merge equal neighbours, then check its digrams. */
static void settle(struct sequitur *q, struct sym *n)
{
	struct sym *p = n->prev;
	if (same(p, n)) {
		unindex(q, p->prev);
		unindex(q, p);
		unindex(q, n);
		p->exp += n->exp;
		sym_delete(q, n);
		n = p;
	}
	struct sym *x = n->next;
	if (same(n, x)) {
		unindex(q, n->prev);
		unindex(q, n);
		unindex(q, x);
		n->exp += x->exp;
		sym_delete(q, x);
	}
	if (!check(q, n->prev))
		check(q, n);
}

/* Replace the digram (s, s->next) by one occurrence of rule r. */
static void substitute(struct sequitur *q, struct sym *s, struct rule *r)
{
	struct sym *p = s->prev, *b = s->next;
	unindex(q, p);
	unindex(q, s);
	unindex(q, b);
	sym_delete(q, b);
	sym_delete(q, s);
	struct sym *n = sym_alloc(q);
	n->rule = r;
	n->exp = 1;
	ref_add(r, n);
	link_after(p, n);
	settle(q, n);
}

static void match(struct sequitur *q, struct sym *s, struct sym *m)
{
	if (m->prev->guard && m->next->next->guard) {
		substitute(q, s, m->prev->rule);
		return;
	}
	struct rule *r = rule_new(q);
	struct sym *a = sym_new(q, s, s->exp);
	struct sym *b = sym_new(q, s->next, s->next->exp);
	struct sym *s_next = s->next;
	link_after(&r->guard, a);
	link_after(a, b);
	substitute(q, m, r);
	/* the first substitution cannot touch s's digram (rule r is new), but never rewrite a
	 * digram that is not the one matched */
	if (!s->dead && s->next == s_next && digram_eq(s, a))
		substitute(q, s, r);
	tab_insert(q, a);
}

/* Check digram (s, s->next); on a repeat, rewrite. Returns true when the grammar changed. */
static bool check(struct sequitur *q, struct sym *s)
{
	if (s->guard || s->next->guard || same(s, s->next))
		return false;
	struct sym *m = tab_find(q, s);
	if (!m) {
		tab_insert(q, s);
		return false;
	}
	if (m == s || m->next == s || s->next == m)
		return false;
	match(q, s, m);
	return true;
}

/* Inline the only reference x (exponent 1) of its rule. */
static void expand(struct sequitur *q, struct sym *x)
{
	struct rule *r = x->rule;
	struct sym *p = x->prev, *nx = x->next;
	struct sym *first = r->guard.next, *last = r->guard.prev;
	unindex(q, p);
	unindex(q, x);
	sym_delete(q, x);
	p->next = first;
	first->prev = p;
	last->next = nx;
	nx->prev = last;
	r->guard.next = r->guard.prev = &r->guard;
	rule_kill(q, r);
	settle(q, first);
	if (!last->dead)
		settle(q, last);
}

/* A rule whose body shrank to one symbol y^e: each reference x^k becomes y^(e*k). */
static void inline_single(struct sequitur *q, struct rule *r)
{
	struct sym *y = r->guard.next;
	while (r->refs) {
		struct sym *x = r->refs;
		unindex(q, x->prev);
		unindex(q, x);
		struct sym *c = sym_new(q, y, y->exp * x->exp);
		link_after(x, c);
		sym_delete(q, x);
		settle(q, c);
	}
	sym_delete(q, y);
	rule_kill(q, r);
}

static void process_pending(struct sequitur *q)
{
	while (q->pending) {
		struct rule *r = q->pending;
		q->pending = r->next_pending;
		r->pending = 0;
		if (r->dead || r == q->start)
			continue;
		if (r->nrefs == 0) {
			while (r->guard.next != &r->guard) {
				unindex(q, r->guard.next);
				sym_delete(q, r->guard.next);
			}
			rule_kill(q, r);
		} else if (r->guard.next->next == &r->guard) {
			inline_single(q, r);
		} else if (r->nrefs == 1 && r->refs->exp == 1) {
			expand(q, r->refs);
		}
	}
}

static void recycle(struct sequitur *q)
{
	while (q->dead_syms) {
		struct sym *s = q->dead_syms;
		q->dead_syms = s->ref_next;
		s->next = q->free_syms;
		q->free_syms = s;
	}
	while (q->dead_rules) {
		struct rule *r = q->dead_rules;
		q->dead_rules = r->next_pending;
		free(r);
	}
}

/* ---- public ----------------------------------------------------------------------------------- */

struct sequitur *sequitur_new(void)
{
	struct sequitur *q = xcalloc(1, sizeof *q);
	q->start = rule_new(q);
	q->tabcap = 64;
	q->tab = xcalloc(q->tabcap, sizeof *q->tab);
	return q;
}

static void free_list(struct sym *s, bool via_next)
{
	while (s) {
		struct sym *n = via_next ? s->next : s->ref_next;
		free(s);
		s = n;
	}
}

void sequitur_free(struct sequitur *q)
{
	if (!q)
		return;
	recycle(q);
	/* every live rule is reachable from the start rule: collect them, then free */
	struct rule **all = xmalloc((q->nrules + 1) * sizeof *all);
	size_t n = 0;
	all[n++] = q->start;
	q->start->mark = 1;
	for (size_t i = 0; i < n; i++)
		for (struct sym *s = all[i]->guard.next; s != &all[i]->guard; s = s->next)
			if (s->rule && !s->rule->mark) {
				s->rule->mark = 1;
				all[n++] = s->rule;
			}
	for (size_t i = 0; i < n; i++) {
		struct sym *s = all[i]->guard.next;
		while (s != &all[i]->guard) {
			struct sym *next = s->next;
			free(s);
			s = next;
		}
		free(all[i]);
	}
	free(all);
	free_list(q->free_syms, true);
	free(q->tab);
	free(q->fp.stack);
	free(q);
}

static void slow_append(struct sequitur *q, uint32_t terminal)
{
	struct sym *s = sym_alloc(q);
	s->term = terminal;
	s->exp = 1;
	link_after(q->start->guard.prev, s);
	settle(q, s);
	process_pending(q);
	recycle(q);
}

/* ---- the loop fast path ---------------------------------------------------------------------- */

static void fp_push(struct fastpath *fp, struct rule *r, uint64_t reps)
{
	if (fp->depth == fp->cap) {
		fp->cap = fp->cap ? 2 * fp->cap : 8;
		fp->stack = xrealloc(fp->stack, fp->cap * sizeof *fp->stack);
	}
	fp->stack[fp->depth++] = (struct cursor_frame){r, r->guard.next, reps};
}

/* the next terminal of the repetition in progress; false when the repetition is complete */
static bool fp_expect(struct fastpath *fp)
{
	if (fp->have_term)
		return true;
	while (fp->depth) {
		struct cursor_frame *f = &fp->stack[fp->depth - 1];
		if (f->pos == &f->r->guard) {
			if (f->reps_left) {
				f->reps_left--;
				f->pos = f->r->guard.next;
				continue;
			}
			fp->depth--;
			continue;
		}
		struct sym *s = f->pos;
		f->pos = s->next;
		if (s->rule) {
			fp_push(fp, s->rule, s->exp - 1);
			continue;
		}
		fp->term = s->term;
		fp->term_left = s->exp;
		fp->have_term = true;
		return true;
	}
	return false;
}

static void fp_take(struct fastpath *fp)
{
	if (--fp->term_left == 0)
		fp->have_term = false;
}

static void fp_restart(struct fastpath *fp)
{
	fp->depth = 0;
	fp->have_term = false;
	fp->matched = 0;
	fp_push(fp, fp->loop, 0);
}

/* arm when the start rule ends with a loop R^k, k >= 2 */
static void fp_arm(struct sequitur *q)
{
	struct fastpath *fp = &q->fp;
	struct sym *last = q->start->guard.prev;
	fp->armed = !last->guard && last->rule && last->exp >= 2;
	if (fp->armed) {
		fp->loop = last->rule;
		fp_restart(fp);
	}
}

/* one more repetition of the loop: R^k becomes R^(k+1) */
static void fp_bump(struct sequitur *q)
{
	struct sym *last = q->start->guard.prev;
	unindex(q, last->prev);
	last->exp++;
	if (!check(q, last->prev))
		check(q, last);
	process_pending(q);
	recycle(q);
}

/* feed the terminals matched so far through the algorithm; disarm */
static void fp_flush(struct sequitur *q)
{
	struct fastpath *fp = &q->fp;
	if (!fp->armed)
		return;
	uint64_t n = fp->matched;
	fp->armed = false;
	if (!n)
		return;
	/* copy first: appending changes the rules the cursor would walk */
	uint32_t *terms = xmalloc(n * sizeof *terms);
	fp_restart(fp);
	for (uint64_t i = 0; i < n && fp_expect(fp); i++) {
		terms[i] = fp->term;
		fp_take(fp);
	}
	for (uint64_t i = 0; i < n; i++)
		slow_append(q, terms[i]);
	free(terms);
}

void sequitur_append(struct sequitur *q, uint32_t terminal)
{
	struct fastpath *fp = &q->fp;
	q->length++;
	assert((q->length & (q->length - 1)) || index_consistent(q));
	if (fp->armed) {
		if (fp_expect(fp) && fp->term == terminal) {
			fp_take(fp);
			fp->matched++;
			if (!fp_expect(fp)) {
				fp_bump(q);
				fp_arm(q);
			}
			return;
		}
		fp_flush(q);
	}
	slow_append(q, terminal);
	fp_arm(q);
}

uint64_t sequitur_length(const struct sequitur *q) { return q->length; }
size_t sequitur_symbols(const struct sequitur *q) { return q->nsyms; }
size_t sequitur_rules(const struct sequitur *q) { return q->nrules; }

size_t sequitur_memory(const struct sequitur *q)
{
	return q->nsyms * sizeof(struct sym) + q->nrules * sizeof(struct rule) +
	       q->tabcap * sizeof(struct sym *);
}

void sequitur_export(struct sequitur *q, struct grammar *out)
{
	fp_flush(q);
	assert(index_consistent(q));
	grammar_init(out);
	/* number rules in order of first reference (breadth over a queue keeps it simple) */
	struct rule **order = xmalloc((q->nrules + 1) * sizeof *order);
	size_t n = 0;
	order[n++] = q->start;
	q->start->export_id = 0;
	q->start->mark = 1;
	for (size_t i = 0; i < n; i++) {
		struct rule *r = order[i];
		for (struct sym *s = r->guard.next; s != &r->guard; s = s->next) {
			if (!s->rule || s->rule->mark)
				continue;
			s->rule->mark = 1;
			s->rule->export_id = (uint32_t)n;
			order[n++] = s->rule;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct rule *r = order[i];
		grammar_begin_rule(out);
		for (struct sym *s = r->guard.next; s != &r->guard; s = s->next)
			grammar_add_symbol(out, s->rule ? gsym_rule_val(s->rule->export_id) : (int64_t)s->term,
					   s->exp);
	}
	grammar_end(out);
	for (size_t i = 0; i < n; i++)
		order[i]->mark = 0;
	free(order);
}
