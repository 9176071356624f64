/*
 * fuzz_container — libFuzzer target for the container reader: the input is written as a file and
 * read as a run container (identify, read, validate, walk every rank), exactly as `ladder decode`
 * and `ladder validate` would. After each input no HDF5 object may be left open: HDF5 itself
 * leaks on some damaged files (its error paths), so leak detection is off for this target and
 * this check stands for it on our side.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <hdf5.h>

#include "run/events.h"
#include "store/store.h"

static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!path[0])
		snprintf(path, sizeof path, "/tmp/ladder-fuzz-%d.h5", (int)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	struct run r;
	struct h5_err e;
	if (!store_read_run(path, &r, &e)) {
		if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0)
			abort();
		return 0;
	}
	for (uint32_t q = 0; q < r.nranks && q < 64; q++) {
		struct event_iter it;
		event_iter_init(&it, &r, q);
		struct event ev;
		for (int n = 0; n < 100000 && event_next(&it, &ev); n++)
			;
		event_iter_free(&it);
	}
	run_free(&r);
	if (H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL) != 0)
		abort();
	return 0;
}
