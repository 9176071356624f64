/*
 * split_grid — the process grid of a code that builds its row and column communicators with
 * MPI_Comm_split instead of MPI_Cart_create (a q x q solver). The tracer stores the colours and keys
 * of such splits as laws of the rank (run/rank_law.h): a coordinate of dimension i on a row-major
 * grid is (rank / s_i) mod d_i, so every term's divisor is a dimension's stride and divisor times
 * modulus the next one. The strides the laws name, sorted, are the grid: d_i = s_{i-1} / s_i.
 * See topology.h.
 */
#include "extrap/topology.h"

#include <stdio.h>
#include <string.h>

#include "run/stream.h"

/* add a stride below nranks to the sorted set s[0..*n) (s[0] = 1) */
static bool add_stride(uint64_t *s, uint32_t *n, uint64_t v, uint64_t nranks)
{
	if (v <= 1 || v >= nranks)
		return true;
	uint32_t i = 0;
	while (i < *n && s[i] < v)
		i++;
	if (i < *n && s[i] == v)
		return true;
	if (*n == LAW_MAX_DIMS)
		return false;
	memmove(s + i + 1, s + i, (*n - i) * sizeof *s);
	s[i] = v;
	(*n)++;
	return true;
}

/* is the law the rank itself on every rank of the run (colour = rank: every rank a communicator
 * of its own; key = rank: world's order)? Such a law names no grid dimension, whatever strides
 * the rung's grid writes it with. */
static bool is_rank(const struct rank_law *l, uint32_t nranks)
{
	for (uint32_t r = 0; r < nranks; r++)
		if (rank_law_eval(l, r) != (int64_t)r)
			return false;
	return true;
}

/* the strides the laws of the run's MPI_Comm_split streams name; false when more than a grid holds */
static bool split_strides(const struct run *r, uint64_t *s, uint32_t *n)
{
	s[0] = 1, *n = 1;
	for (uint32_t i = 0; i < r->nstreams; i++) {
		const struct run_stream *st = &r->streams[i];
		if (strcmp(r->fns[r->sigs[st->sig].fn].name, "MPI_Comm_split"))
			continue;
		for (uint32_t l = 0; l < st->nlaws; l++)
			for (uint32_t t = 0; !is_rank(&st->laws[l].law, r->nranks) && t < st->laws[l].law.nterms; t++) {
				const struct rank_law_term *x = &st->laws[l].law.terms[t];
				if (!add_stride(s, n, x->divisor, r->nranks) ||
				    (x->modulus && !add_stride(s, n, x->divisor * x->modulus, r->nranks)))
					return false;
			}
	}
	return true;
}

bool topology_from_splits(const struct run *r, struct grid *g, char *why, size_t whylen)
{
	uint64_t s[LAW_MAX_DIMS + 1];
	uint32_t n;
	if (!split_strides(r, s, &n)) {
		snprintf(why, whylen, "its MPI_Comm_split colours and keys name more than %d grid dimensions",
			 LAW_MAX_DIMS);
		return false;
	}
	if (n < 2) {
		snprintf(why, whylen, "no MPI_Comm_split colour or key is a law of a grid coordinate");
		return false;
	}
	s[n] = r->nranks;
	g->ndims = n;
	for (uint32_t k = 0; k < n; k++) {
		uint64_t hi = s[n - k], lo = s[n - k - 1];
		if (hi % lo) {
			snprintf(why, whylen, "its MPI_Comm_split laws' strides %llu and %llu are not those of a grid of %u "
				 "ranks", (unsigned long long)lo, (unsigned long long)hi, r->nranks);
			return false;
		}
		g->dims[k] = (int64_t)(hi / lo);
	}
	return true;
}
