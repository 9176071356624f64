/*
 * fuzz_walk — every reader's walk of a run, bounded. See fuzz.h.
 */
#include <stdlib.h>

#include "fuzz.h"
#include "run/events.h"
#include "run/fn_check.h"
#include "run/profile_check.h"

static void ignore(const char *line, void *arg)
{
	(void)line;
	(void)arg;
}

void fuzz_walk(const struct run *r)
{
	event_set_max_calls(FUZZ_MAX_CALLS);
	char why[300];
	run_check_functions(r, 20, ignore, NULL);
	if (!event_calls_bounded(r, why, sizeof why) || r->nranks > 64)
		return;
	struct buf b;
	buf_init(&b);
	for (uint32_t q = 0; q < r->nranks; q++) {
		struct event_iter it;
		event_iter_init(&it, r, q);
		struct event ev;
		uint64_t calls = 0;
		while (event_next(&it, &ev)) {
			struct event_view v;
			event_view_of(&it, &ev, &v);
			buf_reset(&b);
			event_format(&v, &b);
			calls += ev.repeat;
		}
		/* the bound holds whatever the file says */
		if (calls > FUZZ_MAX_CALLS)
			abort();
		event_iter_free(&it);
	}
	buf_free(&b);
	run_check_profile(r, 20, ignore, NULL);
}
