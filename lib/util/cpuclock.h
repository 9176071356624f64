/*
 * cpuclock — the calling thread's CPU time, read cheaply.
 *
 * CLOCK_THREAD_CPUTIME_ID is a system call (0.5 to 2 us on a loaded virtual machine, where
 * CLOCK_MONOTONIC costs 20 to 100 ns through the vDSO). But a thread that has not been switched out
 * since a reading of its CPU clock has been computing all along: its CPU time advanced exactly as
 * the monotonic clock did. Linux says when a thread was switched back in: a perf_event opened on
 * the thread (the "dummy" software event, which counts nothing) maps a page whose seqlock word the
 * kernel bumps each time the thread is scheduled in. So a reading is an anchor (wall, CPU, lock
 * word); while the word has not changed, CPU(t) = CPU(anchor) + (t - wall(anchor)), a load and an
 * addition; after a change the CPU clock is read again, once per context switch.
 *
 * Without perf events (perf_event_paranoid 3, a seccomp filter, another kernel) every reading is
 * the system call; cpuclock_cheap() says which. State is per thread; a thread opens its own.
 */
#ifndef LADDER_UTIL_CPUCLOCK_H
#define LADDER_UTIL_CPUCLOCK_H

#include <stdbool.h>

/* open the calling thread's cheap clock; false when only the system call is available */
bool cpuclock_open(void);
void cpuclock_close(void);
bool cpuclock_cheap(void);      /* the calling thread has an open cheap clock */

/* CLOCK_MONOTONIC and the thread's CPU clock, in seconds (the second is a system call) */
double cpuclock_wall(void);
double cpuclock_read(void);

/* the thread's CPU time at `wall`, a cpuclock_wall() reading just taken: from the anchor while the
 * thread was not switched out since, else read (and anchored) anew */
double cpuclock_at(double wall);

#endif
