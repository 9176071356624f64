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

#include "mpi/signature.h"
#include "mpi/mpitable.h"

static struct mpi_table tab;

/* ---- emitting -------------------------------------------------------------------------------- */



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

/* what the wrappers need beyond the shared checks */
static void check_for_wrappers(void)
{
	for (int k = 0; k < tab.nfns; k++) {
		struct tfn *f = &tab.fns[k];
		if (!f->proto || (f->flags & FNF_CUSTOM))
			continue;
		bool seen_output = false;
		for (int i = 0; i < f->nparams; i++) {
			if (param_kind_is_output(f->p[i].kind))
				seen_output = true;
			else if (seen_output && f->p[i].kind != PK_IGNORE && f->p[i].kind != PK_STATUS)
				gen_die("%s:%d: %s: input '%s' after an output is not supported", tab.path,
					f->line, f->name, f->p[i].name);
			if (f->p[i].len && !strcmp(f->p[i].len, "size") && !find_param_named(f, "comm"))
				gen_die("%s:%d: %s: length 'size' needs a parameter named comm", tab.path,
					f->line, f->name);
		}
	}
}

static void write_fnids(const char *path)
{
	gen_open(path);
	emit("/* Generated by wrapgen from %s: ids of the traced MPI functions. */\n", tab.path);
	emit("#ifndef LADDER_TRACE_FNIDS_H\n#define LADDER_TRACE_FNIDS_H\nenum {\n");
	for (int k = 0; k < tab.nfns; k++)
		emit("\tFN_%s = %d,\n", tab.fns[k].name, k);
	emit("\tFN_COUNT = %d\n};\n#endif\n", tab.nfns);
	gen_close();
}

/* descriptors (dependency-free: compiled into the tools and the tracer) */
static void write_descriptors(const char *path)
{
	gen_open(path);
	emit("/* Generated by wrapgen from %s: descriptors of the traced MPI functions. */\n",
	     tab.path);
	emit("#include \"mpi/signature.h\"\n\n");
	for (int k = 0; k < tab.nfns; k++) {
		if (!tab.fns[k].nparams)
			continue;
		emit("static const struct param_desc params_%s[] = {", tab.fns[k].name);
		for (int i = 0; i < tab.fns[k].nparams; i++)
			emit("%s{\"%s\", %s}", i ? ", " : "", tab.fns[k].p[i].name, kind_enum(tab.fns[k].p[i].kind));
		emit("};\n");
	}
	emit("\nconst struct fn_desc ladder_functions[] = {\n");
	for (int k = 0; k < tab.nfns; k++)
		emit("\t{\"%s\", 0x%xu, %d, %s%s},\n", tab.fns[k].name, tab.fns[k].flags & 0xffffu, tab.fns[k].nparams,
		     tab.fns[k].nparams ? "params_" : "NULL", tab.fns[k].nparams ? tab.fns[k].name : "");
	emit("};\nconst uint32_t ladder_nfunctions = %d;\n", tab.nfns);
	gen_close();
}

/* wrappers of the functions mpi.h declares but the table does not list: counted as unknown */
static int emit_unknown_wrappers(void)
{
	emit("\n/* ---- functions outside the table: counted, not recorded ---- */\n");
	emit("const char *const trace_unknown_names[] = {\n");
	for (int i = 0; i < tab.nprotos; i++)
		if (!tab.protos[i].used && !excluded_unknown(&tab.protos[i]))
			emit("\t\"%s\",\n", tab.protos[i].name);
	emit("\tNULL\n};\n");
	int nunknown = 0;
	for (int i = 0; i < tab.nprotos; i++) {
		struct proto *pr = &tab.protos[i];
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
	return nunknown;
}

static void write_wrappers(const char *path)
{
	gen_open(path);
	emit("/* Generated by wrapgen from %s and mpi.h: the tracer's PMPI wrappers. */\n", tab.path);
	emit("#include \"trace/tracer.h\"\n\n");
	emit("#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n");
	emit("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n");
	int nwrapped = 0;
	for (int k = 0; k < tab.nfns; k++) {
		if (!tab.fns[k].proto || (tab.fns[k].flags & FNF_CUSTOM))
			continue;
		emit_wrapper(&tab.fns[k], tab.fns[k].proto);
		nwrapped++;
	}
	int nunknown = emit_unknown_wrappers();
	gen_close();
	fprintf(stderr, "wrapgen: %d functions traced, %d counted as unknown\n", nwrapped, nunknown);
}

int main(int argc, char **argv)
{
	if (argc != 6)
		gen_die("usage: wrapgen TABLE PREPROCESSED_MPI_H WRAPPERS.c FUNCTIONS.c FNIDS.h");
	mpitable_read(&tab, argv[1], argv[2], "traced");
	check_for_wrappers();
	write_fnids(argv[5]);
	write_descriptors(argv[4]);
	write_wrappers(argv[3]);
	return 0;
}
