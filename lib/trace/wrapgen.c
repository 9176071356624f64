/*
 * wrapgen — generates the tracer's PMPI wrappers and the function descriptors from one table
 * (mpi-functions.tbl) and the prototypes of the local mpi.h. A build tool, run by the Makefile:
 *
 *   wrapgen TABLE PREPROCESSED_MPI_H OUT_WRAPPERS_C OUT_FUNCTIONS_C OUT_FNIDS_H
 *
 * Every table function must exist in mpi.h with exactly the listed parameter names, in order
 * (functions this MPI does not declare are skipped with a note). Every other int-returning MPI
 * function of mpi.h gets a wrapper that only counts the call as "unknown".
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grammar/signature.h"

#define MAXP 32

struct proto {
	char *name, *ret, *params_text;   /* params_text: the text between the parentheses */
	int nparams;
	char *pname[MAXP], *ptype[MAXP];  /* ptype: declaration minus the name */
	bool vararg, used;
};

struct tparam {
	char *name, *len, *qual;
	int kind;
};

struct tfn {
	char *name, *vol;
	unsigned flags;
	int nparams;
	struct tparam p[MAXP];
	int line;
};

static struct proto protos[1024];
static int nprotos;
static struct tfn fns[512];
static int nfns;
static const char *table_path;

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "wrapgen: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static char *xstrndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (!d)
		die("out of memory");
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

static char *trim(char *s)
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
		die("cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		die("cannot read %s", path);
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
	decl = trim(decl);
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
	if (pr->nparams >= MAXP)
		die("%s: too many parameters", pr->name);
	pr->pname[pr->nparams] = xstrndup(b, (size_t)(e - b));
	char type[512];
	snprintf(type, sizeof type, "%.*s%s", (int)(b - decl), decl, brk ? brk : "");
	pr->ptype[pr->nparams] = strdup(trim(type));
	pr->nparams++;
}

static void parse_protos(char *text)
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
		struct proto *pr = &protos[nprotos];
		memset(pr, 0, sizeof *pr);
		pr->name = xstrndup(m, (size_t)(nm_end - m));
		char *ret = trim(xstrndup(stmt, (size_t)(m - stmt)));
		for (char *c = ret; *c; c++)
			if (*c == '\n' || *c == '\t')
				*c = ' ';
		/* drop storage-class words */
		if (!strncmp(ret, "extern ", 7))
			ret += 7;
		pr->ret = trim(ret);
		pr->params_text = trim(xstrndup(open + 1, (size_t)(close - open - 1)));
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
		for (int i = 0; i < nprotos; i++)
			if (!strcmp(protos[i].name, pr->name))
				goto next;
		if (++nprotos == (int)(sizeof protos / sizeof protos[0]))
			die("too many prototypes");
next:;
	}
}

static struct proto *find_proto(const char *name)
{
	for (int i = 0; i < nprotos; i++)
		if (!strcmp(protos[i].name, name))
			return &protos[i];
	return NULL;
}

static const struct {
	const char *name;
	unsigned flag;
} flag_names[] = {
	{"p2p", FNF_P2P}, {"coll", FNF_COLLECTIVE}, {"complete", FNF_COMPLETE}, {"poll", FNF_POLL},
	{"start", FNF_START}, {"free", FNF_FREE}, {"cancel", FNF_CANCEL},
	{"persistent", FNF_PERSISTENT}, {"custom", FNF_CUSTOM},
	{"free_comm", 1u << 16}, {"free_type", 1u << 17}, {"free_group", 1u << 18},
	{"free_op", 1u << 19},
};
#define FREE_COMM (1u << 16)
#define FREE_TYPE (1u << 17)
#define FREE_GROUP (1u << 18)
#define FREE_OP (1u << 19)

static void parse_table(char *text)
{
	int lineno = 0;
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		lineno++;
		char *l = trim(line);
		line = nl ? nl + 1 : NULL;
		if (!*l || *l == '#')
			continue;
		struct tfn *f = &fns[nfns++];
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
					die("%s:%d: unknown flag '%s'", table_path, lineno, w);
			}
		}
		char *save;
		char *w = strtok_r(l, " \t", &save);
		f->name = strdup(w);
		while ((w = strtok_r(NULL, " \t", &save))) {
			struct tparam *p = &f->p[f->nparams++];
			char *colon = strchr(w, ':');
			if (!colon)
				die("%s:%d: parameter '%s' has no kind", table_path, lineno, w);
			*colon = 0;
			p->name = strdup(w);
			char *kind = colon + 1;
			char *at = strchr(kind, '@');
			if (at) {
				*at = 0;
				p->qual = strdup(at + 1);
				if (strcmp(p->qual, "root") && strcmp(p->qual, "notinplace") &&
				    strcmp(p->qual, "notinplace_recv"))
					die("%s:%d: unknown qualifier '@%s'", table_path, lineno, p->qual);
			}
			char *br = strchr(kind, '[');
			if (br) {
				char *cl = strrchr(br, ']');
				if (!cl)
					die("%s:%d: unclosed length in '%s'", table_path, lineno, kind);
				p->len = xstrndup(br + 1, (size_t)(cl - br - 1));
				*br = 0;
			}
			p->kind = param_kind_from_name(kind);
			if (p->kind < 0)
				die("%s:%d: unknown kind '%s'", table_path, lineno, kind);
			if (param_kind_is_array(p->kind) != (p->len != NULL))
				die("%s:%d: '%s' is %s but %s a length", table_path, lineno, p->name,
				    param_kind_is_array(p->kind) ? "an array kind" : "a scalar kind",
				    p->len ? "has" : "lacks");
		}
	}
}

/* ---- emitting -------------------------------------------------------------------------------- */

static FILE *out;

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

static bool is_pointer(const char *type) { return strchr(type, '*') || strchr(type, '['); }

/* C expression for a length */
static void length_expr(const struct tfn *f, const char *len, char *buf, size_t n)
{
	char a[64], b[64];
	if (!strcmp(len, "size"))
		snprintf(buf, n, "tcall_comm_size(&c)");
	else if (!strcmp(len, "indeg"))
		snprintf(buf, n, "tcall_indegree(&c)");
	else if (!strcmp(len, "outdeg"))
		snprintf(buf, n, "tcall_outdegree(&c)");
	else if (!strcmp(len, "cartdims"))
		snprintf(buf, n, "tcall_cartdims(&c)");
	else if (len[0] == '*')
		snprintf(buf, n, "(%s ? *%s : 0)", len + 1, len + 1);
	else if (sscanf(len, "sum(%63[^,],%63[^)])", a, b) == 2)
		snprintf(buf, n, "trace_sum_ints(%s, %s)", a, b);
	else if (sscanf(len, "last(%63[^,],%63[^)])", a, b) == 2)
		snprintf(buf, n, "((%s) > 0 ? (%s)[(%s) - 1] : 0)", b, a, b);
	else if (strstr(len, "*3"))
		snprintf(buf, n, "(%.*s) * 3", (int)(strstr(len, "*3") - len), len);
	else
		snprintf(buf, n, "(%s)", len);
	(void)f;
}

static const char *find_param_named(const struct tfn *f, const char *n)
{
	for (int i = 0; i < f->nparams; i++)
		if (!strcmp(f->p[i].name, n))
			return f->p[i].name;
	return NULL;
}

static const char *kind_enum(int k)
{
	static char buf[64];
	snprintf(buf, sizeof buf, "PK_%s", param_kind_name(k));
	for (char *c = buf; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	return buf;
}

static void emit_encode(const struct tfn *f, const struct proto *pr, int i)
{
	const struct tparam *p = &f->p[i];
	const char *kn = param_kind_name(p->kind);
	if (p->kind == PK_IGNORE || p->kind == PK_STATUS)
		return;
	const char *type = pr->ptype[i];
	char arg[256];
	/* handles passed by pointer are read through it; requests are tracked by their address */
	bool handle = p->kind == PK_COMM || p->kind == PK_DTYPE || p->kind == PK_GROUP ||
		      p->kind == PK_OP || p->kind == PK_MSG;
	if (handle && is_pointer(type))
		snprintf(arg, sizeof arg, "*%s", p->name);
	else if (p->kind == PK_REQ && !is_pointer(type))
		snprintf(arg, sizeof arg, "&%s", p->name);
	else if (p->kind == PK_RANKS && strstr(type, "[3]"))
		snprintf(arg, sizeof arg, "(const int *)%s", p->name);
	else
		snprintf(arg, sizeof arg, "%s", p->name);
	char cond[128] = "";
	if (p->qual && !strcmp(p->qual, "root"))
		snprintf(cond, sizeof cond, "tcall_is_root(&c, root)");
	else if (p->qual && !strcmp(p->qual, "notinplace"))
		snprintf(cond, sizeof cond, "sendbuf != MPI_IN_PLACE");
	else if (p->qual && !strcmp(p->qual, "notinplace_recv"))
		snprintf(cond, sizeof cond, "recvbuf != MPI_IN_PLACE");
	const char *indent = "\t";
	if (*cond) {
		emit("\tif (%s)\n", cond);
		indent = "\t\t";
	}
	if (p->len) {
		char le[256];
		length_expr(f, p->len, le, sizeof le);
		emit("%senc_%s(&c, %s, %s);\n", indent, kn, arg, le);
	} else {
		emit("%senc_%s(&c, %s);\n", indent, kn, arg);
	}
	if (*cond)
		emit("\telse\n\t\tenc_skip(&c, %s);\n", kind_enum(p->kind));
}

static void emit_wrapper(const struct tfn *f, const struct proto *pr)
{
	emit("\nLADDER_EXPORT %s %s(%s)\n{\n", pr->ret, pr->name, pr->params_text);
	char args[2048] = "";
	for (int i = 0; i < pr->nparams; i++) {
		strcat(args, i ? ", " : "");
		strcat(args, pr->pname[i]);
	}
	emit("\tstruct tcall c;\n");
	emit("\tif (!tcall_begin(&c, FN_%s, __builtin_return_address(0)))\n", f->name);
	emit("\t\treturn P%s(%s);\n", pr->name, args);
	/* the call's communicator: the first comm parameter */
	for (int i = 0; i < f->nparams; i++)
		if (f->p[i].kind == PK_COMM) {
			emit("\ttcall_set_comm(&c, %s%s);\n", is_pointer(pr->ptype[i]) ? "*" : "",
			     f->p[i].name);
			break;
		}
	int status_param = -1;
	bool has_src = false, has_reqs = false;
	for (int i = 0; i < f->nparams; i++) {
		if (f->p[i].kind == PK_STATUS)
			status_param = i;
		if (f->p[i].kind == PK_SRC)
			has_src = true;
		if (f->p[i].kind == PK_REQ || f->p[i].kind == PK_REQS)
			has_reqs = true;
	}
	for (int i = 0; i < f->nparams; i++) {
		const struct tparam *p = &f->p[i];
		if (param_kind_is_output(p->kind))
			continue;
		emit_encode(f, pr, i);
	}
	if (f->vol) {
		char *v = strdup(f->vol);
		char *paren = strchr(v, '(');
		if (!paren)
			die("%s: vol=%s lacks arguments", f->name, f->vol);
		*paren = 0;
		emit("\tvol_%s(&c, %s;\n", v, paren + 1);
		free(v);
	}
	if (status_param >= 0 && (has_src || has_reqs)) {
		/* the tracer needs statuses of wildcard receives even when the app ignores them */
		const char *n = "1";
		for (int i = 0; i < f->nparams; i++)
			if (f->p[i].kind == PK_REQS)
				n = f->p[i].len;
		emit("\t%s = tcall_statuses(&c, %s, %s);\n", f->p[status_param].name,
		     f->p[status_param].name, n);
	}
	emit("\ttcall_invoke(&c);\n");
	emit("\t%s rc = P%s(%s);\n", pr->ret, pr->name, args);
	emit("\ttcall_returned(&c);\n");
	for (int i = 0; i < f->nparams; i++)
		if (param_kind_is_output(f->p[i].kind))
			emit_encode(f, pr, i);
	if (status_param >= 0 && (has_src || has_reqs))
		emit("\ttcall_statuses_done(&c, %s);\n", f->p[status_param].name);
	if (f->flags & (FNF_COMPLETE | FNF_START | FNF_FREE | FNF_CANCEL))
		emit("\ttcall_requests_done(&c);\n");
	if (f->flags & FREE_COMM)
		emit("\tobj_release_comm(&c);\n");
	if (f->flags & FREE_TYPE)
		emit("\tobj_release_dtype(&c);\n");
	if (f->flags & FREE_GROUP)
		emit("\tobj_release_group(&c);\n");
	if (f->flags & FREE_OP)
		emit("\tobj_release_op(&c);\n");
	emit("\ttcall_end(&c);\n\treturn rc;\n}\n");
}

static bool excluded_unknown(const struct proto *pr)
{
	size_t n = strlen(pr->name);
	if (strcmp(pr->ret, "int"))
		return true;   /* handle conversions, MPI_Wtime/Wtick, MPI_Aint arithmetic */
	if (n > 4 && (!strcmp(pr->name + n - 4, "_c2f") || !strcmp(pr->name + n - 4, "_f2c")))
		return true;
	return pr->vararg;
}

int main(int argc, char **argv)
{
	if (argc != 6)
		die("usage: wrapgen TABLE PREPROCESSED_MPI_H WRAPPERS.c FUNCTIONS.c FNIDS.h");
	table_path = argv[1];
	parse_table(read_file(argv[1]));
	parse_protos(read_file(argv[2]));
	if (nprotos < 100)
		die("%s: found only %d MPI prototypes; is it a preprocessed mpi.h?", argv[2], nprotos);

	/* check the table against mpi.h */
	bool present[512];
	for (int k = 0; k < nfns; k++) {
		struct tfn *f = &fns[k];
		struct proto *pr = find_proto(f->name);
		present[k] = pr != NULL;
		if (!pr) {
			fprintf(stderr, "wrapgen: note: %s is not declared by this mpi.h; not traced\n", f->name);
			continue;
		}
		pr->used = true;
		if (f->flags & FNF_CUSTOM)
			continue;
		if (pr->nparams != f->nparams)
			die("%s:%d: %s has %d parameters in mpi.h, %d in the table", table_path, f->line,
			    f->name, pr->nparams, f->nparams);
		bool seen_output = false;
		for (int i = 0; i < f->nparams; i++) {
			if (strcmp(pr->pname[i], f->p[i].name))
				die("%s:%d: %s parameter %d is '%s' in mpi.h, '%s' in the table", table_path,
				    f->line, f->name, i + 1, pr->pname[i], f->p[i].name);
			if (param_kind_is_output(f->p[i].kind))
				seen_output = true;
			else if (seen_output && f->p[i].kind != PK_IGNORE && f->p[i].kind != PK_STATUS)
				die("%s:%d: %s: input '%s' after an output is not supported", table_path,
				    f->line, f->name, f->p[i].name);
			if (f->p[i].len && !strcmp(f->p[i].len, "size") && !find_param_named(f, "comm"))
				die("%s:%d: %s: length 'size' needs a parameter named comm", table_path,
				    f->line, f->name);
		}
	}

	/* function ids */
	out = fopen(argv[5], "w");
	if (!out)
		die("cannot write %s", argv[5]);
	emit("/* Generated by wrapgen from %s: ids of the traced MPI functions. */\n", table_path);
	emit("#ifndef LADDER_TRACE_FNIDS_H\n#define LADDER_TRACE_FNIDS_H\nenum {\n");
	for (int k = 0; k < nfns; k++)
		emit("\tFN_%s = %d,\n", fns[k].name, k);
	emit("\tFN_COUNT = %d\n};\n#endif\n", nfns);
	fclose(out);

	/* descriptors (dependency-free: compiled into the tools and the tracer) */
	out = fopen(argv[4], "w");
	if (!out)
		die("cannot write %s", argv[4]);
	emit("/* Generated by wrapgen from %s: descriptors of the traced MPI functions. */\n",
	     table_path);
	emit("#include \"grammar/signature.h\"\n\n");
	for (int k = 0; k < nfns; k++) {
		if (!fns[k].nparams)
			continue;
		emit("static const struct param_desc params_%s[] = {", fns[k].name);
		for (int i = 0; i < fns[k].nparams; i++)
			emit("%s{\"%s\", %s}", i ? ", " : "", fns[k].p[i].name, kind_enum(fns[k].p[i].kind));
		emit("};\n");
	}
	emit("\nconst struct fn_desc ladder_functions[] = {\n");
	for (int k = 0; k < nfns; k++)
		emit("\t{\"%s\", 0x%xu, %d, %s%s},\n", fns[k].name, fns[k].flags & 0xffffu, fns[k].nparams,
		     fns[k].nparams ? "params_" : "NULL", fns[k].nparams ? fns[k].name : "");
	emit("};\nconst uint32_t ladder_nfunctions = %d;\n", nfns);
	fclose(out);

	/* wrappers */
	out = fopen(argv[3], "w");
	if (!out)
		die("cannot write %s", argv[3]);
	emit("/* Generated by wrapgen from %s and mpi.h: the tracer's PMPI wrappers. */\n", table_path);
	emit("#include \"trace/tracer.h\"\n\n");
	emit("#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n");
	emit("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n");
	int nwrapped = 0, nunknown = 0;
	for (int k = 0; k < nfns; k++) {
		if (!present[k] || (fns[k].flags & FNF_CUSTOM))
			continue;
		emit_wrapper(&fns[k], find_proto(fns[k].name));
		nwrapped++;
	}
	emit("\n/* ---- functions outside the table: counted, not recorded ---- */\n");
	emit("const char *const trace_unknown_names[] = {\n");
	for (int i = 0; i < nprotos; i++)
		if (!protos[i].used && !excluded_unknown(&protos[i]))
			emit("\t\"%s\",\n", protos[i].name);
	emit("\tNULL\n};\n");
	for (int i = 0; i < nprotos; i++) {
		struct proto *pr = &protos[i];
		if (pr->used || excluded_unknown(pr))
			continue;
		char args[2048] = "";
		for (int j = 0; j < pr->nparams; j++) {
			strcat(args, j ? ", " : "");
			strcat(args, pr->pname[j]);
		}
		emit("\nLADDER_EXPORT int %s(%s)\n{\n\ttrace_count_unknown(%d);\n\treturn P%s(%s);\n}\n",
		     pr->name, pr->params_text, nunknown, pr->name, args);
		nunknown++;
	}
	fclose(out);
	fprintf(stderr, "wrapgen: %d functions traced, %d counted as unknown\n", nwrapped, nunknown);
	return 0;
}
