/*
 * exitcode — what ladder's exit statuses mean, the same for every subcommand.
 */
#ifndef LADDER_UTIL_EXITCODE_H
#define LADDER_UTIL_EXITCODE_H

enum {
	EXIT_OK = 0,        /* done, and the answer is yes (valid, equal, thresholds held) */
	EXIT_FAIL = 1,      /* bad input, a failed operation, or a negative answer (invalid, differs) */
	EXIT_USAGE = 2,     /* unknown command or option, missing argument */
};

#endif
