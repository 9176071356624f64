/* Unit tests for the step term of a rank law (run/rank_law.h): the share of an uneven
 * decomposition, floor(N/d) + (c < N mod d), evaluated at every coordinate; found by the fit only
 * where the step falls inside a dimension; refused when its numbers make no sense; carried through
 * a run container (/trace/stream_laws) unchanged, and refused from a hostile container with
 * a message naming the file, the field and what was expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "mpi/signature.h"
#include "run/rank_law.h"
#include "run/stream.h"
#include "run_builder.h"
#include "store/h5.h"
#include "store/store.h"

/* floor(N/d) + (c < N mod d) of the coordinate c = (rank / stride) mod modulus of a dimension d
 * wide (modulus 0 for the outermost) */
static struct rank_law share_law(int64_t N, uint64_t d, uint64_t stride, uint64_t modulus)
{
	struct rank_law l = {.base = N / (int64_t)d, .nterms = 1};
	l.terms[0] = rank_law_step(1, stride, modulus, (uint64_t)(N % (int64_t)d));
	return l;
}

static void step_terms_deal_a_remainder_to_the_first_coordinates(void **state)
{
	(void)state;
	for (uint64_t d = 1; d <= 9; d++) {
		struct rank_law cols = share_law(50, d, 1, d), rows = share_law(50, d, 3, 0);
		char why[160];
		assert_true(rank_law_check(&cols, why, sizeof why));
		int64_t total = 0;
		for (uint64_t q = 0; q < 3 * d; q++) {   /* a 3 x d grid: columns; a d x 3 grid: rows */
			uint64_t c = q % d;
			assert_int_equal(rank_law_eval(&cols, q), 50 / (int64_t)d + (c < 50 % d));
			assert_int_equal(rank_law_eval(&rows, q), 50 / (int64_t)d + (q / 3 < 50 % d));
			total += q < d ? rank_law_eval(&cols, q) : 0;
		}
		assert_int_equal(total, 50);   /* the shares of one row add up to N */
	}
	/* 50 over 6: coordinates 0 and 1 hold 9, 2 to 5 hold 8 */
	struct rank_law six = share_law(50, 6, 1, 6);
	const int64_t want[6] = {9, 9, 8, 8, 8, 8};
	for (uint64_t c = 0; c < 6; c++)
		assert_int_equal(rank_law_eval(&six, 6 + c), want[c]);
	char text[120];
	rank_law_format(&six, text, sizeof text);
	assert_string_equal(text, "8 + 1*(rank/1%6 < 2)");
}

static void the_fit_finds_a_step_inside_a_dimension(void **state)
{
	(void)state;
	/* 4 x 4: the column's share of 50, 13 13 12 12 — the step at 2, inside */
	int64_t v[16];
	for (int q = 0; q < 16; q++)
		v[q] = 50 / 4 + (q % 4 < 50 % 4) + 3 * (q / 4);
	struct rank_law l;
	struct grid g = {2, {4, 4, 0}, 0};
	assert_true(rank_law_fit_grid(v, 16, &g, &l));
	bool step = false;
	for (uint32_t t = 0; t < l.nterms; t++)
		step = step || l.terms[t].step;
	assert_true(step);
	for (int q = 0; q < 16; q++)
		assert_int_equal(rank_law_eval(&l, (uint64_t)q), v[q]);
	/* 6 wide with the step at 2: no shifted coordinate fits, the step does */
	int64_t w[12];
	for (int q = 0; q < 12; q++)
		w[q] = 50 / 6 + (q % 6 < 50 % 6);
	struct grid g6 = {2, {2, 6, 0}, 0};
	assert_true(rank_law_fit_grid(w, 12, &g6, &l));
	assert_int_equal(l.nterms, 1);
	assert_true(l.terms[0].step);
	assert_int_equal(l.terms[0].below, 2);
	for (int q = 0; q < 12; q++)
		assert_int_equal(rank_law_eval(&l, (uint64_t)q), w[q]);
	/* a step at an edge (only coordinate 0 differs) is the position class's: no step term */
	for (int q = 0; q < 12; q++)
		w[q] = q % 6 == 0 ? 9 : 8;
	if (rank_law_fit_grid(w, 12, &g6, &l))
		for (uint32_t t = 0; t < l.nterms; t++)
			assert_false(l.terms[t].step);
	/* two steps in one dimension are no law */
	for (int q = 0; q < 12; q++)
		w[q] = q % 6 < 2 ? 9 : q % 6 < 4 ? 8 : 7;
	struct grid g1 = {1, {12, 0, 0}, 0};
	assert_false(rank_law_fit_grid(w, 12, &g1, &l));
}

static void hostile_steps_are_refused(void **state)
{
	(void)state;
	char why[200];
	struct rank_law l = share_law(50, 6, 1, 6);
	l.terms[0].step = 2;
	assert_false(rank_law_check(&l, why, sizeof why));
	assert_non_null(strstr(why, "a step is 0 or 1"));
	l = share_law(50, 6, 1, 6);
	l.terms[0].below = 7;   /* past the 6 coordinates */
	assert_false(rank_law_check(&l, why, sizeof why));
	assert_non_null(strstr(why, "past its coordinate's 6 values"));
	l = share_law(50, 6, 1, 6);
	l.terms[0].step = 0;   /* a threshold on a term that is no step */
	assert_false(rank_law_check(&l, why, sizeof why));
	l.terms[0].below = 0;
	assert_true(rank_law_check(&l, why, sizeof why));
}

/* ---- the container ------------------------------------------------------------------------------ */

/* 6 ranks of one group, each sends 3 messages of floor(50/6) + (rank < 2) doubles: the count
 * streamed, one stream for every rank, its cell the step law */
static void step_run(struct run *r)
{
	struct rb b;
	rb_init(&b, 6);
	const int64_t send[] = {BUF_USER, SV_STREAMED, 15, 8, SV_PROC_NULL, 3, COMM_ID_WORLD};
	rb_call(&b, "MPI_Init", NULL, 0, 1);
	uint32_t sig = rb_call(&b, "MPI_Send", send, 7, 3);
	rb_call(&b, "MPI_Finalize", NULL, 0, 1);
	rb_groups_done(&b);
	const int64_t zero = 0;
	struct run_stream *s = run_add_stream(&b.r, sig, 0, 3, 0, 1, &zero);
	uint32_t all[6] = {0, 1, 2, 3, 4, 5};
	ranklist_free(&s->ranks);
	ranklist_from_ranks(&s->ranks, all, 6);
	s->nranks = 6;
	s->laws = xcalloc(1, sizeof *s->laws);
	s->laws[0] = (struct stream_law){0, share_law(50, 6, 1, 6)};
	s->nlaws = 1;
	b.r.command = xstrdup("./uneven");
	b.r.host = xstrdup("host");
	b.r.slurm_job_id = xstrdup("");
	b.r.tool_version = xstrdup("test");
	b.r.created = xstrdup("2026-01-01T00:00:00Z");
	b.r.options = xstrdup("");
	rb_check(&b);
	*r = b.r;
}

static char dir[64], path[96];

static int make_dir(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/ladder-test-step-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/run.h5", dir);
	h5_quiet();
	return 0;
}

static int remove_dir(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	return 0;
}

static void write_step_run(void)
{
	struct run r;
	struct h5_err e;
	step_run(&r);
	if (!store_write_run(path, &r, &e))
		fail_msg("%s", e.msg);
	run_free(&r);
}

static void steps_round_trip_through_the_container(void **state)
{
	(void)state;
	write_step_run();
	struct run back;
	struct h5_err e;
	if (!store_read_run(path, &back, &e))
		fail_msg("%s", e.msg);
	assert_int_equal(back.nstreams, 1);
	const struct run_stream *s = &back.streams[0];
	assert_int_equal(s->nlaws, 1);
	struct rank_law want = share_law(50, 6, 1, 6);
	assert_memory_equal(&s->laws[0].law.terms[0], &want.terms[0], sizeof want.terms[0]);
	assert_int_equal(s->laws[0].law.base, want.base);
	for (uint32_t q = 0; q < 6; q++)
		assert_int_equal(run_stream_value(s, q, 2), q < 2 ? 9 : 8);
	run_free(&back);
}

/* the container with /trace/stream_laws replaced by n numbers v */
static void rewrite_laws(const int64_t *v, size_t n)
{
	write_step_run();
	struct h5_err e;
	hid_t f = h5_open(path, true, &e);
	if (f < 0)
		fail_msg("%s", e.msg);
	assert_true(H5Ldelete(f, "trace/stream_laws", H5P_DEFAULT) >= 0);
	hid_t trace = H5Gopen2(f, "trace", H5P_DEFAULT);
	assert_true(h5_write_i64(trace, "stream_laws", v, n));
	H5Gclose(trace);
	assert_true(H5Fclose(f) >= 0);
}

static void refused(const char *says)
{
	struct run back;
	struct h5_err e;
	memset(&e, 0, sizeof e);
	if (store_read_run(path, &back, &e))
		fail_msg("%s was read; expected a refusal saying '%s'", path, says);
	if (!strstr(e.msg, path) || !strstr(e.msg, "/trace/stream_laws") || !strstr(e.msg, says))
		fail_msg("the refusal '%s' does not name %s, the field and '%s'", e.msg, path, says);
}

static void hostile_step_fields_are_refused(void **state)
{
	(void)state;
	/* as written: base 8, one term with a threshold (1 + 256), (1, 1, 0, 6, below 2) */
	write_step_run();
	struct h5_err e;
	hid_t f = h5_open(path, false, &e);
	size_t n;
	int64_t *v = h5_read_i64(f, "trace/stream_laws", &n, path, &e);
	H5Fclose(f);
	assert_int_equal(n, 7);
	assert_memory_equal(v, ((const int64_t[]){8, 257, 1, 1, 0, 6, 2}), 7 * sizeof *v);
	free(v);
	rewrite_laws((const int64_t[]){8, 257, 1, 1, 0, 6, 7}, 7);
	refused("term 0 has the threshold 7, expected -1 (no step) or 0 to its modulus (6");
	rewrite_laws((const int64_t[]){8, 257, 1, 1, 0, 6, -4}, 7);
	refused("the threshold -4, expected -1");
	rewrite_laws((const int64_t[]){8, 257, 1, 1, 0, 6}, 6);
	refused("law 0 is malformed: cut short");
	rewrite_laws((const int64_t[]){8, 300, 1, 1, 0, 6, 2}, 7);
	refused("300 terms, expected 0 to 8");
	rewrite_laws((const int64_t[]){8, -1, 1, 1, 0, 6, 2}, 7);
	refused("-1 terms, expected 0 to 8");
	rewrite_laws((const int64_t[]){8, 257, 1, 1, 0, 6, -1}, 7);   /* no step: read, the term linear */
	struct run back;
	if (!store_read_run(path, &back, &e))
		fail_msg("%s", e.msg);
	assert_false(back.streams[0].laws[0].law.terms[0].step);
	run_free(&back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(step_terms_deal_a_remainder_to_the_first_coordinates),
		cmocka_unit_test(the_fit_finds_a_step_inside_a_dimension),
		cmocka_unit_test(hostile_steps_are_refused),
		cmocka_unit_test_setup_teardown(steps_round_trip_through_the_container, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(hostile_step_fields_are_refused, make_dir, remove_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
