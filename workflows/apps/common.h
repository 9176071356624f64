/*
 * common — what every reference mini-app shares: the options (parsed with getopt_long), the run
 * driver (MPI start-up, usage errors with exit status 2, the RESULT line), deterministic busy-work,
 * order-independent checksums and the process-grid factorisation used by --expect.
 *
 * An app is a `struct app`: a name, the option groups it accepts, a check of whether a rank count
 * can run the given options, the analytic --expect table and the run itself. main() calls
 * app_main(). See workflows/apps/README.md for the result line, the expect format and the byte
 * accounting convention.
 */
#ifndef LADDER_APPS_COMMON_H
#define LADDER_APPS_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <mpi.h>

#include "expect.h"

enum scaling { SCALING_STRONG, SCALING_WEAK };

/* option groups beyond the common ones (--scaling --size --iterations --compute --expect --ranks --help) */
enum {
	OPT_STENCIL = 1u << 0,   /* --periodic --manual-neighbours --sendrecv --allreduce-every K */
	OPT_SWEEP = 1u << 1,     /* --grid PXxPY --kblock B */
	OPT_IMBALANCE = 1u << 2, /* --imbalance F */
	OPT_SWITCH = 1u << 3,    /* --switch-at S */
};

struct params {
	int scaling;          /* enum scaling */
	long size;            /* global (strong) or per rank (weak); the app says of what */
	long iterations;
	long compute;         /* busy-work units per cell and iteration */
	int periodic, manual_neighbours, sendrecv;
	long allreduce_every; /* 0: never */
	int grid[2];          /* sweep process grid, {0,0}: MPI_Dims_create chooses */
	long kblock;          /* sweep: z-planes per pipelined block */
	double imbalance;     /* is: key skew exponent, 0 = uniform */
	long switch_at;       /* phases: first iteration of the second pattern */
	int expect;
	long ranks;           /* the rank count --expect describes */
};

/* what the driver and an app's run share */
struct run {
	int rank, size;
	double loop_start, loop_time; /* wall clock of the main loop */
	double compute;               /* CPU seconds spent in compute kernels and busy-work */
	double compute_start;
	uint64_t checksum;            /* this rank's contribution, summed mod 2^64 over ranks */
};

struct app {
	const char *name;
	const char *summary;   /* one line for --help */
	const char *size_help; /* what --size counts */
	const char *rule;      /* which rank counts are valid, for --help */
	long default_size;
	unsigned groups;       /* OPT_* */
	int totals_only;       /* --expect gives totals over ranks (rank column "all") */
	/* 0 if P ranks can run p; else writes a one-line message (without the app name) */
	int (*check)(const struct params *p, int P, char *msg, size_t len);
	/* add the app's own calls; the driver adds Init, Comm_rank/size, Barrier, the result reductions and Finalize */
	void (*expect)(const struct params *p, int P, struct expect *t);
	void (*run)(const struct params *p, struct run *r);
};

int app_main(const struct app *app, int argc, char **argv);

/* main-loop timing: begin is an MPI_Barrier on MPI_COMM_WORLD, then the clock starts */
void loop_begin(struct run *r);
void loop_end(struct run *r);
/* compute timing: CPU time of the calling thread, so oversubscribed ranks are not charged for waiting */
void compute_begin(struct run *r);
void compute_end(struct run *r);

/* deterministic busy-work: `units` dependent integer steps from seed; the cost of one unit is constant */
uint64_t busywork(uint64_t seed, long units);
/* keep a value alive so the compiler cannot drop the work that made it */
void sink(uint64_t v);

/* 64-bit finaliser (splitmix64) and the checksum term for a cell: global index and value bits */
uint64_t mix64(uint64_t x);
uint64_t cell_term(uint64_t index, uint64_t bits);
static inline uint64_t dbits(double v)
{
	uint64_t b;
	memcpy(&b, &v, sizeof b);
	return b;
}
/* a deterministic double in [0, 1) from an index */
double unit_hash(uint64_t index);

/* the process grid Open MPI's MPI_Dims_create returns for nnodes over nd dims (dims[i] > 0 are kept) */
void grid_dims(int nnodes, int nd, int dims[]);
/* "AxBxC" */
void grid_format(const int dims[], int nd, char *buf, size_t len);

/* checked allocation (zeroed); aborts the job with a message on failure */
void *app_alloc(size_t n, size_t size);
/* a fatal run-time error: message on stderr, MPI_Abort with status 1 */
void app_abort(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* -1 and a message if one rank would hold more than 2^30 cells for this --size */
int check_cells(long size, double cells, char *msg, size_t len);

#endif
