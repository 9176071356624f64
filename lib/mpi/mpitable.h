/*
 * mpitable — the build tools' reader of the MPI function table (mpi-functions.tbl) and of the
 * prototypes of the local mpi.h, shared by wrapgen (the tracer's wrappers) and replaygen (the
 * replayer's issuers), so that both read the table the same way and check it against mpi.h the
 * same way. Build-tool code: errors end the program with a message naming the file and line.
 */
#ifndef LADDER_MPI_MPITABLE_H
#define LADDER_MPI_MPITABLE_H

#include <stdbool.h>

#include "mpi/signature.h"

#define MT_MAXP FN_MAXPARAMS   /* parameters of one function */
#define MT_MAXFNS 512    /* functions of the table */
#define MT_MAXPROTOS 1024

/* table flags beyond the FNF_* ones stored in the function descriptors */
#define FREE_COMM (1u << 16)
#define FREE_TYPE (1u << 17)
#define FREE_GROUP (1u << 18)
#define FREE_OP (1u << 19)

/* a prototype of mpi.h */
struct proto {
	char *name, *ret, *params_text;      /* params_text: the text between the parentheses */
	int nparams;
	char *pname[MT_MAXP], *ptype[MT_MAXP];  /* ptype: the declaration minus the name */
	bool vararg, used;                   /* used: named by the table */
};

/* a parameter of a table line: name:kind[len]@qual */
struct tparam {
	char *name, *len, *qual;   /* len, qual: NULL when absent */
	int kind;                  /* PK_* */
};

/* a table line */
struct tfn {
	char *name, *vol;    /* vol: "CLASS(args)" or NULL */
	unsigned flags;      /* FNF_* | FREE_* */
	int nparams;
	struct tparam p[MT_MAXP];
	int line;
	struct proto *proto; /* its prototype in mpi.h; NULL when this MPI does not declare it */
};

struct mpi_table {
	const char *path;    /* of the table */
	struct tfn fns[MT_MAXFNS];
	int nfns;
	struct proto protos[MT_MAXPROTOS];
	int nprotos;
};

/* Reads TABLE and the preprocessed mpi.h MPI_H into t, checks every function the table lists
 * against its prototype (same parameter names in the same order) and links them. A function this
 * mpi.h does not declare is kept with proto NULL and a note naming WHAT is left out. */
void mpitable_read(struct mpi_table *t, const char *table, const char *mpi_h, const char *what);

/* the prototype of NAME, or NULL */
struct proto *mpitable_proto(struct mpi_table *t, const char *name);

/* "CLASS(a,b)" -> class in cls, the arguments in args (each at most 64 bytes); returns their number */
int mpitable_vol(const struct tfn *f, char *cls, size_t ncls, char args[][64], int maxargs);

void gen_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* A generator writes one output file at a time: gen_open starts it, emit writes to it, gen_close
 * finishes it; failing to open or to write it ends the program naming the file. */
void gen_open(const char *path);
void emit(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void gen_close(void);
char *gen_trim(char *s);

#endif
