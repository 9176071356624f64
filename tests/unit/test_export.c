/* Unit tests for export: the per-rank timeline (times synthesized from the mean gaps and durations,
 * or the recorded timestamps when the run kept them), each call's communication facts (partners as
 * world ranks, tags, sizes, bytes), and the Chrome trace-event JSON written from them with its rank
 * selection, time window and per-rank limit, read back through jansson. */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "exchange_run.h"
#include "meet/call_facts.h"
#include "export/chrome.h"
#include "meet/comms.h"
#include "export/timeline.h"

enum { N = 5 };   /* messages of the exchange */

#define assert_near(a, b) assert_true(fabs((a) - (b)) <= 1e-12)

/* the sender: MPI_Init at 0; the k-th send (k from 1) after 2 ms of compute, at k x 2.01 ms;
 * MPI_Finalize right after the last send. The receiver: its calls one after the other. */
static void timeline_synthesizes_times_from_the_means(void **state)
{
	struct run r;
	struct exchange_sigs s;
	exchange_run(&r, N, &s);
	assert_false(timeline_has_recorded_times(&r, 0));
	struct timeline t;
	struct timed_event te;
	timeline_init(&t, &r, 0);
	assert_true(timeline_next(&t, &te));
	assert_string_equal(te.ev.fn->name, "MPI_Init");
	assert_near(te.start, 0);
	assert_near(te.dur, EX_DUR);
	for (int k = 1; k <= N; k++) {
		assert_true(timeline_next(&t, &te));
		assert_string_equal(te.ev.fn->name, "MPI_Send");
		assert_int_equal(te.ev.repeat, 1);
		assert_near(te.start, k * (EX_GAP + EX_DUR));
		assert_near(te.dur, EX_DUR);
	}
	assert_true(timeline_next(&t, &te));
	assert_string_equal(te.ev.fn->name, "MPI_Finalize");
	assert_near(te.start, N * (EX_GAP + EX_DUR) + EX_DUR);
	assert_false(timeline_next(&t, &te));
	assert_null(timeline_error(&t));
	assert_false(t.recorded);
	timeline_free(&t);
	timeline_init(&t, &r, 1);
	for (int k = 0; k < N + 2; k++) {
		assert_true(timeline_next(&t, &te));
		assert_near(te.start, k * EX_DUR);
	}
	assert_false(timeline_next(&t, &te));
	timeline_free(&t);
	run_free(&r);
}

/* rank 0 kept its timestamps (lossless mode): they are given as recorded, kept monotonic */
static void timeline_gives_recorded_timestamps(void **state)
{
	struct run r;
	struct exchange_sigs s;
	exchange_run(&r, N, &s);
	r.ntimestamps = 1;
	r.timestamps = xcalloc(1, sizeof *r.timestamps);
	struct run_timestamps *ts = &r.timestamps[0];
	ts->rank = 0;
	ts->n = N + 2;
	ts->start = xcalloc(ts->n, sizeof *ts->start);
	ts->dur = xcalloc(ts->n, sizeof *ts->dur);
	for (uint64_t k = 0; k < ts->n; k++) {
		ts->start[k] = 0.5 + 0.25 * (double)k;
		ts->dur[k] = 0.125;
	}
	ts->start[3] = 0.5;   /* before the end of the call before it: moved to that end */
	char why[200];
	if (!run_check(&r, why, sizeof why))
		fail_msg("%s", why);
	assert_true(timeline_has_recorded_times(&r, 0));
	assert_false(timeline_has_recorded_times(&r, 1));
	struct timeline t;
	struct timed_event te;
	timeline_init(&t, &r, 0);
	for (uint64_t k = 0; k < ts->n; k++) {
		assert_true(timeline_next(&t, &te));
		assert_near(te.start, k == 3 ? 0.5 + 0.25 * 2 + 0.125 : 0.5 + 0.25 * (double)k);
		assert_near(te.dur, 0.125);
	}
	assert_false(timeline_next(&t, &te));
	assert_true(t.recorded);
	timeline_free(&t);
	run_free(&r);
}

/* the facts of rank q's k-th call (from 0) */
static void facts_of(const struct run *r, const struct comm_table *comms, uint32_t q, int k, struct event_iter *it,
		     struct call_facts *f)
{
	struct event ev;
	event_iter_init(it, r, q);
	int at = 0;
	while (event_next(it, &ev)) {
		if (at <= k && k < at + (int)ev.repeat) {
			call_facts_read(&ev, q, comms, f);
			return;
		}
		at += (int)ev.repeat;
	}
	fail_msg("rank %u has no call %d", q, k);
}

static void call_facts_name_partners_by_world_rank(void **state)
{
	struct run r;
	struct exchange_sigs s;
	exchange_run(&r, N, &s);
	struct comm_table comms;
	comm_table_build(&comms, &r);
	assert_int_equal(comm_size(&comms, 0, COMM_ID_WORLD), 2);
	assert_int_equal(comm_rank_of(&comms, 1, COMM_ID_WORLD, 1), 1);
	struct event_iter it;
	struct call_facts f;
	facts_of(&r, &comms, 0, 1, &it, &f);   /* the first send: to rank +1 */
	assert_int_equal(f.comm, COMM_ID_WORLD);
	assert_int_equal(f.dest, 1);
	assert_int_equal(f.source, NO_VALUE);
	assert_int_equal(f.send_tag, EX_TAG);
	assert_int_equal(f.send_size, EX_COUNT * 8);
	assert_int_equal(f.vol.sent, EX_COUNT * 8);
	assert_int_equal(f.vol.msgs_sent, 1);
	assert_int_equal(f.vol.recv, 0);
	assert_int_equal(f.root, NO_VALUE);
	event_iter_free(&it);
	facts_of(&r, &comms, 1, N, &it, &f);   /* the last receive: from rank -1 */
	assert_int_equal(f.source, 0);
	assert_false(f.any_source);
	assert_int_equal(f.dest, NO_VALUE);
	assert_int_equal(f.recv_tag, EX_TAG);
	assert_int_equal(f.recv_size, EX_COUNT * 8);
	assert_int_equal(f.vol.recv, EX_COUNT * 8);
	assert_int_equal(f.vol.msgs_recv, 1);
	event_iter_free(&it);
	facts_of(&r, &comms, 1, 0, &it, &f);   /* MPI_Init moves nothing */
	assert_int_equal(f.vol.sent + f.vol.recv, 0);
	assert_int_equal(f.dest, NO_VALUE);
	assert_int_equal(f.source, NO_VALUE);
	event_iter_free(&it);
	comm_table_free(&comms);
	run_free(&r);
}

/* export_chrome of r with o, parsed; its statistics in st */
static json_t *chrome(const struct run *r, const struct export_options *o, struct export_stats *st)
{
	char *text = NULL, why[200] = "";
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_non_null(out);
	if (!export_chrome(r, out, o, st, why, sizeof why))
		fail_msg("export_chrome: %s", why);
	assert_int_equal(fclose(out), 0);
	json_error_t err;
	json_t *j = json_loads(text, 0, &err);
	if (!j)
		fail_msg("not JSON (line %d: %s):\n%s", err.line, err.text, text);
	free(text);
	return j;
}

/* the complete events of a trace, in order; count of them on rank tid (-1: every rank) */
static size_t calls(const json_t *j, int tid)
{
	size_t i, n = 0;
	json_t *e;
	json_array_foreach(json_object_get(j, "traceEvents"), i, e) {
		if (strcmp(json_string_value(json_object_get(e, "ph")), "X"))
			continue;
		if (tid < 0 || json_integer_value(json_object_get(e, "tid")) == tid)
			n++;
	}
	return n;
}

static const json_t *call_at(const json_t *j, int tid, size_t k)
{
	size_t i, n = 0;
	json_t *e;
	json_array_foreach(json_object_get(j, "traceEvents"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "ph")), "X") &&
		    json_integer_value(json_object_get(e, "tid")) == tid && n++ == k)
			return e;
	fail_msg("no call %zu on rank %d", k, tid);
	return NULL;
}

static void chrome_writes_one_event_per_call(void **state)
{
	struct run r;
	struct exchange_sigs s;
	exchange_run(&r, N, &s);
	struct export_options o = {NULL, 0, -1, 0, "exchange.h5"};
	struct export_stats st;
	json_t *j = chrome(&r, &o, &st);
	assert_int_equal(st.events, 2 * (N + 2));
	assert_int_equal(st.ranks, 2);
	assert_false(st.recorded_times);
	assert_int_equal(calls(j, -1), 2 * (N + 2));
	assert_int_equal(calls(j, 0), N + 2);
	/* the second send: its time in microseconds, its partner and bytes */
	const json_t *e = call_at(j, 0, 2);
	assert_string_equal(json_string_value(json_object_get(e, "name")), "MPI_Send");
	assert_true(fabs(json_number_value(json_object_get(e, "ts")) - 2 * (EX_GAP + EX_DUR) * 1e6) < 1e-6);
	assert_true(fabs(json_number_value(json_object_get(e, "dur")) - EX_DUR * 1e6) < 1e-6);
	const json_t *args = json_object_get(e, "args");
	assert_int_equal(json_integer_value(json_object_get(args, "dest")), 1);
	assert_int_equal(json_integer_value(json_object_get(args, "tag")), EX_TAG);
	assert_int_equal(json_integer_value(json_object_get(args, "bytes_sent")), EX_COUNT * 8);
	args = json_object_get(call_at(j, 1, 1), "args");
	assert_int_equal(json_integer_value(json_object_get(args, "source")), 0);
	assert_int_equal(json_integer_value(json_object_get(args, "bytes_recv")), EX_COUNT * 8);
	/* the provenance */
	const json_t *p = json_object_get(j, "otherData");
	assert_string_equal(json_string_value(json_object_get(p, "source")), "exchange.h5");
	assert_string_equal(json_string_value(json_object_get(p, "command")), "./exchange");
	assert_int_equal(json_integer_value(json_object_get(p, "ranks")), 2);
	assert_string_equal(json_string_value(json_object_get(p, "timestamps")), export_timestamps_kind(false));
	json_decref(j);
	run_free(&r);
}

static void chrome_keeps_to_the_ranks_window_and_limit(void **state)
{
	struct run r;
	struct exchange_sigs s;
	exchange_run(&r, N, &s);
	struct export_stats st;
	/* rank 1 only */
	const bool only1[] = {false, true};
	struct export_options o = {only1, 0, -1, 0, NULL};
	json_t *j = chrome(&r, &o, &st);
	assert_int_equal(calls(j, -1), N + 2);
	assert_int_equal(calls(j, 1), N + 2);
	assert_int_equal(st.ranks, 1);
	json_decref(j);
	/* at most 3 calls per rank */
	o = (struct export_options){NULL, 0, -1, 3, NULL};
	j = chrome(&r, &o, &st);
	assert_int_equal(calls(j, 0), 3);
	assert_int_equal(calls(j, 1), 3);
	assert_int_equal(st.events, 6);
	json_decref(j);
	/* from 3.5 ms to 6.5 ms: the sends at 4.02 and 6.03 ms; the receiver was done by then */
	o = (struct export_options){NULL, 3.5e-3, 6.5e-3, 0, NULL};
	j = chrome(&r, &o, &st);
	assert_int_equal(calls(j, 0), 2);
	assert_int_equal(calls(j, 1), 0);
	assert_true(fabs(json_number_value(json_object_get(call_at(j, 0, 0), "ts")) - 2 * (EX_GAP + EX_DUR) * 1e6) < 1e-6);
	assert_true(fabs(json_number_value(json_object_get(call_at(j, 0, 1), "ts")) - 3 * (EX_GAP + EX_DUR) * 1e6) < 1e-6);
	json_decref(j);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(timeline_synthesizes_times_from_the_means),
		cmocka_unit_test(timeline_gives_recorded_timestamps),
		cmocka_unit_test(call_facts_name_partners_by_world_rank),
		cmocka_unit_test(chrome_writes_one_event_per_call),
		cmocka_unit_test(chrome_keeps_to_the_ranks_window_and_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
