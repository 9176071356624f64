/*
 * share — count and displacement arrays stated by rule instead of element by element: how a
 * synthetic run (`ladder extrap --lossy`) keeps a call whose per-peer counts are data (an
 * Alltoallv's bucket sizes) but whose per-rank total has a law. The total at the target is split
 * evenly over the n members of the communicator, the remainder rotated so that every rank sends
 * and receives the same amount:
 *
 *     share(T, n, from, to) = T / n + ((to - from) mod n < T mod n ? 1 : 0)
 *
 * is what rank `from` sends rank `to`. It is a function of the pair and the total alone, so the
 * sender and the receiver compute the same number for every pair (the receive count rank j
 * expects from i equals what i sends j), and sum over `to` of share = sum over `from` of share = T.
 * Displacements are the prefix sums of the counts beside them.
 *
 * In a signature the array's group is four values: SV_SHARED, n, T, rule (mpi/signature.h). The
 * reading rank is its world rank: the pairwise rules are written only for calls over
 * MPI_COMM_WORLD; SHARE_EVEN (the same array on every rank) holds over any communicator.
 */
#ifndef LADDER_RUN_SHARE_H
#define LADDER_RUN_SHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum share_rule {
	SHARE_TO = 0,             /* counts the rank sends each peer: share(T, n, me, k) */
	SHARE_FROM = 1,           /* counts it receives from each peer: share(T, n, k, me) */
	SHARE_EVEN = 2,           /* the same on every rank: share(T, n, 0, k) */
	SHARE_TO_DISPLS = 3,      /* the prefix sums of SHARE_TO's counts */
	SHARE_FROM_DISPLS = 4,
	SHARE_EVEN_DISPLS = 5,
	SHARE_RULES = 6
};

extern const char *const share_rule_names[SHARE_RULES];   /* "to", "from", ... */

/* what rank `from` sends rank `to` of n when it sends T in all (n >= 1, T >= 0, ranks < n) */
int64_t share_count(int64_t total, int64_t n, int64_t from, int64_t to);
/* the counts rule (SHARE_TO, _FROM or _EVEN) a displacement rule sums up */
enum share_rule share_counts_rule(enum share_rule rule);
bool share_rule_is_displs(enum share_rule rule);
/* element k of the array (n, total, rule) as rank me reads it; O(1) for counts, O(k) for displs */
int64_t share_element(int64_t n, int64_t total, enum share_rule rule, uint32_t me, int64_t k);
/* the whole array, n values, into out: O(n) */
void share_fill(int64_t n, int64_t total, enum share_rule rule, uint32_t me, int64_t *out);
/* a group (SV_SHARED, n, total, rule) that makes sense: n >= 1, total >= 0, a known rule (false
 * with what is wrong in why) */
bool share_group_check(const int64_t *g, char *why, size_t whylen);

struct fn_desc;
/* a signature's values with every array stated by rule written out as rank me reads it, into
 * *out (grown as needed, *cap its room); their number. Values without such arrays are copied. */
uint32_t share_expand(const struct fn_desc *d, const int64_t *v, uint32_t nvals, uint32_t me, int64_t **out,
		      size_t *cap);

#endif
