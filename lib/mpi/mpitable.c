/*
 * mpitable — the build tools' reader of the MPI function table and of mpi.h's prototypes.
 * See mpitable.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/signature.h"
#include "mpi/mpitable.h"

void gen_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", program_invocation_short_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static FILE *gen_out;
static char *gen_path;

void gen_open(const char *path)
{
	gen_out = fopen(path, "w");
	if (!gen_out)
		gen_die("cannot write %s", path);
	gen_path = strdup(path);
}

void emit(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(gen_out, fmt, ap);
	va_end(ap);
}

void gen_close(void)
{
	if (fclose(gen_out))
		gen_die("cannot write %s", gen_path ? gen_path : "the output");
	gen_out = NULL;
	free(gen_path);
	gen_path = NULL;
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (!d)
		gen_die("out of memory");
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

char *gen_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		gen_die("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		gen_die("cannot read %s", path);
	s[n] = 0;
	fclose(f);
	return s;
}

/* remove every __attribute__((...)) */
static void strip_attributes(char *s)
{
	char *p;
	while ((p = strstr(s, "__attribute__"))) {
		char *q = p + strlen("__attribute__");
		while (*q && *q != '(')
			q++;
		int depth = 0;
		do {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			q++;
		} while (*q && depth > 0);
		memmove(p, q, strlen(q) + 1);
	}
}

static void split_param(struct proto *pr, char *decl)
{
	decl = gen_trim(decl);
	if (!strcmp(decl, "void") || !*decl)
		return;
	if (!strcmp(decl, "...")) {
		pr->vararg = true;
		return;
	}
	/* name: the last identifier, ignoring a trailing [..][..] */
	char *end = decl + strlen(decl);
	char *brk = strchr(decl, '[');
	char *e = brk ? brk : end;
	while (e > decl && isspace((unsigned char)e[-1]))
		e--;
	char *b = e;
	while (b > decl && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
		b--;
	if (pr->nparams >= MT_MAXP)
		gen_die("%s: too many parameters", pr->name);
	pr->pname[pr->nparams] = xstrndup(b, (size_t)(e - b));
	char type[512];
	snprintf(type, sizeof type, "%.*s%s", (int)(b - decl), decl, brk ? brk : "");
	pr->ptype[pr->nparams] = strdup(gen_trim(type));
	pr->nparams++;
}

static void parse_protos(struct mpi_table *t, char *text)
{
	strip_attributes(text);
	for (char *stmt = strtok(text, ";"); stmt; stmt = strtok(NULL, ";")) {
		if (strstr(stmt, "typedef"))
			continue;
		char *m = strstr(stmt, "MPI_");
		while (m && (m > stmt && (isalnum((unsigned char)m[-1]) || m[-1] == '_')))
			m = strstr(m + 1, "MPI_");
		if (!m)
			continue;
		char *open = strchr(m, '(');
		if (!open)
			continue;
		char *nm_end = open;
		while (nm_end > m && isspace((unsigned char)nm_end[-1]))
			nm_end--;
		for (char *c = m; c < nm_end; c++)
			if (!isalnum((unsigned char)*c) && *c != '_')
				goto next;
		char *close = strrchr(open, ')');
		if (!close)
			continue;
		struct proto *pr = &t->protos[t->nprotos];
		memset(pr, 0, sizeof *pr);
		pr->name = xstrndup(m, (size_t)(nm_end - m));
		char *ret = gen_trim(xstrndup(stmt, (size_t)(m - stmt)));
		for (char *c = ret; *c; c++)
			if (*c == '\n' || *c == '\t')
				*c = ' ';
		/* drop storage-class words */
		if (!strncmp(ret, "extern ", 7))
			ret += 7;
		pr->ret = gen_trim(ret);
		pr->params_text = gen_trim(xstrndup(open + 1, (size_t)(close - open - 1)));
		char *params = strdup(pr->params_text);
		int depth = 0;
		char *start = params;
		for (char *c = params;; c++) {
			if (*c == '(' || *c == '[')
				depth++;
			else if (*c == ')' || *c == ']')
				depth--;
			if ((*c == ',' && depth == 0) || !*c) {
				bool last = !*c;
				*c = 0;
				split_param(pr, start);
				start = c + 1;
				if (last)
					break;
			}
		}
		if (mpitable_proto(t, pr->name))
			goto next;
		if (++t->nprotos == MT_MAXPROTOS)
			gen_die("too many prototypes");
next:;
	}
}

struct proto *mpitable_proto(struct mpi_table *t, const char *name)
{
	for (int i = 0; i < t->nprotos; i++)
		if (!strcmp(t->protos[i].name, name))
			return &t->protos[i];
	return NULL;
}

static const struct {
	const char *name;
	unsigned flag;
} flag_names[] = {
	{"p2p", FNF_P2P}, {"coll", FNF_COLLECTIVE}, {"complete", FNF_COMPLETE}, {"poll", FNF_POLL},
	{"start", FNF_START}, {"free", FNF_FREE}, {"cancel", FNF_CANCEL},
	{"persistent", FNF_PERSISTENT}, {"custom", FNF_CUSTOM},
	{"free_comm", FREE_COMM}, {"free_type", FREE_TYPE}, {"free_group", FREE_GROUP},
	{"free_op", FREE_OP},
};

static void parse_table(struct mpi_table *t, char *text)
{
	int lineno = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		char *l = gen_trim(line);
		line = nl ? nl + 1 : NULL;
		if (!*l || *l == '#')
			continue;
		if (t->nfns == MT_MAXFNS)
			gen_die("%s:%d: more than %d functions", t->path, lineno, MT_MAXFNS);
		struct tfn *f = &t->fns[t->nfns++];
		memset(f, 0, sizeof *f);
		f->line = lineno;
		char *bar = strchr(l, '|');
		if (bar) {
			*bar = 0;
			for (char *w = strtok(bar + 1, " \t"); w; w = strtok(NULL, " \t")) {
				if (!strncmp(w, "vol=", 4)) {
					f->vol = strdup(w + 4);
					continue;
				}
				bool ok = false;
				for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
					if (!strcmp(w, flag_names[i].name)) {
						f->flags |= flag_names[i].flag;
						ok = true;
					}
				if (!ok)
					gen_die("%s:%d: unknown flag '%s'", t->path, lineno, w);
			}
		}
		char *save;
		char *w = strtok_r(l, " \t", &save);
		f->name = strdup(w);
		while ((w = strtok_r(NULL, " \t", &save))) {
			if (f->nparams == MT_MAXP)
				gen_die("%s:%d: more than %d parameters", t->path, lineno, MT_MAXP);
			struct tparam *p = &f->p[f->nparams++];
			char *colon = strchr(w, ':');
			if (!colon)
				gen_die("%s:%d: parameter '%s' has no kind", t->path, lineno, w);
			*colon = 0;
			p->name = strdup(w);
			char *kind = colon + 1;
			char *at = strchr(kind, '@');
			if (at) {
				*at = 0;
				p->qual = strdup(at + 1);
				if (strcmp(p->qual, "root") && strcmp(p->qual, "notinplace") &&
				    strcmp(p->qual, "notinplace_recv"))
					gen_die("%s:%d: unknown qualifier '@%s'", t->path, lineno, p->qual);
			}
			char *br = strchr(kind, '[');
			if (br) {
				char *cl = strrchr(br, ']');
				if (!cl)
					gen_die("%s:%d: unclosed length in '%s'", t->path, lineno, kind);
				p->len = xstrndup(br + 1, (size_t)(cl - br - 1));
				*br = 0;
			}
			p->kind = param_kind_from_name(kind);
			if (p->kind < 0)
				gen_die("%s:%d: unknown kind '%s'", t->path, lineno, kind);
			if (param_kind_is_array(p->kind) != (p->len != NULL))
				gen_die("%s:%d: '%s' is %s but %s a length", t->path, lineno, p->name,
				    param_kind_is_array(p->kind) ? "an array kind" : "a scalar kind",
				    p->len ? "has" : "lacks");
		}
	}
}

void mpitable_read(struct mpi_table *t, const char *table, const char *mpi_h, const char *what)
{
	t->path = table;
	parse_table(t, read_file(table));
	parse_protos(t, read_file(mpi_h));
	if (t->nprotos < 100)
		gen_die("%s: found only %d MPI prototypes; is it a preprocessed mpi.h?", mpi_h, t->nprotos);
	for (int k = 0; k < t->nfns; k++) {
		struct tfn *f = &t->fns[k];
		struct proto *pr = f->proto = mpitable_proto(t, f->name);
		if (!pr) {
			fprintf(stderr, "%s: note: %s is not declared by this mpi.h; not %s\n",
				program_invocation_short_name, f->name, what);
			continue;
		}
		pr->used = true;
		if (f->flags & FNF_CUSTOM)
			continue;
		if (pr->nparams != f->nparams)
			gen_die("%s:%d: %s has %d parameters in mpi.h, %d in the table", t->path, f->line,
				f->name, pr->nparams, f->nparams);
		for (int i = 0; i < f->nparams; i++)
			if (strcmp(pr->pname[i], f->p[i].name))
				gen_die("%s:%d: %s parameter %d is '%s' in mpi.h, '%s' in the table", t->path,
					f->line, f->name, i + 1, pr->pname[i], f->p[i].name);
	}
}

int mpitable_vol(const struct tfn *f, char *cls, size_t ncls, char args[][64], int maxargs)
{
	const char *open = strchr(f->vol, '(');
	size_t len = strlen(f->vol);
	if (!open || f->vol[len - 1] != ')')
		gen_die("table line %d: %s: vol=%s is not CLASS(args)", f->line, f->name, f->vol);
	snprintf(cls, ncls, "%.*s", (int)(open - f->vol), f->vol);
	int n = 0;
	for (const char *a = open + 1; *a && *a != ')';) {
		size_t w = strcspn(a, ",)");
		if (n == maxargs || w >= 64)
			gen_die("table line %d: %s: vol=%s: too many or too long arguments", f->line, f->name,
				f->vol);
		snprintf(args[n++], 64, "%.*s", (int)w, a);
		a += w + (a[w] == ',');
	}
	return n;
}
