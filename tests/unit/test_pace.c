/* Unit tests for run/pace: the turns of the sends a master took from any source, from runs built in
 * memory (a master and two workers, two rounds), and the senders left alone. The replay paces by
 * them (replay/timing.c); a proxy uses the pairing only to know that it places its ranks
 * (proxy/placement.c, tests/bats/proxy.bats). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "run/pace.h"
#include "run_builder.h"

enum { TAG_A = 5, TAG_B = 6 };

static void call(struct rb *b, const char *fn, const int64_t *v, uint32_t n) { rb_call(b, fn, v, n, 1); }

/* rank 0 takes from any source, in order, 1 2 1 1 2 (tag A) and 2 1 (tag B), or from rank 2 by
 * name when named; worker w sends as many to rank 0 with those tags, 0.1 s of CPU before each
 * message of tag A on average and none before tag B's */
static void master_worker(struct rb *b, bool named)
{
	static const uint32_t of_rank[] = {0, 1, 2};
	static const int64_t order[][2] = {{1, TAG_A}, {2, TAG_A}, {1, TAG_A}, {1, TAG_A}, {2, TAG_A}, {2, TAG_B}, {1, TAG_B}};
	rb_init(b, 3);
	rb_groups(b, of_rank, 3);
	uint32_t sig[3][2] = {{0}};
	for (uint32_t g = 0; g < 3; g++) {
		rb_switch(b, g);
		call(b, "MPI_Init", NULL, 0);
		for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
			int64_t w = order[k][0], tag = order[k][1];
			int64_t recv[] = {BUF_USER, 2, 15, 8, named && w == 2 ? 2 : SV_ANY_SOURCE, w, tag, COMM_ID_WORLD};
			int64_t send[] = {BUF_USER, 2, 15, 8, -w, tag, COMM_ID_WORLD};
			if (g == 0)
				call(b, "MPI_Recv", recv, 8);
			else if (g == w)
				sig[w][tag == TAG_B] = rb_call(b, "MPI_Send", send, 7, 1);
		}
		call(b, "MPI_Finalize", NULL, 0);
	}
	rb_groups_done(b);
	rb_gap(b, 1, sig[1][0], 3, 0.4, 0.3);
	rb_gap(b, 1, sig[1][1], 1, 0.0, 0.0);
	rb_gap(b, 2, sig[2][0], 2, 0.3, 0.2);
	rb_gap(b, 2, sig[2][1], 1, 0.0, 0.0);
	rb_check(b);
}

static void assert_turns(const struct pace_rank *pr, const int32_t *want, uint32_t n)
{
	assert_int_equal(pr->n, n);
	for (uint32_t i = 0; i < n; i++)
		assert_int_equal(pr->turns[i], want[i]);
}

static double paced_cpu(const struct pace_rank *pr)
{
	double t = 0;
	for (uint32_t i = 0; i < pr->n; i++)
		t += pr->turns[i] > 0 ? pr->turns[i] * pr->cpu : 0;
	return t;
}

/* worker 1's third message follows its second by two of the master's receives, its fourth by one,
 * worker 2's second by three; a worker's first of a round takes none. Six turns share 0.5 s. */
static void test_turns_follow_the_recorded_order(void **state)
{
	(void)state;
	struct rb b;
	struct run_pace p;
	char why[256];
	master_worker(&b, false);
	assert_true(run_pace_build(&b.r, &p, why, sizeof why));
	assert_int_equal(p.npaced, 2);
	assert_null(p.ranks[0].turns);
	assert_turns(&p.ranks[1], (const int32_t[]){0, 2, 1, 0}, 4);
	assert_turns(&p.ranks[2], (const int32_t[]){0, 3, 0}, 3);
	assert_float_equal(p.ranks[1].cpu, 0.5 / 6, 1e-12);
	assert_float_equal(p.ranks[2].wall, 0.7 / 6, 1e-12);
	assert_int_equal(p.ranks[2].receiver, 0);
	/* the senders' paced compute adds up to their recorded compute, split by the order */
	assert_float_equal(paced_cpu(&p.ranks[1]) + paced_cpu(&p.ranks[2]), 0.5, 1e-12);
	assert_float_equal(paced_cpu(&p.ranks[1]), 0.25, 1e-12);
	run_pace_free(&p);
	run_free(&b.r);
}

/* rank 2's messages are also taken by name: it keeps its histograms; worker 1 alone shares its own */
static void test_a_sender_also_received_by_name_is_left_alone(void **state)
{
	(void)state;
	struct rb b;
	struct run_pace p;
	char why[256];
	master_worker(&b, true);
	assert_true(run_pace_build(&b.r, &p, why, sizeof why));
	assert_int_equal(p.npaced, 1);
	assert_null(p.ranks[2].turns);
	assert_turns(&p.ranks[1], (const int32_t[]){0, 2, 1, 0}, 4);
	assert_float_equal(paced_cpu(&p.ranks[1]), 0.3, 1e-12);
	run_pace_free(&p);
	run_free(&b.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_turns_follow_the_recorded_order),
		cmocka_unit_test(test_a_sender_also_received_by_name_is_left_alone),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
