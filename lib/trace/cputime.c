/*
 * cputime — the CPU time of the compute gaps: how much of the time between the end of one call
 * and the start of the next the thread spent computing, rather than waiting for a core on a node
 * shared with other ranks or processes. A replay that consumes that CPU time reproduces the
 * application's work and lets the replaying node's contention add the waiting (lib/replay).
 *
 * LADDER_TRACE_CPUTIME chooses what is measured (the run's cpu_time, hdf5-schema/run.yaml):
 *   auto   (default) every gap when the cheap CPU clock (util/cpuclock.h, perf events) opens,
 *          else long gaps
 *   long   long gaps only: the CPU clock, a system call of 0.5-2 us, is read at both ends of a gap
 *          when the gaps after its previous call have been long (LONG_GAP on average, or fewer than
 *          LEARN seen so far); a shorter gap is taken as all CPU (CPU = wall). The cost is bounded
 *          by 2 readings per LONG_GAP of compute.
 *   off    nothing: the gaps' CPU times copy their wall times and the run says so (none)
 * In every mode a gap whose ends are on different threads (MPI_THREAD_MULTIPLE) is taken as all
 * CPU: thread CPU clocks do not compare.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tracer.h"
#include "util/cpuclock.h"
#include "util/xalloc.h"

#define LONG_GAP 50e-6        /* seconds */
#define LEARN 2               /* gaps after a call measured before its average decides */

struct follow {               /* the wall gaps seen after one terminal */
	uint32_t n;
	double sum;
};

static struct {
	enum run_cpu_time mode;
	const void *thread;       /* where the open gap started (a thread-local address) */
	bool measuring;           /* the open gap is measured at its end */
	struct follow *after;     /* by terminal (long mode) */
	uint32_t nafter;
} ct;

static __thread __attribute__((tls_model("initial-exec"))) char this_thread;

static bool env_is(const char *v, const char *want) { return v && !strcmp(v, want); }

enum run_cpu_time cputime_init(bool speak)
{
	const char *v = getenv("LADDER_TRACE_CPUTIME");
	memset(&ct, 0, sizeof ct);
	if (env_is(v, "off"))
		ct.mode = RUN_CPU_NONE;
	else if (env_is(v, "long") || !cpuclock_open())
		ct.mode = RUN_CPU_LONG;
	else
		ct.mode = RUN_CPU_EVERY;
	if (v && *v && !env_is(v, "auto") && !env_is(v, "long") && !env_is(v, "off") && speak)
		fprintf(stderr, "ladder-trace: LADDER_TRACE_CPUTIME=%s is not auto, long or off; using auto\n", v);
	return ct.mode;
}

enum run_cpu_time cputime_mode(void) { return ct.mode; }

void cputime_fini(void)
{
	cpuclock_close();
	free(ct.after);
	memset(&ct, 0, sizeof ct);
}

static bool worth_measuring(uint32_t term)
{
	if (ct.mode == RUN_CPU_EVERY)
		return true;
	if (ct.mode == RUN_CPU_NONE)
		return false;
	if (term >= ct.nafter)
		return true;
	const struct follow *f = &ct.after[term];
	return f->n < LEARN || f->sum >= LONG_GAP * f->n;
}

double cputime_gap_start(double wall, uint32_t term)
{
	ct.measuring = worth_measuring(term);
	ct.thread = &this_thread;
	return ct.measuring ? cpuclock_at(wall) : NAN;
}

double cputime_gap_end(double wall)
{
	if (!ct.measuring || ct.thread != &this_thread)
		return NAN;
	return cpuclock_at(wall);
}

void cputime_learn(uint32_t prev, double wall_gap)
{
	if (ct.mode != RUN_CPU_LONG || prev == RUN_NO_PREV)
		return;
	if (prev >= ct.nafter) {
		uint32_t n = ct.nafter ? ct.nafter : 64;
		while (n <= prev)
			n *= 2;
		ct.after = xrealloc(ct.after, n * sizeof *ct.after);
		memset(ct.after + ct.nafter, 0, (n - ct.nafter) * sizeof *ct.after);
		ct.nafter = n;
	}
	ct.after[prev].n++;
	ct.after[prev].sum += wall_gap;
}

double cputime_of_gap(double cpu_begin, double cpu_end, double wall_gap)
{
	if (wall_gap < 0)
		wall_gap = 0;
	if (isnan(cpu_begin) || isnan(cpu_end))
		return wall_gap;
	double cpu = cpu_end - cpu_begin;
	return cpu < 0 ? 0 : cpu > wall_gap ? wall_gap : cpu;
}
