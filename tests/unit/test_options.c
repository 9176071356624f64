/*
 * test_options — util/options.h: a table parses a command line into its struct (flags, strings,
 * bounded integers, finite numbers, callbacks, short and long names, a subcommand's slice), refuses
 * what it does not know in one line with one return convention, and prints its help aligned and
 * wrapped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <getopt.h>

#include "util/exitcode.h"
#include "util/options.h"

struct t_opts {
	bool flag;
	const char *name;
	long n;
	double x;
	int seen;   /* callback calls */
	const char *last;
};

static bool count_option(struct opt_parser *p, const char *arg)
{
	struct t_opts *o = p->opts;
	o->seen++;
	o->last = arg;
	return !arg || strcmp(arg, "bad") || (opt_error(p, "%s: bad", p->option), false);
}

static const struct opt table[] = {
	OPT_FLAG('f', "flag", struct t_opts, flag, "a flag"),
	OPT_STRING('o', "output", "FILE", struct t_opts, name, "a string"),
	OPT_LONG(0, "count", "N", struct t_opts, n, 1, 9, "an integer in 1..9"),
	OPT_DOUBLE('x', "scale", "X", struct t_opts, x, "a number"),
	OPT_GROUP("More:"),
	OPT_CALLBACK(0, "each", "V", count_option, "a callback, repeatable"),
	OPT_CALLBACK('q', NULL, NULL, count_option, "a short option alone"),
	OPT_END(),
};

static int helps;

static void print_help(const struct opt_parser *p)
{
	(void)p;
	helps++;
}

/* parse the words (argv[0] first) with stderr captured into err */
static int parse(struct t_opts *o, char *err, size_t errlen, int argc, char **argv)
{
	struct opt_parser p = {.prefix = "t", .hint = "see t --help", .print_help = print_help, .opts = o,
			       .argc = argc, .argv = argv};
	memset(o, 0, sizeof *o);
	fflush(stderr);
	FILE *tmp = tmpfile();
	assert_non_null(tmp);
	int saved = dup(2);
	dup2(fileno(tmp), 2);
	int rc = opt_parse(&p, table);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	size_t n = fread(err, 1, errlen - 1, tmp);
	err[n] = 0;
	fclose(tmp);
	return rc;
}

#define ARGV(...) ((char *[]){"t", __VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((char *[]){"t", __VA_ARGS__}) / sizeof(char *)))
#define PARSE(o, err, ...) parse(o, err, sizeof err, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

static void fills_every_kind(void **state)
{
	(void)state;
	struct t_opts o;
	char err[512];
	assert_int_equal(PARSE(&o, err, "-f", "--output", "a.h5", "--count=3", "-x", "2.5", "--each", "u", "--each",
			       "v", "-q", "operand"), -1);
	assert_true(o.flag);
	assert_string_equal(o.name, "a.h5");
	assert_int_equal(o.n, 3);
	assert_true(o.x == 2.5);
	assert_int_equal(o.seen, 3);
	assert_null(o.last);   /* -q takes no value */
	assert_int_equal(optind, 12);
	assert_string_equal(err, "");
	/* options after operands too (getopt_long permutes), and abbreviated long names */
	assert_int_equal(PARSE(&o, err, "operand", "--out", "b", "--fl"), -1);
	assert_string_equal(o.name, "b");
	assert_true(o.flag);
	assert_int_equal(optind, 4);
}

static void refuses_in_one_line(void **state)
{
	(void)state;
	struct t_opts o;
	char err[512];
	assert_int_equal(PARSE(&o, err, "--frob"), EXIT_USAGE);
	assert_string_equal(err, "t: unknown option '--frob' (see t --help)\n");
	assert_int_equal(PARSE(&o, err, "-z"), EXIT_USAGE);
	assert_string_equal(err, "t: unknown option '-z' (see t --help)\n");
	assert_int_equal(PARSE(&o, err, "--output"), EXIT_USAGE);
	assert_string_equal(err, "t: option '--output' needs a value (see t --help)\n");
	assert_int_equal(PARSE(&o, err, "--flag=yes"), EXIT_USAGE);
	assert_string_equal(err, "t: option '--flag' takes no value (see t --help)\n");
	assert_int_equal(PARSE(&o, err, "--count", "10"), EXIT_USAGE);
	assert_string_equal(err, "t: --count expects an integer in [1, 9], got '10' (see t --help)\n");
	assert_int_equal(PARSE(&o, err, "--count", "2x"), EXIT_USAGE);
	assert_int_equal(PARSE(&o, err, "-x", "inf"), EXIT_USAGE);
	assert_string_equal(err, "t: --scale expects a finite number, got 'inf' (see t --help)\n");
	assert_int_equal(PARSE(&o, err, "--each", "ok", "--each", "bad", "--each", "never"), EXIT_USAGE);
	assert_string_equal(err, "t: --each: bad (see t --help)\n");
	assert_int_equal(o.seen, 2);   /* parsing stops at the first error */
}

static void help_is_the_callers(void **state)
{
	(void)state;
	struct t_opts o;
	char err[512];
	helps = 0;
	assert_int_equal(PARSE(&o, err, "-f", "--help", "--frob"), EXIT_OK);
	assert_int_equal(helps, 1);
	assert_int_equal(PARSE(&o, err, "-h"), EXIT_OK);
	assert_int_equal(helps, 2);
}

static const struct opt with_subcommands[] = {
	OPT_SUBCOMMAND("one"),
	OPT_FLAG('f', "flag", struct t_opts, flag, "one's flag"),
	OPT_SUBCOMMAND("two"),
	OPT_STRING('o', "output", "FILE", struct t_opts, name, "two's string"),
	OPT_END(),
};

static void a_subcommand_parses_its_own(void **state)
{
	(void)state;
	struct t_opts o = {0};
	struct opt_parser p = {.prefix = "t", .hint = "h", .silent = true, .opts = &o, .argc = 2,
			       .argv = (char *[]){"one", "--flag", NULL}};
	assert_int_equal(opt_parse(&p, opt_subcommand(with_subcommands, "one")), -1);
	assert_true(o.flag);
	p.argv = (char *[]){"one", "--output", "x", NULL};
	p.argc = 3;
	assert_int_equal(opt_parse(&p, opt_subcommand(with_subcommands, "one")), EXIT_USAGE);
	p.argv[0] = "two";
	assert_int_equal(opt_parse(&p, opt_subcommand(with_subcommands, "two")), -1);
	assert_string_equal(o.name, "x");
	assert_null(opt_subcommand(with_subcommands, "three"));
}

static void stops_at_the_first_operand_when_asked(void **state)
{
	(void)state;
	struct t_opts o = {0};
	struct opt_parser p = {.prefix = "t", .hint = "h", .stop_at_operand = true, .opts = &o, .argc = 5,
			       .argv = (char *[]){"t", "-f", "mpirun", "-np", "2", NULL}};
	assert_int_equal(opt_parse(&p, table), -1);
	assert_true(o.flag);
	assert_int_equal(optind, 2);
}

static void help_is_aligned_and_wrapped(void **state)
{
	(void)state;
	static const struct opt t[] = {
		OPT_FLAG('f', "flag", struct t_opts, flag, "short"),
		OPT_GROUP("Group:"),
		OPT_STRING(0, "output", "FILE", struct t_opts, name,
			   "a help line long enough to be wrapped at the width given, twice over at forty"),
		OPT_END(),
	};
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	opt_print_help(out, t, 40);
	fclose(out);
	/* the help at 2 + 13 ("--output FILE") + 3; "a help line long enough" would pass 40 */
	assert_string_equal(text, "  -f, --flag      short\n"
				  "\n"
				  "Group:\n"
				  "  --output FILE   a help line long\n"
				  "                  enough to be wrapped\n"
				  "                  at the width given,\n"
				  "                  twice over at forty\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fills_every_kind),
		cmocka_unit_test(refuses_in_one_line),
		cmocka_unit_test(help_is_the_callers),
		cmocka_unit_test(a_subcommand_parses_its_own),
		cmocka_unit_test(stops_at_the_first_operand_when_asked),
		cmocka_unit_test(help_is_aligned_and_wrapped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
