/* Unit tests for run/refold: the streaming form of a literal signature, the offline refold of a
 * run (its literal calls moved into the stream in call order, every rank's values unchanged, ranks
 * that differed only in those values in one group, timing merged) and the ladder's choice of the
 * bases that refold (a rung that never switched follows one that streams; a late switch vetoes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mpi/signature.h"
#include "run/refold.h"
#include "run/run.h"
#include "run/stream.h"
#include "run_builder.h"

#define S SV_STREAMED
enum { CALLSITE = 77, WORLD = 1, DOUBLE = 3 };

/* MPI_Send values: buf, count, datatype (id, size), dest, tag, comm */
static void send_vals(int64_t *v, int64_t count, int64_t dest, int64_t tag)
{
	int64_t x[7] = {0, count, DOUBLE, 8, dest, tag, WORLD};
	memcpy(v, x, sizeof x);
}

/* every MPI_Send of b's run at one call site */
static void one_callsite(struct rb *b)
{
	for (uint32_t s = 0; s < b->r.nsigs; s++)
		b->r.sigs[s].callsite = CALLSITE;
}

static void set_options(struct run *r, int stream_after)
{
	free(r->options);
	r->options = xasprintf("stream_after=%d;req_pools=base;callsite_depth=1;timestamps=0;hist_bins=8", stream_after);
}

/* a duration of 1 s per call of every signature of group g */
static void durations(struct run *r, uint32_t g, const uint64_t *calls)
{
	struct run_group *grp = &r->groups[g];
	grp->durs = xcalloc(r->nsigs + 1, sizeof *grp->durs);
	for (uint32_t s = 0; s < r->nsigs; s++)
		if (calls[s])
			grp->durs[grp->ndurs++] = (struct run_dur){s, calls[s], (double)calls[s], (double)calls[s], 1, 1};
}

/* the values rank q reads from the stream of signature sig, into v; their number */
static uint64_t read_stream(const struct run *r, uint32_t q, uint32_t sig, int64_t *v, uint64_t cap)
{
	const struct run_stream *s = run_stream_of(r, q, sig);
	uint64_t n = 0;
	for (uint64_t i = 0; s && i < s->length && n < cap; i++)
		v[n++] = run_stream_value(s, q, i);
	return n;
}

static void test_streaming_form(void **state)
{
	(void)state;
	const struct fn_desc *d = &ladder_functions[fn_lookup("MPI_Send")];
	int64_t lit[7], out[7], want[7] = {0, S, DOUBLE, 8, S, S, WORLD};
	send_vals(lit, 5, 1, 0);
	assert_true(refold_is_literal(d, lit, 7));
	assert_int_equal(refold_streaming_form(d, lit, 7, out), 7);
	assert_memory_equal(out, want, sizeof want);
	assert_false(refold_is_literal(d, out, 7));
}

/* two ranks: each sends counts 1 and 2 to its neighbour literally, then counts 3, 4, ... in
 * `streamed` calls of the streaming signature; rank 0 to +1, rank 1 to -1: two groups */
static void build_two_ranks(struct rb *b, uint32_t streamed, int stream_after)
{
	uint32_t of_rank[2] = {0, 1};
	int64_t v[7], st[7] = {0, S, DOUBLE, 8, S, S, WORLD};
	rb_init(b, 2);
	rb_groups(b, of_rank, 2);
	for (uint32_t g = 0; g < 2; g++) {
		rb_switch(b, g);
		int64_t dest = g ? -1 : 1;
		send_vals(v, 1, dest, 0);
		rb_call(b, "MPI_Send", v, 7, 1);
		send_vals(v, 2, dest, 0);
		rb_call(b, "MPI_Send", v, 7, 1);
		if (streamed)
			rb_call(b, "MPI_Send", st, 7, (int)streamed);
	}
	one_callsite(b);
	rb_groups_done(b);
	for (uint32_t q = 0; streamed && q < 2; q++) {
		int64_t cells[3 * 8];
		for (uint32_t i = 0; i < streamed; i++)
			cells[3 * i] = 3 + i, cells[3 * i + 1] = q ? -1 : 1, cells[3 * i + 2] = 0;
		run_add_stream(&b->r, 2, q, 3 * streamed, 3 * streamed, 0, cells);   /* 2: the streaming signature */
	}
	for (uint32_t g = 0; g < 2; g++) {
		uint64_t calls[8] = {0};
		grammar_terminal_counts(&b->r.groups[g].g, calls, b->r.nsigs);
		durations(&b->r, g, calls);
	}
	set_options(&b->r, stream_after);
	rb_check(b);
}

static void test_run_refold_one_group(void **state)
{
	(void)state;
	struct rb b;
	build_two_ranks(&b, 3, 1);
	struct run *r = &b.r;
	assert_int_equal(r->ngroups, 2);
	bool *folds = xcalloc(r->nsigs, sizeof *folds);
	for (uint32_t s = 0; s < r->nsigs; s++) {
		const struct run_signature *x = &r->sigs[s];
		folds[s] = refold_is_literal(&r->fns[x->fn], r->sigvals + x->voff, x->nvals);
	}
	assert_int_equal(run_refold(r, folds), 4);
	free(folds);
	char why[256];
	assert_true(run_check(r, why, sizeof why));
	assert_int_equal(r->nsigs, 1);
	assert_int_equal(r->ngroups, 1);
	assert_int_equal(r->groups[0].nranks, 2);
	assert_int_equal(r->groups[0].ndurs, 1);
	assert_int_equal(r->groups[0].durs[0].count, 10);
	int64_t v[16];
	for (uint32_t q = 0; q < 2; q++) {
		int64_t d = q ? -1 : 1, want[15] = {1, d, 0, 2, d, 0, 3, d, 0, 4, d, 0, 5, d, 0};
		assert_int_equal(read_stream(r, q, 0, v, 16), 15);
		assert_memory_equal(v, want, sizeof want);
	}
	run_free(r);
}

/* rung A never switched (all literal), rung B streams: A refolds; a rung whose ranks switched late
 * (more literal than streamed calls) keeps the base literal everywhere */
static void test_refold_ladder(void **state)
{
	(void)state;
	struct rb a, b, c;
	build_two_ranks(&a, 0, 8);   /* 2 variants: never switched */
	build_two_ranks(&b, 3, 1);
	struct run *rungs[2] = {&a.r, &b.r};
	uint32_t n;
	char text[200];
	assert_true(refold_ladder(rungs, 2, &n, text, sizeof text));
	assert_int_equal(n, 4 + 4);
	assert_string_equal(text, "p2: 4, p2: 4");
	assert_int_equal(a.r.nsigs, 1);
	assert_false(refold_is_literal(&a.r.fns[a.r.sigs[0].fn], a.r.sigvals + a.r.sigs[0].voff, a.r.sigs[0].nvals));
	assert_int_equal(a.r.ngroups, 1);
	int64_t v[16], want[6] = {1, -1, 0, 2, -1, 0};
	assert_int_equal(read_stream(&a.r, 1, 0, v, 16), 6);
	assert_memory_equal(v, want, sizeof want);
	run_free(&a.r);
	run_free(&b.r);

	/* rung c: 2 literal variants > stream_after 1, then 1 call streamed: a late switch */
	build_two_ranks(&a, 0, 8);
	build_two_ranks(&b, 3, 1);
	build_two_ranks(&c, 1, 1);
	struct run *late[3] = {&a.r, &b.r, &c.r};
	assert_true(refold_ladder(late, 3, &n, text, sizeof text));
	assert_int_equal(n, 0);
	assert_string_equal(text, "");
	assert_int_equal(a.r.nsigs, 4);
	assert_int_equal(a.r.ngroups, 2);
	run_free(&a.r);
	run_free(&b.r);
	run_free(&c.r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streaming_form),
		cmocka_unit_test(test_run_refold_one_group),
		cmocka_unit_test(test_refold_ladder),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
