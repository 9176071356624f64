/*
 * refold_ladder — which bases refold across the rungs of a ladder, and the rungs refolded
 * (run_refold). With the tracer's default options a call site keeps its data-dependent values in
 * signatures until it has shown more than stream_after variants: at small rank counts (a corner's
 * few neighbours) it never switches, at larger ones it streams, and the tracer refolds a rank's
 * literal calls at MPI_Finalize only where every rank that has the call site switched. The rungs
 * then differ in structure. Here a base refolds in every rung when
 *
 *   - some rung streams it (a signature of it with its values streamed makes calls), and
 *   - no rank that switched made most of its calls before the switch (the tracer's rule against a
 *     late switch: an MD code's first steps of atom exchanges stay literal, as the tracer keeps
 *     them); a rank switched when it made more than stream_after literal variants of the base
 *     (the run's options say its stream_after).
 *
 * Ranks that never switched follow the others (the tracer lets them veto: it decides on one rank
 * count, here the ladder decides). Runs whose requests were not named by base (older tracers)
 * are not refolded: their request slots would change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uthash.h>

#include "run/refold.h"
#include "run/run.h"
#include "util/xalloc.h"

struct verdict {
	uint64_t key;
	bool streams, veto;
	UT_hash_handle hh;
};

/* one base's calls in one group */
struct tally {
	uint64_t key;
	uint64_t literal, streamed, variants;
	UT_hash_handle hh;
};

static long stream_after_of(const struct run *r)
{
	const char *at = r->options ? strstr(r->options, "stream_after=") : NULL;
	return at ? strtol(at + strlen("stream_after="), NULL, 10) : 8;
}

static struct verdict *verdict_of(struct verdict **all, uint64_t key)
{
	struct verdict *v;
	HASH_FIND(hh, *all, &key, sizeof key, v);
	if (!v) {
		v = xcalloc(1, sizeof *v);
		v->key = key;
		HASH_ADD(hh, *all, key, sizeof v->key, v);
	}
	return v;
}

/* the bases of rung r: literal[t] and key[t] per signature */
static void rung_bases(const struct run *r, uint64_t *key, bool *literal)
{
	for (uint32_t t = 0; t < r->nsigs; t++) {
		const struct run_signature *s = &r->sigs[t];
		key[t] = refold_base_key(r, t);
		literal[t] = key[t] && refold_is_literal(&r->fns[s->fn], r->sigvals + s->voff, s->nvals);
	}
}

/* what the groups of rung r say of each base */
static void judge_rung(const struct run *r, struct verdict **all)
{
	uint64_t *key = xcalloc(r->nsigs + 1, sizeof *key), *calls = xcalloc(r->nsigs + 1, sizeof *calls);
	bool *literal = xcalloc(r->nsigs + 1, sizeof *literal);
	rung_bases(r, key, literal);
	long after = stream_after_of(r);
	for (uint32_t gi = 0; gi < r->ngroups; gi++) {
		struct tally *tallies = NULL, *x, *tmp;
		memset(calls, 0, r->nsigs * sizeof *calls);
		grammar_terminal_counts(&r->groups[gi].g, calls, r->nsigs);
		for (uint32_t t = 0; t < r->nsigs; t++) {
			if (!key[t] || !calls[t])
				continue;
			HASH_FIND(hh, tallies, &key[t], sizeof key[t], x);
			if (!x) {
				x = xcalloc(1, sizeof *x);
				x->key = key[t];
				HASH_ADD(hh, tallies, key, sizeof x->key, x);
			}
			*(literal[t] ? &x->literal : &x->streamed) += calls[t];
			x->variants += literal[t];
		}
		HASH_ITER(hh, tallies, x, tmp) {
			struct verdict *v = verdict_of(all, x->key);
			v->streams = v->streams || x->streamed;
			if ((long)x->variants > after && x->streamed <= x->literal)
				v->veto = true;
			HASH_DEL(tallies, x);
			free(x);
		}
	}
	free(key);
	free(calls);
	free(literal);
}

static bool base_refolds(struct verdict *all, uint64_t key)
{
	struct verdict *v;
	HASH_FIND(hh, all, &key, sizeof key, v);
	return v && v->streams && !v->veto;
}

bool refold_ladder(struct run *const *rungs, size_t n, uint32_t *nrefolded, char *text, size_t textlen)
{
	struct verdict *all = NULL, *v, *tmp;
	size_t used = 0;
	bool ok = true;
	*nrefolded = 0;
	text[0] = 0;
	for (size_t i = 0; i < n; i++)
		if (!run_req_pools_by_base(rungs[i]) || rungs[i]->synthetic)
			return true;
	for (size_t i = 0; i < n; i++)
		judge_rung(rungs[i], &all);
	for (size_t i = 0; i < n && ok; i++) {
		struct run *r = rungs[i];
		uint64_t *key = xcalloc(r->nsigs + 1, sizeof *key);
		bool *literal = xcalloc(r->nsigs + 1, sizeof *literal);
		rung_bases(r, key, literal);
		for (uint32_t t = 0; t < r->nsigs; t++)
			literal[t] = literal[t] && base_refolds(all, key[t]);
		uint32_t folded = run_refold(r, literal);
		free(key);
		free(literal);
		if (!folded)
			continue;
		*nrefolded += folded;
		char why[300];
		if (!run_check(r, why, sizeof why)) {
			snprintf(text, textlen, "p%u refolded is no valid run: %s", r->nranks, why);
			ok = false;
		} else if (used < textlen) {
			used += (size_t)snprintf(text + used, textlen - used, "%sp%u: %u", used ? ", " : "", r->nranks, folded);
		}
	}
	HASH_ITER(hh, all, v, tmp) {
		HASH_DEL(all, v);
		free(v);
	}
	return ok;
}
