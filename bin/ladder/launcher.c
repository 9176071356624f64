/*
 * launcher — the rank count of an Open MPI launcher's command line. See launcher.h.
 *
 * mpirun's options come before the program; some take one value (--map-by core, -x NAME), two
 * (--mca KEY VALUE), the rest none. The values are skipped by the table below (Open MPI 4's and
 * 5's options that take values); an option not in it is taken for a flag. The program's own
 * arguments run to the next ':' (the next context of an MPMD line) or the end.
 */
#include "launcher.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

bool launcher_is_mpirun(const char *command)
{
	const char *base = strrchr(command, '/');
	base = base ? base + 1 : command;
	return !strcmp(base, "mpirun") || !strcmp(base, "mpiexec") || !strcmp(base, "orterun");
}

/* the options giving the rank count, without their leading dashes */
static const char *const count_options[] = {"n", "np", "c", NULL};

/* options that take one value, without their leading dashes */
static const char *const one_value_options[] = {
	"am", "app", "bind-to", "cf", "cartofile", "cpu-list", "cpu-set", "cpus-per-proc", "cpus-per-rank",
	"debugger", "default-hostfile", "display", "H", "host", "hnp", "hostfile", "launch-agent",
	"machinefile", "map-by", "max-restarts", "max-vm-size", "N", "npernode", "npersocket", "ompi-server",
	"output", "output-filename", "path", "personality", "ppr", "prefix", "preload-files", "rank-by",
	"rankfile", "report-events", "report-pid", "report-uri", "rf", "runtime-options", "stdin",
	"timeout", "tune", "wd", "wdir", "x", "xml-file", "xterm", NULL};

/* options that take two values */
static const char *const two_value_options[] = {"mca", "gmca", "omca", "pmixmca", "prtemca", NULL};

static bool listed(const char *const *names, const char *name)
{
	for (; *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

/* a positive count, or 0 */
static long count_of(const char *text)
{
	char *end;
	long n = strtol(text, &end, 10);
	return *text && !*end && n > 0 && n <= INT_MAX ? n : 0;
}

long launcher_ranks(int argc, char **argv)
{
	if (argc < 1 || !launcher_is_mpirun(argv[0]))
		return 0;
	long total = 0, context = -1;   /* -1: this context has given no count yet */
	bool in_program = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, ":")) {   /* the next context */
			if (context <= 0)
				return 0;
			total += context;
			context = -1;
			in_program = false;
			continue;
		}
		if (in_program)
			continue;
		if (a[0] != '-' || !a[1]) {
			in_program = true;   /* the program: its own options are not the launcher's */
			continue;
		}
		const char *name = a + (a[1] == '-' ? 2 : 1);
		int values = listed(count_options, name) || listed(one_value_options, name) ? 1
			     : listed(two_value_options, name)				     ? 2
											     : 0;
		if (i + values >= argc)
			return 0;   /* an option without its value: no program follows */
		if (listed(count_options, name))
			context = count_of(argv[i + 1]);
		i += values;
	}
	if (context <= 0 || total > INT_MAX - context)
		return 0;
	return total + context;
}
