/* Unit tests for run/share (count arrays stated by rule) and its check in meet/balance: the even
 * split with a rotated remainder gives every pair of ranks the same number on both sides, for
 * several rank counts and totals (below, at and above the rank count, with and without a
 * remainder); rows and columns sum to the total; displacements are prefix sums; a hand-made
 * Alltoallv run by rule meets, one whose receive side is another rule or total does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "meet/balance.h"
#include "grammar/sequitur.h"
#include "run/events.h"
#include "run/share.h"
#include "util/xalloc.h"

static const int64_t rank_counts[] = {1, 2, 3, 7, 9, 16, 36, 64, 100};
static const int64_t totals[] = {0, 1, 2, 5, 63, 64, 65, 256, 2291, 4608};
#define N(a) (sizeof(a) / sizeof((a)[0]))

static void pairs_agree(void **state)
{
	(void)state;
	for (size_t a = 0; a < N(rank_counts); a++)
		for (size_t b = 0; b < N(totals); b++) {
			int64_t n = rank_counts[a], t = totals[b];
			int64_t *to = xmalloc((size_t)n * sizeof *to), *from = xmalloc((size_t)n * sizeof *from);
			int64_t *received = xcalloc((size_t)n, sizeof *received);
			for (int64_t i = 0; i < n; i++) {
				share_fill(n, t, SHARE_TO, (uint32_t)i, to);
				int64_t sent = 0;
				for (int64_t j = 0; j < n; j++) {
					share_fill(n, t, SHARE_FROM, (uint32_t)j, from);
					assert_int_equal(to[j], from[i]);   /* what i sends j is what j expects from i */
					assert_true(to[j] == t / n || to[j] == t / n + 1);
					sent += to[j], received[j] += to[j];
				}
				assert_int_equal(sent, t);
			}
			for (int64_t j = 0; j < n; j++)
				assert_int_equal(received[j], t);   /* the rotation gives every receiver the total */
			free(to), free(from), free(received);
		}
}

static void remainders_rotate(void **state)
{
	(void)state;
	int64_t c[4];
	share_fill(4, 6, SHARE_TO, 0, c);   /* 6 over 4: 1 each, the remainder 2 to the next two from rank 0 */
	assert_int_equal(c[0], 2), assert_int_equal(c[1], 2), assert_int_equal(c[2], 1), assert_int_equal(c[3], 1);
	share_fill(4, 6, SHARE_TO, 3, c);
	assert_int_equal(c[3], 2), assert_int_equal(c[0], 2), assert_int_equal(c[1], 1), assert_int_equal(c[2], 1);
	share_fill(4, 6, SHARE_EVEN, 3, c);   /* the same on every rank */
	assert_int_equal(c[0], 2), assert_int_equal(c[1], 2), assert_int_equal(c[2], 1), assert_int_equal(c[3], 1);
}

static void displacements_are_prefix_sums(void **state)
{
	(void)state;
	for (int rule = SHARE_TO; rule <= SHARE_EVEN; rule++) {
		int64_t counts[9], displs[9];
		share_fill(9, 2291, (enum share_rule)rule, 4, counts);
		share_fill(9, 2291, (enum share_rule)(rule + SHARE_TO_DISPLS), 4, displs);
		for (int64_t k = 0, sum = 0; k < 9; sum += counts[k], k++) {
			assert_int_equal(displs[k], sum);
			assert_int_equal(share_element(9, 2291, (enum share_rule)rule, 4, k), counts[k]);
			assert_int_equal(share_element(9, 2291, (enum share_rule)(rule + SHARE_TO_DISPLS), 4, k), displs[k]);
		}
	}
}

static void groups_are_checked(void **state)
{
	(void)state;
	char why[120];
	assert_true(share_group_check((const int64_t[]){SV_SHARED, 64, 256, SHARE_FROM}, why, sizeof why));
	assert_false(share_group_check((const int64_t[]){SV_SHARED, 0, 256, SHARE_TO}, why, sizeof why));
	assert_non_null(strstr(why, "0 elements"));
	assert_false(share_group_check((const int64_t[]){SV_SHARED, 4, -1, SHARE_TO}, why, sizeof why));
	assert_false(share_group_check((const int64_t[]){SV_SHARED, 4, 8, SHARE_RULES}, why, sizeof why));
	assert_non_null(strstr(why, "rule"));
}

/* a synthetic run of n ranks, one group, one MPI_Alltoallv whose receive side is (total, rule) */
static void alltoallv_run(struct run *r, int64_t n, int64_t total, int64_t recv_total, enum share_rule recv_rule)
{
	run_init(r);
	r->nranks = (uint32_t)n;
	r->synthetic = true;
	r->nfns = 1;
	r->fns = xcalloc(1, sizeof *r->fns);
	r->fns[0] = ladder_functions[fn_lookup("MPI_Alltoallv")];
	const int64_t v[] = {BUF_USER, SV_SHARED, n, total, SHARE_TO, SV_SHARED, n, total, SHARE_TO_DISPLS, 6, 4,
			     BUF_USER, SV_SHARED, n, recv_total, recv_rule, SV_SHARED, n, recv_total, recv_rule + 3, 6, 4,
			     COMM_ID_WORLD};
	r->nsigvals = N(v);
	r->sigvals = xmalloc(sizeof v);
	memcpy(r->sigvals, v, sizeof v);
	r->nsigs = 1;
	r->sigs = xcalloc(1, sizeof *r->sigs);
	r->sigs[0] = (struct run_signature){0, 0x99, 0, (uint32_t)N(v), 0};
	r->ngroups = 1;
	r->groups = xcalloc(1, sizeof *r->groups);
	struct sequitur *q = sequitur_new();
	sequitur_append(q, 0);
	sequitur_append(q, 0);
	sequitur_export(q, &r->groups[0].g);
	sequitur_free(q);
	r->groups[0].nranks = (uint32_t)n;
	ranklist_from_range(&r->groups[0].ranks, 0, (uint32_t)n);
	r->streams = xcalloc(1, sizeof *r->streams);
	r->counts = xcalloc(1, sizeof *r->counts);
	r->time_stats = xcalloc(1, sizeof *r->time_stats);
	char why[200];
	if (!run_check(r, why, sizeof why))
		fail_msg("the hand-made run does not check: %s", why);
}

static void done(struct run *r)
{
	free(r->fns);
	r->fns = NULL, r->nfns = 0;
	run_free(r);
}

static void rules_meet_in_balance(void **state)
{
	(void)state;
	char why[300];
	struct run r;
	alltoallv_run(&r, 7, 100, 100, SHARE_FROM);
	struct event_iter it;
	struct event ev;
	event_iter_init(&it, &r, 3);
	assert_true(event_next(&it, &ev));
	assert_int_equal(ev.vals[1], 7);   /* the array written out: its length, then its counts */
	int64_t sum = 0;
	for (int k = 0; k < 7; k++)
		sum += ev.vals[2 + k];
	assert_int_equal(sum, 100);
	event_iter_free(&it);
	assert_true(run_p2p_balanced(&r, why, sizeof why));
	done(&r);
	alltoallv_run(&r, 7, 100, 101, SHARE_FROM);   /* one element more expected than sent */
	assert_false(run_p2p_balanced(&r, why, sizeof why));
	assert_non_null(strstr(why, "receive counts expect"));
	done(&r);
	alltoallv_run(&r, 7, 100, 100, SHARE_TO);   /* the right totals, the pairs swapped */
	assert_false(run_p2p_balanced(&r, why, sizeof why));
	assert_non_null(strstr(why, "differ from what the peer's receive counts expect"));
	done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pairs_agree),
		cmocka_unit_test(remainders_rotate),
		cmocka_unit_test(displacements_are_prefix_sums),
		cmocka_unit_test(groups_are_checked),
		cmocka_unit_test(rules_meet_in_balance),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
