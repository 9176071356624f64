/* Unit tests for compare/compare: runs built in memory (one signature per call, one group per rank)
 * and compared; what must be equal despite call sites, poll counts and completion order, and what
 * must differ. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mpi/predefined.h"
#include "run/run.h"
#include "grammar/sequitur.h"
#include "compare/compare.h"
#include "util/xalloc.h"

#define MAXR 4

struct rb {                      /* a run under construction */
	struct run r;
	size_t capfns, capsigs, capvals;
	struct sequitur *seq[MAXR];
};

static void rb_init(struct rb *b, uint32_t nranks)
{
	memset(b, 0, sizeof *b);
	run_init(&b->r);
	b->r.nranks = nranks;
	for (uint32_t q = 0; q < nranks; q++)
		b->seq[q] = sequitur_new();
}

static uint32_t rb_fn(struct rb *b, const char *name)
{
	for (uint32_t i = 0; i < b->r.nfns; i++)
		if (!strcmp(b->r.fns[i].name, name))
			return i;
	int id = fn_lookup(name);
	assert_true(id >= 0);
	const struct fn_desc *d = &ladder_functions[id];
	XGROW(b->r.fns, b->capfns, b->r.nfns + 1);
	struct fn_desc *f = &b->r.fns[b->r.nfns];
	struct param_desc *p = xcalloc(d->nparams + 1, sizeof *p);
	for (uint32_t k = 0; k < d->nparams; k++)
		p[k] = (struct param_desc){xstrdup(d->params[k].name), d->params[k].kind};
	*f = (struct fn_desc){xstrdup(d->name), d->flags, d->nparams, p};
	return b->r.nfns++;
}

/* one call on a rank; failed > 0: a run of that many failed polls. Returns the request pool key
 * of its signature. */
static uint64_t rb_call(struct rb *b, uint32_t rank, const char *fn, uint64_t site, uint64_t failed,
			const int64_t *vals, uint32_t n)
{
	uint32_t f = rb_fn(b, fn), sig = b->r.nsigs;
	XGROW(b->r.sigs, b->capsigs, b->r.nsigs + 1);
	XGROW(b->r.sigvals, b->capvals, b->r.nsigvals + n);
	memcpy(b->r.sigvals + b->r.nsigvals, vals, n * sizeof *vals);
	b->r.sigs[sig] = (struct run_signature){f, site, failed ? SIGF_FAILED_POLL : 0, n, b->r.nsigvals};
	b->r.nsigvals += n;
	b->r.nsigs++;
	if (failed) {
		int64_t polls = (int64_t)failed;
		run_add_stream(&b->r, sig, rank, 1, 1, 0, &polls);
	}
	sequitur_append(b->seq[rank], sig);
	return run_signature_req_key(run_req_pools_by_base(&b->r), f, site, failed ? SIGF_FAILED_POLL : 0,
				     &b->r.fns[f], vals, n);
}

static void rb_finish(struct rb *b)
{
	b->r.ngroups = b->r.nranks;
	b->r.groups = xcalloc(b->r.nranks, sizeof *b->r.groups);
	for (uint32_t q = 0; q < b->r.nranks; q++) {
		struct run_group *g = &b->r.groups[q];
		sequitur_export(b->seq[q], &g->g);
		sequitur_free(b->seq[q]);
		g->nranks = 1;
		ranklist_from_range(&g->ranks, q, 1);
	}
	char why[256];
	if (!run_check(&b->r, why, sizeof why))
		fail_msg("%s", why);
}

/* ---- the calls the tests make (values as the tracer records them) ----------------------------- */

enum { DOUBLE = 15 };   /* MPI_DOUBLE's id in mpi/predefined.h */

static uint64_t isend(struct rb *b, uint32_t rank, uint64_t site, int64_t count, int64_t dest, int64_t slot)
{
	int64_t v[] = {BUF_USER, count, DOUBLE, 8, dest, 0, COMM_ID_WORLD, slot};
	return rb_call(b, rank, "MPI_Isend", site, 0, v, 8);
}

static uint64_t irecv_any(struct rb *b, uint32_t rank, uint64_t site, int64_t actual, int64_t slot)
{
	int64_t v[] = {BUF_USER, 4, DOUBLE, 8, SV_ANY_SOURCE, actual, 0, COMM_ID_WORLD, slot};
	return rb_call(b, rank, "MPI_Irecv", site, 0, v, 9);
}

/* Waitany or Testany over n requests (pool[i], slot[i]; pool 0: null), returning index */
static void anyof(struct rb *b, uint32_t rank, const char *fn, const uint64_t *pool, const int64_t *slot,
		  int n, int64_t index, uint64_t failed)
{
	int64_t v[32];
	int k = 0;
	v[k++] = n;
	v[k++] = n;
	for (int i = 0; i < n; i++) {
		v[k++] = pool[i] ? (int64_t)pool[i] : SV_NULL;
		v[k++] = pool[i] ? slot[i] : SV_NULL;
	}
	v[k++] = failed ? SV_UNDEFINED : index;
	if (!strcmp(fn, "MPI_Testany"))
		v[k++] = failed ? 0 : 1;
	rb_call(b, rank, fn, 7, failed, v, (uint32_t)k);
}

static void barrier(struct rb *b, uint32_t rank)
{
	int64_t v[] = {COMM_ID_WORLD};
	rb_call(b, rank, "MPI_Barrier", 3, 0, v, 1);
}

static bool same_as(struct rb *a, struct rb *b, enum cmp_types types, uint64_t *first_call)
{
	struct cmp_result res;
	bool eq = compare_runs(&a->r, &b->r, 4, types, &res);
	if (first_call)
		*first_call = res.kept ? res.diffs[0].a_call : 0;
	cmp_result_free(&res);
	run_free(&a->r);
	run_free(&b->r);
	return eq;
}

static bool same(struct rb *a, struct rb *b, uint64_t *first_call)
{
	return same_as(a, b, CMP_TYPES_EXACT, first_call);
}

/* ---- tests ------------------------------------------------------------------------------------ */

/* two sends from different call sites, then a Waitany group; the other run has other call sites
 * (other pool keys), completes in the other order, and polls a different number of times */
static void build_sends(struct rb *b, uint64_t site, bool reversed, uint64_t failed_polls)
{
	rb_init(b, 1);
	uint64_t p0 = isend(b, 0, site, 4, 1, 0), p1 = isend(b, 0, site + 1, 4, 2, 0);
	uint64_t pool[2] = {p0, p1}, only0[2] = {p0, 0}, only1[2] = {0, p1};
	int64_t slot[2] = {0, 0};
	if (failed_polls)
		anyof(b, 0, "MPI_Testany", pool, slot, 2, 0, failed_polls);
	anyof(b, 0, "MPI_Waitany", pool, slot, 2, reversed ? 1 : 0, 0);
	anyof(b, 0, "MPI_Waitany", reversed ? only0 : only1, slot, 2, reversed ? 0 : 1, 0);
	barrier(b, 0);
	rb_finish(b);
}

static void call_sites_poll_counts_and_completion_order_do_not_matter(void **state)
{
	struct rb a, b;
	build_sends(&a, 100, false, 0);
	build_sends(&b, 900, true, 17);
	assert_true(same(&a, &b, NULL));
}

static void a_different_count_is_found_at_its_call(void **state)
{
	struct rb a, b;
	build_sends(&a, 100, false, 0);
	rb_init(&b, 1);
	isend(&b, 0, 100, 4, 1, 0);
	isend(&b, 0, 101, 5, 2, 0);    /* count 5, not 4 */
	barrier(&b, 0);
	rb_finish(&b);
	uint64_t call;
	assert_false(same(&a, &b, &call));
	assert_int_equal(call, 2);
}

static void a_waitany_group_must_complete_the_same_requests(void **state)
{
	struct rb a, b;
	build_sends(&a, 100, false, 0);
	rb_init(&b, 1);
	uint64_t p0 = isend(&b, 0, 100, 4, 1, 0), p1 = isend(&b, 0, 101, 4, 2, 0);
	uint64_t pool[2] = {p0, p1}, only0[2] = {p0, 0};
	int64_t slot[2] = {0, 0};
	anyof(&b, 0, "MPI_Waitany", pool, slot, 2, 0, 0);
	anyof(&b, 0, "MPI_Waitany", only0, slot, 2, 0, 0);   /* request 0 twice, never 1 */
	barrier(&b, 0);
	rb_finish(&b);
	assert_false(same(&a, &b, NULL));
}

static void requests_are_told_apart_by_their_creating_call(void **state)
{
	/* the same names (pool, slot) must mean the same creating calls */
	struct rb a, b;
	rb_init(&a, 1);
	uint64_t p = isend(&a, 0, 100, 4, 1, 0);
	uint64_t q = isend(&a, 0, 100, 4, 1, 1);
	uint64_t pool[2] = {p, q};
	int64_t slot[2] = {0, 1};
	anyof(&a, 0, "MPI_Waitany", pool, slot, 1, 0, 0);    /* waits the first */
	rb_finish(&a);
	rb_init(&b, 1);
	p = isend(&b, 0, 200, 4, 1, 0);
	q = isend(&b, 0, 200, 4, 1, 1);
	uint64_t other[1] = {q};
	int64_t oslot[1] = {1};
	anyof(&b, 0, "MPI_Waitany", other, oslot, 1, 0, 0);  /* waits the second */
	rb_finish(&b);
	assert_false(same(&a, &b, NULL));
}

static void a_successful_poll_may_move_but_not_vanish(void **state)
{
	struct rb a, b, c;
	for (int v = 0; v < 3; v++) {
		struct rb *r = v == 0 ? &a : v == 1 ? &b : &c;
		rb_init(r, 1);
		uint64_t p = isend(r, 0, 100, 4, 1, 0);
		uint64_t pool[1] = {p};
		int64_t slot[1] = {0};
		if (v == 1)   /* found before the barrier instead of after it */
			anyof(r, 0, "MPI_Testany", pool, slot, 1, 0, 0);
		barrier(r, 0);
		if (v == 0)
			anyof(r, 0, "MPI_Testany", pool, slot, 1, 0, 0);
		barrier(r, 0);
		rb_finish(r);
	}
	struct rb a2;
	rb_init(&a2, 1);
	uint64_t p = isend(&a2, 0, 100, 4, 1, 0);
	uint64_t pool[1] = {p};
	int64_t slot[1] = {0};
	barrier(&a2, 0);
	anyof(&a2, 0, "MPI_Testany", pool, slot, 1, 0, 0);
	barrier(&a2, 0);
	rb_finish(&a2);
	assert_true(same(&a, &b, NULL));
	assert_false(same(&a2, &c, NULL));    /* c never finds it */
}

static void wildcard_sources_are_a_multiset_within_a_group(void **state)
{
	struct rb a, b, c;
	int64_t src_a[3] = {1, 2, 3}, src_b[3] = {3, 1, 2}, src_c[3] = {1, 1, 3};
	const int64_t *srcs[3] = {src_a, src_b, src_c};
	struct rb *runs[3] = {&a, &b, &c};
	for (int v = 0; v < 3; v++) {
		rb_init(runs[v], 1);
		for (int i = 0; i < 3; i++)
			irecv_any(runs[v], 0, 50, srcs[v][i], i);
		barrier(runs[v], 0);
		rb_finish(runs[v]);
	}
	struct rb a2;
	rb_init(&a2, 1);
	for (int i = 0; i < 3; i++)
		irecv_any(&a2, 0, 50, src_a[i], i);
	barrier(&a2, 0);
	rb_finish(&a2);
	assert_true(same(&a, &b, NULL));
	assert_false(same(&a2, &c, NULL));
}

static void different_rank_counts_differ_before_any_call(void **state)
{
	struct rb a, b;
	rb_init(&a, 1);
	barrier(&a, 0);
	rb_finish(&a);
	rb_init(&b, 2);
	barrier(&b, 0);
	barrier(&b, 1);
	rb_finish(&b);
	struct cmp_result res;
	assert_false(compare_runs(&a.r, &b.r, 4, CMP_TYPES_EXACT, &res));
	assert_non_null(res.header);
	assert_non_null(strstr(res.header, "A has 1 ranks, B has 2"));
	cmp_result_free(&res);
	run_free(&a.r);
	run_free(&b.r);
}

static int64_t dtype_id(const char *name)
{
	for (int64_t i = 1; i < DTYPE_ID_FIRST_USER; i++)
		if (ladder_dtype_names[i] && !strcmp(ladder_dtype_names[i], name))
			return i;
	fail_msg("no datatype %s", name);
	return 0;
}

/* one MPI_Send of 3 elements of the named type, as big as the trace says */
static void typed_run(struct rb *b, const char *type, int64_t size)
{
	rb_init(b, 1);
	int64_t v[] = {BUF_USER, 3, dtype_id(type), size, 0, 7, COMM_ID_WORLD};
	rb_call(b, 0, "MPI_Send", 5, 0, v, 7);
	rb_finish(b);
}

/* by meaning: the same kind of value of the same size, whatever the language names it */
static bool same_type(const char *x, int64_t xsize, const char *y, int64_t ysize, enum cmp_types types)
{
	struct rb a, b;
	typed_run(&a, x, xsize);
	typed_run(&b, y, ysize);
	return same_as(&a, &b, types, NULL);
}

static void datatypes_compare_by_meaning_unless_strict(void **state)
{
	assert_true(same_type("MPI_DOUBLE", 8, "MPI_DOUBLE_PRECISION", 8, CMP_TYPES_BY_MEANING));
	assert_true(same_type("MPI_REAL8", 8, "MPI_DOUBLE", 8, CMP_TYPES_BY_MEANING));
	assert_true(same_type("MPI_INTEGER8", 8, "MPI_INT64_T", 8, CMP_TYPES_BY_MEANING));
	assert_true(same_type("MPI_INTEGER", 4, "MPI_INT", 4, CMP_TYPES_BY_MEANING));
	assert_true(same_type("MPI_2INTEGER", 8, "MPI_2INT", 8, CMP_TYPES_BY_MEANING));
	assert_true(same_type("MPI_CHARACTER", 1, "MPI_CHAR", 1, CMP_TYPES_BY_MEANING));
	assert_false(same_type("MPI_DOUBLE", 8, "MPI_DOUBLE_PRECISION", 8, CMP_TYPES_EXACT));
	assert_false(same_type("MPI_UINT64_T", 8, "MPI_INTEGER8", 8, CMP_TYPES_BY_MEANING));   /* unsigned */
	assert_false(same_type("MPI_REAL", 4, "MPI_DOUBLE", 8, CMP_TYPES_BY_MEANING));         /* size */
	assert_false(same_type("MPI_INTEGER", 4, "MPI_LONG", 8, CMP_TYPES_BY_MEANING));
	assert_false(same_type("MPI_BYTE", 1, "MPI_CHAR", 1, CMP_TYPES_BY_MEANING));
	assert_false(same_type("MPI_LOGICAL", 4, "MPI_INT", 4, CMP_TYPES_BY_MEANING));
	assert_false(same_type("MPI_2REAL", 8, "MPI_FLOAT_INT", 8, CMP_TYPES_BY_MEANING));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(call_sites_poll_counts_and_completion_order_do_not_matter),
		cmocka_unit_test(a_different_count_is_found_at_its_call),
		cmocka_unit_test(a_waitany_group_must_complete_the_same_requests),
		cmocka_unit_test(requests_are_told_apart_by_their_creating_call),
		cmocka_unit_test(a_successful_poll_may_move_but_not_vanish),
		cmocka_unit_test(wildcard_sources_are_a_multiset_within_a_group),
		cmocka_unit_test(different_rank_counts_differ_before_any_call),
		cmocka_unit_test(datatypes_compare_by_meaning_unless_strict),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
