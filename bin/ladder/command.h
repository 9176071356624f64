/*
 * command — the shape of a ladder subcommand, and helpers every subcommand shares for option
 * parsing and help. Subcommands are listed once, in commands.def.
 */
#ifndef LADDER_BIN_COMMAND_H
#define LADDER_BIN_COMMAND_H

#include <getopt.h>   /* optind: the operands after parsing */
#include <stdbool.h>

#include "util/options.h"

/* `ladder help NAME` is help, then the Options section generated from options, then help_end */
struct command {
	const char *name;
	const char *summary;   /* one line, shown by `ladder --help` */
	const char *help;      /* usage and what the command does: the help before its Options */
	int (*run)(int argc, char **argv);  /* argv[0] is the command name */
	const struct opt *options;  /* its option table (util/options.h), NULL: none */
	const char *help_end;  /* the help after the Options (exit status, examples), NULL: none */
};

/* A help topic that is not a command (`ladder help trace`, `ladder help workflow`). */
struct topic {
	const char *name;
	const char *summary;
	const char *help;
};

#define COMMAND(n) extern const struct command command_##n;
#define TOPIC(n) extern const struct topic topic_##n;
#include "commands.def"
#undef COMMAND
#undef TOPIC

/* print the help of command or topic NAME: EXIT_OK, or EXIT_USAGE when there is none */
int cmd_print_help(const char *name);

/* A parser of command NAME's options into *opts (util/options.h): its errors are "ladder NAME:
 * ... (see 'ladder help NAME')", its --help prints NAME's help. */
struct opt_parser cmd_parser(const char *name, int argc, char **argv, void *opts);
/* parse by the table: -1 to go on (the operands start at optind), else the exit status */
int cmd_parse_options(const char *name, const struct opt *table, int argc, char **argv, void *opts);
/* the width of help text: the Options' help lines wrap within it */
#define CMD_HELP_WIDTH 100
/* One-line usage error for a command: prints "ladder CMD: MSG (see 'ladder help CMD')". */
int cmd_usage_error(const char *cmdname, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* parse a decimal integer/float option value; on error prints and returns false */
bool cmd_parse_long(const char *cmdname, const char *opt, const char *s, long min, long max, long *out);
bool cmd_parse_double(const char *cmdname, const char *opt, const char *s, double *out);

/* --max-calls N, the bound on any walk of a rank's calls (run/events.h), in every command that
 * walks traces: setting it (false after a usage error), and its entry of an option table */
bool cmd_set_max_calls(const char *cmdname, const char *text);
#define CMD_MAX_CALLS_OPT                                                                         \
	OPT_CALLBACK(0, "max-calls", "N", cmd_max_calls_option,                                   \
		     "refuse a rank whose trace has more than N calls (default 10^9, or "           \
		     "LADDER_MAX_CALLS): a bound that does not come from the file")
opt_callback cmd_max_calls_option;
/* before walking a run read from path: false, after a one-line error naming the file, when a
 * rank's calls exceed the bound */
struct run;
bool cmd_walk_bounded(const char *path, const struct run *r);
/* --max-ranks N, the bound on the ranks of a walk of every rank (run/events.h): validate, compare,
 * export */
bool cmd_set_max_ranks(const char *cmdname, const char *text);
#define CMD_MAX_RANKS_OPT                                                                          \
	OPT_CALLBACK(0, "max-ranks", "N", cmd_max_ranks_option,                                    \
		     "refuse a run of more than N ranks (default 2^20, or LADDER_MAX_RANKS): a bound " \
		     "that does not come from the file")
opt_callback cmd_max_ranks_option;
/* the run's ranks within --max-ranks (false after a one-line error); with cmd_walk_bounded too:
 * before walking every rank */
bool cmd_ranks_bounded(const char *path, const struct run *r);
bool cmd_ranks_walk_bounded(const char *path, const struct run *r);

/* is NAME a command of this build (listed in commands.def)? */
bool cmd_exists(const char *name);

/* the directory holding this executable (for finding libladder-trace.so, ladder-replay, ...) */
const char *cmd_self_dir(void);

#endif
