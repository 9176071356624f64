/*
 * ranklist — rank sets as unions of strided boxes. See ranklist.h.
 *
 * Encoding is bottom-up: sorted ranks become maximal contiguous runs (1D boxes of stride 1);
 * then, level by level, consecutive boxes of identical shape whose starts advance by a constant
 * stride fold into one box with an extra outer dimension (rows into a plane, planes into a volume;
 * single ranks at a constant distance into a strided line).
 */
#include "run/ranklist.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct box {
	int dims;
	int64_t start;
	int64_t len[RANKLIST_MAX_DIMS], stride[RANKLIST_MAX_DIMS];   /* outermost first */
};

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

static bool same_shape(const struct box *a, const struct box *b)
{
	if (a->dims != b->dims)
		return false;
	for (int k = 0; k < a->dims; k++)
		if (a->len[k] != b->len[k] || a->stride[k] != b->stride[k])
			return false;
	return true;
}

/* Span of a box: distance from its start to its last rank. */
static int64_t span(const struct box *b)
{
	int64_t s = 0;
	for (int k = 0; k < b->dims; k++)
		s += (b->len[k] - 1) * b->stride[k];
	return s;
}

/* One folding pass; returns the new count of boxes. */
static size_t fold(struct box *boxes, size_t n)
{
	size_t out = 0;
	for (size_t i = 0; i < n;) {
		struct box first = boxes[i];
		size_t j = i + 1;
		int64_t stride = 0;
		if (j < n && first.dims < RANKLIST_MAX_DIMS && same_shape(&first, &boxes[j])) {
			stride = boxes[j].start - first.start;
			/* keep boxes disjoint and ordered: the next copy starts after this one ends */
			if (stride > span(&first)) {
				while (j < n && same_shape(&first, &boxes[j]) &&
				       boxes[j].start == first.start + (int64_t)(j - i) * stride)
					j++;
			} else {
				j = i + 1;
			}
		}
		if (j - i >= 2) {
			assert(first.dims < RANKLIST_MAX_DIMS && stride > span(&first));
			struct box b = first;
			memmove(b.len + 1, first.len, first.dims * sizeof b.len[0]);
			memmove(b.stride + 1, first.stride, first.dims * sizeof b.stride[0]);
			b.len[0] = (int64_t)(j - i);
			b.stride[0] = stride;
			b.dims = first.dims + 1;
			boxes[out++] = b;
		} else {
			boxes[out++] = first;
			j = i + 1;
		}
		i = j;
	}
	/* boxes stay disjoint and ordered: each ends before the next starts */
	for (size_t k = 1; k < out; k++)
		assert(boxes[k - 1].start + span(&boxes[k - 1]) < boxes[k].start);
	return out;
}

void ranklist_from_ranks(struct ranklist *rl, const uint32_t *ranks, size_t n)
{
	rl->len = 0;
	for (size_t i = 1; i < n; i++)
		assert(ranks[i] > ranks[i - 1]);   /* sorted, no duplicates: the boxes come out disjoint */
	struct box *boxes = xmalloc((n ? n : 1) * sizeof *boxes);
	size_t nb = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		assert(i == 0 || ranks[i] > ranks[i - 1]);   /* sorted and duplicate-free (run_check) */
		while (j < n && ranks[j] == ranks[j - 1] + 1)
			j++;
		struct box b = {.dims = 1, .start = ranks[i]};
		b.len[0] = (int64_t)(j - i);
		b.stride[0] = 1;
		boxes[nb++] = b;
		i = j;
	}
	for (;;) {
		size_t before = nb;
		nb = fold(boxes, nb);
		if (nb == before)
			break;
	}
	for (size_t i = 0; i < nb; i++) {
		put(rl, boxes[i].dims);
		put(rl, boxes[i].start);
		for (int k = 0; k < boxes[i].dims; k++) {
			put(rl, boxes[i].len[k]);
			put(rl, boxes[i].stride[k]);
		}
	}
	free(boxes);
	assert(ranklist_count(rl->v, rl->len) == n);   /* folding neither lost nor invented a rank */
}

static uint64_t saturating_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }
static uint64_t saturating_mul(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }

/* Parse box at v[*pos]; false when the encoding is malformed. */
static bool next_box(const int64_t *v, size_t len, size_t *pos, struct box *b)
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
	struct box b;
	for (size_t box = 0; pos < len; box++) {
		if (!next_box(v, len, &pos, &b)) {
			snprintf(why, whylen, "box %zu is truncated or has a bad dimension count", box);
			return false;
		}
		if (b.start < 0) {
			snprintf(why, whylen, "box %zu starts at negative rank %lld", box, (long long)b.start);
			return false;
		}
		/* the last rank, start + sum (len - 1) * stride, in arithmetic that saturates instead
		 * of overflowing */
		uint64_t last = (uint64_t)b.start;
		for (int k = 0; k < b.dims; k++) {
			if (b.len[k] < 1 || b.stride[k] < 1 || (uint64_t)b.len[k] > nranks ||
			    (uint64_t)b.stride[k] > nranks) {
				snprintf(why, whylen, "box %zu has length %lld / stride %lld in dimension %d "
					 "(each must be 1 to the run's %llu ranks)", box, (long long)b.len[k],
					 (long long)b.stride[k], k, (unsigned long long)nranks);
				return false;
			}
			last = saturating_add(last, saturating_mul((uint64_t)(b.len[k] - 1), (uint64_t)b.stride[k]));
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
	}
	return true;
}

uint64_t ranklist_count(const int64_t *v, size_t len)
{
	uint64_t total = 0;
	size_t pos = 0;
	struct box b;
	while (pos < len && next_box(v, len, &pos, &b)) {
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
	struct box b;
	while (pos < len && next_box(v, len, &pos, &b))
		n++;
	return n;
}

void ranklist_each(const int64_t *v, size_t len, bool (*fn)(uint64_t rank, void *arg), void *arg)
{
	size_t pos = 0;
	struct box b;
	while (pos < len && next_box(v, len, &pos, &b)) {
		int64_t idx[RANKLIST_MAX_DIMS] = {0};
		for (int k = 0; k < b.dims; k++)
			assert(b.len[k] >= 1 && b.stride[k] >= 1);   /* ranklist_check passed */
		for (;;) {
			int64_t r = b.start;
			for (int k = 0; k < b.dims; k++) {
				assert(idx[k] >= 0 && idx[k] < b.len[k]);
				r += idx[k] * b.stride[k];
			}
			if (!fn((uint64_t)r, arg))
				return;
			int k = b.dims - 1;
			while (k >= 0 && ++idx[k] == b.len[k])
				idx[k--] = 0;
			if (k < 0)
				break;
		}
	}
}

void ranklist_format(const int64_t *v, size_t len, char *out, size_t outlen)
{
	size_t pos = 0, used = 0;
	struct box b;
	out[0] = 0;
	while (pos < len && next_box(v, len, &pos, &b) && used < outlen) {
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
