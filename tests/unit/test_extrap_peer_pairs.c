/* Unit tests for extrap/peer_pairs' dense sites: a site where every rank talks to every other, or
 * one rank to every other and they to it alone, is no grid neighbourhood and is left out of grid
 * detection, at every rung alike, when some other site remains. Pairs are built by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/peer_pairs.h"
#include "util/xalloc.h"

enum { HALO = 1, GATHER = 2, ALL = 3 };

static void add(struct peer_pairs *p, int64_t me, int64_t peer, uint64_t site)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 64;
		p->me = xrealloc(p->me, p->cap * sizeof *p->me);
		p->off = xrealloc(p->off, p->cap * sizeof *p->off);
		p->site = xrealloc(p->site, p->cap * sizeof *p->site);
	}
	p->me[p->n] = me, p->off[p->n] = peer - me, p->site[p->n++] = site;
}

/* a 1-D open halo of n ranks at site HALO, plus what `with` asks: a gather to rank 0 (GATHER) or
 * every rank with every other (ALL) */
static void rung(struct peer_pairs *p, int64_t n, int with)
{
	memset(p, 0, sizeof *p);
	for (int64_t r = 0; r < n; r++) {
		if (r > 0)
			add(p, r, r - 1, HALO);
		if (r + 1 < n)
			add(p, r, r + 1, HALO);
		for (int64_t q = 0; q < n; q++)
			if (q != r && ((with == GATHER && (r == 0 || q == 0)) || with == ALL))
				add(p, r, q, (uint64_t)with);
	}
}

static size_t count_site(const struct peer_pairs *p, uint64_t site)
{
	size_t k = 0;
	for (size_t i = 0; i < p->n; i++)
		k += p->site[i] == site;
	return k;
}

static void test_gather_and_all_to_all_dropped(void **state)
{
	(void)state;
	for (int with = GATHER; with <= ALL; with++) {
		struct peer_pairs p[3];
		int64_t nranks[3] = {4, 6, 9};
		for (int i = 0; i < 3; i++)
			rung(&p[i], nranks[i], with);
		assert_int_equal(peer_pairs_drop_dense(p, nranks, 3), 1);
		for (int i = 0; i < 3; i++) {
			assert_int_equal(count_site(&p[i], (uint64_t)with), 0);
			assert_int_equal(count_site(&p[i], HALO), 2 * (size_t)(nranks[i] - 1));
			peer_pairs_free(&p[i]);
		}
	}
}

/* a halo of 3 ranks is every rank with every other, and so is a site at rung 0; at rung 1 it is
 * not: the site is kept at every rung */
static void test_dense_at_one_rung_only_kept(void **state)
{
	(void)state;
	struct peer_pairs p[2];
	int64_t nranks[2] = {3, 6};
	rung(&p[0], 3, GATHER);
	rung(&p[1], 6, GATHER);
	for (int64_t r = 0; r < 3; r++)   /* site 9: every rank with every other at 3 ranks */
		for (int64_t q = 0; q < 3; q++)
			if (q != r)
				add(&p[0], r, q, 9);
	add(&p[1], 2, 3, 9);   /* at 6 ranks one pair */
	assert_int_equal(peer_pairs_drop_dense(p, nranks, 2), 1);
	assert_int_equal(count_site(&p[0], 9), 6);
	assert_int_equal(count_site(&p[1], 9), 1);
	assert_int_equal(count_site(&p[1], GATHER), 0);
	peer_pairs_free(&p[0]);
	peer_pairs_free(&p[1]);
}

/* a master that sends to every worker at one site and workers that send to it at another: both
 * are a star, nothing else remains, nothing is dropped; beside a halo both go */
static void test_master_worker_sites(void **state)
{
	(void)state;
	for (int halo = 0; halo < 2; halo++) {
		struct peer_pairs p[2];
		int64_t nranks[2] = {4, 9};
		for (int i = 0; i < 2; i++) {
			memset(&p[i], 0, sizeof p[i]);
			for (int64_t r = 1; r < nranks[i]; r++)
				add(&p[i], 0, r, 7), add(&p[i], r, 0, 8);
			for (int64_t r = 0; halo && r + 1 < nranks[i]; r++)
				add(&p[i], r, r + 1, HALO);
		}
		assert_int_equal(peer_pairs_drop_dense(p, nranks, 2), halo ? 2 : 0);
		assert_int_equal(count_site(&p[1], 8), halo ? 0 : 8);
		peer_pairs_free(&p[0]);
		peer_pairs_free(&p[1]);
	}
}

/* only dense sites: nothing is dropped (the grid never comes from no pairs) */
static void test_only_dense_sites_kept(void **state)
{
	(void)state;
	struct peer_pairs p;
	int64_t nranks = 5;
	memset(&p, 0, sizeof p);
	for (int64_t r = 1; r < 5; r++)
		add(&p, 0, r, GATHER), add(&p, r, 0, GATHER);
	assert_int_equal(peer_pairs_drop_dense(&p, &nranks, 1), 0);
	assert_int_equal(p.n, 8);
	peer_pairs_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gather_and_all_to_all_dropped),
		cmocka_unit_test(test_dense_at_one_rung_only_kept),
		cmocka_unit_test(test_master_worker_sites),
		cmocka_unit_test(test_only_dense_sites_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
