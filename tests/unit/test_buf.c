/* Unit tests for util/buf: varint round trips and a reader that refuses to read past the end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "util/buf.h"

static void varints_round_trip(void **state)
{
	static const int64_t vals[] = {0, 1, -1, 63, -64, 64, 127, 128, 300, -300, INT32_MAX, INT32_MIN,
				       INT64_MAX, INT64_MIN, 1LL << 40, -(1LL << 40)};
	struct buf b;
	buf_init(&b);
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		buf_put_sv(&b, vals[i]);
		buf_put_uv(&b, (uint64_t)vals[i]);
	}
	buf_put_f64(&b, 3.25);
	buf_put_str(&b, "halo");
	struct reader r;
	reader_init(&r, b.data, b.len);
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		assert_int_equal(get_sv(&r), vals[i]);
		assert_int_equal(get_uv(&r), (uint64_t)vals[i]);
	}
	assert_true(get_f64(&r) == 3.25);
	char *s = get_str(&r);
	assert_string_equal(s, "halo");
	free(s);
	assert_false(r.bad);
	assert_int_equal(reader_left(&r), 0);
	buf_free(&b);
}

static void truncated_input_is_reported(void **state)
{
	struct buf b;
	buf_init(&b);
	buf_put_uv(&b, 1ULL << 50);
	buf_put_str(&b, "a long string");
	for (size_t cut = 0; cut < b.len; cut++) {
		struct reader r;
		reader_init(&r, b.data, cut);
		(void)get_uv(&r);
		char *s = get_str(&r);
		assert_true(r.bad);
		assert_null(s);
	}
	buf_free(&b);
}

static void oversized_count_is_refused(void **state)
{
	struct buf b;
	buf_init(&b);
	buf_put_uv(&b, 1000);
	struct reader r;
	reader_init(&r, b.data, b.len);
	assert_int_equal(get_count(&r, 999), 0);
	assert_true(r.bad);
	buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(varints_round_trip),
		cmocka_unit_test(truncated_input_is_reported),
		cmocka_unit_test(oversized_count_is_refused),
	};
	return cmocka_run_group_tests_name("buf", tests, NULL, NULL);
}
