/*
 * peer_pairs — who talks to whom: every (rank, relative peer) pair of a run's point-to-point calls
 * (the PEER values and the posted sources, streamed values read), each once; and the test of a
 * grid against them: are the peers grid neighbours (ScalaExtrap §3.1 reads a topology from them)?
 */
#ifndef LADDER_EXTRAP_PEER_PAIRS_H
#define LADDER_EXTRAP_PEER_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "extrap/law.h"
#include "run/run.h"

struct peer_pairs {
	int64_t *me, *off;   /* rank me[i] talks to rank me[i] + off[i] */
	uint64_t *site;      /* at the site site[i]: a hash of function, call site, communicator, tag */
	size_t n, cap;
};

/* every distinct (rank, relative peer) pair; peer_pairs_collect_sites: every distinct (rank,
 * relative peer, site), a rank's pairs together, sorted by peer; peer_pairs_distinct makes the
 * latter the former */
void peer_pairs_collect(const struct run *r, struct peer_pairs *p);
void peer_pairs_collect_sites(const struct run *r, struct peer_pairs *p);
void peer_pairs_distinct(struct peer_pairs *p);
void peer_pairs_free(struct peer_pairs *p);
/* The pairs of the n rungs p (nranks[i] ranks at rung i) less those of the sites that are dense at
 * every rung that has them: every rank talks to every other, or one rank to every other and they
 * to it alone (PCMG's redundant coarse solve gathering the coarse vector to every rank, a PetscSF
 * set-up, a gather to a root by point-to-point calls). Their peer set is every rank, a law of P
 * and no grid neighbourhood. Dropped only when some site that is not dense remains; returns the
 * number of sites dropped. */
size_t peer_pairs_drop_dense(struct peer_pairs *p, const int64_t *nranks, size_t n);

/* are ranks a and b neighbours on g (row-major, last dimension fastest): one apart in one
 * dimension, or with moore in any number of them (the 27-point neighbourhood), possibly across a
 * dimension's ends? wraps[k] is set when they are neighbours only across the ends of dimension k
 * (a dimension of 3 or more) */
bool peer_neighbours(const struct grid *g, int64_t a, int64_t b, bool moore, bool *wraps);
/* does g explain every pair as neighbours? wraps[k]: some pair is across the ends of dimension k;
 * on false, *failed (when not NULL) is the index of the first pair that is not */
bool peer_grid_explains(const struct peer_pairs *p, int64_t nranks, const struct grid *g, bool moore, bool *wraps,
			size_t *failed);

#endif
