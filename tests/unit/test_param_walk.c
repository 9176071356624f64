/* Unit tests for mpi/param_walk: a call's values walked parameter by parameter — scalars, arrays,
 * symbolic values standing alone, count arrays stated by rule (SV_SHARED), ignored parameters and
 * statuses taking no values, and values that run out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "mpi/signature.h"

/* an Alltoallv-like function with a status and an ignored parameter among its groups */
static const struct param_desc params[] = {
	{"comm", PK_COMM}, {"status", PK_STATUS}, {"counts", PK_COUNTS}, {"type", PK_DTYPE},
	{"buf", PK_IGNORE}, {"reqs", PK_REQS}, {"tag", PK_TAG},
};
static const struct fn_desc fn = {"MPI_Test_walk", 0, sizeof params / sizeof *params, params};

struct step {
	uint32_t p, at, width;
};

/* the steps of a walk over vals[0..n), at most max; their number, and the end state in *end */
static uint32_t walk(const int64_t *vals, uint32_t n, struct step *out, uint32_t max, struct param_walk *end)
{
	uint32_t k = 0;
	struct param_walk w = param_walk(&fn, vals, n);
	while (param_walk_next(&w)) {
		assert_true(k < max);
		assert_int_equal(w.kind, fn.params[w.p].kind);
		assert_string_equal(w.name, fn.params[w.p].name);
		assert_ptr_equal(w.v, vals + w.at);
		out[k++] = (struct step){w.p, w.at, w.width};
	}
	*end = w;
	return k;
}

static void check_steps(const struct step *got, const struct step *want, uint32_t n)
{
	for (uint32_t k = 0; k < n; k++) {
		assert_int_equal(got[k].p, want[k].p);
		assert_int_equal(got[k].at, want[k].at);
		assert_int_equal(got[k].width, want[k].width);
	}
}

static void scalars_and_arrays_skip_ignored_and_status(void **state)
{
	(void)state;
	/* comm 0; counts [1,2,3]; type MPI_DOUBLE:8; reqs [(5,0),(5,1)]; tag 7 */
	const int64_t v[] = {0, 3, 1, 2, 3, 15, 8, 2, 5, 0, 5, 1, 7};
	struct step s[8];
	struct param_walk end;
	const struct step want[] = {{0, 0, 1}, {2, 1, 4}, {3, 5, 2}, {5, 7, 5}, {6, 12, 1}};
	assert_int_equal(walk(v, 13, s, 8, &end), 5);
	check_steps(s, want, 5);
	assert_false(end.bad);
	assert_int_equal(end.at, 13);
	assert_int_equal(end.p, fn.nparams);
	assert_false(param_walk_next(&end));   /* a finished walk stays finished */
}

static void symbolic_values_stand_alone(void **state)
{
	(void)state;
	/* streamed counts and requests take one value; a streamed scalar keeps its width */
	const int64_t v[] = {SV_STREAMED, SV_STREAMED, SV_STREAMED, SV_STREAMED, SV_NULL, SV_ANY_TAG};
	struct step s[8];
	struct param_walk end;
	const struct step want[] = {{0, 0, 1}, {2, 1, 1}, {3, 2, 2}, {5, 4, 1}, {6, 5, 1}};
	assert_int_equal(walk(v, 6, s, 8, &end), 5);
	check_steps(s, want, 5);
	assert_false(end.bad);
	assert_int_equal(end.at, 6);
}

static void shared_count_arrays_take_four_values(void **state)
{
	(void)state;
	/* counts by rule: SV_SHARED, length 36, total 500, rule 0; empty request array */
	const int64_t v[] = {0, SV_SHARED, 36, 500, 0, 15, 8, 0, 3};
	struct step s[8];
	struct param_walk end;
	const struct step want[] = {{0, 0, 1}, {2, 1, 4}, {3, 5, 2}, {5, 7, 1}, {6, 8, 1}};
	assert_int_equal(walk(v, 9, s, 8, &end), 5);
	check_steps(s, want, 5);
	assert_false(end.bad);
	/* a shared group cut short is bad */
	assert_int_equal(walk(v, 3, s, 8, &end), 1);
	assert_true(end.bad);
	assert_int_equal(end.p, 2);
	assert_int_equal(end.at, 1);
}

static void values_that_run_out_stop_the_walk(void **state)
{
	(void)state;
	const int64_t v[] = {0, 3, 1, 2, 3, 15, 8, 2, 5, 0, 5, 1, 7};
	struct step s[8];
	struct param_walk end;
	/* the datatype's pair cut after its first value: the walk stops at it, at its first value */
	assert_int_equal(walk(v, 6, s, 8, &end), 2);
	assert_true(end.bad);
	assert_int_equal(end.p, 3);
	assert_int_equal(end.at, 5);
	assert_false(param_walk_next(&end));
	/* an array longer than the values */
	assert_int_equal(walk(v, 4, s, 8, &end), 1);
	assert_true(end.bad);
	assert_int_equal(end.p, 2);
	/* no values at all for a function with parameters */
	assert_int_equal(walk(v, 0, s, 8, &end), 0);
	assert_true(end.bad);
	assert_int_equal(end.p, 0);
	/* more values than the parameters take: the walk ends well, at short of nvals */
	assert_int_equal(walk(v, 13, s, 8, &end), 5);
	const int64_t longer[] = {0, 3, 1, 2, 3, 15, 8, 2, 5, 0, 5, 1, 7, 99};
	assert_int_equal(walk(longer, 14, s, 8, &end), 5);
	assert_false(end.bad);
	assert_int_equal(end.at, 13);
}

static void negative_lengths_are_bad(void **state)
{
	(void)state;
	const int64_t v[] = {0, -2, 1, 2};
	struct step s[8];
	struct param_walk end;
	assert_int_equal(walk(v, 4, s, 8, &end), 1);
	assert_true(end.bad);
	assert_int_equal(end.p, 2);
}

static void only_ignored_parameters_take_no_values(void **state)
{
	(void)state;
	static const struct param_desc quiet[] = {{"buf", PK_IGNORE}, {"status", PK_STATUS}};
	static const struct fn_desc q = {"MPI_Test_quiet", 0, 2, quiet};
	int n = 0;
	PARAM_FOR (w, &q, NULL, 0)
		n++;
	assert_int_equal(n, 0);
	struct param_walk w = param_walk(&q, NULL, 0);
	assert_false(param_walk_next(&w));
	assert_false(w.bad);
	assert_int_equal(w.at, 0);
	assert_int_equal(w.p, 2);
}

static void group_of_kind_finds_the_first(void **state)
{
	(void)state;
	const int64_t v[] = {4, 3, 1, 2, 3, 15, 8, 2, 5, 0, 5, 1, 7};
	assert_ptr_equal(group_of_kind(&fn, v, 13, PK_COMM), v);
	assert_ptr_equal(group_of_kind(&fn, v, 13, PK_DTYPE), v + 5);
	assert_ptr_equal(group_of_kind(&fn, v, 13, PK_TAG), v + 12);
	assert_null(group_of_kind(&fn, v, 13, PK_PEER));
	assert_null(group_of_kind(&fn, v, 13, PK_STATUS));
	assert_null(group_of_kind(&fn, v, 6, PK_TAG));   /* the values run out before it */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scalars_and_arrays_skip_ignored_and_status),
		cmocka_unit_test(symbolic_values_stand_alone),
		cmocka_unit_test(shared_count_arrays_take_four_values),
		cmocka_unit_test(values_that_run_out_stop_the_walk),
		cmocka_unit_test(negative_lengths_are_bad),
		cmocka_unit_test(only_ignored_parameters_take_no_values),
		cmocka_unit_test(group_of_kind_finds_the_first),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
