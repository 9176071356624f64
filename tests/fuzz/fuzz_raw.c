/*
 * fuzz_raw — libFuzzer target for the raw trace format (what `ladder import` reads): parse,
 * validate, and walk every rank's calls of whatever parses.
 */
#include <stddef.h>
#include <stdint.h>

#include "run/events.h"
#include "run/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run r;
	char why[300];
	if (!run_parse(&r, data, size, why, sizeof why))
		return 0;
	if (run_check(&r, why, sizeof why) && r.nranks <= 64) {
		for (uint32_t q = 0; q < r.nranks; q++) {
			struct event_iter it;
			event_iter_init(&it, &r, q);
			struct event ev;
			struct buf b;
			buf_init(&b);
			for (int n = 0; n < 100000 && event_next(&it, &ev); n++) {
				struct event_view v;
				event_view_of(&it, &ev, &v);
				buf_reset(&b);
				event_format(&v, &b);
			}
			buf_free(&b);
			event_iter_free(&it);
		}
	}
	run_free(&r);
	return 0;
}
