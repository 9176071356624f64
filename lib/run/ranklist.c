/*
 * ranklist — rank sets as unions of strided boxes. See ranklist.h.
 *
 * Encoding is bottom-up: sorted ranks become maximal contiguous runs (1D boxes of stride 1);
 * then, level by level, consecutive boxes of identical shape whose starts advance by a constant
 * stride fold into one box with an extra outer dimension (rows into a plane, planes into a volume;
 * single ranks at a constant distance into a strided line). The runs stream into the first level
 * as they are found (struct folder), so memory follows the boxes that level leaves, not the ranks.
 *
 * Reading goes the other way: a list's runs (struct ranklist_iter), box by box in index order;
 * a rank's position in a box is arithmetic. Unions of lists are in ranklist_union.c.
 */
#include "run/ranklist.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void ranklist_init(struct ranklist *rl) { memset(rl, 0, sizeof *rl); }

void ranklist_free(struct ranklist *rl)
{
	free(rl->v);
	ranklist_init(rl);
}

static void put(struct ranklist *rl, int64_t x)
{
	XGROW(rl->v, rl->cap, rl->len + 1);
	rl->v[rl->len++] = x;
}

static bool same_shape(const struct ranklist_box *a, const struct ranklist_box *b)
{
	if (a->dims != b->dims)
		return false;
	for (int k = 0; k < a->dims; k++)
		if (a->len[k] != b->len[k] || a->stride[k] != b->stride[k])
			return false;
	return true;
}

/* Span of a box: distance from its start to its last rank. */
static int64_t span(const struct ranklist_box *b)
{
	int64_t s = 0;
	for (int k = 0; k < b->dims; k++)
		s += (b->len[k] - 1) * b->stride[k];
	return s;
}

/* One level of folding, fed box by box: the boxes of a run of copies (same shape, starts a
 * constant stride apart, each after the previous one's end) wait in `first`, `count` and
 * `stride`; a box that does not continue them emits them, folded when there are two or more. */
struct folder {
	struct ranklist_box first;
	size_t count;
	int64_t stride;
	struct ranklist_box *out;
	size_t nout, cap;
};

/* ranks, ascending, coalesced into runs that feed the first level */
struct ranklist_builder {
	struct folder f;
	uint64_t at, len, count;
};

static void folder_emit(struct folder *f)
{
	if (!f->count)
		return;
	struct ranklist_box b = f->first;
	if (f->count >= 2) {
		memmove(b.len + 1, f->first.len, f->first.dims * sizeof b.len[0]);
		memmove(b.stride + 1, f->first.stride, f->first.dims * sizeof b.stride[0]);
		b.len[0] = (int64_t)f->count;
		b.stride[0] = f->stride;
		b.dims = f->first.dims + 1;
	}
	/* boxes stay disjoint and ordered: each ends before the next starts */
	assert(!f->nout || f->out[f->nout - 1].start + span(&f->out[f->nout - 1]) < b.start);
	XGROW(f->out, f->cap, f->nout + 1);
	f->out[f->nout++] = b;
	f->count = 0;
}

static void folder_push(struct folder *f, const struct ranklist_box *b)
{
	if (f->count == 1 && f->first.dims < RANKLIST_MAX_DIMS && same_shape(&f->first, b) &&
	    b->start - f->first.start > span(&f->first)) {
		f->stride = b->start - f->first.start;
		f->count = 2;
		return;
	}
	if (f->count >= 2 && same_shape(&f->first, b) && b->start == f->first.start + (int64_t)f->count * f->stride) {
		f->count++;
		return;
	}
	folder_emit(f);
	f->first = *b;
	f->count = 1;
}

static void folder_run(struct folder *f, int64_t start, int64_t len)
{
	struct ranklist_box b = {.dims = 1, .start = start};
	b.len[0] = len;
	b.stride[0] = 1;
	folder_push(f, &b);
}

/* Fold the first level's boxes (f, finished) level by level until nothing folds; write them. */
static void folder_finish(struct folder *f, struct ranklist *rl)
{
	folder_emit(f);
	for (;;) {
		struct folder next = {0};
		for (size_t i = 0; i < f->nout; i++)
			folder_push(&next, &f->out[i]);
		folder_emit(&next);
		bool same = next.nout == f->nout;
		free(f->out);
		*f = next;
		if (same)
			break;
	}
	rl->len = 0;
	for (size_t i = 0; i < f->nout; i++) {
		put(rl, f->out[i].dims);
		put(rl, f->out[i].start);
		for (int k = 0; k < f->out[i].dims; k++) {
			put(rl, f->out[i].len[k]);
			put(rl, f->out[i].stride[k]);
		}
	}
	free(f->out);
	memset(f, 0, sizeof *f);
}

struct ranklist_builder *ranklist_builder_new(void) { return xcalloc(1, sizeof(struct ranklist_builder)); }

void ranklist_builder_add(struct ranklist_builder *b, uint32_t rank) { ranklist_builder_add_run(b, rank, 1); }

void ranklist_builder_add_run(struct ranklist_builder *b, uint32_t start, uint32_t len)
{
	assert(len && (!b->count || start >= b->at + b->len));   /* ascending, distinct: boxes come out disjoint */
	b->count += len;
	if (b->len && start == b->at + b->len) {
		b->len += len;
		return;
	}
	if (b->len)
		folder_run(&b->f, (int64_t)b->at, (int64_t)b->len);
	b->at = start, b->len = len;
}

uint64_t ranklist_builder_finish(struct ranklist_builder *b, struct ranklist *rl)
{
	if (b->len)
		folder_run(&b->f, (int64_t)b->at, (int64_t)b->len);
	folder_finish(&b->f, rl);
	uint64_t n = b->count;
	free(b);
	assert(ranklist_count(rl->v, rl->len) == n);   /* folding neither lost nor invented a rank */
	return n;
}

void ranklist_builder_free(struct ranklist_builder *b)
{
	free(b->f.out);
	free(b);
}

void ranklist_from_ranks(struct ranklist *rl, const uint32_t *ranks, size_t n)
{
	struct ranklist_builder *b = ranklist_builder_new();
	for (size_t i = 0; i < n; i++)
		ranklist_builder_add(b, ranks[i]);
	ranklist_builder_finish(b, rl);
}

void ranklist_copy(struct ranklist *dst, const struct ranklist *src)
{
	dst->len = 0;
	for (size_t i = 0; i < src->len; i++)
		put(dst, src->v[i]);
}

void ranklist_from_range(struct ranklist *rl, uint32_t first, uint32_t n)
{
	rl->len = 0;
	if (!n)
		return;
	put(rl, 1);
	put(rl, first);
	put(rl, n);
	put(rl, 1);
}

static uint64_t saturating_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t saturating_mul(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

bool ranklist_next_box(const int64_t *v, size_t len, size_t *pos, struct ranklist_box *b)
{
	if (*pos + 2 > len)
		return false;
	int64_t dims = v[*pos];
	if (dims < 1 || dims > RANKLIST_MAX_DIMS || *pos + 2 + 2 * (size_t)dims > len)
		return false;
	b->dims = (int)dims;
	b->start = v[*pos + 1];
	for (int k = 0; k < b->dims; k++) {
		b->len[k] = v[*pos + 2 + 2 * k];
		b->stride[k] = v[*pos + 3 + 2 * k];
	}
	*pos += 2 + 2 * (size_t)dims;
	return true;
}
bool ranklist_check(const int64_t *v, size_t len, uint64_t nranks, char *why, size_t whylen)
{
	size_t pos = 0;
	struct ranklist_box b;
	uint64_t total = 0;   /* the ranks the boxes name, saturating */
	for (size_t box = 0; pos < len; box++) {
		if (!ranklist_next_box(v, len, &pos, &b)) {
			snprintf(why, whylen, "box %zu is truncated or has a bad dimension count", box);
			return false;
		}
		if (b.start < 0) {
			snprintf(why, whylen, "box %zu starts at negative rank %lld", box, (long long)b.start);
			return false;
		}
		/* the last rank, start + sum (len - 1) * stride, in arithmetic that saturates instead
		 * of overflowing */
		uint64_t last = (uint64_t)b.start, count = 1;
		for (int k = 0; k < b.dims; k++) {
			if (b.len[k] < 1 || b.stride[k] < 1 || (uint64_t)b.len[k] > nranks ||
			    (uint64_t)b.stride[k] > nranks) {
				snprintf(why, whylen, "box %zu has length %lld / stride %lld in dimension %d "
					 "(each must be 1 to the run's %llu ranks)", box, (long long)b.len[k],
					 (long long)b.stride[k], k, (unsigned long long)nranks);
				return false;
			}
			last = saturating_add(last, saturating_mul((uint64_t)(b.len[k] - 1), (uint64_t)b.stride[k]));
			count = saturating_mul(count, (uint64_t)b.len[k]);
		}
		if (last >= nranks) {
			if (last == UINT64_MAX)
				snprintf(why, whylen, "box %zu reaches beyond any rank, but the run has %llu ranks", box,
					 (unsigned long long)nranks);
			else
				snprintf(why, whylen, "box %zu reaches rank %llu, but the run has %llu ranks", box,
					 (unsigned long long)last, (unsigned long long)nranks);
			return false;
		}
		/* by the boxes' arithmetic alone, never rank by rank: more ranks than the span they lie in,
		 * or than the run has, name some rank twice */
		if (count > last - (uint64_t)b.start + 1) {
			snprintf(why, whylen, "box %zu names %llu ranks among the %llu from %lld to %llu: some twice", box,
				 (unsigned long long)count, (unsigned long long)(last - (uint64_t)b.start + 1),
				 (long long)b.start, (unsigned long long)last);
			return false;
		}
		total = saturating_add(total, count);
		if (total > nranks) {
			snprintf(why, whylen, "its boxes name more than the run's %llu ranks: some twice",
				 (unsigned long long)nranks);
			return false;
		}
	}
	return true;
}
uint64_t ranklist_count(const int64_t *v, size_t len)
{
	uint64_t total = 0;
	size_t pos = 0;
	struct ranklist_box b;
	while (pos < len && ranklist_next_box(v, len, &pos, &b)) {
		uint64_t n = 1;
		for (int k = 0; k < b.dims; k++)
			n = saturating_mul(n, b.len[k] > 0 ? (uint64_t)b.len[k] : 0);
		total = saturating_add(total, n);
	}
	return total;
}
size_t ranklist_boxes(const int64_t *v, size_t len)
{
	size_t n = 0, pos = 0;
	struct ranklist_box b;
	while (pos < len && ranklist_next_box(v, len, &pos, &b))
		n++;
	return n;
}

/* A box's runs: with stride 1 innermost, one run per row (its innermost dimension); otherwise
 * every rank a run of its own. */
static int run_dims(const struct ranklist_box *b) { return b->stride[b->dims - 1] == 1 ? b->dims - 1 : b->dims; }

struct ranklist_iter ranklist_walk(const int64_t *v, size_t len)
{
	return (struct ranklist_iter){.v = v, .len = len};
}

static bool iter_box(struct ranklist_iter *it)
{
	if (it->pos >= it->len || !ranklist_next_box(it->v, it->len, &it->pos, &it->box))
		return false;
	for (int k = 0; k < it->box.dims; k++)
		assert(it->box.len[k] >= 1 && it->box.stride[k] >= 1);   /* ranklist_check passed */
	memset(it->idx, 0, sizeof it->idx);
	it->in_box = true;
	return true;
}

bool ranklist_next_run(struct ranklist_iter *it, uint64_t *start, uint64_t *len)
{
	if (!it->in_box && !iter_box(it))
		return false;
	const struct ranklist_box *b = &it->box;
	int d = run_dims(b);
	int64_t r = b->start;
	for (int k = 0; k < d; k++)
		r += it->idx[k] * b->stride[k];
	*start = (uint64_t)r;
	*len = d < b->dims ? (uint64_t)b->len[d] : 1;
	int k = d - 1;
	while (k >= 0 && ++it->idx[k] == b->len[k])
		it->idx[k--] = 0;
	it->in_box = k >= 0;
	return true;
}

bool ranklist_next(struct ranklist_iter *it, uint32_t *rank)
{
	if (it->run_left == 0 && !ranklist_next_run(it, &it->run_at, &it->run_left))
		return false;
	*rank = (uint32_t)it->run_at++;
	it->run_left--;
	return true;
}

void ranklist_each(const int64_t *v, size_t len, bool (*fn)(uint64_t rank, void *arg), void *arg)
{
	struct ranklist_iter it = ranklist_walk(v, len);
	uint32_t rank;
	while (ranklist_next(&it, &rank) && fn(rank, arg))
		;
}

uint32_t ranklist_first(const struct ranklist *rl)
{
	assert(rl->len >= 2);
	return (uint32_t)rl->v[1];
}

/* rank's index within box b (outermost dimension first: the boxes ranklist_from_ranks makes
 * nest, each stride beyond the span of the dimensions inside it), or -1 */
static int64_t box_index(const struct ranklist_box *b, int64_t rank)
{
	int64_t d = rank - b->start, at = 0;
	if (d < 0)
		return -1;
	for (int k = 0; k < b->dims; k++) {
		int64_t i = b->len[k] > 1 ? d / b->stride[k] : 0;
		if (i >= b->len[k])
			return -1;
		d -= i * b->stride[k];
		at = at * b->len[k] + i;
	}
	return d == 0 ? at : -1;
}

int64_t ranklist_index(const struct ranklist *rl, uint32_t rank)
{
	size_t pos = 0;
	int64_t before = 0;
	struct ranklist_box b;
	while (pos < rl->len && ranklist_next_box(rl->v, rl->len, &pos, &b)) {
		int64_t at = box_index(&b, rank);
		if (at >= 0)
			return before + at;
		before += (int64_t)ranklist_count(rl->v + pos - 2 - 2 * (size_t)b.dims, 2 + 2 * (size_t)b.dims);
	}
	return -1;
}

bool ranklist_contains(const struct ranklist *rl, uint32_t rank) { return ranklist_index(rl, rank) >= 0; }

void ranklist_format(const int64_t *v, size_t len, char *out, size_t outlen)
{
	size_t pos = 0, used = 0;
	struct ranklist_box b;
	out[0] = 0;
	while (pos < len && ranklist_next_box(v, len, &pos, &b) && used < outlen) {
		int n = snprintf(out + used, outlen - used, "%s%lld", used ? " " : "", (long long)b.start);
		used += n > 0 ? (size_t)n : 0;
		for (int k = 0; k < b.dims && used < outlen; k++) {
			if (b.len[k] == 1)
				continue;
			n = snprintf(out + used, outlen - used, "+%lldx%lld", (long long)b.len[k],
				     (long long)b.stride[k]);
			used += n > 0 ? (size_t)n : 0;
		}
	}
}

