/*
 * options — a command's options as one table that both parses its command line (getopt_long
 * underneath) and writes the Options section of its help, so that the two cannot disagree.
 *
 * Each entry names its long option, short letter, value (shown in the help as ARG), kind, where
 * the value goes, and its help line. Destinations are fields of one struct of the command's
 * options, given by offset, so that the table is a constant the help can be printed from
 * without parsing anything:
 *
 *   struct merge_opts { const char *output; bool copy; };
 *   static const struct opt merge_options[] = {
 *           OPT_STRING('o', "output", "FILE", struct merge_opts, output, "the campaign container"),
 *           OPT_FLAG(0, "copy", struct merge_opts, copy, "copy the runs into the campaign"),
 *           OPT_END(),
 *   };
 *
 * Every table accepts -h/--help too (the help it prints is the caller's, see struct opt_parser).
 */
#ifndef LADDER_UTIL_OPTIONS_H
#define LADDER_UTIL_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum opt_kind {
	OPT_KIND_END,       /* the end of the table */
	OPT_KIND_GROUP,     /* a heading in the help */
	OPT_KIND_SUBCOMMAND, /* a heading in the help that ends the options of one subcommand and
			      * begins those of the next (its help is the subcommand's name) */
	OPT_KIND_FLAG,      /* bool, set true */
	OPT_KIND_STRING,    /* const char *, the value as given */
	OPT_KIND_LONG,      /* long, a decimal integer within [min, max] */
	OPT_KIND_DOUBLE,    /* double, a finite number */
	OPT_KIND_CALLBACK,  /* the entry's function is given the value (NULL when it takes none) */
};

struct opt_parser;
/* an option's own parsing: false after opt_error() said what is wrong */
typedef bool opt_callback(struct opt_parser *p, const char *arg);

struct opt {
	enum opt_kind kind;
	char short_name;       /* 0: none */
	const char *long_name; /* without "--"; NULL: only the short letter */
	const char *argname;   /* the value's name in the help; NULL: the option takes none */
	size_t offset;         /* of the destination in the options struct */
	long min, max;         /* an OPT_LONG's bounds */
	opt_callback *callback;
	const char *help;      /* one line of help, wrapped to the width of the help text */
};

/* the offset of field F of struct T, which must be of type TYPE (a compile error otherwise) */
#define OPT_FIELD(T, F, TYPE) (offsetof(T, F) + 0 * sizeof(char[_Generic(((T *)0)->F, TYPE: 1)]))

#define OPT_FLAG(s, l, T, F, h) {OPT_KIND_FLAG, s, l, NULL, OPT_FIELD(T, F, bool), 0, 0, NULL, h}
#define OPT_STRING(s, l, a, T, F, h) {OPT_KIND_STRING, s, l, a, OPT_FIELD(T, F, const char *), 0, 0, NULL, h}
#define OPT_LONG(s, l, a, T, F, lo, hi, h) {OPT_KIND_LONG, s, l, a, OPT_FIELD(T, F, long), lo, hi, NULL, h}
#define OPT_DOUBLE(s, l, a, T, F, h) {OPT_KIND_DOUBLE, s, l, a, OPT_FIELD(T, F, double), 0, 0, NULL, h}
/* the callback finds the options struct at p->opts; a is NULL when the option takes no value */
#define OPT_CALLBACK(s, l, a, cb, h) {OPT_KIND_CALLBACK, s, l, a, 0, 0, 0, cb, h}
#define OPT_GROUP(title) {OPT_KIND_GROUP, 0, NULL, NULL, 0, 0, 0, NULL, title}
#define OPT_SUBCOMMAND(name) {OPT_KIND_SUBCOMMAND, 0, NULL, NULL, 0, 0, 0, NULL, name}
#define OPT_END() {OPT_KIND_END, 0, NULL, NULL, 0, 0, 0, NULL, NULL}

/* who parses, and where the values go */
struct opt_parser {
	const char *prefix;   /* before every error: "ladder extrap", "ladder-replay" */
	const char *hint;     /* after it, in parentheses: "see 'ladder help extrap'" */
	bool silent;          /* say nothing (all ranks of an MPI program but one) */
	bool stop_at_operand; /* options end at the first operand (a command line to run follows) */
	void (*print_help)(const struct opt_parser *p);  /* for -h/--help; NULL: help is an error */
	void *opts;           /* the struct the table's destinations are fields of */
	int argc;             /* the command line; argv[0] is the command */
	char **argv;
	const char *option;   /* while parsing: the option's name as "--long" (or "-s"), for errors */
	const void *context;  /* the caller's, for callbacks and print_help */
};

/* Parse p->argv's options by the table (up to its end or its next OPT_SUBCOMMAND), filling p->opts.
 * -1 when the options are parsed (the operands start at optind); otherwise the exit status to
 * return: EXIT_USAGE after a one-line error ("unknown option '--x'", "option '--o' needs a
 * value", "--n expects an integer in [1, 9], got 'x'", or a callback's), EXIT_OK after --help. */
int opt_parse(struct opt_parser *p, const struct opt *table);

/* the one-line usage error: "PREFIX: MESSAGE (HINT)" on stderr, unless p->silent */
void opt_error(const struct opt_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* the options of subcommand NAME: those after its OPT_SUBCOMMAND, NULL if the table has none */
const struct opt *opt_subcommand(const struct opt *table, const char *name);

/* the lines of the Options section: "  -o, --output FILE   help", the help aligned in one column
 * and wrapped to at most `width` characters; an OPT_GROUP is a heading line of its own, after an
 * empty line but at the top; an OPT_SUBCOMMAND is a line "NAME:" */
void opt_print_help(FILE *out, const struct opt *table, int width);

#endif
