/*
 * crash — report a fatal signal as one line: a crash of the HDF5 library naming the file it was
 * working on, or an internal error of ladder's own code. See crash.c.
 */
#ifndef LADDER_CLI_CRASH_H
#define LADDER_CLI_CRASH_H

/* install the handler (not with --debug, so that crashes can be debugged) */
void crash_catch_signals(void);

#endif
