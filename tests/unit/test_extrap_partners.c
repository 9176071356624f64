/* Unit tests for extrap/partners: the search of partner families and loop laws over a ladder of
 * runs built in memory — recursive doubling over the ranks (dest = rank XOR 2^k for k < log2 P)
 * from 2, 4 and 8 ranks to 16, and peers that follow no family, refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "extrap/partners.h"
#include "mpi/signature.h"
#include "run/events.h"
#include "run_builder.h"

#define SITE 7000

/* every rank: MPI_Barrier, then for k < log2 P a Sendrecv with partner(rank, k), tag k */
static void rung(struct rb *b, uint32_t P, int64_t (*partner)(int64_t rank, uint32_t k, uint32_t P))
{
	uint32_t of_rank[8];
	for (uint32_t q = 0; q < P; q++)
		of_rank[q] = q;
	rb_init(b, P);
	rb_groups(b, of_rank, P);
	for (uint32_t q = 0; q < P; q++) {
		rb_switch(b, q);
		const int64_t world = COMM_ID_WORLD;
		rb_call(b, "MPI_Barrier", &world, 1, 1);
		for (uint32_t k = 0; (1u << k) < P; k++) {
			int64_t off = partner(q, k, P) - q;
			const int64_t v[14] = {BUF_USER, 8, 5, 8, off, k, BUF_USER, 8, 5, 8, off, off, k, COMM_ID_WORLD};
			rb_call(b, "MPI_Sendrecv", v, 14, 1);
		}
	}
	for (uint32_t s = 0; s < b->r.nsigs; s++)   /* one call site per function, as a loop has */
		b->r.sigs[s].callsite = SITE + b->r.sigs[s].fn;
	rb_finish(b);
}

static int64_t xor_partner(int64_t rank, uint32_t k, uint32_t P) { (void)P; return rank ^ (INT64_C(1) << k); }
static int64_t scrambled(int64_t rank, uint32_t k, uint32_t P) { return (rank * 3 + 1 + k) % P; }

static bool extrapolate(int64_t (*partner)(int64_t, uint32_t, uint32_t), struct run *out, char *families,
			size_t flen, char *why, size_t whylen)
{
	struct rb b[3], o;
	const uint32_t P[3] = {2, 4, 8};
	struct run *rungs[3];
	for (int i = 0; i < 3; i++) {
		rung(&b[i], P[i], partner);
		rungs[i] = &b[i].r;
	}
	rb_init(&o, 16);   /* the header: the rungs' functions in their order */
	rb_fn(&o, "MPI_Barrier");
	rb_fn(&o, "MPI_Sendrecv");
	free(o.r.streams);
	o.r.streams = NULL;
	free(o.of_rank);
	sequitur_free(o.seq[0]);
	struct extrap_options opts = {.target = 16};
	struct grid target = {0};
	char rule[200];
	bool ok = partners_build(rungs, 3, &opts, &o.r, &target, rule, sizeof rule, families, flen, why, whylen);
	*out = o.r;
	for (int i = 0; i < 3; i++)
		run_free(&b[i].r);
	if (ok) {
		assert_int_equal(target.ndims, 1);
		assert_int_equal(target.dims[0], 16);
	}
	return ok;
}

static void recursive_doubling_over_the_ranks(void **state)
{
	(void)state;
	struct run out;
	char families[600], why[700];
	bool ok = extrapolate(xor_partner, &out, families, sizeof families, why, sizeof why);
	if (!ok)
		fail_msg("%s", why);
	assert_non_null(strstr(families, "MPI_Sendrecv: loops of log2(d0) calls, partners xor 2^k in dimension 0 (k = j)"));
	if (!run_check(&out, why, sizeof why))
		fail_msg("%s", why);
	assert_int_equal(out.ngroups, 2);   /* rank 0, the others: whatever P */
	for (uint32_t rank = 0; rank < 16; rank++) {   /* every rank: 4 calls to rank XOR 2^k, tag k */
		struct event_iter it;
		struct event ev;
		uint32_t k = 0;
		event_iter_init(&it, &out, rank);
		while (event_next(&it, &ev)) {
			if (strcmp(ev.fn->name, "MPI_Sendrecv"))
				continue;
			assert_int_equal(ev.vals[4], (int64_t)(rank ^ (1u << k)) - rank);
			assert_int_equal(ev.vals[10], ev.vals[4]);
			assert_int_equal(ev.vals[5], k);
			k++;
		}
		assert_string_equal(it.error, "");
		event_iter_free(&it);
		assert_int_equal(k, 4);
	}
	run_free(&out);
}

static void peers_of_no_family_are_refused(void **state)
{
	(void)state;
	struct run out;
	char families[600], why[700];
	assert_false(extrapolate(scrambled, &out, families, sizeof families, why, sizeof why));
	assert_non_null(strstr(why, "follow no partner family"));
	run_free(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(recursive_doubling_over_the_ranks),
		cmocka_unit_test(peers_of_no_family_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
