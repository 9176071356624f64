/*
 * ranklist — a set of ranks as a union of strided boxes, the ScalaTrace encoding (ScalaExtrap §2):
 * one box is <dims start len_1 stride_1 ... len_d stride_d> (outermost dimension first) and holds
 * the ranks start + sum_k i_k * stride_k for 0 <= i_k < len_k.
 *
 * SPMD codes give few boxes: the interior of a 2D grid is one 2D box, each edge one 1D box, each
 * corner one rank — whatever the rank count, which is what keeps trace size independent of it.
 *
 * A ranklist is stored flat as int64 values: box after box, each [dims, start, (len, stride)*dims].
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

void ranklist_init(struct ranklist *rl);
void ranklist_free(struct ranklist *rl);

/* Encode a sorted, duplicate-free array of ranks. */
void ranklist_from_ranks(struct ranklist *rl, const uint32_t *ranks, size_t n);

/* Check the flat encoding (dims in 1..RANKLIST_MAX_DIMS, lengths >= 1, strides >= 1, ranks in
 * [0, nranks)); on error fills why. */
bool ranklist_check(const int64_t *v, size_t len, uint64_t nranks, char *why, size_t whylen);

/* Number of ranks (boxes are disjoint when produced by ranklist_from_ranks); UINT64_MAX when
 * the count does not fit. */
uint64_t ranklist_count(const int64_t *v, size_t len);

/* Call fn for every rank, box by box in index order. Stops early when fn returns false. The
 * list must have passed ranklist_check. */
void ranklist_each(const int64_t *v, size_t len, bool (*fn)(uint64_t rank, void *arg), void *arg);

/* Number of boxes. */
size_t ranklist_boxes(const int64_t *v, size_t len);

/* "0-3,8,12:16:2" style text for people: ranks listed compactly. */
void ranklist_format(const int64_t *v, size_t len, char *out, size_t outlen);

#endif
