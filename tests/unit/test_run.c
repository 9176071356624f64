/* Unit tests for grammar/run and store: a run built by hand (two groups, streamed values, a
 * failed-poll run) survives the raw format and an HDF5 container unchanged, decodes to the
 * expected calls, and damaged input is an error, never a crash. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "run/events.h"
#include "run/layout.h"
#include "run/run.h"
#include "grammar/sequitur.h"
#include "store/store.h"
#include "util/xalloc.h"

/* function 0: MPI_Send(count:count, dest:peer); function 1: MPI_Test(flag:flag_out) with polls */
static const struct param_desc send_params[] = {{"count", PK_COUNT}, {"dest", PK_PEER}};
static const struct param_desc test_params[] = {{"flag", PK_FLAG_OUT}};

static void add_sig(struct run *r, uint32_t fn, uint32_t flags, const int64_t *v, uint32_t n)
{
	r->sigs = xrealloc(r->sigs, (r->nsigs + 1) * sizeof *r->sigs);
	r->sigvals = xrealloc(r->sigvals, (r->nsigvals + n + 1) * sizeof *r->sigvals);
	r->sigs[r->nsigs++] = (struct run_signature){fn, 0x1234, flags, n, r->nsigvals};
	memcpy(r->sigvals + r->nsigvals, v, n * sizeof *v);
	r->nsigvals += n;
}

static void add_stream(struct run *r, uint32_t rank, uint32_t sig, const int64_t *v, uint64_t n)
{
	run_add_stream(r, sig, rank, n, n, 0, v);
}

/* ranks 0,2 (group 0): 100 x (Send count=streamed dest=+1); ranks 1,3 (group 1): Test poll run
 * of 5 failures, then Test flag=1, then Send(count 8 literal, dest -1) */
static void build(struct run *r)
{
	run_init(r);
	r->nranks = 4;
	r->cpu_time = RUN_CPU_LONG;
	r->command = xstrdup("./app --size 10");
	r->host = xstrdup("host");
	r->slurm_job_id = xstrdup("");
	r->tool_version = xstrdup("test");
	r->created = xstrdup("2026-01-01T00:00:00Z");
	r->options = xstrdup("");
	run_set_label(r, "rung", "4");
	r->nfns = 2;
	r->fns = xcalloc(2, sizeof *r->fns);
	struct param_desc *p0 = xcalloc(2, sizeof *p0), *p1 = xcalloc(1, sizeof *p1);
	for (int i = 0; i < 2; i++)
		p0[i] = (struct param_desc){xstrdup(send_params[i].name), send_params[i].kind};
	p1[0] = (struct param_desc){xstrdup(test_params[0].name), test_params[0].kind};
	r->fns[0] = (struct fn_desc){xstrdup("MPI_Send"), FNF_P2P, 2, p0};
	r->fns[1] = (struct fn_desc){xstrdup("MPI_Test"), FNF_POLL | FNF_COMPLETE, 1, p1};
	add_sig(r, 0, 0, (int64_t[]){SV_STREAMED, 1}, 2);           /* 0: Send(count=STREAMED, dest=+1) */
	add_sig(r, 1, SIGF_FAILED_POLL, (int64_t[]){0}, 1);          /* 1: Test(flag=0) x n */
	add_sig(r, 1, 0, (int64_t[]){1}, 1);                         /* 2: Test(flag=1) */
	add_sig(r, 0, 0, (int64_t[]){8, -1}, 2);                     /* 3: Send(8, -1) */
	r->ngroups = 2;
	r->groups = xcalloc(2, sizeof *r->groups);
	struct sequitur *q = sequitur_new();
	for (int i = 0; i < 100; i++)
		sequitur_append(q, 0);
	sequitur_export(q, &r->groups[0].g);
	sequitur_free(q);
	q = sequitur_new();
	sequitur_append(q, 1);
	sequitur_append(q, 2);
	sequitur_append(q, 3);
	sequitur_export(q, &r->groups[1].g);
	sequitur_free(q);
	for (int g = 0; g < 2; g++) {
		r->groups[g].nranks = 2;
		ranklist_from_ranks(&r->groups[g].ranks, (const uint32_t[]){(uint32_t)g, (uint32_t)g + 2}, 2);
		r->groups[g].ndurs = 1;
		r->groups[g].durs = xcalloc(1, sizeof *r->groups[g].durs);
		r->groups[g].durs[0] = (struct run_dur){g ? 3 : 0, 10, 1e-3, 1e-7, 5e-5, 2e-4};
		r->groups[g].ngaps = 1;
		r->groups[g].gaps = xcalloc(1, sizeof *r->groups[g].gaps);
		struct run_gap *gp = &r->groups[g].gaps[0];
		*gp = (struct run_gap){RUN_NO_PREV, g ? 1 : 0, 4, 4e-3, 5e-6, 5e-4, 2e-3, {3e-3, 4e-4, 1.5e-3}, 2, NULL};
		gp->bins = xcalloc(2, sizeof *gp->bins);
		gp->bins[0] = (struct run_bin){70, 3, 2e-3, 5e-4, 9e-4, {1.5e-3, 4e-4, 6e-4}};
		gp->bins[1] = (struct run_bin){83, 1, 2e-3, 2e-3, 2e-3, {1.5e-3, 1.5e-3, 1.5e-3}};
	}
	int64_t counts[100];
	for (int i = 0; i < 100; i++)
		counts[i] = i % 7;
	add_stream(r, 0, 0, counts, 100);
	add_stream(r, 2, 0, counts, 100);
	int64_t polls[] = {5};
	add_stream(r, 1, 1, polls, 1);
	add_stream(r, 3, 1, polls, 1);
	r->nnodes = 3;
	r->nodes = xcalloc(3, sizeof *r->nodes);
	r->nodes[0] = (struct run_pnode){-1, PNODE_REGION, xstrdup("main")};
	r->nodes[1] = (struct run_pnode){0, PNODE_FUNCTION, xstrdup("MPI_Send")};
	r->nodes[2] = (struct run_pnode){0, PNODE_FUNCTION, xstrdup("MPI_Test")};
	r->counts = xcalloc(4 * 3 * RUN_PC_COUNT, sizeof *r->counts);
	double time[12] = {0};
	for (uint32_t q2 = 0; q2 < 4; q2++) {
		r->counts[(q2 * 3 + 0) * RUN_PC_COUNT + RUN_PC_VISITS] = 1;
		r->counts[(q2 * 3 + 1) * RUN_PC_COUNT + RUN_PC_VISITS] = q2 % 2 ? 1 : 100;
		r->counts[(q2 * 3 + 2) * RUN_PC_COUNT + RUN_PC_VISITS] = q2 % 2 ? 6 : 0;
		time[q2 * 3] = 1.0 + q2;
		time[q2 * 3 + 1] = 0.01 * (q2 + 1);
		time[q2 * 3 + 2] = q2 % 2 ? 0.001 : 0;
	}
	run_time_stats(r, time);
	char why[200];
	if (!run_check(r, why, sizeof why))
		fail_msg("the hand-built run does not check: %s", why);
}

static void expect_rank(const struct run *r, uint32_t rank, const char *const *lines, size_t n)
{
	struct event_iter it;
	event_iter_init(&it, r, rank);
	struct event ev;
	struct buf b;
	buf_init(&b);
	size_t k = 0;
	while (event_next(&it, &ev)) {
		struct event_view v;
		event_view_of(&it, &ev, &v);
		bool streamed = false;
		for (uint32_t i = 0; i < ev.s->nvals; i++)
			streamed |= r->sigvals[ev.s->voff + i] == SV_STREAMED;
		assert_int_equal(ev.constant, !streamed);
		buf_reset(&b);
		event_format(&v, &b);
		buf_put_u8(&b, 0);
		for (uint64_t rep = 0; rep < ev.repeat; rep++, k++) {
			assert_true(k < n);
			assert_string_equal((char *)b.data, lines[k]);
		}
	}
	assert_string_equal(it.error, "");
	assert_int_equal(k, n);
	buf_free(&b);
	event_iter_free(&it);
}

static void check_decoded(const struct run *r)
{
	const char *rank1[] = {"MPI_Test flag=0", "MPI_Test flag=0", "MPI_Test flag=0", "MPI_Test flag=0",
			       "MPI_Test flag=0", "MPI_Test flag=1", "MPI_Send count=8 dest=0"};
	expect_rank(r, 1, rank1, 7);
	const char **rank2 = xmalloc(100 * sizeof *rank2);
	char (*text)[64] = xmalloc(100 * sizeof *text);
	for (int i = 0; i < 100; i++) {
		snprintf(text[i], sizeof text[i], "MPI_Send count=%d dest=3", i % 7);
		rank2[i] = text[i];
	}
	expect_rank(r, 2, rank2, 100);
	free(rank2);
	free(text);
}

/* r through the raw format, decoded alike; the serialized bytes in b */
static void through_raw(const struct run *r, struct buf *b)
{
	struct run back;
	char why[300];
	run_serialize(r, b);
	assert_true(run_parse(&back, b->data, b->len, why, sizeof why));
	assert_true(run_check(&back, why, sizeof why));
	check_decoded(&back);
	assert_string_equal(run_label(&back, "rung"), "4");
	assert_int_equal(back.nsigs, 4);
	/* CPU times and what they are travel too */
	assert_int_equal(back.cpu_time, RUN_CPU_LONG);
	assert_true(back.groups[0].gaps[0].cpu.sum == 3e-3 && back.groups[0].gaps[0].bins[0].cpu.max == 6e-4);
	run_free(&back);
}

static void raw_round_trip(void **state)
{
	struct run r, back;
	build(&r);
	check_decoded(&r);
	struct buf b;
	buf_init(&b);
	through_raw(&r, &b);
	/* every truncation is an error, never a crash */
	char why[300];
	for (size_t cut = 0; cut < b.len; cut++) {
		assert_false(run_parse(&back, b.data, cut, why, sizeof why));
		assert_true(why[0] != 0);
	}
	buf_free(&b);
	run_free(&r);
}

/* raw version 1, as an older tracer wrote it (literal streams, no CPU times), still parses */
static void raw_version_1_is_read(void **state)
{
	(void)state;
	struct run r, back;
	build(&r);
	run_pack_streams(&r);   /* shared streams, written out per rank */
	struct buf b;
	buf_init(&b);
	run_serialize_version(&r, 1, &b);
	run_free(&r);
	char why[300];
	assert_true(run_parse(&back, b.data, b.len, why, sizeof why));
	assert_true(run_check(&back, why, sizeof why));
	check_decoded(&back);
	assert_int_equal(back.nstreams, 4);   /* one per rank and signature, literal */
	/* no CPU times: none recorded, each a copy of its wall time */
	assert_int_equal(back.cpu_time, RUN_CPU_NONE);
	const struct run_gap *g = &back.groups[0].gaps[0];
	assert_true(g->cpu.sum == g->sum && g->cpu.max == g->max && g->bins[1].cpu.min == g->bins[1].min);
	for (size_t cut = 0; cut < b.len; cut++)   /* a failed parse leaves nothing to free */
		assert_false(run_parse(&r, b.data, cut, why, sizeof why));
	run_free(&back);
	buf_free(&b);
	/* a version this ladder does not know */
	build(&r);
	buf_init(&b);
	run_serialize_version(&r, RUN_RAW_VERSION + 1, &b);
	run_free(&r);
	assert_false(run_parse(&back, b.data, b.len, why, sizeof why));
	assert_non_null(strstr(why, "reads versions 1 to 2"));
	buf_free(&b);
}

/* r written to a new temporary container (its name in path) and read back */
static void write_and_read(const struct run *r, char path[32], struct run *back)
{
	snprintf(path, 32, "/tmp/ladder-test-run-XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct h5_err e;
	assert_true(store_write_run(path, r, &e));
	if (!store_read_run_as_written(path, back, &e))
		fail_msg("%s", e.msg);
}

static void container_round_trip(void **state)
{
	struct run r, back;
	build(&r);
	char path[32];
	struct h5_err e;
	write_and_read(&r, path, &back);
	check_decoded(&back);
	assert_int_equal(back.nranks, 4);
	assert_string_equal(back.command, r.command);
	assert_int_equal(back.ngroups, 2);
	/* timing survives within the stored precision (10 significant bits) */
	const struct run_gap *g0 = &back.groups[0].gaps[0];
	assert_int_equal(g0->nbins, 2);
	assert_true(fabs(g0->sum - 4e-3) <= 4e-3 / 512);
	assert_true(fabs(g0->cpu.sum - 3e-3) <= 3e-3 / 512);
	assert_true(fabs(g0->bins[0].cpu.sum - 1.5e-3) <= 1.5e-3 / 512);
	assert_int_equal(back.cpu_time, RUN_CPU_LONG);
	assert_true(fabs(back.time_stats[1 * RUN_STAT_COUNT + RUN_STAT_MAX] - 0.04) <= 0.04 / 512);
	assert_int_equal(back.time_stats[1 * RUN_STAT_COUNT + RUN_STAT_ARGMAX], 3);
	assert_int_equal(back.counts[(2 * 3 + 1) * RUN_PC_COUNT + RUN_PC_VISITS], 100);
	run_free(&back);
	/* a run that does not check is refused when read */
	ranklist_from_ranks(&r.groups[1].ranks, (const uint32_t[]){1, 2}, 2);   /* rank 2 in both groups, rank 3 in none */
	assert_true(store_write_run(path, &r, &e));
	assert_false(store_read_run_as_written(path, &back, &e));
	assert_non_null(strstr(e.msg, "rank 2 is in groups 0 and 1"));
	unlink(path);
	run_free(&r);
}

/* packed streams (shared by ranks 0 and 2, folded to one period) decode alike in memory, through
 * the raw format and through a container */
static void packed_round_trips(void **state)
{
	struct run r, back;
	char why[300];
	build(&r);
	run_pack_streams(&r);
	assert_true(run_check(&r, why, sizeof why));
	assert_int_equal(r.nstreams, 2);
	assert_int_equal(r.streams[0].nranks, 2);
	assert_int_equal(run_stored_cells(&r), 7 + 1);
	assert_int_equal(run_streamed_values(&r), 2 * 100 + 2 * 1);
	check_decoded(&r);
	struct buf b;
	buf_init(&b);
	through_raw(&r, &b);
	buf_free(&b);
	char path[32];
	write_and_read(&r, path, &back);
	unlink(path);
	check_decoded(&back);
	assert_int_equal(run_stored_cells(&back), 7 + 1);
	run_free(&back);
	run_free(&r);
}

static void check_catches_inconsistencies(void **state)
{
	/* a grammar expanding to more calls than the profile says */
	struct run bad;
	char why0[300];
	build(&bad);
	bad.counts[(1 * 3 + 2) * RUN_PC_COUNT + RUN_PC_VISITS] = 0;   /* rank 1 made no MPI_Test */
	assert_false(run_check(&bad, why0, sizeof why0));
	assert_non_null(strstr(why0, "expands to 3 calls, but rank 1 made 1"));
	run_free(&bad);

	struct run r;
	char why[300];
	build(&r);
	r.sigs[3].fn = 9;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "function 9"));
	run_free(&r);
	build(&r);
	r.sigs[0].nvals = 1;    /* Send needs two values */
	assert_false(run_check(&r, why, sizeof why));
	run_free(&r);
	build(&r);
	r.streams[0].length = r.streams[0].nhead = 50; /* the stream runs out while walking */
	assert_true(run_check(&r, why, sizeof why));
	struct event_iter it;
	event_iter_init(&it, &r, 0);
	struct event ev;
	while (event_next(&it, &ev))
		;
	assert_non_null(strstr(it.error, "ran out"));
	event_iter_free(&it);
	run_free(&r);
}

/* the header fields of layout.h: values nobody would default to survive both formats */
static void fill_header(struct run *r)
{
	free(r->slurm_job_id);
	free(r->options);
	r->slurm_job_id = xstrdup("4711");
	r->options = xstrdup("callsite_depth=2");
	r->t_start = 1700000000.25;
	r->t_end = 1700000012.5;
	r->synthetic = true;
	r->timestamps = xcalloc(1, sizeof *r->timestamps);
	r->ntimestamps = 1;
	r->timestamps[0] = (struct run_timestamps){2, 2, xmalloc(2 * sizeof(double)), xmalloc(2 * sizeof(double))};
	r->timestamps[0].start[0] = 0.5, r->timestamps[0].start[1] = 0.75;
	r->timestamps[0].dur[0] = 1e-6, r->timestamps[0].dur[1] = 3e-6;
	r->time = xcalloc(4 * 3, sizeof *r->time);
	r->time[5] = 0.125;
}

static void expect_same_header(const struct run *a, const struct run *b)
{
	for (int i = 0; i < RUN_HEADER_FIELDS; i++) {
		const struct run_header_field *h = &run_header_fields[i];
		const char *x = (const char *)a + h->offset, *y = (const char *)b + h->offset;
		switch (h->type) {
		case RUN_VALUE_STR: assert_string_equal(*(char *const *)x, *(char *const *)y); break;
		case RUN_VALUE_U32: assert_int_equal(*(const uint32_t *)x, *(const uint32_t *)y); break;
		case RUN_VALUE_BOOL: assert_int_equal(*(const bool *)x, *(const bool *)y); break;
		case RUN_VALUE_F64: assert_true(*(const double *)x == *(const double *)y); break;
		case RUN_VALUE_U64: assert_int_equal(*(const uint64_t *)x, *(const uint64_t *)y); break;
		}
	}
	assert_int_equal(b->ntimestamps, 1);
	assert_int_equal(b->timestamps[0].rank, 2);
	assert_true(b->timestamps[0].start[1] == 0.75 && b->timestamps[0].dur[1] == 3e-6);
	assert_non_null(b->time);
	assert_true(b->time[5] == 0.125);
}

static void layout_fields_survive_both_formats(void **state)
{
	struct run r, back;
	build(&r);
	fill_header(&r);
	char why[300];
	assert_true(run_check(&r, why, sizeof why));
	struct buf b, again;
	buf_init(&b);
	buf_init(&again);
	run_serialize(&r, &b);
	assert_true(run_parse(&back, b.data, b.len, why, sizeof why));
	expect_same_header(&r, &back);
	run_serialize(&back, &again);   /* parsing and writing again gives the same bytes */
	assert_int_equal(again.len, b.len);
	assert_memory_equal(again.data, b.data, b.len);
	run_free(&back);
	char path[] = "/tmp/ladder-test-layout-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	struct h5_err e;
	assert_true(store_write_run(path, &r, &e));
	if (!store_read_run_as_written(path, &back, &e))
		fail_msg("%s", e.msg);
	expect_same_header(&r, &back);
	run_free(&back);
	/* a profile array whose extent disagrees with the run is named with what was expected */
	r.nranks = 5;
	r.counts = xrealloc(r.counts, 5 * 3 * RUN_PC_COUNT * sizeof *r.counts);
	r.time = xrealloc(r.time, 5 * 3 * sizeof *r.time);
	assert_true(store_write_run(path, &r, &e));
	r.nranks = 4;
	hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
	uint32_t four = 4;
	H5Adelete(f, "ranks");
	hid_t space = H5Screate(H5S_SCALAR), attr = H5Acreate2(f, "ranks", H5T_NATIVE_UINT32, space, H5P_DEFAULT, H5P_DEFAULT);
	H5Awrite(attr, H5T_NATIVE_UINT32, &four);
	H5Aclose(attr);
	H5Sclose(space);
	H5Fclose(f);
	assert_false(store_read_run_as_written(path, &back, &e));
	assert_non_null(strstr(e.msg, "/profile/counts is 5x3x5, expected ranks x callpaths x metrics = 4x3x5"));
	unlink(path);
	buf_free(&b);
	buf_free(&again);
	run_free(&r);
}

static void timing_must_be_finite(void **state)
{
	struct run r;
	char why[300];
	build(&r);
	r.time_stats[1 * RUN_STAT_COUNT + RUN_STAT_SUM] = NAN;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "/profile/time_stats: 'sum' of callpaths 1 is nan"));
	run_free(&r);
	build(&r);
	r.time = xcalloc(4 * 3, sizeof *r.time);
	r.time[2 * 3 + 1] = -1;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "/profile/time: callpaths 1 of ranks 2 is -1"));
	run_free(&r);
	build(&r);
	r.groups[0].durs[0].max = INFINITY;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "group 0: the durations of signature"));
	run_free(&r);
	build(&r);
	r.groups[0].gaps[0].bins[0].sum = NAN;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "group 0: gap histogram 0 holds times"));
	run_free(&r);
	/* CPU time above the wall time of the same gaps, or negative */
	build(&r);
	r.groups[1].gaps[0].cpu.sum = 5e-3;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "group 1: gap histogram 0 holds CPU times"));
	run_free(&r);
	build(&r);
	r.groups[0].gaps[0].bins[1].cpu.min = -1e-6;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "at most their wall times"));
	run_free(&r);
	build(&r);
	r.groups[0].gaps[0].bins[0].cpu.max = 9.005e-4;   /* within the rounding tolerance */
	assert_true(run_check(&r, why, sizeof why));
	run_free(&r);
	build(&r);
	fill_header(&r);
	assert_true(run_check(&r, why, sizeof why));
	r.timestamps[0].dur[1] = -3e-6;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "timestamp 1 of rank 2"));
	run_free(&r);
}

/* a synthetic run's timing predictions (/extrap/intervals): round trip through the container, and
 * rows that name no group or signature of the run, or whose interval does not hold the
 * prediction, are refused */
static void predictions_round_trip_and_check(void **state)
{
	(void)state;
	struct run r, back;
	char why[300];
	build(&r);
	r.nintervals = 2;
	r.intervals = xcalloc(2, sizeof *r.intervals);
	r.intervals[0] = (struct run_interval){0, RUN_INTERVAL_GAP, 1, RUN_NO_PREV, 0, 5, 2e-3, 1e-3, 4e-3};
	r.intervals[1] = (struct run_interval){1, RUN_INTERVAL_DURATION, 0, RUN_NO_PREV, 1, 7, 1e-6, 1e-6, 1e-6};
	assert_true(run_check(&r, why, sizeof why));
	char path[32];
	write_and_read(&r, path, &back);
	assert_int_equal(back.nintervals, 2);
	assert_int_equal(back.intervals[0].kind, RUN_INTERVAL_GAP);
	assert_int_equal(back.intervals[0].has_interval, 1);
	assert_true(back.intervals[0].lo == 1e-3 && back.intervals[0].hi == 4e-3 && back.intervals[0].count == 5);
	assert_int_equal(back.intervals[1].prev, RUN_NO_PREV);
	run_free(&back);
	unlink(path);
	r.intervals[0].lo = 3e-3;   /* above the prediction */
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "/extrap/intervals row 0: the prediction 0.002 s is not within its interval"));
	r.intervals[0].lo = 1e-3;
	r.intervals[1].group = 9;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "/extrap/intervals row 1 names group 9"));
	run_free(&r);
}

/* a streamed array length so large that its element count overflows 64 bits is an error when
 * walked (the stream runs out), not a silently empty array */
static void huge_streamed_array_lengths_run_out(void **state)
{
	struct run r;
	char why[300];
	build(&r);
	/* signature 0 becomes a call of a function whose streamed array has two values per element */
	struct param_desc *p = xcalloc(2, sizeof *p);
	p[0] = (struct param_desc){xstrdup("types"), PK_DTYPES};
	p[1] = (struct param_desc){xstrdup("dest"), PK_PEER};
	r.fns = xrealloc(r.fns, 3 * sizeof *r.fns);
	r.fns[2] = (struct fn_desc){xstrdup("MPI_Typed"), FNF_P2P, 2, p};
	r.nfns = 3;
	r.sigs[0].fn = 2;
	r.streams[0].cells[0] = (INT64_C(1) << 62) + 1;
	assert_true(run_check(&r, why, sizeof why));
	assert_int_equal(ranklist_first(&r.streams[0].ranks), 0);
	struct event_iter it;
	event_iter_init(&it, &r, 0);
	struct event ev;
	assert_false(event_next(&it, &ev));
	assert_non_null(strstr(it.error, "ran out"));
	event_iter_free(&it);
	run_free(&r);
}

/* walks end at a bound that does not come from the file, and at the profile's calls */
static void walks_are_bounded(void **state)
{
	struct run r;
	char why[300];
	build(&r);
	struct event_iter it;
	struct event ev;
	event_set_max_calls(50);   /* ranks 0 and 2 make 100 calls, ranks 1 and 3 seven */
	assert_false(event_calls_bounded(&r, why, sizeof why));
	assert_non_null(strstr(why, "rank 0: its trace expands to 100 calls, more than the 50"));
	event_iter_init(&it, &r, 0);
	assert_false(event_next(&it, &ev));
	assert_non_null(strstr(it.error, "more than the 50 a walk may make"));
	event_iter_free(&it);
	event_iter_init(&it, &r, 1);
	uint64_t calls = 0;
	while (event_next(&it, &ev))
		calls += ev.repeat;
	assert_int_equal(calls, 7);
	assert_string_equal(it.error, "");
	event_iter_free(&it);
	/* a run of failed polls the profile does not count: refused at that event */
	event_set_max_calls(0);
	assert_int_equal(event_max_calls(), EVENT_MAX_CALLS_DEFAULT);
	assert_true(event_calls_bounded(&r, why, sizeof why));
	const struct run_stream **polls = xcalloc(r.nstreams, sizeof *polls);
	assert_true(run_rank_streams(&r, 1, polls) >= 1);
	((struct run_stream *)polls[0])->cells[0] = INT64_C(1) << 62;   /* rank 1's polls */
	free(polls);
	event_iter_init(&it, &r, 1);
	assert_false(event_next(&it, &ev));
	assert_non_null(strstr(it.error, "rank 1: the trace has more calls than the 7 its profile counts"));
	event_iter_free(&it);
	uint64_t n;
	assert_true(event_parse_max_calls("12", &n) && n == 12);
	assert_false(event_parse_max_calls("0", &n) || event_parse_max_calls("-3", &n) ||
		     event_parse_max_calls("1e9", &n) || event_parse_max_calls("", &n) ||
		     event_parse_max_calls("99999999999999999999", &n));
	run_free(&r);
	/* every rank of a group is held to its own profile, not only the first */
	build(&r);
	r.counts[(2 * 3 + 1) * RUN_PC_COUNT + RUN_PC_VISITS] = 99;
	assert_false(run_check(&r, why, sizeof why));
	assert_non_null(strstr(why, "group 0: its grammar expands to 100 calls, but rank 2 made 99"));
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout_fields_survive_both_formats),
		cmocka_unit_test(timing_must_be_finite),
		cmocka_unit_test(predictions_round_trip_and_check),
		cmocka_unit_test(huge_streamed_array_lengths_run_out),
		cmocka_unit_test(packed_round_trips),
		cmocka_unit_test(walks_are_bounded),
		cmocka_unit_test(raw_round_trip),
		cmocka_unit_test(raw_version_1_is_read),
		cmocka_unit_test(container_round_trip),
		cmocka_unit_test(check_catches_inconsistencies),
	};
	return cmocka_run_group_tests_name("run", tests, NULL, NULL);
}
