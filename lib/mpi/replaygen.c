/*
 * replaygen — generates the replayer's issuers from the function table and the prototypes of the
 * local mpi.h. A build tool, run by the Makefile:
 *
 *   replaygen TABLE PREPROCESSED_MPI_H OUT_ISSUE_C OUT_FNINFO_C
 *
 * OUT_ISSUE_C gets one issuer per traced function: it decodes each recorded parameter with the
 * decoder of its kind (replay/issue.h) into a local of the type mpi.h declares, sizes the buffers
 * from the counts and datatypes that go with them, calls the MPI function through its normal entry
 * point, and hands the outputs (new handles, requests, flags) back to the engine. OUT_FNINFO_C gets
 * mpi_fninfo[] (mpi/fninfo.h): the table flags and accounting class of every function.
 * Both arrays are indexed like ladder_functions[] (table order).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/signature.h"
#include "mpi/volume.h"
#include "mpi/mpitable.h"

struct gparam {
	char name[64], len[64], type[128];   /* type: as mpi.h declares it, without the name */
	int kind;
};

struct gfn {
	char name[64], vol[32];
	char volargs[VOL_MAXARGS][64];
	int nvolargs, np, line;
	bool custom, present, coll, free_comm, free_type, free_group, free_op;
	struct gparam p[MT_MAXP];
};

static struct gfn fns[MT_MAXFNS];
static int nfns;


static void copy(char *dst, size_t cap, const char *src, size_t n)
{
	if (n >= cap)
		gen_die("name too long: %.*s", (int)n, src);
	memcpy(dst, src, n);
	dst[n] = 0;
}

/* ---- the table, read by mpi/mpitable.c, in the form the issuers want ------------------------ */

static void from_table(const struct tfn *t, struct gfn *f)
{
	copy(f->name, sizeof f->name, t->name, strlen(t->name));
	f->line = t->line;
	f->present = t->proto != NULL;
	f->custom = t->flags & FNF_CUSTOM;
	f->coll = t->flags & FNF_COLLECTIVE;
	f->free_comm = t->flags & FREE_COMM;
	f->free_type = t->flags & FREE_TYPE;
	f->free_group = t->flags & FREE_GROUP;
	f->free_op = t->flags & FREE_OP;
	if (t->vol)
		f->nvolargs = mpitable_vol(t, f->vol, sizeof f->vol, f->volargs, VOL_MAXARGS);
	f->np = t->nparams;
	for (int i = 0; i < t->nparams; i++) {
		struct gparam *p = &f->p[i];
		const char *name = t->p[i].name, *len = t->p[i].len ? t->p[i].len : "";
		copy(p->name, sizeof p->name, name, strlen(name));
		copy(p->len, sizeof p->len, len, strlen(len));
		p->kind = t->p[i].kind;
		if (f->present && !f->custom)
			copy(p->type, sizeof p->type, t->proto->ptype[i], strlen(t->proto->ptype[i]));
	}
}

/* ---- emitting an issuer ----------------------------------------------------------------------- */

static bool pointer(const struct gparam *p) { return strchr(p->type, '*') || strchr(p->type, '['); }
static bool pointer_type(const char *t) { return t[0] && t[strlen(t) - 1] == '*'; }

static int param_index(const struct gfn *f, const char *name)
{
	for (int i = 0; i < f->np; i++)
		if (!strcmp(f->p[i].name, name))
			return i;
	return -1;
}

static const char *comm_name(const struct gfn *f)
{
	for (int i = 0; i < f->np; i++)
		if (f->p[i].kind == PK_COMM)
			return f->p[i].name;
	return NULL;
}

/* the input decoders: kind -> local type, decoder */
static const struct {
	int kind;
	const char *ctype, *decoder;
} inputs[] = {
	{PK_INT, "int", "rp_int"}, {PK_COUNT, "int", "rp_int"}, {PK_TAG, "int", "rp_int"},
	{PK_COLOR, "int", "rp_int"}, {PK_KEY, "int", "rp_int"}, {PK_AINT, "MPI_Aint", "rp_aint"},
	{PK_PEER, "int", "rp_peer"}, {PK_SRC, "int", "rp_src"}, {PK_ROOT, "int", "rp_root"},
	{PK_COMM, "MPI_Comm", "rp_comm"}, {PK_DTYPE, "MPI_Datatype", "rp_dtype"},
	{PK_OP, "MPI_Op", "rp_op"}, {PK_GROUP, "MPI_Group", "rp_group"}, {PK_INFO, "MPI_Info", "rp_info"},
	{PK_MSG, "MPI_Message", "rp_msg"}, {PK_STRING, "const char *", "rp_string"},
	{PK_REQ, "MPI_Request *", "rp_req"}, {PK_REQS, "MPI_Request *", "rp_reqs"},
	{PK_INTS, "int *", "rp_ints"}, {PK_COUNTS, "int *", "rp_ints"}, {PK_DISPLS, "int *", "rp_ints"},
	{PK_RANKS, "int *", "rp_ints"}, {PK_PEERS, "int *", "rp_peers"},
	{PK_COORDS, "int *", "rp_coords"}, {PK_WEIGHTS, "int *", "rp_weights"},
	{PK_AINTS, "MPI_Aint *", "rp_aints"}, {PK_DTYPES, "MPI_Datatype *", "rp_dtypes"},
	/* outputs MPI writes through a pointer we own */
	{PK_REQ_OUT, "MPI_Request *", "rp_req_new"}, {PK_INTS_OUT, "int *", "rp_ints_out"},
	{PK_INDICES_OUT, "int *", "rp_indices_out"},
};

/* outputs returned in a local: kind -> local type, initial value, what to do after the call */
static const struct {
	int kind;
	const char *ctype, *init, *after;
} outputs[] = {
	{PK_INT_OUT, "int", "0", NULL}, {PK_SIZE_OUT, "int", "0", NULL}, {PK_SELF_OUT, "int", "0", NULL},
	{PK_PEER_OUT, "int", "0", NULL}, {PK_FLAG_OUT, "int", "0", "rp_out_flag"},
	{PK_INDEX_OUT, "int", "MPI_UNDEFINED", "rp_out_index"},
	{PK_NEWCOMM, "MPI_Comm", "MPI_COMM_NULL", "rp_out_comm"},
	{PK_NEWTYPE, "MPI_Datatype", "MPI_DATATYPE_NULL", "rp_out_dtype"},
	{PK_NEWGROUP, "MPI_Group", "MPI_GROUP_NULL", "rp_out_group"},
	{PK_NEWOP, "MPI_Op", "MPI_OP_NULL", "rp_out_op"},
	{PK_MSG_OUT, "MPI_Message", "MPI_MESSAGE_NULL", "rp_out_msg"},
};

/* Where a buffer's bytes come from: the count (or byte size) after it, the displacements right
 * after a count array, the datatype after the count, times the communicator's size or degree
 * where the accounting class sends or receives a block per member. */
static const struct {
	const char *cls;
	const char *mult[2];   /* first buffer, second buffer */
} block_mult[] = {
	{"gather", {"1", "rp_size"}}, {"scatter", {"rp_size", "1"}}, {"allgather", {"1", "rp_size"}},
	{"alltoall", {"rp_size", "rp_size"}}, {"reduce_scatter_block", {"rp_size", "1"}},
	{"nb_allgather", {"1", "rp_indeg"}}, {"nb_alltoall", {"rp_outdeg", "rp_indeg"}},
};

static void emit_need(const struct gfn *f, int b, int ordinal)
{
	int c = b + 1;
	while (c < f->np && f->p[c].kind == PK_BUF)
		c++;
	if (c >= f->np || (f->p[c].kind != PK_COUNT && f->p[c].kind != PK_COUNTS && f->p[c].kind != PK_INT)) {
		emit("0");
		return;
	}
	const struct gparam *cp = &f->p[c];
	if (cp->kind == PK_INT) {             /* a size in bytes (MPI_Pack, MPI_Buffer_attach) */
		emit("rp_need_bytes(%s)", cp->name);
		return;
	}
	int d = c + 1 < f->np && (f->p[c + 1].kind == PK_DISPLS || f->p[c + 1].kind == PK_AINTS) ? c + 1 : -1;
	int t = c + 1;
	while (t < f->np && f->p[t].kind != PK_DTYPE && f->p[t].kind != PK_DTYPES)
		t++;
	if (t >= f->np)
		gen_die("%s: buffer %s has a count but no datatype", f->name, f->p[b].name);
	if (f->p[t].kind == PK_DTYPES) {
		emit("rp_need_w(x, k, %d, %s, %s, %s, %s)", c, cp->name,
		     d >= 0 && f->p[d].kind == PK_DISPLS ? f->p[d].name : "NULL",
		     d >= 0 && f->p[d].kind == PK_AINTS ? f->p[d].name : "NULL", f->p[t].name);
	} else if (cp->kind == PK_COUNTS) {
		emit("rp_need_v(x, k, %d, %s, %s, %s)", c, cp->name, d >= 0 ? f->p[d].name : "NULL",
		     f->p[t].name);
	} else {
		const char *mult = "1";
		for (size_t i = 0; i < sizeof block_mult / sizeof block_mult[0]; i++)
			if (!strcmp(block_mult[i].cls, f->vol) && ordinal < 2)
				mult = block_mult[i].mult[ordinal];
		if (strcmp(mult, "1"))
			emit("rp_need(x, %s, %s, %s(x, %s))", cp->name, f->p[t].name, mult, comm_name(f));
		else
			emit("rp_need(x, %s, %s, 1)", cp->name, f->p[t].name);
	}
}

static const char *region_of(const struct gfn *f, const struct gparam *p)
{
	if (!strcmp(f->name, "MPI_Buffer_attach"))
		return "RP_ATTACHED";
	if (!strcmp(f->vol, "send") || !strncmp(p->name, "send", 4) || !strcmp(p->name, "inbuf"))
		return "RP_SEND";
	return "RP_RECV";
}

/* an argument MPI ignores or that we do not record: something valid of its declared type */
static void emit_ignored(const struct gparam *p, int i)
{
	if (strstr(p->type, "MPI_User_function"))
		emit("\t%s%sa%d = rp_user_function;\n", p->type, pointer_type(p->type) ? "" : " ", i);
	else if (!strcmp(p->type, "int *"))
		emit("\tint a%d_v = 0;\n\tint *a%d = &a%d_v;\n", i, i, i);
	else if (strstr(p->type, "MPI_Status"))
		emit("\tMPI_Status *a%d = rp_status(x, k);\n", i);
	else if (pointer(p))
		emit("\tvoid *a%d = rp_scratch(x, k);\n", i);
	else
		gen_die("no placeholder for an ignored parameter of type '%s'", p->type);
}

/* the issuer's local variables: inputs decoded, outputs initialised, placeholders for the rest
 * (inputs first: peers and roots need the communicator the engine already resolved) */
static void emit_decoders(const struct gfn *f)
{
	for (int i = 0; i < f->np; i++) {
		const struct gparam *p = &f->p[i];
		if (p->kind == PK_BUF)
			continue;
		if (p->kind == PK_IGNORE) {
			emit_ignored(p, i);
			continue;
		}
		if (p->kind == PK_STATUS) {
			emit("\tMPI_Status *a%d = %s;\n", i,
			     !strncmp(p->name, "array_of", 8) ? "MPI_STATUSES_IGNORE" : "MPI_STATUS_IGNORE");
			continue;
		}
		bool done = false;
		for (size_t j = 0; j < sizeof inputs / sizeof inputs[0] && !done; j++)
			if (inputs[j].kind == p->kind) {
				emit("\t%s%s%s = %s(x, k, %d);\n", inputs[j].ctype, pointer_type(inputs[j].ctype) ? "" : " ",
				     p->name, inputs[j].decoder, i);
				done = true;
			}
		for (size_t j = 0; j < sizeof outputs / sizeof outputs[0] && !done; j++)
			if (outputs[j].kind == p->kind) {
				emit("\t%s %s = %s;\n", outputs[j].ctype, p->name, outputs[j].init);
				done = true;
			}
		if (!done)
			gen_die("%s: no decoder for kind %s", f->name, param_kind_name(p->kind));
	}
}

/* the MPI call's arguments */
static void emit_arguments(const struct gfn *f)
{
	for (int i = 0; i < f->np; i++) {
		const struct gparam *p = &f->p[i];
		emit("%s", i ? ", " : "");
		bool local_out = false;
		for (size_t j = 0; j < sizeof outputs / sizeof outputs[0]; j++)
			local_out |= outputs[j].kind == p->kind;
		if (p->kind == PK_IGNORE || p->kind == PK_STATUS)
			emit("a%d", i);
		else if (local_out)
			emit("&%s", p->name);
		else if (p->kind == PK_REQ && !pointer(p))
			emit("*%s", p->name);
		else if ((p->kind == PK_COMM || p->kind == PK_DTYPE || p->kind == PK_GROUP ||
			  p->kind == PK_OP || p->kind == PK_MSG) && pointer(p))
			emit("&%s", p->name);
		else if (strstr(p->type, "[3]"))
			emit("(int (*)[3])%s", p->name);
		else
			emit("%s", p->name);
	}
}

static void emit_issuer(const struct gfn *f)
{
	emit("\nstatic int issue_%s(struct rp *x, struct rp_call *k)\n{\n", f->name);
	emit_decoders(f);
	int ordinal = 0;
	for (int i = 0; i < f->np; i++) {
		const struct gparam *p = &f->p[i];
		if (p->kind != PK_BUF)
			continue;
		emit("\tvoid *%s = rp_buf(x, k, %d, %s, ", p->name, i, region_of(f, p));
		emit_need(f, i, ordinal++);
		emit(");\n");
	}
	emit("\tif (!rp_ready(x, k))\n\t\treturn RP_CANNOT;\n");
	emit("\tint rc = %s(", f->name);
	emit_arguments(f);
	emit(");\n");
	for (int i = 0; i < f->np; i++) {
		const struct gparam *p = &f->p[i];
		for (size_t j = 0; j < sizeof outputs / sizeof outputs[0]; j++)
			if (outputs[j].kind == p->kind && outputs[j].after)
				emit("\t%s(x, k, %d, %s);\n", outputs[j].after, i, p->name);
		if (p->kind == PK_REQ_OUT)
			emit("\trp_out_req(x, k, %d);\n", i);
		if (p->kind == PK_MSG && pointer(p))
			emit("\trp_msg_consumed(x, k, %d);\n", i);
		if (p->kind == PK_INDICES_OUT) {
			const char *n = p->len[0] == '*' ? p->len + 1 : NULL;
			if (!n || param_index(f, n) < 0)
				gen_die("%s: indices need their count", f->name);
			emit("\trp_out_outcount(x, k, %d, a%d_v);\n", i, param_index(f, n));
		}
	}
	if (!strcmp(f->name, "MPI_Buffer_detach"))
		emit("\trp_buffer_detached(x);\n");
	emit("\treturn rc;\n}\n");
}

/* ---- main ----------------------------------------------------------------------------------------- */

static int vol_class_of(const char *s)
{
	static const char *const names[] = {
#define X(e, n) n,
		VOL_CLASSES(X)
#undef X
	};
	for (int i = 0; i < VOL_NCLASSES; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

static void emit_fninfo(const struct gfn *f)
{
	static const char *const enames[] = {
#define X(e, n) "VOL_" #e,
		VOL_CLASSES(X)
#undef X
	};
	int cls = vol_class_of(f->vol);
	if (cls < 0)
		gen_die("%s: unknown accounting class '%s'", f->name, f->vol);
	emit("\t{\"%s\", 0", f->name);
	emit("%s%s%s%s", f->free_comm ? " | FNINFO_FREE_COMM" : "", f->free_type ? " | FNINFO_FREE_TYPE" : "",
	     f->free_group ? " | FNINFO_FREE_GROUP" : "", f->free_op ? " | FNINFO_FREE_OP" : "");
	emit(", %s, {", enames[cls]);
	for (int a = 0; a < VOL_MAXARGS; a++) {
		int idx = -1;
		if (a < f->nvolargs && (idx = param_index(f, f->volargs[a])) < 0)
			gen_die("%s: accounting argument '%s' is not a parameter", f->name, f->volargs[a]);
		emit("%s%d", a ? ", " : "", idx);
	}
	emit("}},\n");
}

int main(int argc, char **argv)
{
	if (argc != 5)
		gen_die("usage: replaygen TABLE PREPROCESSED_MPI_H ISSUE.c FNINFO.c");
	static struct mpi_table tab;
	mpitable_read(&tab, argv[1], argv[2], "replayed");
	nfns = tab.nfns;
	for (int i = 0; i < nfns; i++)
		from_table(&tab.fns[i], &fns[i]);

	gen_open(argv[4]);
	emit("/* Generated by replaygen from %s: flags and accounting of each traced function. */\n",
	     argv[1]);
	emit("#include \"mpi/fninfo.h\"\n\nconst struct mpi_fninfo mpi_fninfo[] = {\n");
	for (int i = 0; i < nfns; i++)
		emit_fninfo(&fns[i]);
	emit("};\nconst uint32_t mpi_nfninfo = %d;\n", nfns);
	gen_close();

	gen_open(argv[3]);
	emit("/* Generated by replaygen from %s and mpi.h: one issuer per traced MPI function. */\n",
	     argv[1]);
	emit("#include \"replay/issue.h\"\n");
	emit("#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n");
	int n = 0;
	for (int i = 0; i < nfns; i++)
		if (fns[i].present && !fns[i].custom) {
			emit_issuer(&fns[i]);
			n++;
		}
	emit("\nconst rp_issuer rp_issuers[] = {\n");
	for (int i = 0; i < nfns; i++)
		emit("\t%s%s,\n", fns[i].present && !fns[i].custom ? "issue_" : "NULL",
		     fns[i].present && !fns[i].custom ? fns[i].name : "");
	emit("};\nconst uint32_t rp_nissuers = %d;\n", nfns);
	gen_close();
	fprintf(stderr, "replaygen: %d issuers\n", n);
	return 0;
}
