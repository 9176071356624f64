/* Unit tests for util/spawn: exit status decoding, environment additions, redirections, the
 * descriptor handed over as 3, a function child, capture with input and timeout, start failures. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "util/file.h"
#include "util/spawn.h"

static void exit_status_and_signal_are_decoded(void **state)
{
	(void)state;
	char *seven[] = {"sh", "-c", "exit 7", NULL};
	assert_int_equal(spawn_run(seven, NULL, NULL), 7);
	char *killed[] = {"sh", "-c", "kill -TERM $$", NULL};
	assert_int_equal(spawn_run(killed, NULL, NULL), 128 + 15);
}

static void missing_program_is_reported(void **state)
{
	(void)state;
	char *argv[] = {"ladder-no-such-program", NULL};
	char *why = NULL;
	assert_int_equal(spawn_run(argv, NULL, &why), -1);
	assert_non_null(strstr(why, "cannot run ladder-no-such-program"));
	free(why);
	struct spawn_options o = {.cwd = "/nonexistent/directory"};
	char *sh[] = {"true", NULL};
	assert_int_equal(spawn_run(sh, &o, NULL), -1);
}

static void environment_directory_and_output_file(void **state)
{
	(void)state;
	char dir[] = "/tmp/ladder-spawn.XXXXXX";
	assert_non_null(mkdtemp(dir));
	char log[64];
	snprintf(log, sizeof log, "%s/out.log", dir);
	char *env[] = {"LADDER_SPAWN_TEST=halo", NULL};
	char *argv[] = {"sh", "-c", "echo \"$LADDER_SPAWN_TEST $(pwd)\"; echo err >&2", NULL};
	struct spawn_options o = {.cwd = dir, .env = env, .stdin_fd = SPAWN_NULL, .output_path = log};
	assert_int_equal(spawn_run(argv, &o, NULL), 0);
	char *text = read_file(log);
	char want[128];
	snprintf(want, sizeof want, "halo %s\nerr\n", dir);
	assert_string_equal(text, want);
	assert_null(getenv("LADDER_SPAWN_TEST"));
	free(text);
	unlink(log);
	rmdir(dir);
}

static int write_to_fd3(void *arg)
{
	const char *text = arg;
	return write(3, text, strlen(text)) == (ssize_t)strlen(text) ? 5 : 6;
}

static void function_child_gets_fd3(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	struct spawn_options o = {.fd3 = p[1], .new_session = true, .function = write_to_fd3, .arg = "lock"};
	pid_t pid = spawn_start(NULL, &o, NULL);
	assert_true(pid > 0);
	close(p[1]);
	assert_int_equal(spawn_wait(pid), 5);
	char buf[8] = "";
	assert_int_equal(read(p[0], buf, sizeof buf), 4);
	assert_memory_equal(buf, "lock", 4);
	close(p[0]);
}

static void capture_with_input_and_timeout(void **state)
{
	(void)state;
	char *cat[] = {"sh", "-c", "tr a-z A-Z; echo oops >&2; exit 3", NULL};
	char *out = NULL, *err = NULL;
	assert_int_equal(spawn_capture(cat, NULL, "halo\n", &out, &err, 10), 3);
	assert_string_equal(out, "HALO\n");
	assert_string_equal(err, "oops\n");
	free(out);
	free(err);
	char *slow[] = {"sh", "-c", "sleep 30", NULL};
	assert_int_equal(spawn_capture(slow, NULL, NULL, NULL, NULL, 0.3), -2);
	char *none[] = {"ladder-no-such-program", NULL};
	err = NULL;
	assert_int_equal(spawn_capture(none, NULL, NULL, NULL, &err, 5), -1);
	assert_non_null(strstr(err, "cannot run"));
	free(err);
	assert_true(spawn_in_path("sh"));
	assert_false(spawn_in_path("ladder-no-such-program"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exit_status_and_signal_are_decoded),
		cmocka_unit_test(missing_program_is_reported),
		cmocka_unit_test(environment_directory_and_output_file),
		cmocka_unit_test(function_child_gets_fd3),
		cmocka_unit_test(capture_with_input_and_timeout),
	};
	return cmocka_run_group_tests_name("spawn", tests, NULL, NULL);
}
