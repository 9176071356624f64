/*
 * ranklist_union — rank sets combined without visiting their ranks: several lists' runs (rows of
 * consecutive ranks) merged in rank order through a heap, coalesced and folded by the builder into
 * the encoding ranklist_from_ranks gives the same ranks; a rank two lists share is a clash. Joins,
 * the normal form of a container's lists and run_check's disjointness all go through it. See
 * ranklist.h.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "run/ranklist.h"
#include "util/xalloc.h"

/* ranklist_union's sources: each list's next run, in a heap by its start */
struct source {
	struct ranklist_iter it;
	uint64_t start, len, end;   /* end: where the list's previous run ended */
	size_t list;
};

static bool source_less(const struct source *a, const struct source *b) { return a->start < b->start; }

static void sift_down(struct source *h, size_t n, size_t i)
{
	for (;;) {
		size_t m = i, l = 2 * i + 1, r = l + 1;
		if (l < n && source_less(&h[l], &h[m]))
			m = l;
		if (r < n && source_less(&h[r], &h[m]))
			m = r;
		if (m == i)
			return;
		struct source t = h[i];
		h[i] = h[m], h[m] = t;
		i = m;
	}
}

/* the heap's top moves to its list's next run; false when the list is done (the top is gone) or
 * its next run does not come after the one before (clash filled) */
static bool source_advance(struct source *h, size_t *n, struct ranklist_clash *clash)
{
	struct source *s = &h[0];
	s->end = s->start + s->len;
	if (!ranklist_next_run(&s->it, &s->start, &s->len)) {
		h[0] = h[--*n];
		sift_down(h, *n, 0);
		return true;
	}
	if (s->start < s->end) {
		*clash = (struct ranklist_clash){s->start, s->list, s->list};
		return false;
	}
	sift_down(h, *n, 0);
	return true;
}

bool ranklist_union(struct ranklist *out, const struct ranklist *const *lists, size_t n, uint64_t *count,
		    struct ranklist_clash *clash)
{
	struct source *h = xcalloc(n ? n : 1, sizeof *h);
	size_t nh = 0;
	for (size_t i = 0; i < n; i++) {
		h[nh].it = ranklist_walk(lists[i]->v, lists[i]->len);
		h[nh].list = i;
		if (ranklist_next_run(&h[nh].it, &h[nh].start, &h[nh].len))
			nh++;
	}
	for (size_t i = nh; i-- > 0;)
		sift_down(h, nh, i);
	struct ranklist_builder *f = out ? ranklist_builder_new() : NULL;
	uint64_t at = 0, len = 0, total = 0;   /* the run being coalesced */
	size_t owner = 0;
	bool ok = true;
	while (nh && ok) {
		const struct source *s = &h[0];
		if (len && s->start < at + len) {
			*clash = (struct ranklist_clash){s->start, owner, s->list};
			ok = false;
			break;
		}
		if (len && s->start == at + len) {
			len += s->len;
		} else {
			if (len && f)
				ranklist_builder_add_run(f, (uint32_t)at, (uint32_t)len);
			at = s->start, len = s->len;
		}
		total += s->len, owner = s->list;
		ok = source_advance(h, &nh, clash);
	}
	if (len && f && ok)
		ranklist_builder_add_run(f, (uint32_t)at, (uint32_t)len);
	free(h);
	if (f && ok)
		ranklist_builder_finish(f, out);
	else if (f)
		ranklist_builder_free(f);
	if (count)
		*count = total;
	return ok;
}

void ranklist_join(struct ranklist *into, const struct ranklist *from)
{
	const struct ranklist *both[] = {into, from};
	struct ranklist u;
	struct ranklist_clash clash;
	ranklist_init(&u);
	bool apart = ranklist_union(&u, both, 2, NULL, &clash);
	assert(apart);
	(void)apart;
	ranklist_free(into);
	*into = u;
}

/* does each stride of b pass the span of the dimensions inside it (its ranks come in increasing
 * order, as the boxes ranklist_from_ranks makes)? */
static bool nests(const struct ranklist_box *b)
{
	int64_t inside = 0;
	for (int k = b->dims - 1; k >= 0; k--) {
		if (b->len[k] > 1 && b->stride[k] <= inside)
			return false;
		inside += (b->len[k] - 1) * b->stride[k];
	}
	return true;
}

static int rank_order(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

/* a box whose ranks do not come in order (the encoding allows it; no writer here makes one): its
 * ranks sorted into own; false with clash filled when it names one twice */
static bool sort_box(const int64_t *v, size_t n, size_t box, struct ranklist *own, struct ranklist_clash *clash)
{
	uint64_t count = ranklist_count(v, n);
	uint32_t *ranks = xmalloc((count + 1) * sizeof *ranks), rank;
	size_t k = 0;
	struct ranklist_iter it = ranklist_walk(v, n);
	while (ranklist_next(&it, &rank))
		ranks[k++] = rank;
	qsort(ranks, k, sizeof *ranks, rank_order);
	bool ok = true;
	for (size_t i = 1; i < k && ok; i++)
		if (ranks[i] == ranks[i - 1]) {
			*clash = (struct ranklist_clash){ranks[i], box, box};
			ok = false;
		}
	if (ok)
		ranklist_from_ranks(own, ranks, k);
	free(ranks);
	return ok;
}

bool ranklist_normalize(struct ranklist *out, const int64_t *v, size_t len, struct ranklist_clash *clash)
{
	size_t nboxes = ranklist_boxes(v, len), pos = 0;
	struct ranklist *boxes = xcalloc(nboxes + 1, sizeof *boxes), *own = xcalloc(nboxes + 1, sizeof *own);
	const struct ranklist **lists = xcalloc(nboxes + 1, sizeof *lists);
	struct ranklist_box b;
	bool ok = true;
	for (size_t i = 0; i < nboxes && ok && ranklist_next_box(v, len, &pos, &b); i++) {
		size_t n = 2 + 2 * (size_t)b.dims;
		boxes[i] = (struct ranklist){(int64_t *)(v + pos - n), n, n};   /* a view: never freed */
		lists[i] = &boxes[i];
		if (!nests(&b)) {
			ok = sort_box(v + pos - n, n, i, &own[i], clash);
			lists[i] = &own[i];
		}
	}
	ok = ok && ranklist_union(out, lists, nboxes, NULL, clash);
	for (size_t i = 0; i < nboxes; i++)
		ranklist_free(&own[i]);
	free(own);
	free(lists);
	free(boxes);
	return ok;
}
