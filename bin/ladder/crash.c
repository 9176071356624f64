/*
 * crash — what ladder says when it is killed by a fatal signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL).
 *
 * The HDF5 library (1.10) can crash on containers damaged beyond what its checksums catch, and on
 * writes the disk refuses: such a crash is reported as one line naming the file, like any other
 * bad input. A crash anywhere else is ladder's own bug and is reported as an internal error. The
 * two are told apart by the address of the faulting instruction: inside the HDF5 library's code
 * or not (the library's code segments are found once, before any crash). A container left
 * half-written by the crash is removed. The handler calls only async-signal-safe functions and
 * reads only its own static copies of names.
 */
#include "crash.h"

#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "store/h5.h"
#include "util/exitcode.h"

#define MAX_RANGES 8

/* the executable segments of the HDF5 library */
static struct {
	uintptr_t start, end;
} hdf5_code[MAX_RANGES];
static int n_hdf5_code;

static int find_hdf5(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libhdf5"))
		return 0;
	for (int i = 0; i < info->dlpi_phnum && n_hdf5_code < MAX_RANGES; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
			uintptr_t start = info->dlpi_addr + ph->p_vaddr;
			hdf5_code[n_hdf5_code].start = start;
			hdf5_code[n_hdf5_code++].end = start + ph->p_memsz;
		}
	}
	return 0;
}

/* the faulting instruction's address, or 0 when this machine's context is not known here */
static uintptr_t fault_address(const void *context)
{
	const ucontext_t *uc = context;
#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

static bool in_hdf5(uintptr_t pc)
{
	for (int i = 0; i < n_hdf5_code; i++)
		if (pc >= hdf5_code[i].start && pc < hdf5_code[i].end)
			return true;
	return false;
}

static void on_fatal_signal(int sig, siginfo_t *info, void *context)
{
	(void)info;
	const char *file = h5_current_file();
	const char *partial = h5_partial_file();
	char msg[9000];
	int n;
	if (file && in_hdf5(fault_address(context)))
		n = snprintf(msg, sizeof msg, "ladder: %s: the HDF5 library crashed (signal %d) on this file: it is "
			     "damaged beyond what the library checks, or a write failed (disk full?)\n", file, sig);
	else
		n = snprintf(msg, sizeof msg, "ladder: internal error: signal %d in ladder's own code; "
			     "please report it (rerun with --debug for a core dump)\n", sig);
	if (partial)
		unlink(partial);
	if (n > 0 && write(STDERR_FILENO, msg, (size_t)n) < 0)
		_exit(EXIT_FAIL);
	_exit(EXIT_FAIL);
}

void crash_catch_signals(void)
{
	dl_iterate_phdr(find_hdf5, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, NULL);
}
