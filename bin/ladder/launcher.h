/*
 * launcher — what an Open MPI launcher's command line (mpirun, mpiexec, orterun) says before the
 * program starts: whether a command is one, and how many ranks it launches, read past its other
 * options and their values and summed over the contexts of an MPMD line (A : B).
 */
#ifndef LADDER_CLI_LAUNCHER_H
#define LADDER_CLI_LAUNCHER_H

#include <stdbool.h>

/* whether command (a path or a name) is Open MPI's mpirun, mpiexec or orterun */
bool launcher_is_mpirun(const char *command);

/* The ranks the command line argv[0..argc) launches: the sum of every context's -n/-np/--np/-c
 * (the last one given in a context). 0 when argv[0] is no Open MPI launcher, or a context gives no
 * count (ranks from the allocation, -N per node, an appfile) or an invalid one, so that the count
 * cannot be known from the line. */
long launcher_ranks(int argc, char **argv);

#endif
