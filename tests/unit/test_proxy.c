/* Unit tests for proxy generation: runs built in memory, written as programs into a temporary
 * directory; the program's shape (loops for repetitions, one group per rank set) and the refusals of
 * runs that cannot be expressed. Building and running the programs is tests/bats/proxy.bats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "proxy/proxy.h"
#include "run_builder.h"

static const int64_t barrier_world[] = {COMM_ID_WORLD};

/* MPI_Init, then `iterations` x (a ring Sendrecv, a Barrier), MPI_Finalize, on `ranks` ranks */
static void ring_run(struct rb *b, uint32_t ranks, int iterations)
{
	rb_init(b, ranks);
	rb_call(b, "MPI_Init", NULL, 0, 1);
	int64_t sendrecv[] = {BUF_USER, 16, 15, 8, 1, 0, BUF_USER, 16, 15, 8, -1, -1, 0, COMM_ID_WORLD};
	for (int i = 0; i < iterations; i++) {
		rb_call(b, "MPI_Sendrecv", sendrecv, sizeof sendrecv / sizeof sendrecv[0], 1);
		rb_call(b, "MPI_Barrier", barrier_world, 1, 1);
	}
	rb_call(b, "MPI_Finalize", NULL, 0, 1);
	rb_finish(b);
}

/* generate into a fresh directory; returns proxy.c's text (or NULL when refused, why filled) */
static char *generate(const struct run *r, char *why, size_t whylen, char *dir)
{
	strcpy(dir, "/tmp/ladder-test-proxy-XXXXXX");
	assert_non_null(mkdtemp(dir));
	char out[300];
	snprintf(out, sizeof out, "%s/p", dir);
	struct proxy_options o = {.source = "unit.h5"};
	char *text = NULL;
	if (proxy_generate(r, &o, out, why, whylen)) {
		char path[400];
		snprintf(path, sizeof path, "%s/proxy.c", out);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		text = xcalloc(1 << 20, 1);
		size_t n = fread(text, 1, (1 << 20) - 1, f);
		text[n] = 0;
		fclose(f);
		unlink(path);
		snprintf(path, sizeof path, "%s/proxy.h", out);
		unlink(path);
		snprintf(path, sizeof path, "%s/Makefile", out);
		unlink(path);
		rmdir(out);
	} else
		assert_int_equal(access(out, F_OK), -1);   /* refused: nothing written */
	rmdir(dir);
	return text;
}

static int lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_size_follows_the_grammar(void **state)
{
	struct rb small, big, wide;
	ring_run(&small, 4, 10);
	ring_run(&big, 4, 1000);
	ring_run(&wide, 1u << 20, 10);
	char why[512], dir[64];
	char *a = generate(&small.r, why, sizeof why, dir), *b = generate(&big.r, why, sizeof why, dir),
	     *c = generate(&wide.r, why, sizeof why, dir);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_int_equal(lines(a), lines(b));
	assert_int_equal(lines(a), lines(c));
	assert_non_null(strstr(b, "for (long repeat = 0; repeat < 1000; repeat++)"));
	assert_non_null(strstr(a, "MPI_Sendrecv(typed_buffer(SEND, count(16), MPI_DOUBLE), count(16), MPI_DOUBLE, "
				  "world_rank + 1, 0, typed_buffer(RECV, count(16), MPI_DOUBLE), count(16), MPI_DOUBLE, "
				  "world_rank - 1, 0, MPI_COMM_WORLD, &last_status);"));
	/* one group of 1,048,576 ranks: one ranklist box, one test in main */
	assert_non_null(strstr(c, "static const long long group0_ranks[] = {1, 0, 1048576, 1};"));
	assert_null(strstr(c, "group1"));
	free(a);
	free(b);
	free(c);
	run_free(&small.r);
	run_free(&big.r);
	run_free(&wide.r);
}

static void test_refuses_a_run_not_starting_with_init(void **state)
{
	struct rb b;
	rb_init(&b, 2);
	rb_call(&b, "MPI_Barrier", barrier_world, 1, 3);
	rb_finish(&b);
	char why[512], dir[64];
	assert_null(generate(&b.r, why, sizeof why, dir));
	assert_string_equal(why, "rank 0: its calls start with MPI_Barrier, not MPI_Init");
	run_free(&b.r);
}

static void test_refuses_an_unknown_peer_and_an_uncreated_communicator(void **state)
{
	struct rb b;
	rb_init(&b, 2);
	rb_call(&b, "MPI_Init", NULL, 0, 1);
	int64_t send[] = {BUF_USER, 1, 15, 8, SV_UNKNOWN, 0, COMM_ID_WORLD};
	rb_call(&b, "MPI_Send", send, 7, 1);
	rb_finish(&b);
	char why[512], dir[64];
	assert_null(generate(&b.r, why, sizeof why, dir));
	assert_string_equal(why, "rank 0, MPI_Send: a peer recorded as UNKNOWN (not a member of the communicator)");
	run_free(&b.r);

	rb_init(&b, 2);
	rb_call(&b, "MPI_Init", NULL, 0, 1);
	int64_t barrier[] = {5};
	rb_call(&b, "MPI_Barrier", barrier, 1, 1);
	rb_finish(&b);
	assert_null(generate(&b.r, why, sizeof why, dir));
	assert_string_equal(why, "rank 0, MPI_Barrier: communicator #5 is used but no call of the run created it");
	run_free(&b.r);
}

/* MPI_Init, then one call of fn with vals on 2 ranks: the generator's one-line refusal */
static void refused(const char *fn, const int64_t *vals, uint32_t n, const char *expected)
{
	struct rb b;
	rb_init(&b, 2);
	rb_call(&b, "MPI_Init", NULL, 0, 1);
	rb_call(&b, fn, vals, n, 1);
	rb_finish(&b);
	char why[512], dir[64];
	assert_null(generate(&b.r, why, sizeof why, dir));
	assert_string_equal(why, expected);
	run_free(&b.r);
}

/* calls a proxy cannot make, and values the tracer never streams (a hand-made or foreign run) */
static void test_refuses_what_a_program_cannot_do(void **state)
{
	const int64_t abort_world[] = {COMM_ID_WORLD, 3};
	refused("MPI_Abort", abort_world, 2, "rank 0, MPI_Abort: the application called it; a proxy cannot reproduce it");
	const int64_t bcast[] = {BUF_USER, 4, 15, 8, SV_UNKNOWN, COMM_ID_WORLD};
	refused("MPI_Bcast", bcast, 6, "rank 0, MPI_Bcast: a root recorded as UNKNOWN");
	const int64_t dup[] = {COMM_ID_WORLD, 300};
	refused("MPI_Comm_dup", dup, 2, "rank 0, MPI_Comm_dup: a handle id beyond the program's tables");
	const int64_t barrier[] = {SV_STREAMED};
	refused("MPI_Barrier", barrier, 1, "rank 0, MPI_Barrier: its communicator changes from call to call");
	const int64_t level[] = {SV_STREAMED, SV_NULL};
	refused("MPI_Pcontrol", level, 2, "rank 0, MPI_Pcontrol: its level changes from call to call");
	/* MPI_Type_create_struct(1, {2}, {0}, <types changing from call to call>, new type 100) */
	const int64_t types[] = {1, 1, 2, 1, 0, SV_STREAMED, 100};
	refused("MPI_Type_create_struct", types, 7,
		"rank 0, MPI_Type_create_struct: an array of datatypes, coordinates or weights that changes from call to call");
}

/* a function recorded with other parameters than ladder's table has (a container of another version) */
static void test_refuses_a_function_recorded_otherwise(void **state)
{
	struct rb b;
	rb_init(&b, 2);
	rb_call(&b, "MPI_Init", NULL, 0, 1);
	rb_call(&b, "MPI_Barrier", barrier_world, 1, 1);
	rb_finish(&b);
	struct fn_desc *d = &b.r.fns[rb_fn(&b, "MPI_Barrier")];
	struct param_desc extra[2] = {d->params[0], {"hint", PK_INT}};
	const struct param_desc *kept = d->params;
	d->params = extra;
	d->nparams = 2;
	b.r.sigvals[b.r.sigs[1].voff] = COMM_ID_WORLD;
	char why[512], dir[64];
	assert_null(generate(&b.r, why, sizeof why, dir));
	assert_string_equal(why, "rank 0, MPI_Barrier: recorded with 2 parameters, ladder's table has 1");
	d->params = kept;
	d->nparams = 1;
	const char *name = d->name;
	d->name = "MPI_Not_a_function";
	assert_null(generate(&b.r, why, sizeof why, dir));
	assert_string_equal(why, "rank 0, MPI_Not_a_function: a function ladder's table does not know");
	d->name = name;
	run_free(&b.r);
}

static void test_refuses_a_run_without_call_sequences(void **state)
{
	struct run r;
	run_init(&r);
	r.nranks = 2;
	char why[512], dir[64];
	assert_null(generate(&r, why, sizeof why, dir));
	assert_string_equal(why, "the run has no call sequences (a profile-only run)");
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_follows_the_grammar),
		cmocka_unit_test(test_refuses_a_run_not_starting_with_init),
		cmocka_unit_test(test_refuses_an_unknown_peer_and_an_uncreated_communicator),
		cmocka_unit_test(test_refuses_a_run_without_call_sequences),
		cmocka_unit_test(test_refuses_what_a_program_cannot_do),
		cmocka_unit_test(test_refuses_a_function_recorded_otherwise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
