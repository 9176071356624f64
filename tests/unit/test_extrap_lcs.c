/* Unit tests for extrap/lcs: grammars whose structure differs aligned by a longest common
 * subsequence weighted by the calls each symbol stands for, and pruned to what they share. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "extrap/lcs.h"
#include "extrap_fake.h"

/* a grammar from rule bodies: symbols >= 0 are signatures, -1 - r rule r; exps beside */
static void make(struct grammar *g, const int64_t *const *bodies, const uint64_t *const *exps, const int *lens,
		 int nrules)
{
	grammar_init(g);
	for (int r = 0; r < nrules; r++) {
		grammar_begin_rule(g);
		for (int i = 0; i < lens[r]; i++)
			grammar_add_symbol(g, bodies[r][i], exps[r][i]);
	}
	grammar_end(g);
}

/* calls: x (call site 1), y (2), z (3), w (4) */
static void calls(struct fake_run *f, uint32_t *s)
{
	fake_init(f, (struct grid){1, {4, 0, 0}, 0});
	for (int i = 0; i < 4; i++)
		s[i] = fake_sig(f, FAKE_SEND, (uint64_t)i + 1, 8, 1, 0);
}

static void an_extra_call_is_dropped(void **state)
{
	(void)state;
	struct fake_run a, b;
	uint32_t sa[4], sb[4];
	calls(&a, sa);
	calls(&b, sb);
	/* a: x (y z)^10 w          b: x w' (y z)^12 w, with w' the extra call */
	const int64_t a0[] = {sa[0], -2, sa[3]}, a1[] = {sa[1], sa[2]};
	const int64_t b0[] = {sb[0], sb[3], -2, sb[3]}, b1[] = {sb[1], sb[2]};
	const uint64_t ea0[] = {1, 10, 1}, e1[] = {1, 1}, eb0[] = {1, 1, 12, 1};
	const int64_t *ab[] = {a0, a1}, *bb[] = {b0, b1};
	const uint64_t *ae[] = {ea0, e1}, *be[] = {eb0, e1};
	int la[] = {3, 2}, lb[] = {4, 2};
	struct grammar ga, gb, out[2];
	make(&ga, ab, ae, la, 2);
	make(&gb, bb, be, lb, 2);
	struct lcs_input in[2] = {{&a.r, &ga}, {&b.r, &gb}};
	char why[200];
	assert_true(lcs_common(in, 2, 0, out, why, sizeof why));
	/* one shape: x R1 w, R1 -> y z; b's loop keeps its own count, its extra w' is gone */
	for (int i = 0; i < 2; i++) {
		assert_int_equal(out[i].nrules, 2);
		assert_int_equal(grammar_rule_len(&out[i], 0), 3);
		assert_int_equal(grammar_rule_len(&out[i], 1), 2);
	}
	assert_int_equal(grammar_expanded_length(&out[0]), 22);
	assert_int_equal(grammar_expanded_length(&out[1]), 26);
	assert_int_equal(grammar_rule_syms(&out[1], 0)[1].exp, 12);
	for (int i = 0; i < 2; i++)
		grammar_free(&out[i]);
	grammar_free(&ga);
	grammar_free(&gb);
}

static void a_loop_outweighs_single_calls(void **state)
{
	(void)state;
	struct fake_run a, b;
	uint32_t sa[4], sb[4];
	calls(&a, sa);
	calls(&b, sb);
	/* a: x (y z)^100      b: (y z)^100 x: the loop's 200 calls win over x */
	const int64_t a0[] = {sa[0], -2}, a1[] = {sa[1], sa[2]}, b0[] = {-2, sb[0]}, b1[] = {sb[1], sb[2]};
	const uint64_t ea0[] = {1, 100}, eb0[] = {100, 1}, e1[] = {1, 1};
	const int64_t *ab[] = {a0, a1}, *bb[] = {b0, b1};
	const uint64_t *ae[] = {ea0, e1}, *be[] = {eb0, e1};
	int l[] = {2, 2};
	struct grammar ga, gb, out[2];
	make(&ga, ab, ae, l, 2);
	make(&gb, bb, be, l, 2);
	struct lcs_input in[2] = {{&a.r, &ga}, {&b.r, &gb}};
	char why[200];
	assert_true(lcs_common(in, 2, 0, out, why, sizeof why));
	assert_int_equal(grammar_rule_len(&out[0], 0), 1);
	assert_true(gsym_is_rule(grammar_rule_syms(&out[0], 0)[0]));
	assert_int_equal(grammar_expanded_length(&out[1]), 200);
	for (int i = 0; i < 2; i++)
		grammar_free(&out[i]);
	/* nothing in common: refused */
	const int64_t c0[] = {sb[3]};
	const uint64_t ec[] = {1};
	const int64_t *cb[] = {c0};
	const uint64_t *ce[] = {ec};
	int lc[] = {1};
	struct grammar gc;
	make(&gc, cb, ce, lc, 1);
	const int64_t d0[] = {sa[0]};
	const int64_t *db[] = {d0};
	struct grammar gd;
	make(&gd, db, ce, lc, 1);
	struct lcs_input none[2] = {{&a.r, &gd}, {&b.r, &gc}};
	assert_false(lcs_common(none, 2, 0, out, why, sizeof why));
	assert_non_null(strstr(why, "no call in common"));
	grammar_free(&ga);
	grammar_free(&gb);
	grammar_free(&gc);
	grammar_free(&gd);
}

static void pairs_that_happened_to_repeat_do_not_split_the_calls(void **state)
{
	(void)state;
	struct fake_run a, b;
	uint32_t sa[4], sb[4];
	calls(&a, sa);
	calls(&b, sb);
	/* the same calls, x (y z w y z w)^5 x, where a's counts made the pair (y z) repeat inside the
	 * loop's body and b's did not: a: R0 -> x R1^5 x, R1 -> R2 w R2 w, R2 -> y z;
	 * b: R0 -> x R1^5 x, R1 -> y z w y z w. A rule met where the other has calls matched nothing. */
	const int64_t a0[] = {sa[0], -2, sa[0]}, a1[] = {-3, sa[3], -3, sa[3]}, a2[] = {sa[1], sa[2]};
	const int64_t b0[] = {sb[0], -2, sb[0]}, b1[] = {sb[1], sb[2], sb[3], sb[1], sb[2], sb[3]};
	const uint64_t e0[] = {1, 5, 1}, ones[] = {1, 1, 1, 1, 1, 1};
	const int64_t *ab[] = {a0, a1, a2}, *bb[] = {b0, b1};
	const uint64_t *ae[] = {e0, ones, ones}, *be[] = {e0, ones};
	int la[] = {3, 4, 2}, lb[] = {3, 6};
	struct grammar ga, gb, out[2];
	make(&ga, ab, ae, la, 3);
	make(&gb, bb, be, lb, 2);
	struct lcs_input in[2] = {{&a.r, &ga}, {&b.r, &gb}};
	char why[200];
	assert_true(lcs_common(in, 2, 0, out, why, sizeof why));
	for (int i = 0; i < 2; i++) {
		assert_int_equal(grammar_expanded_length(&out[i]), 32);   /* every call kept */
		assert_int_equal(out[i].nrules, 2);                      /* the loop stays a rule */
		assert_int_equal(grammar_rule_syms(&out[i], 0)[1].exp, 5);
		grammar_free(&out[i]);
	}
	/* a body that would outgrow LCS_INLINE_MAX keeps its rule */
	struct grammar big, flat;
	grammar_init(&big);
	grammar_begin_rule(&big);
	grammar_add_symbol(&big, -2, 1);
	grammar_add_symbol(&big, -2, 1);
	grammar_begin_rule(&big);
	for (int i = 0; i < 600; i++)
		grammar_add_symbol(&big, sa[i % 4], 1);
	grammar_end(&big);
	grammar_inline_once(&big, LCS_INLINE_MAX, &flat);
	assert_int_equal(grammar_rule_len(&flat, 0), 601);   /* the first use inlined, the second kept */
	assert_true(gsym_is_rule(grammar_rule_syms(&flat, 0)[600]));
	assert_int_equal(grammar_expanded_length(&flat), 1200);
	grammar_free(&flat);
	grammar_free(&big);
	grammar_free(&ga);
	grammar_free(&gb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(an_extra_call_is_dropped),
		cmocka_unit_test(a_loop_outweighs_single_calls),
		cmocka_unit_test(pairs_that_happened_to_repeat_do_not_split_the_calls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
