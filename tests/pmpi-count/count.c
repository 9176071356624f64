/*
 * pmpi-count — a test-only PMPI library: LD_PRELOAD it into an unmodified MPI program and it counts,
 * per rank and MPI function, the calls and the bytes sent and received, following the convention
 * of workflows/apps/README.md ("Byte accounting"). At MPI_Finalize rank 0 gathers the counts and
 * writes them to the file named by PMPI_COUNT_OUT as the same TSV the apps' --expect prints.
 *
 * The wrappers are generated from one table (FUNCS below): name, parameter list, argument list,
 * bytes sent, bytes received — the byte expressions may use the parameters. It covers the functions
 * the reference apps call; the real tracer (lib/trace) will replace it.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers the byte expressions use ---------------------------------------------------------- */

static uint64_t tsize(MPI_Datatype t)
{
	int s = 0;
	PMPI_Type_size(t, &s);
	return (uint64_t)s;
}

static int csize(MPI_Comm c)
{
	int n = 0;
	PMPI_Comm_size(c, &n);
	return n;
}

static int is_me(int root, MPI_Comm c)
{
	int r = -1;
	PMPI_Comm_rank(c, &r);
	return r == root;
}

/* point-to-point: nothing moves to or from MPI_PROC_NULL */
static uint64_t p2p(int count, MPI_Datatype t, int peer)
{
	return peer == MPI_PROC_NULL ? 0 : (uint64_t)count * tsize(t);
}

static uint64_t sum(const int *counts, int n)
{
	uint64_t s = 0;
	for (int i = 0; i < n; i++)
		s += (uint64_t)counts[i];
	return s;
}

#define N(count, type) ((uint64_t)(count) * tsize(type))

/* ---- the table: X(name, (params), (args), bytes sent, bytes received) ----------------------------- */

#define FUNCS(X)                                                                                              \
	X(Allreduce, (const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c),                \
	  (sb, rb, n, t, op, c), N(n, t), N(n, t))                                                            \
	X(Alltoall, (const void *sb, int sn, MPI_Datatype st, void *rb, int rn, MPI_Datatype rt, MPI_Comm c), \
	  (sb, sn, st, rb, rn, rt, c), (sb == MPI_IN_PLACE ? N(rn, rt) : N(sn, st)) * (uint64_t)csize(c),     \
	  N(rn, rt) * (uint64_t)csize(c))                                                                     \
	X(Alltoallv,                                                                                          \
	  (const void *sb, const int sn[], const int sd[], MPI_Datatype st, void *rb, const int rn[],         \
	   const int rd[], MPI_Datatype rt, MPI_Comm c),                                                      \
	  (sb, sn, sd, st, rb, rn, rd, rt, c),                                                                \
	  sb == MPI_IN_PLACE ? sum(rn, csize(c)) * tsize(rt) : sum(sn, csize(c)) * tsize(st),                 \
	  sum(rn, csize(c)) * tsize(rt))                                                                      \
	X(Barrier, (MPI_Comm c), (c), 0, 0)                                                                   \
	X(Bcast, (void *b, int n, MPI_Datatype t, int root, MPI_Comm c), (b, n, t, root, c),                  \
	  is_me(root, c) ? N(n, t) : 0, is_me(root, c) ? 0 : N(n, t))                                         \
	X(Cart_coords, (MPI_Comm c, int rank, int nd, int coords[]), (c, rank, nd, coords), 0, 0)             \
	X(Cart_create, (MPI_Comm c, int nd, const int dims[], const int periods[], int reorder, MPI_Comm *nc), \
	  (c, nd, dims, periods, reorder, nc), 0, 0)                                                          \
	X(Cart_shift, (MPI_Comm c, int dir, int disp, int *src, int *dst), (c, dir, disp, src, dst), 0, 0)    \
	X(Comm_dup, (MPI_Comm c, MPI_Comm *nc), (c, nc), 0, 0)                                                \
	X(Comm_free, (MPI_Comm * c), (c), 0, 0)                                                               \
	X(Comm_rank, (MPI_Comm c, int *r), (c, r), 0, 0)                                                      \
	X(Comm_size, (MPI_Comm c, int *n), (c, n), 0, 0)                                                      \
	X(Comm_split, (MPI_Comm c, int color, int key, MPI_Comm *nc), (c, color, key, nc), 0, 0)              \
	X(Dims_create, (int nn, int nd, int dims[]), (nn, nd, dims), 0, 0)                                    \
	X(Exscan, (const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c),                   \
	  (sb, rb, n, t, op, c), N(n, t), N(n, t))                                                            \
	X(Iprobe, (int src, int tag, MPI_Comm c, int *flag, MPI_Status *s), (src, tag, c, flag, s), 0, 0)     \
	X(Irecv, (void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *q),              \
	  (b, n, t, src, tag, c, q), 0, p2p(n, t, src))                                                       \
	X(Isend, (const void *b, int n, MPI_Datatype t, int dst, int tag, MPI_Comm c, MPI_Request *q),        \
	  (b, n, t, dst, tag, c, q), p2p(n, t, dst), 0)                                                       \
	X(Op_create, (MPI_User_function * f, int commute, MPI_Op *op), (f, commute, op), 0, 0)                \
	X(Op_free, (MPI_Op * op), (op), 0, 0)                                                                 \
	X(Recv, (void *b, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *s),                \
	  (b, n, t, src, tag, c, s), 0, p2p(n, t, src))                                                       \
	X(Reduce, (const void *sb, void *rb, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c),         \
	  (sb, rb, n, t, op, root, c), N(n, t), is_me(root, c) ? N(n, t) : 0)                                 \
	X(Send, (const void *b, int n, MPI_Datatype t, int dst, int tag, MPI_Comm c), (b, n, t, dst, tag, c), \
	  p2p(n, t, dst), 0)                                                                                  \
	X(Sendrecv,                                                                                           \
	  (const void *sb, int sn, MPI_Datatype st, int dst, int stag, void *rb, int rn, MPI_Datatype rt,     \
	   int src, int rtag, MPI_Comm c, MPI_Status *s),                                                     \
	  (sb, sn, st, dst, stag, rb, rn, rt, src, rtag, c, s), p2p(sn, st, dst), p2p(rn, rt, src))          \
	X(Type_commit, (MPI_Datatype * t), (t), 0, 0)                                                         \
	X(Type_contiguous, (int n, MPI_Datatype t, MPI_Datatype *nt), (n, t, nt), 0, 0)                       \
	X(Type_create_resized, (MPI_Datatype t, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *nt),             \
	  (t, lb, extent, nt), 0, 0)                                                                          \
	X(Type_free, (MPI_Datatype * t), (t), 0, 0)                                                           \
	X(Type_vector, (int n, int len, int stride, MPI_Datatype t, MPI_Datatype *nt),                        \
	  (n, len, stride, t, nt), 0, 0)                                                                      \
	X(Wait, (MPI_Request * q, MPI_Status *s), (q, s), 0, 0)                                               \
	X(Waitall, (int n, MPI_Request q[], MPI_Status s[]), (n, q, s), 0, 0)                                 \
	X(Waitany, (int n, MPI_Request q[], int *i, MPI_Status *s), (n, q, i, s), 0, 0)

/* functions written by hand below: start-up and shut-down */
#define OTHERS(Y) Y(Init) Y(Init_thread) Y(Finalize)

#define ID(name, ...) F_##name,
#define ID_ONLY(name) F_##name,
enum { FUNCS(ID) OTHERS(ID_ONLY) NFUNCS };
#define NAME(name, ...) "MPI_" #name,
#define NAME_ONLY(name) "MPI_" #name,
static const char *const names[NFUNCS] = {FUNCS(NAME) OTHERS(NAME_ONLY)};

static uint64_t counts[NFUNCS][3]; /* calls, bytes sent, bytes received */

static void note(int f, uint64_t sent, uint64_t recv)
{
	counts[f][0]++;
	counts[f][1] += sent;
	counts[f][2] += recv;
}

/* bytes are computed before the call: handles such as the communicator are still valid then */
#define WRAP(name, params, args, sent, recv)          \
	int MPI_##name params                         \
	{                                             \
		note(F_##name, (sent), (recv));       \
		return PMPI_##name args;              \
	}
FUNCS(WRAP)

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);
	note(F_Init, 0, 0);
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);
	note(F_Init_thread, 0, 0);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(names[*(const int *)a], names[*(const int *)b]);
}

int MPI_Finalize(void)
{
	note(F_Finalize, 0, 0);
	int rank, size;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	uint64_t *all = rank == 0 ? malloc((size_t)size * sizeof counts) : NULL;
	if (rank == 0 && !all)
		abort();
	PMPI_Gather(counts, NFUNCS * 3, MPI_UINT64_T, all, NFUNCS * 3, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	const char *path = getenv("PMPI_COUNT_OUT");
	if (rank == 0 && path && *path) {
		int order[NFUNCS];
		for (int f = 0; f < NFUNCS; f++)
			order[f] = f;
		qsort(order, NFUNCS, sizeof order[0], by_name);
		FILE *out = fopen(path, "w");
		if (!out) {
			perror(path);
		} else {
			fprintf(out, "# pmpi-count 1 ranks=%d\nrank\tfunction\tcalls\tbytes_sent\tbytes_recv\n", size);
			for (int r = 0; r < size; r++)
				for (int i = 0; i < NFUNCS; i++) {
					const uint64_t *c = all + ((size_t)r * NFUNCS + (size_t)order[i]) * 3;
					if (c[0])
						fprintf(out, "%d\t%s\t%llu\t%llu\t%llu\n", r, names[order[i]],
							(unsigned long long)c[0], (unsigned long long)c[1],
							(unsigned long long)c[2]);
				}
			if (fclose(out))
				perror(path);
		}
	}
	free(all);
	return PMPI_Finalize();
}
