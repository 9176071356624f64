/*
 * ranklist — a set of ranks as a union of strided boxes, the ScalaTrace encoding (ScalaExtrap §2):
 * one box is <dims start len_1 stride_1 ... len_d stride_d> (outermost dimension first) and holds
 * the ranks start + sum_k i_k * stride_k for 0 <= i_k < len_k.
 *
 * SPMD codes give few boxes: the interior of a 2D grid is one 2D box, each edge one 1D box, each
 * corner one rank — whatever the rank count, which is what keeps trace size independent of it.
 *
 * A ranklist is stored flat as int64 values: box after box, each [dims, start, (len, stride)*dims].
 * ranklist.c encodes, walks and looks ranks up; ranklist_union.c combines lists.
 */
#ifndef LADDER_RUN_RANKLIST_H
#define LADDER_RUN_RANKLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RANKLIST_MAX_DIMS 8

struct ranklist {
	int64_t *v;
	size_t len, cap;
};

struct ranklist_box {
	int dims;
	int64_t start;
	int64_t len[RANKLIST_MAX_DIMS], stride[RANKLIST_MAX_DIMS];   /* outermost first */
};

void ranklist_init(struct ranklist *rl);
void ranklist_free(struct ranklist *rl);

/* A ranklist built from ranks added in increasing order, one by one or as runs of consecutive
 * ranks (memory: the boxes of the first folding level); finish writes it into rl, frees the
 * builder and returns the number of ranks; free drops it unfinished. */
struct ranklist_builder;
struct ranklist_builder *ranklist_builder_new(void);
void ranklist_builder_add(struct ranklist_builder *b, uint32_t rank);
void ranklist_builder_add_run(struct ranklist_builder *b, uint32_t start, uint32_t len);
uint64_t ranklist_builder_finish(struct ranklist_builder *b, struct ranklist *rl);
void ranklist_builder_free(struct ranklist_builder *b);

/* Encode a sorted, duplicate-free array of ranks. Memory: the boxes of the first folding level,
 * never one per rank. */
void ranklist_from_ranks(struct ranklist *rl, const uint32_t *ranks, size_t n);

/* The ranks first .. first + n - 1 (one box; none when n is 0). */
void ranklist_from_range(struct ranklist *rl, uint32_t first, uint32_t n);

/* Where lists share a rank or one list names its ranks out of order: the rank and the lists. */
struct ranklist_clash {
	uint64_t rank;
	size_t a, b;               /* a == b: list a's ranks are out of order (or repeat) there */
};

/* The union of n lists (each passed ranklist_check) in the encoding ranklist_from_ranks gives
 * those ranks (out may be NULL: only check), and their number in *count (may be NULL); false with
 * clash filled when two lists share a rank or a list's boxes do not name its ranks in increasing
 * order. Work and memory follow the lists' rows (runs of consecutive ranks), not their ranks. */
bool ranklist_union(struct ranklist *out, const struct ranklist *const *lists, size_t n, uint64_t *count,
		    struct ranklist_clash *clash);

/* Check the flat encoding (dims in 1..RANKLIST_MAX_DIMS, lengths >= 1, strides >= 1, ranks in
 * [0, nranks)), and by the boxes' arithmetic alone that no box names more ranks than the span it
 * lies in and the boxes no more than nranks (either names a rank twice); on error fills why.
 * Work follows the boxes, never the ranks. */
bool ranklist_check(const int64_t *v, size_t len, uint64_t nranks, char *why, size_t whylen);

/* Number of ranks (boxes are disjoint when produced by ranklist_from_ranks); UINT64_MAX when
 * the count does not fit. */
uint64_t ranklist_count(const int64_t *v, size_t len);

/* The ranks of a flat encoding (passed ranklist_check) in the encoding ranklist_from_ranks gives
 * them, whatever the order of its boxes; false with clash filled (its rank, the boxes' indexes)
 * when two boxes, or one, name a rank twice. Work and memory follow the rows of the boxes, except
 * for a box whose strides do not nest (each beyond the span inside it): its ranks are sorted. */
bool ranklist_normalize(struct ranklist *out, const int64_t *v, size_t len, struct ranklist_clash *clash);

/* dst (initialized) becomes a copy of src. */
void ranklist_copy(struct ranklist *dst, const struct ranklist *src);

/* into becomes the union of into and from, which share no rank. */
void ranklist_join(struct ranklist *into, const struct ranklist *from);

/* A walk over a list's ranks, box by box in index order, or over its runs of consecutive ranks
 * (a box's rows when its innermost stride is 1). The list must have passed ranklist_check. */
struct ranklist_iter {
	const int64_t *v;
	size_t len, pos;
	struct ranklist_box box;
	int64_t idx[RANKLIST_MAX_DIMS];
	bool in_box;
	uint64_t run_at, run_left;
};
struct ranklist_iter ranklist_walk(const int64_t *v, size_t len);
bool ranklist_next(struct ranklist_iter *it, uint32_t *rank);
bool ranklist_next_run(struct ranklist_iter *it, uint64_t *start, uint64_t *len);
/* every rank of a ranklist, in index order */
#define RANKLIST_FOR(rank, rl) \
	for (struct ranklist_iter rank##_it_ = ranklist_walk((rl)->v, (rl)->len); ranklist_next(&rank##_it_, &(rank));)

/* Call fn for every rank, in index order. Stops early when fn returns false. */
void ranklist_each(const int64_t *v, size_t len, bool (*fn)(uint64_t rank, void *arg), void *arg);

/* The first rank (the list is not empty); rank's position in index order, or -1 when it is not
 * in the list (arithmetic per box: work follows the boxes); whether it is in. Positions are
 * those of ranks sorted when the list came from ranklist_from_ranks or ranklist_union. */
uint32_t ranklist_first(const struct ranklist *rl);
int64_t ranklist_index(const struct ranklist *rl, uint32_t rank);
bool ranklist_contains(const struct ranklist *rl, uint32_t rank);

/* The box at v[*pos], *pos moved past it; false when the encoding is malformed there. */
bool ranklist_next_box(const int64_t *v, size_t len, size_t *pos, struct ranklist_box *b);

/* Number of boxes. */
size_t ranklist_boxes(const int64_t *v, size_t len);

/* "0-3,8,12:16:2" style text for people: ranks listed compactly. */
void ranklist_format(const int64_t *v, size_t len, char *out, size_t outlen);

#endif
