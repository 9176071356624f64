/*
 * merge — vocabularies and groups that merge by content. See merge.h.
 */
#include "run/merge.h"

#include <stdlib.h>
#include <string.h>

#include "run/histogram.h"
#include "util/hash.h"
#include "util/xalloc.h"

/* ---- the vocabulary ------------------------------------------------------------------------------- */

static uint64_t sig_hash(uint32_t fn, uint32_t flags, uint64_t callsite, const int64_t *v, uint32_t n)
{
	uint64_t h = hash_combine(hash_combine(hash_mix64(fn + 1), callsite), flags);
	for (uint32_t i = 0; i < n; i++)
		h = hash_combine(h, (uint64_t)v[i]);
	return h;
}

struct vsig *vocab_find_sig(struct vocab *v, uint32_t fn, uint32_t flags, uint64_t callsite,
				   const int64_t *vals, uint32_t n)
{
	uint64_t h = sig_hash(fn, flags, callsite, vals, n);
	struct vsig *s;
	HASH_FIND(hh, v->sig_index, &h, sizeof h, s);
	for (; s; s = s->collide)
		if (s->fn == fn && s->flags == flags && s->callsite == callsite && s->nvals == n &&
		    !memcmp(s->vals, vals, n * sizeof *vals))
			return s;
	return NULL;
}

uint32_t vocab_add_sig(struct vocab *v, uint32_t fn, uint32_t flags, uint64_t callsite,
			      const int64_t *vals, uint32_t n)
{
	struct vsig *s = vocab_find_sig(v, fn, flags, callsite, vals, n);
	if (s)
		return s->index;
	s = xcalloc(1, sizeof *s);
	s->hash = sig_hash(fn, flags, callsite, vals, n);
	s->fn = fn;
	s->flags = flags;
	s->callsite = callsite;
	s->nvals = n;
	s->vals = xmalloc((n ? n : 1) * sizeof *vals);
	memcpy(s->vals, vals, n * sizeof *vals);
	s->index = v->nsigs;
	struct vsig *first;
	HASH_FIND(hh, v->sig_index, &s->hash, sizeof s->hash, first);
	if (first) {
		s->collide = first->collide;
		first->collide = s;
	} else {
		HASH_ADD(hh, v->sig_index, hash, sizeof s->hash, s);
	}
	XGROW(v->sigs, v->capsigs, v->nsigs + 1);
	v->sigs[v->nsigs++] = s;
	return s->index;
}

void vocab_add_site(struct vocab *v, uint64_t id, uint32_t n, const char *const *mods,
			   const uint64_t *offs, const char *const *syms)
{
	struct vsite *s;
	HASH_FIND(hh, v->sites, &id, sizeof id, s);
	if (s)
		return;
	s = xcalloc(1, sizeof *s);
	s->id = id;
	s->nframes = n;
	s->modules = xcalloc(n ? n : 1, sizeof *s->modules);
	s->symbols = xcalloc(n ? n : 1, sizeof *s->symbols);
	s->offsets = xcalloc(n ? n : 1, sizeof *s->offsets);
	for (uint32_t i = 0; i < n; i++) {
		s->modules[i] = xstrdup(mods[i]);
		s->symbols[i] = xstrdup(syms[i]);
		s->offsets[i] = offs[i];
	}
	HASH_ADD(hh, v->sites, id, sizeof s->id, s);
}

void vocab_add_string(const char *str, void *arg)
{
	struct vocab *v = arg;
	struct vstr *s;
	HASH_FIND_STR(v->strs, str, s);
	if (s)
		return;
	s = xcalloc(1, sizeof *s);
	s->s = xstrdup(str);
	HASH_ADD_KEYPTR(hh, v->strs, s->s, strlen(s->s), s);
}

uint32_t vocab_add_node(struct vocab *v, int32_t parent, uint8_t kind, const char *name)
{
	char *key = xasprintf("%d %u %s", parent, kind, name);
	struct vnode *n;
	HASH_FIND_STR(v->node_index, key, n);
	if (n) {
		free(key);
		return n->index;
	}
	n = xcalloc(1, sizeof *n);
	n->key = key;
	n->parent = parent;
	n->kind = kind;
	n->name = xstrdup(name);
	n->index = v->nnodes;
	HASH_ADD_KEYPTR(hh, v->node_index, n->key, strlen(n->key), n);
	XGROW(v->nodes, v->capnodes, v->nnodes + 1);
	v->nodes[v->nnodes++] = n;
	return n->index;
}

void vocab_serialize(void *acc, struct buf *b)
{
	struct vocab *v = acc;
	buf_reset(b);
	buf_put_uv(b, v->nsigs);
	for (uint32_t i = 0; i < v->nsigs; i++) {
		struct vsig *s = v->sigs[i];
		buf_put_uv(b, s->fn);
		buf_put_uv(b, s->flags);
		buf_put_uv(b, s->callsite);
		buf_put_uv(b, s->nvals);
		for (uint32_t k = 0; k < s->nvals; k++)
			buf_put_sv(b, s->vals[k]);
	}
	buf_put_uv(b, HASH_COUNT(v->sites));
	for (struct vsite *s = v->sites; s; s = s->hh.next) {
		buf_put_uv(b, s->id);
		buf_put_uv(b, s->nframes);
		for (uint32_t i = 0; i < s->nframes; i++) {
			buf_put_str(b, s->modules[i]);
			buf_put_uv(b, s->offsets[i]);
			buf_put_str(b, s->symbols[i]);
		}
	}
	buf_put_uv(b, HASH_COUNT(v->strs));
	for (struct vstr *s = v->strs; s; s = s->hh.next)
		buf_put_str(b, s->s);
	buf_put_uv(b, v->nnodes);
	for (uint32_t i = 0; i < v->nnodes; i++) {
		buf_put_sv(b, v->nodes[i]->parent);
		buf_put_u8(b, v->nodes[i]->kind);
		buf_put_str(b, v->nodes[i]->name);
	}
}

void vocab_merge(void *acc, struct reader *rd)
{
	struct vocab *v = acc;
	uint64_t n = get_count(rd, reader_left(rd));
	int64_t *vals = NULL;
	size_t cap = 0;
	for (uint64_t i = 0; i < n && !rd->bad; i++) {
		uint32_t fn = (uint32_t)get_uv(rd), flags = (uint32_t)get_uv(rd);
		uint64_t cs = get_uv(rd);
		uint32_t nv = (uint32_t)get_count(rd, reader_left(rd));
		XGROW(vals, cap, nv + 1);
		for (uint32_t k = 0; k < nv; k++)
			vals[k] = get_sv(rd);
		vocab_add_sig(v, fn, flags, cs, vals, nv);
	}
	free(vals);
	n = get_count(rd, reader_left(rd));
	for (uint64_t i = 0; i < n && !rd->bad; i++) {
		uint64_t id = get_uv(rd);
		uint32_t nf = (uint32_t)get_count(rd, 64);
		char *mods[64], *syms[64];
		uint64_t offs[64];
		for (uint32_t f = 0; f < nf; f++) {
			mods[f] = get_str(rd);
			offs[f] = get_uv(rd);
			syms[f] = get_str(rd);
		}
		if (!rd->bad)
			vocab_add_site(v, id, nf, (const char *const *)mods, offs, (const char *const *)syms);
		for (uint32_t f = 0; f < nf; f++) {
			free(mods[f]);
			free(syms[f]);
		}
	}
	n = get_count(rd, reader_left(rd));
	for (uint64_t i = 0; i < n && !rd->bad; i++) {
		char *s = get_str(rd);
		if (s)
			vocab_add_string(s, v);
		free(s);
	}
	n = get_count(rd, reader_left(rd));
	uint32_t *map = xcalloc(n ? n : 1, sizeof *map);   /* incoming node -> accumulated node */
	for (uint64_t i = 0; i < n && !rd->bad; i++) {
		int32_t parent = (int32_t)get_sv(rd);
		uint8_t kind = get_u8(rd);
		char *name = get_str(rd);
		if (!name)
			break;
		int32_t p = parent >= 0 && (uint64_t)parent < i ? (int32_t)map[parent] : -1;
		map[i] = vocab_add_node(v, p, kind, name);
		free(name);
	}
	free(map);
}

struct vnode *vocab_find_node(const struct vocab *v, int32_t parent, uint8_t kind, const char *name)
{
	char *key = xasprintf("%d %u %s", parent, kind, name);
	struct vnode *n;
	HASH_FIND_STR(v->node_index, key, n);
	free(key);
	return n;
}

void groups_free(struct groups *gs)
{
	for (uint32_t i = 0; i < gs->n; i++)
		run_group_free(&gs->g[i]);
	free(gs->g);
	free(gs->hash);
	memset(gs, 0, sizeof *gs);
}

void vocab_free(struct vocab *v)
{
	HASH_CLEAR(hh, v->sig_index);
	for (uint32_t i = 0; i < v->nsigs; i++) {
		free(v->sigs[i]->vals);
		free(v->sigs[i]);
	}
	free(v->sigs);
	struct vsite *s, *stmp;
	HASH_ITER(hh, v->sites, s, stmp) {
		HASH_DEL(v->sites, s);
		for (uint32_t i = 0; i < s->nframes; i++) {
			free(s->modules[i]);
			free(s->symbols[i]);
		}
		free(s->modules);
		free(s->symbols);
		free(s->offsets);
		free(s);
	}
	struct vstr *st, *sttmp;
	HASH_ITER(hh, v->strs, st, sttmp) {
		HASH_DEL(v->strs, st);
		free(st->s);
		free(st);
	}
	HASH_CLEAR(hh, v->node_index);
	for (uint32_t i = 0; i < v->nnodes; i++) {
		free(v->nodes[i]->key);
		free(v->nodes[i]->name);
		free(v->nodes[i]);
	}
	free(v->nodes);
	memset(v, 0, sizeof *v);
}

/* ---- groups ------------------------------------------------------------------------------------- */

static void stats_merge(uint64_t *count, double *sum, double *sumsq, double *min, double *max,
			uint64_t c2, double s2, double q2, double mn2, double mx2)
{
	if (!*count || mn2 < *min)
		*min = mn2;
	if (!*count || mx2 > *max)
		*max = mx2;
	*count += c2;
	*sum += s2;
	*sumsq += q2;
}

int run_dur_order(const void *a, const void *b)
{
	const struct run_dur *x = a, *y = b;
	return (x->sig > y->sig) - (x->sig < y->sig);
}

int run_gap_order(const void *a, const void *b)
{
	const struct run_gap *x = a, *y = b;
	if (x->prev != y->prev)
		return x->prev < y->prev ? -1 : 1;
	return (x->sig > y->sig) - (x->sig < y->sig);
}

/* fold group b (same grammar) into a */
static void group_merge(struct run_group *a, struct run_group *b, uint32_t maxbins)
{
	ranklist_join(&a->ranks, &b->ranks);
	a->nranks += b->nranks;

	struct run_dur *d = xmalloc((a->ndurs + b->ndurs + 1) * sizeof *d);
	uint32_t i = 0, j = 0, n = 0;
	while (i < a->ndurs || j < b->ndurs) {
		int c = i == a->ndurs ? 1 : j == b->ndurs ? -1 : run_dur_order(&a->durs[i], &b->durs[j]);
		if (c < 0) {
			d[n++] = a->durs[i++];
		} else if (c > 0) {
			d[n++] = b->durs[j++];
		} else {
			struct run_dur x = a->durs[i++];
			const struct run_dur *y = &b->durs[j++];
			stats_merge(&x.count, &x.sum, &x.sumsq, &x.min, &x.max, y->count, y->sum, y->sumsq, y->min, y->max);
			d[n++] = x;
		}
	}
	free(a->durs);
	a->durs = d;
	a->ndurs = n;

	struct run_gap *gp = xmalloc((a->ngaps + b->ngaps + 1) * sizeof *gp);
	i = j = n = 0;
	while (i < a->ngaps || j < b->ngaps) {
		int c = i == a->ngaps ? 1 : j == b->ngaps ? -1 : run_gap_order(&a->gaps[i], &b->gaps[j]);
		if (c < 0) {
			gp[n++] = a->gaps[i++];
		} else if (c > 0) {
			gp[n++] = b->gaps[j];
			b->gaps[j++].bins = NULL;   /* moved */
		} else {
			struct run_gap x = a->gaps[i++];
			run_gap_fold(&x, &b->gaps[j++], maxbins);
			gp[n++] = x;
		}
	}
	free(a->gaps);
	a->gaps = gp;
	a->ngaps = n;
	run_group_free(b);
}

void groups_add(struct groups *gs, struct run_group *g)
{
	uint64_t h = grammar_hash(&g->g);
	for (uint32_t i = 0; i < gs->n; i++)
		if (gs->hash[i] == h && grammar_equal(&gs->g[i].g, &g->g)) {
			group_merge(&gs->g[i], g, gs->maxbins);
			return;
		}
	if (gs->n == gs->cap) {
		gs->cap = gs->cap ? 2 * gs->cap : 8;
		gs->g = xrealloc(gs->g, gs->cap * sizeof *gs->g);
		gs->hash = xrealloc(gs->hash, gs->cap * sizeof *gs->hash);
	}
	gs->g[gs->n] = *g;
	gs->hash[gs->n++] = h;
}

void groups_serialize(void *acc, struct buf *b)
{
	struct groups *gs = acc;
	buf_reset(b);
	buf_put_uv(b, gs->n);
	for (uint32_t i = 0; i < gs->n; i++)
		run_group_serialize(&gs->g[i], b);
}

void groups_merge(void *acc, struct reader *rd)
{
	uint64_t n = get_count(rd, reader_left(rd));
	for (uint64_t i = 0; i < n && !rd->bad; i++) {
		struct run_group g;
		memset(&g, 0, sizeof g);
		if (!run_group_parse(&g, rd)) {
			run_group_free(&g);
			return;
		}
		groups_add(acc, &g);
	}
}

