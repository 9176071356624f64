/* Unit tests for replay/volume: bytes of recorded calls by the accounting classes of the function
 * table, against the rules of workflows/apps/README.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mpi/signature.h"
#include "mpi/volume.h"

static const int64_t dbl[2] = {15, 8}, i32[2] = {8, 4};

static struct vol account(enum vol_class c, const int64_t *const *args, const struct vol_ctx *q)
{
	struct vol v = {0, 0};
	vol_account(c, args, q, &v);
	return v;
}

static void point_to_point(void **state)
{
	const struct vol_ctx q = {.size = 4, .rank = 1, .world_rank = 1};
	int64_t count[1] = {10}, dest[1] = {2}, null[1] = {SV_PROC_NULL};
	const int64_t *send[] = {count, dbl, dest}, *to_null[] = {count, dbl, null};
	struct vol v = account(VOL_SEND, send, &q);
	assert_int_equal(v.sent, 80);
	assert_int_equal(v.recv, 0);
	v = account(VOL_SEND, to_null, &q);
	assert_int_equal(v.sent, 0);
	int64_t rcount[1] = {3}, src[2] = {SV_ANY_SOURCE, 1};
	const int64_t *sr[] = {count, dbl, dest, rcount, i32, src};
	v = account(VOL_SENDRECV, sr, &q);
	assert_int_equal(v.sent, 80);
	assert_int_equal(v.recv, 12);
}

static void rooted_collectives_depend_on_the_root(void **state)
{
	const struct vol_ctx root = {.size = 4, .rank = 2, .world_rank = 6};
	const struct vol_ctx leaf = {.size = 4, .rank = 1, .world_rank = 5};
	int64_t count[1] = {10}, at6[1] = {6};
	const int64_t *bcast[] = {count, dbl, at6};
	assert_int_equal(account(VOL_BCAST, bcast, &root).sent, 80);
	assert_int_equal(account(VOL_BCAST, bcast, &leaf).recv, 80);
	assert_int_equal(account(VOL_BCAST, bcast, &leaf).sent, 0);
	int64_t user[1] = {BUF_USER}, inplace[1] = {BUF_IN_PLACE}, sc[1] = {2}, rc[1] = {2};
	const int64_t *gather[] = {user, sc, dbl, rc, dbl, at6};
	const int64_t *gather_in_place[] = {inplace, sc, dbl, rc, dbl, at6};
	struct vol v = account(VOL_GATHER, gather, &root);
	assert_int_equal(v.sent, 16);
	assert_int_equal(v.recv, 64);     /* 2 doubles from each of 4 */
	v = account(VOL_GATHER, gather_in_place, &root);
	assert_int_equal(v.sent, 16);     /* in place counts as its own block */
	v = account(VOL_GATHER, gather, &leaf);
	assert_int_equal(v.recv, 0);
}

static void v_collectives_sum_their_counts(void **state)
{
	const struct vol_ctx q = {.size = 3, .rank = 1, .world_rank = 1};
	int64_t user[1] = {BUF_USER}, sc[4] = {3, 1, 2, 3}, rc[4] = {3, 4, 5, 6};
	const int64_t *a2av[] = {user, sc, dbl, rc, i32};
	struct vol v = account(VOL_ALLTOALLV, a2av, &q);
	assert_int_equal(v.sent, 48);
	assert_int_equal(v.recv, 60);
	const int64_t *rs[] = {rc, i32};
	v = account(VOL_REDUCE_SCATTER, rs, &q);
	assert_int_equal(v.sent, 60);
	assert_int_equal(v.recv, 20);     /* recvcounts[my rank] */
}

static void unrecorded_arguments_count_nothing(void **state)
{
	const struct vol_ctx q = {.size = 4, .rank = 0, .world_rank = 0};
	int64_t ignored[1] = {SV_IGNORE};
	const int64_t *args[] = {ignored, NULL, ignored};
	struct vol v = account(VOL_SEND, args, &q);
	assert_int_equal(v.sent, 0);
	v = account(VOL_NONE, args, &q);
	assert_int_equal(v.sent + v.recv, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(point_to_point),
		cmocka_unit_test(rooted_collectives_depend_on_the_root),
		cmocka_unit_test(v_collectives_sum_their_counts),
		cmocka_unit_test(unrecorded_arguments_count_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
