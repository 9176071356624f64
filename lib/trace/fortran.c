/*
 * fortran — the run-time side of the Fortran entry points that fortrangen (lib/mpi) generates:
 * finding Open MPI's own binding or PMPI function behind the tracer, and the per-thread note of
 * the Fortran call in flight (see struct fortran_call in tracer.h).
 *
 * A Fortran entry point announces its function and caller; Open MPI's binding converts the
 * arguments and calls PMPI_<name>; the generated PMPI_<name> sees the announcement and calls the C
 * wrapper instead, whose tcall_begin takes the Fortran caller as the call site. A binding that
 * calls another Fortran entry point (the mpi_f08 module calling the mpif.h one) keeps the outer
 * caller: only the first entry point owns the announcement and clears it when it returns.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "trace/tracer.h"

__thread __attribute__((tls_model("initial-exec"))) struct fortran_call trace_fortran;

void *fortran_real(const char *symbol)
{
	void *f = dlsym(RTLD_NEXT, symbol);
	if (!f) {
		fprintf(stderr, "ladder-trace: %s is not defined by the MPI library loaded after the tracer; "
				"the application must be linked with Open MPI (mpicc, mpifort)\n", symbol);
		abort();
	}
	return f;
}

bool fortran_enter(int fn, void *caller)
{
	if (trace_fortran.stage != FORTRAN_IDLE)
		return false;
	trace_fortran.fn = fn;
	trace_fortran.caller = caller;
	trace_fortran.stage = FORTRAN_ANNOUNCED;
	return true;
}

void fortran_leave(bool owner)
{
	if (owner)
		trace_fortran.stage = FORTRAN_IDLE;
}
