/*
 * common — options, the run driver, the RESULT line and the small helpers every mini-app shares
 * (see common.h).
 */
#include "common.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const char *app_name = "app";

/* ---- options ------------------------------------------------------------------------------ */

enum {
	O_SCALING = 1000, O_SIZE, O_ITERATIONS, O_COMPUTE, O_PERIODIC, O_MANUAL, O_SENDRECV, O_ALLREDUCE,
	O_GRID, O_KBLOCK, O_IMBALANCE, O_SWITCH, O_EXPECT, O_RANKS, O_HELP,
};

static const struct optdesc {
	const char *name;
	int id;
	unsigned group; /* 0: every app */
	const char *arg; /* NULL: a flag */
	const char *help;
} OPTS[] = {
	{"scaling", O_SCALING, 0, "strong|weak", "strong: --size is the global problem; weak: per rank (default strong)"},
	{"size", O_SIZE, 0, "N", NULL},
	{"iterations", O_ITERATIONS, 0, "N", "main-loop iterations (default 10)"},
	{"compute", O_COMPUTE, 0, "K", "busy-work units per cell and iteration (default 0)"},
	{"periodic", O_PERIODIC, OPT_STENCIL, NULL, "periodic boundaries (default: fixed boundary, MPI_PROC_NULL peers)"},
	{"manual-neighbours", O_MANUAL, OPT_STENCIL, NULL,
	 "compute coordinates and neighbours by hand on MPI_COMM_WORLD (no MPI_Cart_*)"},
	{"sendrecv", O_SENDRECV, OPT_STENCIL, NULL, "halo exchange with MPI_Sendrecv instead of Irecv/Isend/Waitall"},
	{"allreduce-every", O_ALLREDUCE, OPT_STENCIL, "K", "an MPI_Allreduce every K iterations, 0 = never (default 10)"},
	{"grid", O_GRID, OPT_SWEEP, "PXxPY", "process grid (default: MPI_Dims_create)"},
	{"kblock", O_KBLOCK, OPT_SWEEP, "B", "z-planes per pipelined block (default 4)"},
	{"imbalance", O_IMBALANCE, OPT_IMBALANCE, "F", "key skew: key = M*u^(1+F), 0 = uniform (default 0)"},
	{"switch-at", O_SWITCH, OPT_SWITCH, "S", "iteration at which the pattern changes (default iterations/2)"},
	{"expect", O_EXPECT, 0, NULL, "print the MPI calls and bytes each rank will make, as TSV; runs no MPI"},
	{"ranks", O_RANKS, 0, "P", "with --expect: the rank count to describe"},
	{"help", O_HELP, 0, NULL, "this help"},
};
#define NOPTS (sizeof OPTS / sizeof OPTS[0])

static int applies(const struct app *app, const struct optdesc *o)
{
	return o->group == 0 || (app->groups & o->group);
}

static const char *opt_name(int id)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (OPTS[i].id == id)
			return OPTS[i].name;
	return "?";
}

/* parse an integer in [min, max]; 0 on success */
static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_grid(const char *s, int grid[2])
{
	char *end;
	errno = 0;
	long a = strtol(s, &end, 10);
	if (errno || end == s || (*end != 'x' && *end != 'X'))
		return -1;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (errno || end == t || *end || a < 1 || b < 1 || a > 1 << 20 || b > 1 << 20)
		return -1;
	grid[0] = (int)a;
	grid[1] = (int)b;
	return 0;
}

static void set_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t len, const char *fmt, ...)
{
	if (err[0])
		return; /* the first problem is the one reported */
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

/* store one option's value, or describe what is wrong with it in err */
static void set_option(int id, const char *arg, struct params *p, char *err, size_t len)
{
	long v;
	const char *name = opt_name(id);
	switch (id) {
	case O_SCALING:
		if (!strcmp(arg, "strong"))
			p->scaling = SCALING_STRONG;
		else if (!strcmp(arg, "weak"))
			p->scaling = SCALING_WEAK;
		else
			set_err(err, len, "--scaling expects strong or weak, got '%s'", arg);
		return;
	case O_GRID:
		if (parse_grid(arg, p->grid))
			set_err(err, len, "--grid expects PXxPY with PX, PY >= 1 (e.g. 4x2), got '%s'", arg);
		return;
	case O_IMBALANCE: {
		char *end;
		errno = 0;
		double f = strtod(arg, &end);
		if (errno || end == arg || *end || !(f >= 0 && f <= 100))
			set_err(err, len, "--imbalance expects a number in [0, 100], got '%s'", arg);
		else
			p->imbalance = f;
		return;
	}
	}
	/* the integer options */
	long min = 1, max = 1L << 40;
	if (id == O_COMPUTE || id == O_ALLREDUCE || id == O_SWITCH)
		min = 0;
	if (id == O_RANKS || id == O_ITERATIONS)
		max = 1L << 24;
	if (parse_long(arg, min, max, &v)) {
		set_err(err, len, "--%s expects an integer in [%ld, %ld], got '%s'", name, min, max, arg);
		return;
	}
	switch (id) {
	case O_SIZE: p->size = v; break;
	case O_ITERATIONS: p->iterations = v; break;
	case O_COMPUTE: p->compute = v; break;
	case O_ALLREDUCE: p->allreduce_every = v; break;
	case O_KBLOCK: p->kblock = v; break;
	case O_SWITCH: p->switch_at = v; break;
	case O_RANKS: p->ranks = v; break;
	}
}

/* returns 1 for --help; a usage problem goes to err (the first one found) */
static int parse_options(const struct app *app, int argc, char **argv, struct params *p, char *err, size_t len)
{
	struct option longopts[NOPTS + 1];
	size_t n = 0;
	for (size_t i = 0; i < NOPTS; i++)
		if (applies(app, &OPTS[i]))
			longopts[n++] = (struct option){OPTS[i].name, OPTS[i].arg ? required_argument : no_argument, NULL,
							OPTS[i].id};
	longopts[n] = (struct option){0, 0, 0, 0};

	*p = (struct params){.scaling = SCALING_STRONG, .size = app->default_size, .iterations = 10,
			     .allreduce_every = 10, .kblock = 4, .switch_at = -1};
	int help = 0, c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (c) {
		case '?':
			if (optopt)
				set_err(err, len, "unknown option '-%c' (see --help)", optopt);
			else
				set_err(err, len, "unknown option '%s' (see --help)", argv[optind - 1]);
			break;
		case ':':
			set_err(err, len, "option '--%s' needs a value", opt_name(optopt));
			break;
		case O_HELP: help = 1; break;
		case O_EXPECT: p->expect = 1; break;
		case O_PERIODIC: p->periodic = 1; break;
		case O_MANUAL: p->manual_neighbours = 1; break;
		case O_SENDRECV: p->sendrecv = 1; break;
		default: set_option(c, optarg, p, err, len); break;
		}
	}
	if (optind < argc)
		set_err(err, len, "unexpected argument '%s' (see --help)", argv[optind]);
	if (p->ranks && !p->expect)
		set_err(err, len, "--ranks is only used with --expect (a run takes its rank count from MPI)");
	if (p->expect && !p->ranks)
		set_err(err, len, "--expect needs --ranks P");
	if (p->switch_at < 0)
		p->switch_at = p->iterations / 2;
	return help;
}

static void usage(const struct app *app, FILE *out)
{
	fprintf(out, "usage: mpirun -np P %s [options]\n       %s --expect --ranks P [options]\n\n%s\n",
		app->name, app->name, app->summary);
	fprintf(out, "Valid rank counts: %s\n\nOptions:\n", app->rule);
	for (size_t i = 0; i < NOPTS; i++) {
		const struct optdesc *o = &OPTS[i];
		if (!applies(app, o))
			continue;
		char left[64];
		snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if (o->id == O_SIZE)
			fprintf(out, "  %-24s %s (default %ld)\n", left, app->size_help, app->default_size);
		else
			fprintf(out, "  %-24s %s\n", left, o->help);
	}
	fprintf(out, "\nA run prints one line on stdout:\n"
		     "  RESULT app= ranks= scaling= size= iterations= time= compute= checksum=\n"
		     "Usage errors and rank counts that cannot run the options exit with status 2.\n"
		     "See workflows/apps/README.md.\n");
}

/* the expect header: app, ranks and every option that applies, as key=value */
static void expect_header(const struct app *app, const struct params *p, FILE *out)
{
	fprintf(out, "# ladder-expect 1 app=%s ranks=%ld scaling=%s size=%ld iterations=%ld compute=%ld", app->name,
		p->ranks, p->scaling == SCALING_WEAK ? "weak" : "strong", p->size, p->iterations, p->compute);
	if (app->groups & OPT_STENCIL)
		fprintf(out, " periodic=%d manual-neighbours=%d sendrecv=%d allreduce-every=%ld", p->periodic,
			p->manual_neighbours, p->sendrecv, p->allreduce_every);
	if (app->groups & OPT_SWEEP) {
		if (p->grid[0])
			fprintf(out, " grid=%dx%d", p->grid[0], p->grid[1]);
		else
			fprintf(out, " grid=auto");
		fprintf(out, " kblock=%ld", p->kblock);
	}
	if (app->groups & OPT_IMBALANCE)
		fprintf(out, " imbalance=%g", p->imbalance);
	if (app->groups & OPT_SWITCH)
		fprintf(out, " switch-at=%ld", p->switch_at);
	fprintf(out, "\n");
}

/* ---- the driver ------------------------------------------------------------------------------ */

/* the calls the driver itself makes on every rank: start-up, loop barrier, result reductions, finalize */
static void expect_driver(struct expect *t, int P)
{
	const uint64_t red = 2 * sizeof(double) + sizeof(uint64_t);
	for (int r = 0; r < P; r++) {
		expect_add(t, r, "MPI_Init", 1, 0, 0);
		expect_add(t, r, "MPI_Comm_rank", 1, 0, 0);
		expect_add(t, r, "MPI_Comm_size", 1, 0, 0);
		expect_add(t, r, "MPI_Barrier", 1, 0, 0);
		expect_add(t, r, "MPI_Reduce", 2, red, r == 0 ? red : 0);
		expect_add(t, r, "MPI_Finalize", 1, 0, 0);
	}
}

int app_main(const struct app *app, int argc, char **argv)
{
	struct params p;
	char err[512] = "";
	app_name = app->name;
	if (parse_options(app, argc, argv, &p, err, sizeof err)) {
		usage(app, stdout);
		return 0;
	}
	if (p.expect) {
		if (!err[0])
			app->check(&p, (int)p.ranks, err, sizeof err);
		if (err[0]) {
			fprintf(stderr, "%s: %s\n", app->name, err);
			return 2;
		}
		struct expect *t = expect_new((int)p.ranks, app->totals_only);
		expect_driver(t, (int)p.ranks);
		app->expect(&p, (int)p.ranks, t);
		expect_header(app, &p, stdout);
		expect_print(t, stdout);
		expect_free(t);
		return fflush(stdout) ? 1 : 0;
	}

	MPI_Init(&argc, &argv);
	struct run r = {0};
	MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &r.size);
	if (!err[0])
		app->check(&p, r.size, err, sizeof err);
	if (err[0]) {
		if (r.rank == 0)
			fprintf(stderr, "%s: %s\n", app->name, err);
		MPI_Finalize();
		return 2;
	}
	app->run(&p, &r);

	double loc[2] = {r.loop_time, r.compute}, glob[2];
	uint64_t sum = 0;
	MPI_Reduce(loc, glob, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Reduce(&r.checksum, &sum, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	if (r.rank == 0) {
		printf("RESULT app=%s ranks=%d scaling=%s size=%ld iterations=%ld time=%.6f compute=%.6f "
		       "checksum=%016" PRIx64 "\n",
		       app->name, r.size, p.scaling == SCALING_WEAK ? "weak" : "strong", p.size, p.iterations, glob[0],
		       glob[1], sum);
		fflush(stdout);
	}
	MPI_Finalize();
	return 0;
}

/* ---- timing ---------------------------------------------------------------------------------- */

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void loop_begin(struct run *r)
{
	MPI_Barrier(MPI_COMM_WORLD);
	r->loop_start = MPI_Wtime();
}

void loop_end(struct run *r)
{
	r->loop_time = MPI_Wtime() - r->loop_start;
}

void compute_begin(struct run *r)
{
	r->compute_start = cpu_now();
}

void compute_end(struct run *r)
{
	r->compute += cpu_now() - r->compute_start;
}

/* ---- work and checksums ----------------------------------------------------------------------- */

uint64_t busywork(uint64_t x, long units)
{
	for (long i = 0; i < units; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		x ^= x >> 29;
	}
	return x;
}

static volatile uint64_t sink_value;

void sink(uint64_t v)
{
	sink_value ^= v;
}

uint64_t mix64(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

uint64_t cell_term(uint64_t index, uint64_t bits)
{
	return mix64(mix64(index) ^ bits);
}

double unit_hash(uint64_t index)
{
	return (double)(mix64(index) >> 11) * 0x1p-53;
}

/* ---- process grids ------------------------------------------------------------------------- */

void grid_dims(int nnodes, int nd, int dims[])
{
	int fixed = 1, nfree = 0;
	for (int i = 0; i < nd; i++) {
		if (dims[i] > 0)
			fixed *= dims[i];
		else
			nfree++;
	}
	if (nfree == 0)
		return;
	int left = nnodes / fixed, f[64], nf = 0, bins[16];
	for (int q = 2; (long)q * q <= left; q++)
		while (left % q == 0) {
			f[nf++] = q;
			left /= q;
		}
	if (left > 1)
		f[nf++] = left;
	for (int j = 0; j < nfree; j++)
		bins[j] = 1;
	/* largest factor first, each onto the currently smallest bin (what Open MPI does) */
	for (int i = nf - 1; i >= 0; i--) {
		int m = 0;
		for (int j = 1; j < nfree; j++)
			if (bins[j] < bins[m])
				m = j;
		bins[m] *= f[i];
	}
	for (int i = 0; i < nfree; i++)
		for (int j = i + 1; j < nfree; j++)
			if (bins[j] > bins[i]) {
				int t = bins[i];
				bins[i] = bins[j];
				bins[j] = t;
			}
	for (int i = 0, j = 0; i < nd; i++)
		if (dims[i] <= 0)
			dims[i] = bins[j++];
}

void grid_format(const int dims[], int nd, char *buf, size_t len)
{
	size_t o = 0;
	for (int i = 0; i < nd && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, i ? "x%d" : "%d", dims[i]);
}

/* ---- errors and memory ---------------------------------------------------------------------- */

void app_abort(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", app_name);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	int init = 0;
	MPI_Initialized(&init);
	if (init)
		MPI_Abort(MPI_COMM_WORLD, 1);
	exit(1);
}

void *app_alloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		app_abort("out of memory allocating %zu x %zu bytes", n, size);
	return p;
}

int check_cells(long size, double cells, char *msg, size_t len)
{
	if (cells <= (double)(1L << 30))
		return 0;
	snprintf(msg, len, "--size %ld is too large: a rank would hold %.0f cells (at most 2^30)", size, cells);
	return -1;
}
