/*
 * fortrangen — generates the tracer's Fortran entry points from the same table and mpi.h as
 * wrapgen. A build tool, run by the Makefile:
 *
 *   fortrangen TABLE PREPROCESSED_MPI_H OUT_FORTRAN_C
 *
 * Open MPI's Fortran bindings (mpif.h, `use mpi`, `use mpi_f08`) convert their arguments and call
 * PMPI_* directly, so the C wrappers never see a Fortran code's calls. For every int-returning MPI
 * function of mpi.h (the table's and the ones only counted), the generated file has:
 *
 *  - the Fortran entry points under every name Open MPI exports (mpi_send_, mpi_send__, mpi_send,
 *    MPI_SEND, mpi_send_f08_): each notes its caller's return address (the Fortran call site) and
 *    which function is on its way (lib/trace/fortran.c), then calls Open MPI's own binding, which
 *    converts handles, strings, MPI_IN_PLACE, status and request arrays as it always does;
 *  - PMPI_<name>: when the binding's call is the one announced, it goes to the C wrapper
 *    (MPI_<name>, which records it with the Fortran call site); every other call (the tracer's own,
 *    the library's) goes straight to Open MPI's PMPI_<name>.
 *
 * So a Fortran code's calls are recorded by the same wrappers, with the same C handles, as the
 * equivalent C code's. Fortran passes every argument by reference, plus a hidden length after the
 * last argument for each string; an entry point passes on as many pointer-sized arguments as the
 * C prototype has, plus the error code, the hidden lengths and one spare (passing more arguments
 * than a function reads is harmless in the C calling convention).
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/mpitable.h"
#include "mpi/signature.h"

static struct mpi_table tab;
static FILE *out;

static void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void emit(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
}

/* functions with a Fortran binding worth intercepting: int-returning, not variadic, no handle
 * conversions */
static bool has_fortran_binding(const struct proto *pr)
{
	if (strcmp(pr->ret, "int") || pr->vararg || strncmp(pr->name, "MPI_", 4))
		return false;
	return !strstr(pr->name, "_c2f") && !strstr(pr->name, "_f2c") && !strstr(pr->name, "_f082c");
}

/* pointer-sized arguments an entry point passes on */
static int fortran_arity(const struct proto *pr)
{
	int strings = 0;
	for (int j = 0; j < pr->nparams; j++)
		if (strstr(pr->ptype[j], "char"))
			strings++;
	return pr->nparams + 1 + strings + 1;
}

static void emit_list(const char *prefix, int n, bool typed)
{
	for (int j = 0; j < n; j++)
		emit("%s%s%s%d", j ? ", " : "", typed ? "void *" : "", prefix, j);
	if (!n && typed)
		emit("void");
}

static void emit_entry_points(const struct proto *pr, int index)
{
	int n = fortran_arity(pr);
	char lower[128], upper[128];
	snprintf(lower, sizeof lower, "%s", pr->name);
	snprintf(upper, sizeof upper, "%s", pr->name);
	for (char *c = lower; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	for (char *c = upper; *c; c++)
		*c = (char)toupper((unsigned char)*c);
	emit("\nstatic void fortran_%s(const char *symbol, void **real, void *caller", pr->name);
	if (n)
		emit(", ");
	emit_list("a", n, true);
	emit(")\n{\n\tif (!*real)\n\t\t*real = fortran_real(symbol);\n");
	emit("\tbool owner = fortran_enter(%d, caller);\n", index);
	emit("\t((void (*)(");
	emit_list("a", n, true);
	emit("))*real)(");
	emit_list("a", n, false);
	emit(");\n\tfortran_leave(owner);\n}\n");
	const char *const patterns[] = {"%s_", "%s__", "%s", "UPPER", "%s_f08_"};
	for (size_t v = 0; v < sizeof patterns / sizeof *patterns; v++) {
		char sym[160];
		if (!strcmp(patterns[v], "UPPER"))
			snprintf(sym, sizeof sym, "%s", upper);
		else
			snprintf(sym, sizeof sym, patterns[v], lower);
		emit("LADDER_EXPORT void %s(", sym);
		emit_list("a", n, true);
		emit(")\n{\n\tstatic void *real;\n\tfortran_%s(\"%s\", &real, __builtin_return_address(0)%s",
		     pr->name, sym, n ? ", " : "");
		emit_list("a", n, false);
		emit(");\n}\n");
	}
}

static void emit_pmpi(const struct proto *pr, int index)
{
	char args[2048] = "";
	for (int j = 0; j < pr->nparams; j++) {
		strcat(args, j ? ", " : "");
		strcat(args, pr->pname[j]);
	}
	emit("\nLADDER_EXPORT int P%s(%s)\n{\n", pr->name, pr->params_text);
	emit("\tif (__builtin_expect(trace_fortran.stage == FORTRAN_ANNOUNCED, 0) && trace_fortran.fn == %d) {\n",
	     index);
	emit("\t\ttrace_fortran.stage = FORTRAN_IN_WRAPPER;\n\t\treturn %s(%s);\n\t}\n", pr->name, args);
	emit("\tstatic __typeof__(P%s) *real;\n", pr->name);
	emit("\tif (__builtin_expect(!real, 0))\n\t\treal = (__typeof__(P%s) *)fortran_real(\"P%s\");\n",
	     pr->name, pr->name);
	emit("\treturn real(%s);\n}\n", args);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		gen_die("usage: fortrangen TABLE PREPROCESSED_MPI_H FORTRAN.c");
	mpitable_read(&tab, argv[1], argv[2], "intercepted from Fortran");
	out = fopen(argv[3], "w");
	if (!out)
		gen_die("cannot write %s", argv[3]);
	emit("/* Generated by fortrangen from %s and mpi.h: the tracer's Fortran entry points. */\n",
	     tab.path);
	emit("#include \"trace/tracer.h\"\n\n");
	emit("#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n");
	int count = 0;
	for (int i = 0; i < tab.nprotos; i++) {
		const struct proto *pr = &tab.protos[i];
		if (!has_fortran_binding(pr))
			continue;
		emit_entry_points(pr, count + 1);
		emit_pmpi(pr, count + 1);
		count++;
	}
	if (fclose(out))
		gen_die("cannot write %s", argv[3]);
	fprintf(stderr, "fortrangen: %d functions intercepted from Fortran\n", count);
	return 0;
}
