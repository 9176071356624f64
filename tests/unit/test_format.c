/* Unit tests for run/format's numbers: event_format prints integers, peers, handles, datatype
 * sizes and request names as printf's "%" PRId64 and "%08" PRIx32 would, for extreme values too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "mpi/signature.h"
#include "util/buf.h"

static const struct param_desc params[] = {
	{"count", PK_INT}, {"dest", PK_PEER}, {"comm", PK_COMM}, {"type", PK_DTYPE},
	{"request", PK_REQ}, {"made", PK_REQ_OUT},
};
static const struct fn_desc fn = {"MPI_Test_numbers", 0, 6, params};

/* the line of one call with these values, against the same line built with snprintf */
static void expect_line(int64_t count, int64_t dest, uint32_t rank, int64_t comm, int64_t size,
			int64_t creator, int64_t slot, uint64_t req_key, int64_t made)
{
	int64_t vals[] = {count, dest, comm, DTYPE_ID_FIRST_USER, size, creator, slot, made};
	struct event_view v = {.fn = &fn, .vals = vals, .nvals = 8, .rank = rank, .req_key = req_key};
	struct buf b;
	buf_init(&b);
	event_format(&v, &b);
	buf_put_u8(&b, 0);
	char want[512];
	snprintf(want, sizeof want,
		 "MPI_Test_numbers count=%" PRId64 " dest=%" PRId64 " comm=comm#%" PRId64
		 " type=type#%d:%" PRId64 " request=%08" PRIx32 ".%" PRId64 " made=%08" PRIx32 ".%" PRId64,
		 count, dest + (int64_t)rank, comm, DTYPE_ID_FIRST_USER, size,
		 (uint32_t)((uint64_t)creator >> 32), slot, (uint32_t)(req_key >> 32), made);
	assert_string_equal((char *)b.data, want);
	buf_free(&b);
}

static void numbers_as_printf(void **state)
{
	(void)state;
	expect_line(0, 0, 0, 3, 0, 0, 0, 0, 0);
	expect_line(7, -1, 5, 12, 8, (int64_t)0x12ab34cd00000000, 9, 0xfedcba9800000000ull, 10);
	expect_line(-42, 1, 4294967295u, 1000000007, -8, (int64_t)0xffffffff00000000, -3,
		    0x0000000100000000ull, 123456789012345);
	expect_line(INT64_MAX, -4294967295LL, 4294967295u, INT64_MAX, INT64_MAX, INT64_MAX, INT64_MAX,
		    UINT64_MAX, INT64_MAX);
	/* INT64_MIN is a number, not one of the symbolic values just above it */
	expect_line(INT64_MIN, 0, 0, INT64_MIN, INT64_MIN, 0, INT64_MIN, 0, INT64_MIN);
	expect_line(-1000000000000000000, 999999999, 1, 10, 9999999999, 0, 1, 0, 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(numbers_as_printf)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
