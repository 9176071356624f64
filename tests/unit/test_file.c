/* Unit tests for util/file's bounded input: lines read up to a limit (an endless line such as
 * /dev/zero's costs the limit), regular files mapped, FIFOs, devices and sparse files refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/file.h"

static void lines_are_bounded(void **state)
{
	FILE *f = tmpfile();
	fputs("short\nlonger line\n", f);
	fputs("no newline at the end", f);
	rewind(f);
	char *line = NULL;
	size_t cap = 0;
	assert_int_equal(file_read_line(f, &line, &cap, 64), 6);
	assert_string_equal(line, "short\n");
	assert_int_equal(file_read_line(f, &line, &cap, 64), 12);
	assert_int_equal(file_read_line(f, &line, &cap, 64), 21);
	assert_string_equal(line, "no newline at the end");
	assert_int_equal(file_read_line(f, &line, &cap, 64), -1);
	rewind(f);
	assert_int_equal(file_read_line(f, &line, &cap, 8), 6);
	assert_int_equal(file_read_line(f, &line, &cap, 8), FILE_LINE_TOO_LONG);
	fclose(f);
	/* an endless input of NUL bytes ends at the first */
	f = fopen("/dev/zero", "r");
	assert_non_null(f);
	assert_int_equal(file_read_line(f, &line, &cap, 1 << 20), FILE_LINE_TOO_LONG);
	fclose(f);
	free(line);
}

static void only_regular_files_that_hold_their_size_are_mapped(void **state)
{
	char path[] = "/tmp/ladder-test-file-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "LADDERRAW", 9), 9);
	close(fd);
	struct file_map m;
	char why[300];
	assert_true(file_map_open(path, &m, why, sizeof why));
	assert_int_equal(m.len, 9);
	assert_memory_equal(m.data, "LADDERRAW", 9);
	file_map_close(&m);
	assert_int_equal(truncate(path, 1LL << 40), 0);   /* holes: a terabyte that stores 4 KiB */
	assert_false(file_map_open(path, &m, why, sizeof why));
	assert_non_null(strstr(why, "is a sparse file"));
	unlink(path);
	assert_false(file_map_open("/dev/zero", &m, why, sizeof why));
	assert_string_equal(why, "/dev/zero: is a character device, not a regular file");
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_false(file_map_open(path, &m, why, sizeof why));   /* without blocking on the FIFO */
	assert_non_null(strstr(why, "is a FIFO, not a regular file"));
	unlink(path);
	assert_false(file_map_open("/tmp", &m, why, sizeof why));
	assert_string_equal(why, "/tmp: is a directory, not a regular file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lines_are_bounded),
		cmocka_unit_test(only_regular_files_that_hold_their_size_are_mapped),
	};
	return cmocka_run_group_tests_name("file", tests, NULL, NULL);
}
