/*
 * cpuclock — the thread's CPU time from an anchor while the thread was not switched out. See
 * cpuclock.h.
 */
#include "util/cpuclock.h"

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* initial-exec: the tracer, which links this file, is preloaded (its TLS is in the static block) */
static __thread __attribute__((tls_model("initial-exec"))) struct {
	volatile struct perf_event_mmap_page *page;   /* NULL: no cheap clock on this thread */
	int fd;
	bool anchored;
	uint32_t lock;         /* the page's seqlock word when the anchor was read */
	double wall, cpu;      /* the anchor */
} cc;

static double seconds(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double cpuclock_wall(void) { return seconds(CLOCK_MONOTONIC); }
double cpuclock_read(void) { return seconds(CLOCK_THREAD_CPUTIME_ID); }
bool cpuclock_cheap(void) { return cc.page != NULL; }

bool cpuclock_open(void)
{
	if (cc.page)
		return true;
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof a;
	a.config = PERF_COUNT_SW_DUMMY;     /* counts nothing: only its page is wanted */
	a.exclude_kernel = 1;               /* what an unprivileged thread may open (perf_event_paranoid 2) */
	a.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return false;
	long pagesize = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)pagesize, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return false;
	}
	cc.page = p;
	cc.fd = fd;
	cc.anchored = false;
	return true;
}

void cpuclock_close(void)
{
	if (!cc.page)
		return;
	munmap((void *)cc.page, (size_t)sysconf(_SC_PAGESIZE));
	close(cc.fd);
	memset(&cc, 0, sizeof cc);
}

double cpuclock_at(double wall)
{
	if (!cc.page)
		return cpuclock_read();
	uint32_t lock = cc.page->lock;
	__asm__ __volatile__("" ::: "memory");
	if (cc.anchored && lock == cc.lock)
		return cc.cpu + (wall - cc.wall);
	/* switched out since the anchor (or none yet): read the clock, anchor at the reading. The lock
	 * word is taken before it, so a switch during the reading shows as a change next time. */
	double cpu = cpuclock_read();
	cc.wall = cpuclock_wall();
	cc.cpu = cpu;
	cc.lock = lock;
	cc.anchored = true;
	return cpu;
}
