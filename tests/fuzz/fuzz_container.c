/*
 * fuzz_container — libFuzzer target for the container reader: the input is written as a file and
 * validated (schema, every cross-reference, the functions, a bounded walk of every rank, the
 * profile) as `ladder validate` does, then read as a run and walked as `ladder decode` does.
 * After each input no HDF5 object may be left open: HDF5 itself leaks on some damaged files (its
 * error paths), so leak detection is off for this target and this check stands for it on our
 * side.
 */
#include <hdf5.h>
#include <stdlib.h>

#include "fuzz.h"
#include "run/events.h"
#include "store/schema.h"
#include "store/store.h"

static void ignore(const char *line, void *arg)
{
	(void)line;
	(void)arg;
}

static void no_object_open(void)
{
	if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, ".h5");
	if (!path)
		return 0;
	event_set_max_calls(FUZZ_MAX_CALLS);
	schema_validate(path, ignore, NULL);
	no_object_open();
	struct run r;
	struct h5_err e;
	if (store_read_run(path, &r, &e)) {
		fuzz_walk(&r);
		run_free(&r);
	}
	no_object_open();
	return 0;
}
