/* Unit tests for mpi/volume, the one byte accounting of tracer and replayer: bytes and messages of
 * calls by the accounting classes of the function table, against the rules of
 * workflows/apps/README.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "mpi/signature.h"
#include "mpi/volume.h"

static const int64_t dbl[2] = {15, 8}, i32[2] = {8, 4};

static struct vol account(enum vol_class c, const int64_t *const *args, const struct vol_ctx *q)
{
	struct vol v = {0};
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

static void messages_are_point_to_point_transfers(void **state)
{
	const struct vol_ctx q = {.size = 4, .rank = 1, .world_rank = 1};
	int64_t count[1] = {10}, dest[1] = {2}, null[1] = {SV_PROC_NULL}, src[2] = {-1, -1};
	const int64_t *sr[] = {count, dbl, dest, count, i32, src};
	struct vol v = account(VOL_SENDRECV, sr, &q);
	assert_int_equal(v.msgs_sent, 1);
	assert_int_equal(v.msgs_recv, 1);
	const int64_t *sr_null[] = {count, dbl, null, count, i32, null};
	v = account(VOL_SENDRECV, sr_null, &q);
	assert_int_equal(v.msgs_sent + v.msgs_recv, 0);
	assert_int_equal(v.sent + v.recv, 0);
	const int64_t *allreduce[] = {count, dbl};
	v = account(VOL_ALLREDUCE, allreduce, &q);
	assert_int_equal(v.sent, 80);
	assert_int_equal(v.msgs_sent + v.msgs_recv, 0);
	int64_t message[1] = {0};    /* MPI_MESSAGE_NO_PROC */
	const int64_t *mrecv[] = {count, dbl, message};
	v = account(VOL_MRECV, mrecv, &q);
	assert_int_equal(v.recv + v.msgs_recv, 0);
	message[0] = 7;
	v = account(VOL_MRECV, mrecv, &q);
	assert_int_equal(v.recv, 80);
	assert_int_equal(v.msgs_recv, 1);
}

static void intercommunicator_roots_and_neighbours(void **state)
{
	/* an intercommunicator's root group: MPI_ROOT sends to the remote group's 3 ranks */
	const struct vol_ctx inter = {.size = 3, .rank = 0, .world_rank = 0, .inter = true};
	int64_t count[1] = {5}, root[1] = {SV_ROOT}, other[1] = {SV_PROC_NULL}, comm[1] = {1};
	const int64_t *scatter[] = {count, dbl, (int64_t[]){BUF_USER}, count, dbl, root, comm};
	struct vol v = account(VOL_SCATTER, scatter, &inter);
	assert_int_equal(v.sent, 3 * 40);
	assert_int_equal(v.recv, 0);        /* the root of an intercommunicator receives nothing */
	const int64_t *bcast_idle[] = {count, dbl, other, comm};
	v = account(VOL_BCAST, bcast_idle, &inter);
	assert_int_equal(v.sent + v.recv, 0);
	/* a neighbour collective: out-degree 2, in-degree 3 */
	const struct vol_ctx topo = {.size = 8, .rank = 4, .world_rank = 4, .indeg = 3, .outdeg = 2};
	const int64_t *nb[] = {count, dbl, count, i32, comm};
	v = account(VOL_NB_ALLGATHER, nb, &topo);
	assert_int_equal(v.sent, 2 * 40);
	assert_int_equal(v.recv, 3 * 20);
}

/* a call of a traced function: the class and its arguments come from the function table */
static void calls_are_accounted_by_their_table_entry(void **state)
{
	int fn = fn_lookup("MPI_Sendrecv_replace");
	assert_true(fn >= 0);
	const struct fn_desc *d = &ladder_functions[fn];
	int64_t count[1] = {6}, dest[1] = {1}, src[2] = {-1, -1}, other[2] = {0, 0};
	const int64_t *params[FN_MAXPARAMS] = {0};
	for (uint32_t p = 0; p < d->nparams; p++) {
		const char *n = d->params[p].name;
		params[p] = !strcmp(n, "count") ? count : !strcmp(n, "datatype") ? dbl :
			    !strcmp(n, "dest") ? dest : !strcmp(n, "source") ? src : other;
	}
	const struct vol_ctx q = {.size = 4, .rank = 0, .world_rank = 0};
	struct vol v = {0};
	vol_account_call((uint32_t)fn, params, &q, &v);
	assert_int_equal(v.sent, 48);
	assert_int_equal(v.recv, 48);
	assert_int_equal(v.msgs_sent, 1);
	assert_int_equal(v.msgs_recv, 1);
	/* a function that moves no data adds nothing */
	memset(&v, 0, sizeof v);
	vol_account_call((uint32_t)fn_lookup("MPI_Barrier"), params, &q, &v);
	assert_int_equal(v.sent + v.recv + v.msgs_sent + v.msgs_recv, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(point_to_point),
		cmocka_unit_test(rooted_collectives_depend_on_the_root),
		cmocka_unit_test(v_collectives_sum_their_counts),
		cmocka_unit_test(unrecorded_arguments_count_nothing),
		cmocka_unit_test(messages_are_point_to_point_transfers),
		cmocka_unit_test(intercommunicator_roots_and_neighbours),
		cmocka_unit_test(calls_are_accounted_by_their_table_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
