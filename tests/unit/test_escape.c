/*
 * test_escape — the escapes of util/escape.h on every byte and on the sequences that break naive
 * ones: a C literal reads back as the same bytes and holds nothing that ends it, splices a line or
 * forms a trigraph; comment text holds nothing that ends or nests a comment; terminal text holds no
 * control character.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/escape.h"

static const char *const hostile[] = {
	"*/ system(\"id\"); /*", "?\?/\"", "a\\\nb", "\"\\", "?\?=define", "\xff\xfe\x80", "\x1b]0;t\x07", "/* x */",
	"abc\r\n#define x", "\xc2\x9b" "2J", "ok text",
};

/* the bytes a literal made by c_literal_put means (its escapes are all three-digit octal) */
static size_t read_literal(const uint8_t *lit, size_t n, uint8_t *out)
{
	size_t k = 0;
	assert_true(n >= 2 && lit[0] == '"' && lit[n - 1] == '"');
	for (size_t i = 1; i + 1 < n; i++) {
		if (lit[i] != '\\') {
			assert_true(lit[i] >= 32 && lit[i] < 127 && lit[i] != '"' && lit[i] != '?');
			out[k++] = lit[i];
			continue;
		}
		assert_true(i + 3 < n);
		out[k++] = (uint8_t)((lit[i + 1] - '0') * 64 + (lit[i + 2] - '0') * 8 + (lit[i + 3] - '0'));
		i += 3;
	}
	return k;
}

static void check_literal(const uint8_t *s, size_t n)
{
	struct buf b;
	buf_init(&b);
	c_literal_put(&b, s, n);
	uint8_t back[4096];
	assert_int_equal(read_literal(b.data, b.len, back), n);
	assert_memory_equal(back, s, n);
	buf_free(&b);
}

static void check_comment(const uint8_t *s, size_t n)
{
	struct buf b;
	buf_init(&b);
	c_comment_put(&b, s, n);
	for (size_t i = 0; i < b.len; i++) {
		assert_true(b.data[i] >= 32 && b.data[i] < 127 && b.data[i] != '*' && b.data[i] != '?');
		if (b.data[i] == '\\')
			assert_true(i + 1 < b.len && b.data[i + 1] == 'x');
	}
	buf_free(&b);
}

static void check_terminal(const uint8_t *s, size_t n)
{
	struct buf b;
	buf_init(&b);
	term_escape_put(&b, s, n);
	for (size_t i = 0; i < b.len; i++) {
		assert_true(b.data[i] >= 32 && b.data[i] != 127);
		if (b.data[i] == 0xc2 && i + 1 < b.len)
			assert_true(b.data[i + 1] >= 0xa0);   /* no C1 control as UTF-8 */
	}
	buf_free(&b);
}

static void every_byte_and_pair(void **state)
{
	(void)state;
	for (int a = 0; a < 256; a++)
		for (int c = 0; c < 256; c += 17) {
			uint8_t s[3] = {(uint8_t)a, (uint8_t)c, '0'};
			check_literal(s, 3);
			check_comment(s, 3);
			check_terminal(s, 3);
		}
}

static void sequences_that_break_naive_escapes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
		size_t n = strlen(hostile[i]);
		check_literal((const uint8_t *)hostile[i], n);
		check_comment((const uint8_t *)hostile[i], n);
		check_terminal((const uint8_t *)hostile[i], n);
	}
	struct buf b;
	buf_init(&b);
	c_literal_put(&b, "a\0b", 3);   /* a NUL inside: still three bytes */
	assert_int_equal(b.len, 2 + 1 + 4 + 1);
	buf_free(&b);
	char *t = term_escaped("caf\xc3\xa9 \x1b[2J");   /* printable UTF-8 kept, the escape not */
	assert_string_equal(t, "caf\xc3\xa9 \\x1b[2J");
	free(t);
	assert_string_equal(term_safe("plain"), "plain");
	assert_string_equal(term_safe("\x07"), "\\x07");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_byte_and_pair),
		cmocka_unit_test(sequences_that_break_naive_escapes),
	};
	return cmocka_run_group_tests_name("escape", tests, NULL, NULL);
}
