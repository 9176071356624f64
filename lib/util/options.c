/*
 * options — parse a command line by an option table (getopt_long underneath) and write the
 * Options section of the help from the same table (see options.h).
 */
#include "util/options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/exitcode.h"
#include "util/xalloc.h"

/* getopt_long's value for the table's i-th entry given by its long name (above any letter) */
#define LONG_VAL(i) (256 + (int)(i))

void opt_error(const struct opt_parser *p, const char *fmt, ...)
{
	if (p->silent)
		return;
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", p->prefix);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, " (%s)\n", p->hint);
	va_end(ap);
}

static size_t count_options(const struct opt *table)
{
	size_t n = 0;
	while (table[n].kind != OPT_KIND_END && table[n].kind != OPT_KIND_SUBCOMMAND)
		n++;
	return n;
}

/* getopt_long's long options and short option string for the first n entries, with --help */
static struct option *getopt_table(const struct opt *table, size_t n, bool stop_at_operand, char **shortopts)
{
	struct option *longopts = xcalloc(n + 2, sizeof *longopts);
	char *s = xmalloc(3 * n + 8), *at = s;
	if (stop_at_operand)
		*at++ = '+';
	*at++ = ':';   /* a missing value is ':', not '?' */
	*at++ = 'h';
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (table[i].kind == OPT_KIND_GROUP)
			continue;
		int has_arg = table[i].argname ? required_argument : no_argument;
		if (table[i].long_name)
			longopts[k++] = (struct option){table[i].long_name, has_arg, NULL, LONG_VAL(i)};
		if (table[i].short_name) {
			*at++ = table[i].short_name;
			if (has_arg)
				*at++ = ':';
		}
	}
	*at = 0;
	longopts[k++] = (struct option){"help", no_argument, NULL, 'h'};
	*shortopts = s;
	return longopts;
}

static const struct opt *entry_of(const struct opt *table, size_t n, int c)
{
	if (c >= LONG_VAL(0))
		return c < LONG_VAL(n) ? &table[c - LONG_VAL(0)] : NULL;
	for (size_t i = 0; i < n; i++)
		if (table[i].short_name == c && table[i].kind != OPT_KIND_GROUP)
			return &table[i];
	return NULL;
}

static bool parse_long(struct opt_parser *p, const struct opt *o, const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < o->min || v > o->max) {
		opt_error(p, "%s expects an integer in [%ld, %ld], got '%s'", p->option, o->min, o->max, s);
		return false;
	}
	*out = v;
	return true;
}

static bool parse_double(struct opt_parser *p, const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v)) {
		opt_error(p, "%s expects a finite number, got '%s'", p->option, s);
		return false;
	}
	*out = v;
	return true;
}

/* the value of one option into its destination; false after an error */
static bool take(struct opt_parser *p, const struct opt *o, const char *arg)
{
	char name[128];
	if (o->long_name)
		snprintf(name, sizeof name, "--%s", o->long_name);
	else
		snprintf(name, sizeof name, "-%c", o->short_name);
	p->option = name;
	void *dest = (char *)p->opts + o->offset;
	bool ok = true;
	switch (o->kind) {
	case OPT_KIND_FLAG: *(bool *)dest = true; break;
	case OPT_KIND_STRING: *(const char **)dest = arg; break;
	case OPT_KIND_LONG: ok = parse_long(p, o, arg, dest); break;
	case OPT_KIND_DOUBLE: ok = parse_double(p, arg, dest); break;
	case OPT_KIND_CALLBACK: ok = o->callback(p, arg); break;
	default: break;
	}
	p->option = NULL;
	return ok;
}

/* the one-line error for what getopt_long refused (c is '?' or ':'); prev: optind before it */
static void refused(const struct opt_parser *p, int c, int prev, const struct opt *table, size_t n)
{
	int argc = p->argc;
	char **argv = p->argv;
	if (c == ':') {
		opt_error(p, "option '%s' needs a value", argv[optind - 1 < argc ? optind - 1 : argc - 1]);
		return;
	}
	const struct opt *o = optopt >= LONG_VAL(0) ? entry_of(table, n, optopt) : NULL;
	if (o)
		opt_error(p, "option '--%s' takes no value", o->long_name);
	else if (optopt && optopt != '?')
		opt_error(p, "unknown option '-%c'", optopt);
	else
		opt_error(p, "unknown option '%s'", argv[prev < argc ? prev : argc - 1]);
}

int opt_parse(struct opt_parser *p, const struct opt *table)
{
	size_t n = count_options(table);
	char *shortopts;
	struct option *longopts = getopt_table(table, n, p->stop_at_operand, &shortopts);
	int rc = -1;
	opterr = 0;
	optind = 0;   /* getopt_long starts afresh: ordering and all (its manual's word) */
	while (rc < 0) {
		int prev = optind ? optind : 1;
		int c = getopt_long(p->argc, p->argv, shortopts, longopts, NULL);
		if (c == -1)
			break;
		const struct opt *o = c == '?' || c == ':' ? NULL : entry_of(table, n, c);
		if (c == 'h' && !o) {
			if (p->print_help)
				p->print_help(p);
			else
				opt_error(p, "unknown option '%s'", p->argv[prev < p->argc ? prev : p->argc - 1]);
			rc = p->print_help ? EXIT_OK : EXIT_USAGE;
		} else if (!o) {
			refused(p, c, prev, table, n);
			rc = EXIT_USAGE;
		} else if (!take(p, o, optarg)) {
			rc = EXIT_USAGE;
		}
	}
	free(longopts);
	free(shortopts);
	return rc;
}

static bool is_heading(const struct opt *o)
{
	return o->kind == OPT_KIND_GROUP || o->kind == OPT_KIND_SUBCOMMAND;
}

const struct opt *opt_subcommand(const struct opt *table, const char *name)
{
	for (; table->kind != OPT_KIND_END; table++)
		if (table->kind == OPT_KIND_SUBCOMMAND && !strcmp(table->help, name))
			return table + 1;
	return NULL;
}

/* "-o, --output FILE" */
static int left_column(const struct opt *o, char *s, size_t size)
{
	int len = 0;
	if (o->short_name && o->long_name)
		len = snprintf(s, size, "-%c, --%s", o->short_name, o->long_name);
	else if (o->long_name)
		len = snprintf(s, size, "--%s", o->long_name);
	else
		len = snprintf(s, size, "-%c", o->short_name);
	if (o->argname && len >= 0 && (size_t)len < size)
		len += snprintf(s + len, size - (size_t)len, " %s", o->argname);
	return len;
}

/* text wrapped at spaces into lines of at most `room` characters, each after `indent` spaces
 * (but the first, which continues the line already begun) */
static void print_wrapped(FILE *out, const char *text, int indent, int room)
{
	int used = 0;
	while (*text) {
		while (*text == ' ')
			text++;
		size_t w = strcspn(text, " ");
		if (!w)
			break;
		if (used && used + 1 + (int)w > room) {
			fprintf(out, "\n%*s", indent, "");
			used = 0;
		}
		fprintf(out, "%s%.*s", used ? " " : "", (int)w, text);
		used += (used ? 1 : 0) + (int)w;
		text += w;
	}
	fputc('\n', out);
}

void opt_print_help(FILE *out, const struct opt *table, int width)
{
	int column = 0;
	char left[160];
	for (const struct opt *o = table; o->kind != OPT_KIND_END; o++)
		if (!is_heading(o)) {
			int len = left_column(o, left, sizeof left);
			column = len > column ? len : column;
		}
	column += 2 + 3;   /* two spaces before, three at least between */
	for (const struct opt *o = table; o->kind != OPT_KIND_END; o++) {
		if (is_heading(o)) {
			bool sub = o->kind == OPT_KIND_SUBCOMMAND;
			fprintf(out, "%s%s%s\n", o == table || sub ? "" : "\n", o->help, sub ? ":" : "");
			continue;
		}
		int len = left_column(o, left, sizeof left);
		fprintf(out, "  %s%*s", left, column - 2 - len, "");
		print_wrapped(out, o->help, column, width - column);
	}
}
