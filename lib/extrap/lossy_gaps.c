/*
 * lossy_gaps — a lossy class's gap histograms at the target, made by walking its reference rung's
 * call sequence.
 *
 * In exact mode every call of the reference rung is an occurrence the target makes, and a gap
 * (previous call, call) maps signature for signature. In lossy mode some are not: calls the rungs
 * do not share (left out of the alignment) and occurrences dropped at the target. Two things then
 * go wrong with a mapping by signature: one reference signature can be an occurrence kept in one
 * place and dropped in another, and the target goes from a kept call A straight to the next kept
 * call B where the reference computed in the gaps (A, D1), (D1, D2), ..., (Dn, B) around the
 * dropped calls D. A replay or proxy would find no gap (A, B) and compute nothing there (LAMMPS at
 * 64: 4,288 gaps missing, the dropped calls' compute lost).
 *
 * So the reference group's sequence is walked beside the class's aligned sequence at the
 * reference rung's repetition counts (the occurrences, a subsequence of it): each call is the next
 * occurrence when its signature is that occurrence's, else a call the alignment left out. A kept
 * call right after a kept call takes the reference histogram of its pair (once per pair of
 * pairs); a kept call after dropped ones gets one sample per time: the sum of the mean gaps along
 * the way, wall and CPU. The dropped calls' own durations are communication the synthetic run
 * does not make: they are not added.
 */
#include "extrap/lossy_gaps.h"

#include <stdlib.h>
#include <string.h>

#include "grammar/grammar.h"
#include "run/histogram.h"
#include "run/merge.h"
#include "util/xalloc.h"

/* the gap histogram (prev, sig) of a table sorted by run_gap_order, or NULL */
static const struct run_gap *gap_of(const struct run_gap *gaps, uint32_t n, uint32_t prev, uint32_t sig)
{
	struct run_gap key = {.prev = prev, .sig = sig};
	return bsearch(&key, gaps, n, sizeof *gaps, run_gap_order);
}

/* the synthetic group's gap (prev, sig), added (the table kept sorted) when it has none */
static struct run_gap *gap_at(struct run_group *g, uint32_t prev, uint32_t sig)
{
	struct run_gap *x = (struct run_gap *)gap_of(g->gaps, g->ngaps, prev, sig);
	if (x)
		return x;
	g->gaps = xrealloc(g->gaps, (g->ngaps + 1) * sizeof *g->gaps);
	g->gaps[g->ngaps++] = (struct run_gap){.prev = prev, .sig = sig};
	qsort(g->gaps, g->ngaps, sizeof *g->gaps, run_gap_order);
	return (struct run_gap *)gap_of(g->gaps, g->ngaps, prev, sig);
}

/* the class's aligned grammar with the reference rung's repetition counts */
static bool grammar_at_reference(const struct aligned_class *a, struct grammar *g)
{
	size_t ref = aligned_class_ref_index(a);
	if (ref == a->nrungs)
		return false;
	grammar_copy(g, &a->g);
	for (uint64_t i = 0; i < g->nsyms; i++) {
		int64_t v;
		char why[1024];
		if (!xval_eval(&a->reps[i], &a->grids[ref], a->cls, &v, why, sizeof why) || v < 1) {
			grammar_free(g);
			return false;
		}
		g->syms[i].exp = (uint64_t)v;
	}
	return true;
}

/* pairs of a reference gap and the synthetic gap it becomes, each folded once */
struct pair {
	uint32_t ref_prev, ref_sig, prev, sig;
};
struct pair_seen {
	struct pair *pairs;
	size_t n, cap;
};

static bool first_time(struct pair_seen *s, struct pair p)
{
	for (size_t i = 0; i < s->n; i++)
		if (!memcmp(&s->pairs[i], &p, sizeof p))
			return false;
	XGROW(s->pairs, s->cap, s->n + 1);
	s->pairs[s->n++] = p;
	return true;
}

struct walk_state {
	const struct run_gap *ref_gaps;   /* the reference group's, sorted */
	uint32_t nref;
	uint32_t prev_ref, kept;          /* the call before (reference), the last kept (synthetic) */
	double wall, cpu;                 /* mean gaps since the last kept call */
	bool dropped;                     /* a call left out since then */
	struct pair_seen seen;
	uint32_t maxbins;
};

static void step(struct walk_state *w, struct run_group *g, uint32_t t, uint32_t syn)
{
	const struct run_gap *x = gap_of(w->ref_gaps, w->nref, w->prev_ref, t);
	double gw = x && x->count ? x->sum / (double)x->count : 0, gc = x && x->count ? x->cpu.sum / (double)x->count : 0;
	if (syn == UINT32_MAX) {
		w->wall += gw, w->cpu += gc, w->dropped = true;
	} else {
		if (w->dropped)
			run_gap_add(gap_at(g, w->kept, syn), w->wall + gw, w->cpu + gc, w->maxbins);
		else if (x && first_time(&w->seen, (struct pair){w->prev_ref, t, w->kept, syn}))
			run_gap_fold(gap_at(g, w->kept, syn), x, w->maxbins);
		w->wall = w->cpu = 0, w->dropped = false, w->kept = syn;
	}
	w->prev_ref = t;
}

bool lossy_gaps_build(const struct aligned_class *a, const uint32_t *occ_sig, struct run_group *g, uint32_t maxbins)
{
	const struct run_group *rg = &a->ref->groups[a->ref_group];
	struct grammar aligned;
	if (!grammar_at_reference(a, &aligned))
		return false;
	struct walk_state w = {.nref = rg->ngaps, .prev_ref = RUN_NO_PREV, .kept = RUN_NO_PREV, .maxbins = maxbins};
	struct run_gap *sorted = xmalloc((rg->ngaps + 1) * sizeof *sorted);
	memcpy(sorted, rg->gaps, rg->ngaps * sizeof *sorted);
	qsort(sorted, rg->ngaps, sizeof *sorted, run_gap_order);
	w.ref_gaps = sorted;
	struct run_group made = {.gaps = NULL};   /* the gaps, kept apart until the walk matched */
	struct gwalk calls, occs;
	gwalk_init(&calls, &rg->g);
	gwalk_init(&occs, &aligned);
	uint32_t t, o;
	bool have = gwalk_next(&occs, &o);
	while (gwalk_next(&calls, &t)) {
		bool is_occ = have && o < a->nocc && a->occ[o].ref_sig == t;
		step(&w, &made, t, is_occ ? occ_sig[o] : UINT32_MAX);
		if (is_occ)
			have = gwalk_next(&occs, &o);
	}
	gwalk_free(&calls);
	gwalk_free(&occs);
	grammar_free(&aligned);
	free(sorted);
	free(w.seen.pairs);
	if (have) {   /* occurrences the reference sequence never reached: not a subsequence of it */
		for (uint32_t i = 0; i < made.ngaps; i++)
			free(made.gaps[i].bins);
		free(made.gaps);
		return false;
	}
	for (uint32_t i = 0; i < made.ngaps; i++)
		run_gap_fold(gap_at(g, made.gaps[i].prev, made.gaps[i].sig), &made.gaps[i], maxbins);
	for (uint32_t i = 0; i < made.ngaps; i++)
		free(made.gaps[i].bins);
	free(made.gaps);
	return true;
}
