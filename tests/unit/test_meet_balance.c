/* Unit tests for meet/balance: hand-made two-rank runs whose sends and receives meet or do not
 * (a tag that differs, a wildcard tag or source, a message too many, a collective one rank skips). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "meet/balance.h"
#include "grammar/sequitur.h"
#include "util/xalloc.h"

enum { SEND, RECV, BARRIER, NFNS };
static const char *const fn_names[NFNS] = {"MPI_Send", "MPI_Recv", "MPI_Barrier"};

struct call {
	int fn;
	int64_t peer, tag;   /* relative peer; a receive's actual source is the same unless wildcard */
	bool any_source;
};

static uint32_t add_sig(struct run *r, const struct call *c)
{
	int64_t v[12];
	uint32_t n = 0;
	if (c->fn != BARRIER) {
		v[n++] = BUF_USER, v[n++] = 4, v[n++] = 1, v[n++] = 8;   /* buf, count, datatype (id, size) */
		v[n++] = c->any_source ? SV_ANY_SOURCE : c->peer;
		if (c->fn == RECV)
			v[n++] = c->any_source ? SV_UNKNOWN : c->peer;   /* the actual source */
		v[n++] = c->tag;
	}
	v[n++] = COMM_ID_WORLD;
	r->sigs = xrealloc(r->sigs, (r->nsigs + 1) * sizeof *r->sigs);
	r->sigvals = xrealloc(r->sigvals, (r->nsigvals + n + 1) * sizeof *r->sigvals);
	r->sigs[r->nsigs] = (struct run_signature){(uint32_t)c->fn, 0x99, 0, n, r->nsigvals};
	memcpy(r->sigvals + r->nsigvals, v, n * sizeof *v);
	r->nsigvals += n;
	return r->nsigs++;
}

/* a synthetic run of two ranks, each in a group of its own making the calls given */
static void two_ranks(struct run *r, const struct call *c0, int n0, const struct call *c1, int n1)
{
	run_init(r);
	r->nranks = 2;
	r->synthetic = true;
	r->nfns = NFNS;
	r->fns = xcalloc(NFNS, sizeof *r->fns);
	for (int f = 0; f < NFNS; f++)
		r->fns[f] = ladder_functions[fn_lookup(fn_names[f])];
	r->ngroups = 2;
	r->groups = xcalloc(2, sizeof *r->groups);
	const struct call *calls[2] = {c0, c1};
	int n[2] = {n0, n1};
	for (uint32_t g = 0; g < 2; g++) {
		struct sequitur *q = sequitur_new();
		for (int i = 0; i < n[g]; i++)
			sequitur_append(q, add_sig(r, &calls[g][i]));
		sequitur_export(q, &r->groups[g].g);
		sequitur_free(q);
		r->groups[g].nranks = 1;
		ranklist_from_range(&r->groups[g].ranks, g, 1);
	}
	r->streams = xcalloc(1, sizeof *r->streams);
	r->counts = xcalloc(1, sizeof *r->counts);
	r->time_stats = xcalloc(1, sizeof *r->time_stats);
	char why[200];
	if (!run_check(r, why, sizeof why))
		fail_msg("the hand-made run does not check: %s", why);
}

static void done(struct run *r)
{
	free(r->fns);   /* copies of the compiled-in descriptors, whose names are not the run's to free */
	r->fns = NULL, r->nfns = 0;
	run_free(r);
}

/* does a run of these calls meet? why is its first mismatch */
static bool meets(const struct call *c0, int n0, const struct call *c1, int n1, char *why, size_t whylen)
{
	struct run r;
	two_ranks(&r, c0, n0, c1, n1);
	why[0] = 0;
	bool ok = run_p2p_balanced(&r, why, whylen);
	done(&r);
	return ok;
}

static void matched_messages_meet(void **state)
{
	(void)state;
	char why[400];
	const struct call send[] = {{SEND, +1, 5, false}, {BARRIER, 0, 0, false}};
	const struct call recv[] = {{RECV, -1, 5, false}, {BARRIER, 0, 0, false}};
	assert_true(meets(send, 2, recv, 2, why, sizeof why));
	const struct call any_tag[] = {{RECV, -1, SV_ANY_TAG, false}, {BARRIER, 0, 0, false}};
	assert_true(meets(send, 2, any_tag, 2, why, sizeof why));
	const struct call any_source[] = {{RECV, 0, 5, true}, {BARRIER, 0, 0, false}};
	assert_true(meets(send, 2, any_source, 2, why, sizeof why));
}

static void unmatched_messages_are_named(void **state)
{
	(void)state;
	char why[400];
	const struct call send[] = {{SEND, +1, 5, false}};
	const struct call other_tag[] = {{RECV, -1, 6, false}};
	assert_false(meets(send, 1, other_tag, 1, why, sizeof why));
	assert_non_null(strstr(why, "rank 0 sends 0 messages with tag 6 to rank 1 over MPI_COMM_WORLD, which receives 1"));
	const struct call twice[] = {{SEND, +1, 5, false}, {SEND, +1, 5, false}};
	const struct call once[] = {{RECV, -1, 5, false}};
	assert_false(meets(twice, 2, once, 1, why, sizeof why));
	assert_non_null(strstr(why, "the ranks together send 2 messages to rank 1 over MPI_COMM_WORLD, which receives 1"));
	const struct call none[] = {{BARRIER, 0, 0, false}};
	assert_false(meets(send, 1, none, 1, why, sizeof why));
}

static void collectives_must_match(void **state)
{
	(void)state;
	char why[400];
	const struct call two[] = {{BARRIER, 0, 0, false}, {BARRIER, 0, 0, false}};
	const struct call one[] = {{BARRIER, 0, 0, false}};
	assert_false(meets(two, 2, one, 1, why, sizeof why));
	assert_non_null(strstr(why, "rank 1 makes 1 collective calls over MPI_COMM_WORLD, rank 0 2"));
	assert_true(meets(one, 1, one, 1, why, sizeof why));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matched_messages_meet),
		cmocka_unit_test(unmatched_messages_are_named),
		cmocka_unit_test(collectives_must_match),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
