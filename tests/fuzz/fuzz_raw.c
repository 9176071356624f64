/*
 * fuzz_raw — libFuzzer target for the raw trace format (what `ladder import` reads): parse,
 * check, walk every rank's calls of whatever parses, and write it again: what parses must
 * serialize to bytes that parse to the same run (the same bytes once more).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static void round_trip(const struct run *r)
{
	struct buf once, twice;
	buf_init(&once);
	buf_init(&twice);
	run_serialize(r, &once);
	struct run back;
	char why[300];
	if (!run_parse(&back, once.data, once.len, why, sizeof why))
		abort();
	run_serialize(&back, &twice);
	if (once.len != twice.len || memcmp(once.data, twice.data, once.len))
		abort();
	run_free(&back);
	buf_free(&once);
	buf_free(&twice);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run r;
	char why[300];
	if (!run_parse(&r, data, size, why, sizeof why))
		return 0;
	round_trip(&r);
	if (run_check(&r, why, sizeof why))
		fuzz_walk(&r);
	run_free(&r);
	return 0;
}
