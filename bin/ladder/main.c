/*
 * ladder — one command line tool, subcommands dispatched like git's:
 *   ladder [--debug] [--quiet] COMMAND [options] [args]
 * Every subcommand lives in its own cmd_*.c and is listed in commands.def.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "crash.h"
#include "run/events.h"
#include "store/h5.h"
#include "util/exitcode.h"
#include "util/log.h"

static const struct command *const commands[] = {
#define COMMAND(n) &command_##n,
#define TOPIC(n)
#include "commands.def"
#undef COMMAND
#undef TOPIC
};
static const struct topic *const topics[] = {
#define COMMAND(n)
#define TOPIC(n) &topic_##n,
#include "commands.def"
#undef COMMAND
#undef TOPIC
	NULL
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

bool cmd_exists(const char *name)
{
	return find_command(name) != NULL;
}

static const struct topic *find_topic(const char *name)
{
	for (size_t i = 0; topics[i]; i++)
		if (strcmp(topics[i]->name, name) == 0)
			return topics[i];
	return NULL;
}

static void print_overview(FILE *out)
{
	fprintf(out,
		"usage: ladder [--debug] [--quiet] COMMAND [options] [args]\n"
		"       ladder --help | --version | help COMMAND\n"
		"\n"
		"Predict how an MPI application communicates and performs at a scale you cannot run yet,\n"
		"from a ladder of runs you can.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, "  %-14s %s\n", commands[i]->name, commands[i]->summary);
	if (topics[0]) {
		fprintf(out, "\nHelp topics (ladder help TOPIC):\n");
		for (size_t i = 0; topics[i]; i++)
			fprintf(out, "  %-14s %s\n", topics[i]->name, topics[i]->summary);
	}
	fprintf(out,
		"\nGlobal options:\n"
		"  --debug        show library error stacks and debugging detail\n"
		"  --quiet        no progress or informational output\n"
		"\nEnvironment:\n"
		"  LADDER_MAX_CALLS=N  no command walks more than N calls of a rank (default 10^9; the\n"
		"                      commands that walk traces take --max-calls N too)\n"
		"\nExit status: 0 success, 1 error or negative answer, 2 usage error.\n");
}

static void print_command_help(const struct command *c)
{
	fputs(c->help, stdout);
	if (c->options && c->options->kind != OPT_KIND_END) {
		bool heading = c->options->kind == OPT_KIND_GROUP || c->options->kind == OPT_KIND_SUBCOMMAND;
		fputs(heading ? "\n" : "\nOptions:\n", stdout);
		opt_print_help(stdout, c->options, CMD_HELP_WIDTH);
	}
	if (c->help_end)
		printf("\n%s", c->help_end);
}

int cmd_print_help(const char *name)
{
	const struct command *c = find_command(name);
	if (c) {
		print_command_help(c);
		return EXIT_OK;
	}
	const struct topic *t = find_topic(name);
	if (t) {
		fputs(t->help, stdout);
		return EXIT_OK;
	}
	log_error("no such command or help topic: '%s' (see 'ladder --help')", name);
	return EXIT_USAGE;
}

int cmd_usage_error(const char *cmdname, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "ladder %s: ", cmdname);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (see 'ladder help %s')\n", cmdname);
	va_end(ap);
	return EXIT_USAGE;
}

static void print_help_of(const struct opt_parser *p)
{
	cmd_print_help(p->context);
}

struct opt_parser cmd_parser(const char *name, int argc, char **argv, void *opts)
{
	static char prefix[64], hint[96];   /* one command runs per process */
	snprintf(prefix, sizeof prefix, "ladder %s", name);
	snprintf(hint, sizeof hint, "see 'ladder help %s'", name);
	return (struct opt_parser){.prefix = prefix, .hint = hint, .print_help = print_help_of, .opts = opts,
				   .argc = argc, .argv = argv, .context = name};
}

int cmd_parse_options(const char *name, const struct opt *table, int argc, char **argv, void *opts)
{
	struct opt_parser p = cmd_parser(name, argc, argv, opts);
	return opt_parse(&p, table);
}

bool cmd_parse_long(const char *cmdname, const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		cmd_usage_error(cmdname, "%s expects an integer in [%ld, %ld], got '%s'", opt, min, max, s);
		return false;
	}
	*out = v;
	return true;
}

bool cmd_parse_double(const char *cmdname, const char *opt, const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v)) {
		cmd_usage_error(cmdname, "%s expects a finite number, got '%s'", opt, s);
		return false;
	}
	*out = v;
	return true;
}

bool cmd_set_max_calls(const char *cmdname, const char *text)
{
	uint64_t n;
	if (!event_parse_max_calls(text, &n)) {
		cmd_usage_error(cmdname, "--max-calls expects an integer >= 1, got '%s'", text);
		return false;
	}
	event_set_max_calls(n);
	return true;
}

bool cmd_max_calls_option(struct opt_parser *p, const char *arg)
{
	return cmd_set_max_calls(p->context, arg);
}

bool cmd_walk_bounded(const char *path, const struct run *r)
{
	char why[300];
	if (event_calls_bounded(r, why, sizeof why))
		return true;
	log_error("%s: %s", path, why);
	return false;
}

bool cmd_set_max_ranks(const char *cmdname, const char *text)
{
	uint64_t n;
	if (!event_parse_max_calls(text, &n)) {
		cmd_usage_error(cmdname, "--max-ranks expects an integer >= 1, got '%s'", text);
		return false;
	}
	event_set_max_ranks(n);
	return true;
}

bool cmd_max_ranks_option(struct opt_parser *p, const char *arg)
{
	return cmd_set_max_ranks(p->context, arg);
}

bool cmd_ranks_bounded(const char *path, const struct run *r)
{
	char why[300];
	if (event_ranks_bounded(r, why, sizeof why))
		return true;
	log_error("%s: %s", path, why);
	return false;
}

bool cmd_ranks_walk_bounded(const char *path, const struct run *r)
{
	return cmd_ranks_bounded(path, r) && cmd_walk_bounded(path, r);
}

const char *cmd_self_dir(void)
{
	static char dir[PATH_MAX];
	if (!dir[0]) {
		ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
		if (n <= 0) {
			strcpy(dir, ".");
		} else {
			dir[n] = 0;
			char *slash = strrchr(dir, '/');
			if (slash)
				*slash = 0;
		}
	}
	return dir;
}

/* ---- help and version ------------------------------------------------------------------------ */

static int run_help(int argc, char **argv)
{
	if (argc < 2) {
		print_overview(stdout);
		return EXIT_OK;
	}
	if (argc > 2)
		return cmd_usage_error("help", "takes at most one COMMAND");
	return cmd_print_help(argv[1]);
}

const struct command command_help = {
	"help", "show help for a command or topic", 
	"usage: ladder help [COMMAND|TOPIC]\n"
	"\n"
	"Without an argument, list the commands and help topics; with one, show its full help.\n"
	"'ladder COMMAND --help' shows the same text.\n",
	run_help, NULL, NULL,
};

static int run_version(int argc, char **argv)
{
	if (argc > 1 && argv[1][0] == '-')
		return cmd_usage_error("version", "unknown option '%s'", argv[1]);
	if (argc > 1)
		return cmd_usage_error("version", "takes no arguments");
	printf("ladder %s (%s)\n", LADDER_VERSION, LADDER_GIT_REV);
	return EXIT_OK;
}

const struct command command_version = {
	"version", "print the version",
	"usage: ladder version\n       ladder --version\n\nPrint ladder's version and source revision.\n",
	run_version, NULL, NULL,
};

int main(int argc, char **argv)
{
	log_set_program("ladder");
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			print_overview(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
			return run_version(1, argv);
		} else if (!strcmp(a, "--debug")) {
			log_set_debug(true);
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			log_set_quiet(true);
		} else {
			log_error("unknown option '%s' (see 'ladder --help')", a);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		print_overview(stderr);
		return EXIT_USAGE;
	}
	const char *bound = getenv("LADDER_MAX_CALLS");
	uint64_t n;
	if (bound && !event_parse_max_calls(bound, &n)) {
		log_error("LADDER_MAX_CALLS expects an integer >= 1, got '%s'", bound);
		return EXIT_USAGE;
	}
	if (bound)
		event_set_max_calls(n);
	if (!log_debug_enabled())
		crash_catch_signals();
	const struct command *c = find_command(argv[i]);
	if (!c) {
		log_error("'%s' is not a ladder command (see 'ladder --help')", argv[i]);
		return EXIT_USAGE;
	}
	char **cargv = argv + i;
	int cargc = argc - i;
	for (int k = 1; k < cargc; k++) {
		if (!strcmp(cargv[k], "--"))
			break;
		if (!strcmp(cargv[k], "--help") || !strcmp(cargv[k], "-h"))
			return cmd_print_help(c->name);
	}
	optind = 1;
	return c->run(cargc, cargv);
}
